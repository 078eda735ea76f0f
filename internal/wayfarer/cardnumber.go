package wayfarer

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CardBrand is a payment card brand as shown in masked numbers. Codes are the
// reference's two-letter ones:
//
//	VI Visa              4
//	CA Mastercard        51–55, 2221–2720
//	AX American Express  34, 37
//	DS Discover          6011, 644–649, 65
//	DC Diners Club       300–305, 36, 38, 39
//	JC JCB               3528–3589
//	UP UnionPay          62
//	MA Maestro           50, 56–58, 6304, 6759, 6761–6763
//	XX unknown           anything else
//
// Unknown is not an error: issuers add ranges faster than we update this
// table, and a Luhn-valid number is still a card number to protect.
type CardBrand struct {
	Code string
	Name string
}

var (
	BrandVisa       = CardBrand{"VI", "Visa"}
	BrandMastercard = CardBrand{"CA", "Mastercard"}
	BrandAmex       = CardBrand{"AX", "American Express"}
	BrandDiscover   = CardBrand{"DS", "Discover"}
	BrandDiners     = CardBrand{"DC", "Diners Club"}
	BrandJCB        = CardBrand{"JC", "JCB"}
	BrandUnionPay   = CardBrand{"UP", "UnionPay"}
	BrandMaestro    = CardBrand{"MA", "Maestro"}
	BrandUnknown    = CardBrand{"XX", "Unknown"}
)

// Validation errors. Messages never contain the number itself.
var (
	ErrCardNumberEmpty     = errors.New("card number is empty")
	ErrCardNumberNotDigits = errors.New("card number must contain only digits, spaces and dashes")
	ErrCardNumberLength    = errors.New("card number must be 12 to 19 digits")
	ErrCardNumberLuhn      = errors.New("card number fails the Luhn check")
)

// iinRanges are inclusive prefix ranges of the given width; longer prefixes
// come first so a more specific range wins should two ever overlap.
var iinRanges = []struct {
	width  int
	lo, hi int
	brand  CardBrand
}{
	{4, 2221, 2720, BrandMastercard},
	{4, 6011, 6011, BrandDiscover},
	{4, 3528, 3589, BrandJCB},
	{4, 6304, 6304, BrandMaestro},
	{4, 6759, 6759, BrandMaestro},
	{4, 6761, 6763, BrandMaestro},
	{3, 644, 649, BrandDiscover},
	{3, 300, 305, BrandDiners},
	{2, 51, 55, BrandMastercard},
	{2, 34, 34, BrandAmex},
	{2, 37, 37, BrandAmex},
	{2, 65, 65, BrandDiscover},
	{2, 36, 36, BrandDiners},
	{2, 38, 39, BrandDiners},
	{2, 62, 62, BrandUnionPay},
	{2, 50, 50, BrandMaestro},
	{2, 56, 58, BrandMaestro},
	{1, 4, 4, BrandVisa},
}

// NormalizeCardNumber removes spaces and dashes, the separators people type
// into card numbers.
func NormalizeCardNumber(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// DetectCardBrand returns the brand for a digit string by its IIN prefix, or
// BrandUnknown.
func DetectCardBrand(digits string) CardBrand {
	for _, r := range iinRanges {
		if len(digits) < r.width {
			continue
		}
		p, ok := atoiDigits(digits[:r.width])
		if ok && p >= r.lo && p <= r.hi {
			return r.brand
		}
	}
	return BrandUnknown
}

// ValidateCreditCardNumber normalizes s and checks it is a plausible
// credit/debit card number. It returns the bare digits and the brand.
func ValidateCreditCardNumber(s string) (digits string, brand CardBrand, err error) {
	d := NormalizeCardNumber(s)
	if d == "" {
		return "", CardBrand{}, ErrCardNumberEmpty
	}
	if !allDigits(d) {
		return "", CardBrand{}, ErrCardNumberNotDigits
	}
	if len(d) < 12 || len(d) > 19 {
		return "", CardBrand{}, ErrCardNumberLength
	}
	if !luhnValid(d) {
		return "", CardBrand{}, ErrCardNumberLuhn
	}
	return d, DetectCardBrand(d), nil
}

// MaskCardNumber returns the reference's masked form, "VI 41-XXXX-1111".
// Input that is not 12+ digits (after normalizing) is masked completely:
// showing six digits of a short value would reveal most of it.
func MaskCardNumber(digits string, brand CardBrand) string {
	code := brand.Code
	if code == "" {
		code = BrandUnknown.Code
	}
	d := NormalizeCardNumber(digits)
	if len(d) < 12 || !allDigits(d) {
		return code + " XX-XXXX-XXXX"
	}
	return code + " " + d[:2] + "-XXXX-" + d[len(d)-4:]
}

// ContainsCardNumber reports whether free text holds something that looks
// like a card number. The rule:
//
//   - A digit is any Unicode decimal digit (category Nd: ASCII, full-width
//     U+FF10–U+FF19, Arabic-Indic, Devanagari, ...), read as its value. A
//     separator is any Unicode space separator (category Zs: the ASCII space,
//     no-break space U+00A0, thin space U+2009, ideographic space U+3000,
//     ...) or dash (category Pd: the ASCII hyphen-minus, en dash U+2013,
//     em dash U+2014, full-width hyphen-minus U+FF0D, ...) or the minus
//     sign U+2212. Invisible format characters (category Cf: zero-width
//     space U+200B, soft hyphen U+00AD, word joiner U+2060, ...) are
//     skipped as if absent, so they neither separate nor end a run. Tab,
//     newline, '.', '/' and every other character are neither.
//   - A run is a maximal sequence of digits in which consecutive digits may
//     be separated by a single separator. The run's separators split it
//     into groups: "4111 1111 1111 1111" is one run of 4 groups,
//     "4111111111111111" one run of 1 group. Two separators in a row, or any
//     other character (or invalid UTF-8), end the run.
//   - The text contains a card number when, in some run, a contiguous
//     sequence of whole groups (starting and ending at group boundaries) has
//     13 to 19 digits in total, passes Luhn, and starts with a known card
//     brand prefix (DetectCardBrand != BrandUnknown: Visa, Mastercard, Amex,
//     Discover, Diners, JCB, UnionPay or Maestro).
//
// Digits glued to other digits without a separator are one group and are
// only checked as a whole: "94111111111111111" is a 17-digit number with no
// brand prefix, so it is not flagged, while "ref 12 4111 1111 1111 1111" is
// (the groups "4111".."1111" qualify). Requiring whole groups and a brand
// prefix keeps ticket numbers, phone numbers, dates and long references from
// being flagged merely because some window of their digits passes Luhn.
// 12-digit numbers are never flagged: too many ordinary numbers have 12.
// Reading every decimal digit and every space and dash keeps a card number
// typed in full-width digits or grouped by no-break spaces or en dashes from
// slipping past a check that only knew ASCII.
//
// It runs in O(len(text)) without allocating.
func ContainsCardNumber(text string) bool { return containsCardNumber(text, cardScanMin) }

// ContainsCardNumberInPhone is the rule for phone numbers: E.164 numbers
// have at most 15 digits, and 13-15 digit mobile numbers (+49 151 ...)
// often pass Luhn with a brand-like prefix. So only 16-19 digit runs count.
func ContainsCardNumberInPhone(text string) bool { return containsCardNumber(text, phoneDigitsMax+1) }

const phoneDigitsMax = 15

func containsCardNumber(text string, minDigits int) bool {
	const maxLen = cardScanMax
	// Each digit is written twice, at p and p+maxLen, so the latest maxLen
	// digits always sit contiguously in buf[p+1 : p+maxLen+1]. A digit that
	// begins a group carries groupStart on top of its value.
	var buf [2 * maxLen]byte
	n := 0       // digits in the current run
	sep := false // previous character was a separator inside a run
	for i := 0; i < len(text); i++ {
		c := text[i]
		d := c - '0'
		if d > 9 {
			// Not an ASCII digit: a separator, another character, or
			// (from U+0080 on) a rune to classify.
			k := kindOther
			if c == ' ' || c == '-' {
				k = kindSep
			} else if c >= utf8.RuneSelf {
				r, size := utf8.DecodeRuneInString(text[i:])
				i += size - 1
				d, k = classifyRune(r)
				if k == kindInvisible {
					continue
				}
			}
			if k != kindDigit {
				// A group ends here; check the sequences of groups ending with it.
				if n >= minDigits && !sep && groupsHoldCard(&buf, n, minDigits) {
					return true
				}
				if k == kindSep && n > 0 && !sep {
					sep = true
				} else {
					n, sep = 0, false
				}
				continue
			}
		}
		if n == 0 || sep {
			d |= groupStart
		}
		p := n % maxLen
		buf[p], buf[p+maxLen] = d, d
		n++
		sep = false
	}
	return n >= minDigits && !sep && groupsHoldCard(&buf, n, minDigits)
}

// runeKind is what the card scan makes of a character.
type runeKind uint8

const (
	kindOther     runeKind = iota
	kindDigit              // a Unicode decimal digit (Nd)
	kindSep                // a Unicode space separator (Zs) or dash (Pd), or the minus sign
	kindInvisible          // a format character (Cf: zero-width space, soft hyphen, ...): skipped
)

// runeClass is a range of non-ASCII runes of one kind. Decimal digits come
// in contiguous runs of ten from 0 to 9 (a Unicode stability guarantee), so
// a digit's value is its distance from lo modulo 10 (see
// TestRuneClassesDigitRuns).
type runeClass struct {
	lo, hi rune
	kind   runeKind
}

// runeClasses lists the non-ASCII Nd, Zs, Pd and Cf ranges of the unicode
// package and the minus sign, sorted, for classifyRune's binary search. Built once.
var runeClasses = buildRuneClasses()

func buildRuneClasses() []runeClass {
	var out []runeClass
	add := func(t *unicode.RangeTable, k runeKind) {
		put := func(lo, hi, stride rune) {
			if stride == 1 || k == kindDigit {
				// Digits must stay whole ranges for the value rule;
				// the unicode package keeps them at stride 1.
				if hi >= utf8.RuneSelf {
					out = append(out, runeClass{max(lo, utf8.RuneSelf), hi, k})
				}
				return
			}
			for r := lo; r <= hi; r += stride {
				if r >= utf8.RuneSelf {
					out = append(out, runeClass{r, r, k})
				}
			}
		}
		for _, r := range t.R16 {
			put(rune(r.Lo), rune(r.Hi), rune(r.Stride))
		}
		for _, r := range t.R32 {
			put(rune(r.Lo), rune(r.Hi), rune(r.Stride))
		}
	}
	add(unicode.Nd, kindDigit)
	add(unicode.Zs, kindSep)
	add(unicode.Pd, kindSep)
	add(unicode.Cf, kindInvisible)
	out = append(out, runeClass{'\u2212', '\u2212', kindSep}) // MINUS SIGN (Sm), looks like a dash
	slices.SortFunc(out, func(a, b runeClass) int { return cmp.Compare(a.lo, b.lo) })
	return out
}

// runeNotable has a bit set for every BMP rune that runeClasses lists, so
// that classifyRune answers most non-ASCII text (letters, CJK) without a
// search. 8 KiB, built once.
var runeNotable = func() *[0x10000 / 64]uint64 {
	var bits [0x10000 / 64]uint64
	for _, c := range runeClasses {
		for r := c.lo; r <= c.hi && r < 0x10000; r++ {
			bits[r/64] |= 1 << (r % 64)
		}
	}
	return &bits
}()

// classifyRune returns the kind of a non-ASCII rune, and for a digit its
// value. It allocates nothing.
func classifyRune(r rune) (byte, runeKind) {
	if r < 0x10000 && runeNotable[r/64]&(1<<(r%64)) == 0 {
		return 0, kindOther
	}
	cs := runeClasses
	lo, hi := 0, len(cs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch c := &cs[m]; {
		case r < c.lo:
			hi = m
		case r > c.hi:
			lo = m + 1
		default:
			if c.kind == kindDigit {
				return byte((r - c.lo) % 10), kindDigit
			}
			return 0, c.kind
		}
	}
	return 0, kindOther
}

const (
	cardScanMin, cardScanMax = 13, 19
	groupStart               = 0x10 // flag on a digit in ContainsCardNumber's buffer
)

// groupsHoldCard checks, for a run of n digits that has just ended a group,
// every suffix of its latest digits that starts at a group boundary and is
// minDigits..cardScanMax long: Luhn, then brand prefix. The last digit is
// the check digit, so doubling starts one to its left.
func groupsHoldCard(buf *[2 * cardScanMax]byte, n, minDigits int) bool {
	last := (n-1)%cardScanMax + cardScanMax // index of the latest digit
	m := min(n, cardScanMax)
	sum := 0
	for k := 0; k < m; k++ {
		j := last - k
		d := buf[j] &^ groupStart
		if k%2 == 1 {
			d = luhnDoubled[d]
		}
		sum += int(d)
		if k+1 >= minDigits && buf[j]&groupStart != 0 && sum%10 == 0 {
			p4 := int(d0(buf[j]))*1000 + int(d0(buf[j+1]))*100 + int(d0(buf[j+2]))*10 + int(d0(buf[j+3]))
			if knownIIN(p4) {
				return true
			}
		}
	}
	return false
}

// d0 strips the groupStart flag from a buffered digit.
func d0(b byte) byte { return b &^ groupStart }

// knownIIN reports whether a number whose first four digits are p4 has a
// known brand prefix; it agrees with DetectCardBrand for 4+ digit input.
func knownIIN(p4 int) bool {
	for _, r := range iinRanges {
		p := p4
		for w := r.width; w < 4; w++ {
			p /= 10
		}
		if p >= r.lo && p <= r.hi {
			return true
		}
	}
	return false
}

var luhnDoubled = [10]byte{0, 2, 4, 6, 8, 1, 3, 5, 7, 9}

func luhnValid(digits string) bool {
	sum := 0
	double := false
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i] - '0')
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func atoiDigits(s string) (int, bool) {
	v := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		v = v*10 + int(s[i]-'0')
	}
	return v, true
}
