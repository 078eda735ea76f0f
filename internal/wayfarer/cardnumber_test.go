package wayfarer

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

func TestNormalizeCardNumber(t *testing.T) {
	tests := []struct{ in, want string }{
		{"4111 1111 1111 1111", "4111111111111111"},
		{"4111-1111-1111-1111", "4111111111111111"},
		{" 4111 - 1111\t1111 1111 ", "4111111111111111"},
		{"", ""},
		{"41a1", "41a1"},
	}
	for _, tt := range tests {
		if got := NormalizeCardNumber(tt.in); got != tt.want {
			t.Errorf("NormalizeCardNumber(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestValidateCreditCardNumberBrands(t *testing.T) {
	tests := []struct {
		in    string
		brand CardBrand
	}{
		{"4111111111111111", BrandVisa},
		{"4012888888881881", BrandVisa},
		{"4111 1111 1111 1111", BrandVisa},
		{"5555555555554444", BrandMastercard},
		{"5555-5555-5555-4444", BrandMastercard},
		{"2223003122003222", BrandMastercard},
		{"378282246310005", BrandAmex},
		{"6011111111111117", BrandDiscover},
		{"30569309025904", BrandDiners},
		{"3530111333300000", BrandJCB},
		{"6200000000000005", BrandUnionPay},
		{"6759649826438453", BrandMaestro},
		{"411111111117", BrandVisa},           // 12 digits, shortest allowed
		{"4444444444444444442", BrandVisa},    // 19 digits, longest allowed
		{"9999999999999995", BrandUnknown},    // Luhn-valid, no known range
		{"1234567812345670", BrandUnknown},    // Luhn-valid, no known range
		{"7000000000000005", BrandUnknown},    // Luhn-valid, no known range
		{"2720990000000007", BrandMastercard}, // top of 2-series
	}
	for _, tt := range tests {
		digits, brand, err := ValidateCreditCardNumber(tt.in)
		if err != nil {
			t.Errorf("ValidateCreditCardNumber(%q): %v", tt.in, err)
			continue
		}
		if want := NormalizeCardNumber(tt.in); digits != want {
			t.Errorf("ValidateCreditCardNumber(%q) digits = %q, want %q", tt.in, digits, want)
		}
		if brand != tt.brand {
			t.Errorf("ValidateCreditCardNumber(%q) brand = %v, want %v", tt.in, brand, tt.brand)
		}
	}
}

func TestDetectCardBrandRanges(t *testing.T) {
	tests := []struct {
		prefix string
		want   CardBrand
	}{
		{"4", BrandVisa},
		{"51", BrandMastercard}, {"55", BrandMastercard},
		{"2221", BrandMastercard}, {"2720", BrandMastercard},
		{"2220", BrandUnknown}, {"2721", BrandUnknown},
		{"34", BrandAmex}, {"37", BrandAmex}, {"35", BrandUnknown},
		{"6011", BrandDiscover}, {"644", BrandDiscover}, {"649", BrandDiscover}, {"65", BrandDiscover},
		{"6012", BrandUnknown}, {"643", BrandUnknown},
		{"300", BrandDiners}, {"305", BrandDiners}, {"306", BrandUnknown},
		{"36", BrandDiners}, {"38", BrandDiners}, {"39", BrandDiners},
		{"3528", BrandJCB}, {"3589", BrandJCB}, {"3527", BrandUnknown}, {"3590", BrandUnknown},
		{"62", BrandUnionPay},
		{"50", BrandMaestro}, {"56", BrandMaestro}, {"58", BrandMaestro},
		{"6304", BrandMaestro}, {"6759", BrandMaestro}, {"6761", BrandMaestro}, {"6763", BrandMaestro},
		{"6760", BrandUnknown}, {"6764", BrandUnknown}, {"59", BrandUnknown},
		{"1", BrandUnknown}, {"", BrandUnknown},
	}
	for _, tt := range tests {
		// Pad to a full-length number; detection only looks at the prefix.
		n := tt.prefix + strings.Repeat("0", 16-len(tt.prefix))
		if got := DetectCardBrand(n); got != tt.want {
			t.Errorf("DetectCardBrand(%s...) = %v, want %v", tt.prefix, got, tt.want)
		}
	}
}

func TestValidateCreditCardNumberErrors(t *testing.T) {
	tests := []struct {
		in   string
		want error
	}{
		{"", ErrCardNumberEmpty},
		{" - ", ErrCardNumberEmpty},
		{"4111111111111112", ErrCardNumberLuhn},
		{"5555555555554445", ErrCardNumberLuhn},
		{"378282246310006", ErrCardNumberLuhn},
		{"44444444440", ErrCardNumberLength},          // 11 digits, Luhn-valid
		{"44444444444444444444", ErrCardNumberLength}, // 20 digits, Luhn-valid
		{"4111 1111 1111 111a", ErrCardNumberNotDigits},
		{"VI 41-XXXX-1111", ErrCardNumberNotDigits},
		{"4111.1111.1111.1111", ErrCardNumberNotDigits},
		{"４１１１１１１１１１１１１１１１", ErrCardNumberNotDigits}, // full-width digits
	}
	for _, tt := range tests {
		digits, _, err := ValidateCreditCardNumber(tt.in)
		if !errors.Is(err, tt.want) {
			t.Errorf("ValidateCreditCardNumber(%q) err = %v, want %v", tt.in, err, tt.want)
		}
		if digits != "" {
			t.Errorf("ValidateCreditCardNumber(%q) digits = %q on error", tt.in, digits)
		}
		if err != nil && strings.ContainsAny(err.Error(), "0123456789") && err != ErrCardNumberLength {
			t.Errorf("error message %q contains digits", err)
		}
		if d := NormalizeCardNumber(tt.in); err != nil && d != "" && strings.Contains(err.Error(), d) {
			t.Errorf("error message %q echoes the number", err)
		}
	}
}

func TestMaskCardNumber(t *testing.T) {
	tests := []struct {
		digits string
		brand  CardBrand
		want   string
	}{
		{"4111111111111111", BrandVisa, "VI 41-XXXX-1111"},
		{"5555555555554444", BrandMastercard, "CA 55-XXXX-4444"},
		{"378282246310005", BrandAmex, "AX 37-XXXX-0005"},
		{"30569309025904", BrandDiners, "DC 30-XXXX-5904"},
		{"9999999999999995", BrandUnknown, "XX 99-XXXX-9995"},
		{"4111111111111111", CardBrand{}, "XX 41-XXXX-1111"},
		{"4111 1111 1111 1111", BrandVisa, "VI 41-XXXX-1111"},
		{"41111", BrandVisa, "VI XX-XXXX-XXXX"},
		{"", BrandVisa, "VI XX-XXXX-XXXX"},
		{"41111111111a1111", BrandVisa, "VI XX-XXXX-XXXX"},
	}
	for _, tt := range tests {
		got := MaskCardNumber(tt.digits, tt.brand)
		if got != tt.want {
			t.Errorf("MaskCardNumber(%q, %v) = %q, want %q", tt.digits, tt.brand.Code, got, tt.want)
		}
		if !contract.IsMaskedCardNumber(got) {
			t.Errorf("contract.IsMaskedCardNumber(%q) = false for MaskCardNumber output", got)
		}
	}
}

func TestMaskValidatedNumbersRoundTrip(t *testing.T) {
	for _, n := range []string{"4111111111111111", "2223003122003222", "6759649826438453", "6200000000000005"} {
		d, b, err := ValidateCreditCardNumber(n)
		if err != nil {
			t.Fatal(err)
		}
		m := MaskCardNumber(d, b)
		if !contract.IsMaskedCardNumber(m) || ContainsCardNumber(m) {
			t.Errorf("mask %q: masked=%v contains=%v", m, contract.IsMaskedCardNumber(m), ContainsCardNumber(m))
		}
		if _, _, err := ValidateCreditCardNumber(m); err == nil {
			t.Errorf("masked %q validates as a card number", m)
		}
	}
}

func TestContainsCardNumber(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		// Positives.
		{"4111111111111111", true},
		{"4111 1111 1111 1111", true},
		{"4111-1111-1111-1111", true},
		{"call 4111 1111 1111 1111 now", true},
		{"ref 12 4111 1111 1111 1111 end", true}, // groups after "12" qualify
		{"paid with 378282246310005.", true},     // Amex, 15 digits
		{"pay with4111111111111111.", true},
		{"amex 3782 822463 10005 exp 12/27", true},
		{"diners 30569309025904", true},             // 14 digits
		{"4444444444444444442", true},               // 19 digits
		{"ref 99 4111111111111111", true},           // preceded by another group
		{"4111111111111111 2026", true},             // followed by another group
		{"4111111111111111-", true},                 // trailing separator
		{"x4-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1y", true}, // one-digit groups
		{"first 1234, card 6011 1111 1111 1117", true},
		{"5555 5555 5555 4444 99", true},
		{"6200000000000005", true}, // UnionPay
		{"6759649826438453", true}, // Maestro
		{"2223003122003222", true}, // Mastercard 2-series
		{strings.Repeat("a", 1000) + "5555555555554444", true},
		// A glued 20-digit run, then a separate group that qualifies.
		{"12345678901234567890 4111111111111111", true},
		{"0000 0000 0000 0000 0000 4111 1111 1111 1111", true},
		// Negatives.
		{"", false},
		{"no numbers here", false},
		{"+1 555 123 4567", false},
		{"call +44 20 7946 0958 after 6pm", false},
		{"2026-11-21", false},
		{"departure 2026-11-21, return 2026-11-28", false},
		{"2026-11-21 - 2026-11-28", false},
		{"411111111117", false},     // 12-digit Luhn-valid Visa: below the rule
		{"4111111111111112", false}, // Luhn failure
		{"4111111111111113", false},
		// Luhn-valid 13-digit ticket numbers with no brand prefix.
		{"0011234567896", false},
		{"e-ticket 1252345678904", false},
		{"8001234567899", false},
		{"9571234567890", false},
		{"9999999999999995", false}, // Luhn-valid 16 digits, unknown brand
		// Glued runs are checked only as a whole.
		{"04111111111111111", false},      // 17 digits, Luhn-valid, prefix 0
		{"00004111111111111111", false},   // 20 digits, Luhn-valid
		{"44444444444444444444", false},   // 20 digits, Luhn-valid, Visa prefix
		{"0004111111111111111000", false}, // 22 digits
		{"12345678901234567890", false},
		{"4111 11111111111111", false},    // only the whole 18 digits, which fail Luhn
		{"4111  1111  1111  1111", false}, // double separators break the run
		{"4111 - 1111 - 1111 - 1111", false},
		{"4111.1111.1111.1111", false},
		{"VI 41-XXXX-1111", false},
		{"4111 XXXX XXXX 1111", false},
		{"booking 123456 for 2 adults", false},
	}
	for _, tt := range tests {
		if got := ContainsCardNumber(tt.in); got != tt.want {
			t.Errorf("ContainsCardNumber(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestContainsCardNumberFixtures guards the test data: the non-brand tickets
// must really be Luhn-valid, or their negatives would prove nothing.
func TestContainsCardNumberFixtures(t *testing.T) {
	for _, n := range []string{"0011234567896", "1252345678904", "8001234567899", "9571234567890",
		"9999999999999995", "04111111111111111", "00004111111111111111", "44444444444444444444", "411111111117"} {
		if !luhnValid(n) {
			t.Errorf("fixture %s is not Luhn-valid", n)
		}
	}
	for _, n := range []string{"0011234567896", "1252345678904", "8001234567899", "9571234567890", "04111111111111111"} {
		if b := DetectCardBrand(n); b != BrandUnknown {
			t.Errorf("fixture %s has brand %v, want unknown", n, b)
		}
	}
}

// containsCardNumberNaive is the rule written out plainly, to cross-check the
// streaming implementation: split text into runs, runs into groups, and try
// every contiguous sequence of whole groups. Characters are classified with
// the unicode package directly, not with runeClasses.
func containsCardNumberNaive(text string) bool {
	var runs [][]string
	var groups []string
	var cur []byte
	sep := false
	endGroup := func() {
		if len(cur) > 0 {
			groups = append(groups, string(cur))
		}
		cur = nil
	}
	flush := func() {
		endGroup()
		runs = append(runs, groups)
		groups, sep = nil, false
	}
	for _, r := range text { // invalid UTF-8 reads as U+FFFD: neither digit nor separator
		switch {
		case r >= utf8.RuneSelf && unicode.Is(unicode.Cf, r):
			// invisible: as if absent
		case unicode.Is(unicode.Nd, r):
			cur, sep = append(cur, byte('0'+naiveDigitValue(r))), false
		case (unicode.Is(unicode.Zs, r) || unicode.Is(unicode.Pd, r) || r == '\u2212') && len(cur) > 0 && !sep:
			endGroup()
			sep = true
		default:
			flush()
		}
	}
	flush()
	for _, gs := range runs {
		for i := range gs {
			s := ""
			for j := i; j < len(gs); j++ {
				s += gs[j]
				if len(s) >= 13 && len(s) <= 19 && luhnValid(s) && DetectCardBrand(s) != BrandUnknown {
					return true
				}
			}
		}
	}
	return false
}

// naiveDigitValue finds r's range in unicode.Nd by a linear walk.
func naiveDigitValue(r rune) int {
	for _, x := range unicode.Nd.R16 {
		if r >= rune(x.Lo) && r <= rune(x.Hi) {
			return int(r-rune(x.Lo)) % 10
		}
	}
	for _, x := range unicode.Nd.R32 {
		if r >= rune(x.Lo) && r <= rune(x.Hi) {
			return int(r-rune(x.Lo)) % 10
		}
	}
	panic(fmt.Sprintf("%U is not a decimal digit", r))
}

func TestContainsCardNumberMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := "0123456789012345678901234567890123456789  --a."
	cards := []string{"4111111111111111", "378282246310005", "30569309025904", "5555555555554444",
		"6011111111111117", "3530111333300000", "6200000000000005", "4444444444444444442"}
	randomText := func(n int) []byte {
		b := make([]byte, n)
		for j := range b {
			b[j] = alphabet[rng.IntN(len(alphabet))]
		}
		return b
	}
	flagged := 0
	for i := 0; i < 40000; i++ {
		b := randomText(rng.IntN(40))
		if i%2 == 1 {
			// Embed a real card number, split by random separators and
			// sometimes with one digit changed, so that positives and
			// near misses are common rather than rare.
			card := []byte(cards[rng.IntN(len(cards))])
			if rng.IntN(3) == 0 {
				card[rng.IntN(len(card))] = byte('0' + rng.IntN(10))
			}
			var mid []byte
			for j, c := range card {
				if j > 0 && rng.IntN(4) == 0 {
					mid = append(mid, " -"[rng.IntN(2)])
				}
				mid = append(mid, c)
			}
			at := rng.IntN(len(b) + 1)
			b = append(append(append([]byte{}, b[:at]...), mid...), b[at:]...)
		}
		if agreesWithNaive(t, string(b)) {
			flagged++
		}
	}
	if flagged < 1000 || flagged > 39000 {
		t.Errorf("only %d of 40000 inputs flagged: the cross-check is lopsided", flagged)
	}
}

// agreesWithNaive fails the test unless the scan and the plainly spelled
// rule agree on s, and returns their verdict.
func agreesWithNaive(t *testing.T, s string) bool {
	t.Helper()
	got, want := ContainsCardNumber(s), containsCardNumberNaive(s)
	if got != want {
		t.Fatalf("ContainsCardNumber(%q) = %v, naive = %v", s, got, want)
	}
	return got
}

func BenchmarkContainsCardNumber(b *testing.B) {
	// Worst case for the scan: one long digit run with no Luhn-valid window
	// would be ideal, but such runs are rare, so mix text and digit groups.
	var sb strings.Builder
	for sb.Len() < 1024 {
		sb.WriteString("Flight 1234 5678 on 2026-11-21, seat 12A. ")
	}
	text := sb.String()[:1024]
	if ContainsCardNumber(text) {
		b.Fatal("benchmark text unexpectedly contains a card number")
	}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		ContainsCardNumber(text)
	}
}

func BenchmarkContainsCardNumberDigits(b *testing.B) {
	// All digits: every position checks the full 13..19 window set.
	text := strings.Repeat("1", 1024)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		ContainsCardNumber(text)
	}
}

func TestContainsCardNumberInPhone(t *testing.T) {
	// A 13-digit German mobile number with a Visa-like prefix and a valid
	// Luhn sum: a card to the text rule, a phone number to the phone rule.
	const mobile = "+49 151 1234 5678"
	if !ContainsCardNumber("4915112345678") {
		t.Fatal("the example must trip the general rule, or it shows nothing")
	}
	for _, n := range []string{mobile, "+4915112345678"} {
		if ContainsCardNumberInPhone(n) {
			t.Errorf("phone %q flagged", n)
		}
	}
	for _, n := range []string{"4111 1111 1111 1111", "+4111111111111111"} {
		if !ContainsCardNumberInPhone(n) {
			t.Errorf("card %q in a phone field not flagged", n)
		}
	}
	if ContainsCardNumberInPhone("378282246310005") {
		t.Error("a 15-digit number fits E.164 and must pass as a phone")
	}
}

// fw writes ASCII digits and the hyphen-minus in their full-width forms
// (U+FF10–U+FF19, U+FF0D), leaving everything else as it is.
func fw(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= '0' && r <= '9':
			return 0xFF10 + r - '0'
		case r == '-':
			return 0xFF0D
		}
		return r
	}, s)
}

// inScript writes ASCII digits as the digits of the script whose zero is zero.
func inScript(s string, zero rune) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return zero + r - '0'
		}
		return r
	}, s)
}

func TestContainsCardNumberUnicode(t *testing.T) {
	const (
		nbsp       = "\u00a0"
		narrowNBSP = "\u202f"
		thin       = "\u2009"
		ideoSpace  = "\u3000"
		enDash     = "\u2013"
		emDash     = "\u2014"
		hyphen     = "\u2010"
		nbHyphen   = "\u2011"
	)
	tests := []struct {
		in   string
		want bool
	}{
		// Full-width and other decimal digits.
		{fw("4111111111111111"), true},
		{fw("5555555555554444"), true},
		{fw("4111 1111 1111 1111"), true},
		{fw("4111-1111-1111-1111"), true}, // full-width hyphen-minus U+FF0D
		{fw("5555") + ideoSpace + fw("5555") + ideoSpace + fw("5555") + ideoSpace + fw("4444"), true},
		{"Karte\uff1a" + fw("4111111111111111") + " gültig bis 12/29", true},
		{"4111 " + fw("1111") + " 1111 " + fw("1111"), true}, // mixed widths
		{inScript("4111111111111111", 0x0660), true},         // Arabic-Indic
		{inScript("5555 5555 5555 4444", 0x06F0), true},      // Extended Arabic-Indic
		{inScript("4111-1111-1111-1111", 0x0966), true},      // Devanagari
		{inScript("378282246310005", 0x1D7CE), true},         // mathematical bold (4-byte UTF-8)
		// Unicode space separators.
		{"4111" + nbsp + "1111" + nbsp + "1111" + nbsp + "1111", true},
		{"5555" + thin + "5555" + thin + "5555" + thin + "4444", true},
		{"4111" + narrowNBSP + "1111" + narrowNBSP + "1111" + narrowNBSP + "1111", true},
		{"paid 3782" + nbsp + "822463" + nbsp + "10005.", true}, // Amex grouping
		{"ref 12" + nbsp + "4111" + nbsp + "1111" + nbsp + "1111" + nbsp + "1111 end", true},
		// Unicode dashes.
		{"5555" + enDash + "5555" + enDash + "5555" + enDash + "4444", true},
		{"4111" + emDash + "1111" + emDash + "1111" + emDash + "1111", true},
		{"4111" + hyphen + "1111" + nbHyphen + "1111" + enDash + "1111", true},
		{fw("4111") + enDash + "1111" + nbsp + fw("1111") + thin + "1111", true},
		{"5555\u22125555\u22125555\u22124444", true}, // minus sign U+2212
		// Invisible format characters are skipped, wherever they sit.
		{"4\u200b1\u200b1\u200b1\u200b1\u200b1\u200b1\u200b1\u200b1\u200b1\u200b1\u200b1\u200b1\u200b1\u200b1\u200b1", true},
		{"4111\u00ad1111\u00ad1111\u00ad1111", true}, // soft hyphens
		{"4111\u20601111\ufeff1111\u200c1111", true}, // word joiner, BOM, zero-width non-joiner
		{"4111 \u200b1111 1111 1111", true},          // beside a separator
		{"+1\u200b555\u200b123\u200b4567", false},
		// Ordinary text with Unicode digits, spaces and dashes still passes.
		{fw("4111111111111112"), false},  // Luhn failure
		{fw("411111111117"), false},      // 12 digits
		{fw("04111111111111111"), false}, // glued 17 digits, prefix 0
		{fw("1252345678904"), false},     // Luhn-valid 13-digit ticket, no brand
		{"e-ticket" + nbsp + "125" + nbsp + "2345678904", false},
		{"+1" + nbsp + "555" + nbsp + "123" + nbsp + "4567", false},
		{"call +44" + nbsp + "20" + nbsp + "7946" + nbsp + "0958 after 6pm", false},
		{fw("+44 20 7946 0958"), false},
		{"2026" + enDash + "11" + enDash + "21", false},
		{fw("2026-11-21"), false},
		{"21.11.2026" + nbsp + enDash + nbsp + "28.11.2026", false},
		{"departure 2026-11-21" + thin + enDash + thin + "2026-11-28", false},
		{"Flug LH" + nbsp + "400 am 21." + nbsp + "November, Sitz 12A", false},
		{"PNR " + fw("ABC123") + ", Buchung Nr. " + fw("778899"), false},
		{"booking " + inScript("123456", 0x0660) + " for 2 adults", false},
		{"Zimmer 12" + enDash + "14, 2" + nbsp + "Erwachsene", false},
		// The run rules are the ASCII ones: two separators in a row end a run,
		// and tab is not a separator.
		{"4111" + nbsp + nbsp + "1111" + nbsp + nbsp + "1111" + nbsp + nbsp + "1111", false},
		{"4111 " + enDash + " 1111 " + enDash + " 1111 " + enDash + " 1111", false},
		{"4111" + enDash + enDash + "1111" + enDash + enDash + "1111" + enDash + enDash + "1111", false},
		{"4111\t1111\t1111\t1111", false},
		{fw("4111.1111.1111.1111"), false},
		{"VI 41" + enDash + "XXXX" + enDash + "1111", false},
	}
	for _, tt := range tests {
		if got := ContainsCardNumber(tt.in); got != tt.want {
			t.Errorf("ContainsCardNumber(%q) = %v, want %v", tt.in, got, tt.want)
		}
		if got := containsCardNumberNaive(tt.in); got != tt.want {
			t.Errorf("naive(%q) = %v, want %v: the table disagrees with the rule", tt.in, got, tt.want)
		}
	}
}

func TestContainsCardNumberInPhoneUnicode(t *testing.T) {
	for _, n := range []string{"+49\u00a0151\u00a01234\u00a05678", fw("+49 151 1234 5678"), "+49\u2009151\u20131234\u20135678"} {
		if ContainsCardNumberInPhone(n) {
			t.Errorf("phone %q flagged", n)
		}
	}
	for _, n := range []string{fw("4111 1111 1111 1111"), "+4111\u00a01111\u00a01111\u00a01111", inScript("5555555555554444", 0x0660)} {
		if !ContainsCardNumberInPhone(n) {
			t.Errorf("card %q in a phone field not flagged", n)
		}
	}
}

// TestRuneClassesDigitRuns guards classifyRune's assumptions and checks it
// against the unicode package for every non-ASCII rune.
func TestRuneClassesDigitRuns(t *testing.T) {
	check := func(lo, hi, stride rune) {
		if stride != 1 || (hi-lo+1)%10 != 0 {
			t.Errorf("Nd range %U-%U stride %d: not whole runs of ten digits", lo, hi, stride)
		}
	}
	for _, r := range unicode.Nd.R16 {
		check(rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	for _, r := range unicode.Nd.R32 {
		check(rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	for r := rune(utf8.RuneSelf); r <= unicode.MaxRune; r++ {
		d, k := classifyRune(r)
		want := kindOther
		switch {
		case unicode.Is(unicode.Nd, r):
			want = kindDigit
		case unicode.Is(unicode.Zs, r), unicode.Is(unicode.Pd, r), r == '\u2212':
			want = kindSep
		case unicode.Is(unicode.Cf, r):
			want = kindInvisible
		}
		if k != want {
			t.Fatalf("classifyRune(%U) kind %d, want %d", r, k, want)
		}
		if k == kindDigit && int(d) != naiveDigitValue(r) {
			t.Fatalf("classifyRune(%U) = %d, want %d", r, d, naiveDigitValue(r))
		}
	}
	for _, c := range []struct {
		r rune
		d byte
		k runeKind
	}{
		{0xFF10, 0, kindDigit}, {0xFF15, 5, kindDigit}, {0xFF19, 9, kindDigit},
		{0x0665, 5, kindDigit}, {0x06F9, 9, kindDigit}, {0x096F, 9, kindDigit},
		{0x1D7CE, 0, kindDigit}, {0x1D7D7, 9, kindDigit}, {0x1D7D8, 0, kindDigit}, {0x1D7FF, 9, kindDigit},
		{0x00A0, 0, kindSep}, {0x2009, 0, kindSep}, {0x202F, 0, kindSep}, {0x3000, 0, kindSep},
		{0x2013, 0, kindSep}, {0x2014, 0, kindSep}, {0xFF0D, 0, kindSep}, {0x2212, 0, kindSep},
		{0x200B, 0, kindInvisible}, {0x00AD, 0, kindInvisible}, {0x2060, 0, kindInvisible}, {0xFEFF, 0, kindInvisible},
		{'é', 0, kindOther}, {0x00B2, 0, kindOther}, // superscript two is No, not Nd
		{0x2460, 0, kindOther}, // circled one: No
		{utf8.RuneError, 0, kindOther},
	} {
		if d, k := classifyRune(c.r); d != c.d || k != c.k {
			t.Errorf("classifyRune(%U) = %d, %d; want %d, %d", c.r, d, k, c.d, c.k)
		}
	}
}

func TestContainsCardNumberUnicodeMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	// Digits in several scripts, separators of several kinds, and a few
	// characters that are neither (letters, a tab, invalid UTF-8), and
	// invisible ones that are skipped (zero-width space, soft hyphen).
	digitZeros := []rune{'0', '0', 0xFF10, 0x0660, 0x06F0, 0x0966, 0x1D7CE}
	seps := []string{" ", "-", "\u00a0", "\u2009", "\u202f", "\u3000", "\u2013", "\u2014", "\u2010", "\uff0d", "\u2212", "\u200b", "\u00ad"}
	others := []string{"a", "é", ".", "\t", "\xff", "字", "\u200b"}
	cards := []string{"4111111111111111", "378282246310005", "30569309025904", "5555555555554444",
		"6011111111111117", "3530111333300000", "6200000000000005", "4444444444444444442"}
	digit := func(d byte) string { return string(digitZeros[rng.IntN(len(digitZeros))] + rune(d-'0')) }
	flagged := 0
	for i := 0; i < 20000; i++ {
		var sb strings.Builder
		for j, n := 0, rng.IntN(30); j < n; j++ {
			switch x := rng.IntN(10); {
			case x < 6:
				sb.WriteString(digit(byte('0' + rng.IntN(10))))
			case x < 9:
				sb.WriteString(seps[rng.IntN(len(seps))])
			default:
				sb.WriteString(others[rng.IntN(len(others))])
			}
		}
		if i%2 == 1 {
			card := []byte(cards[rng.IntN(len(cards))])
			if rng.IntN(3) == 0 {
				card[rng.IntN(len(card))] = byte('0' + rng.IntN(10))
			}
			for j, c := range card {
				if j > 0 && rng.IntN(4) == 0 {
					sb.WriteString(seps[rng.IntN(len(seps))])
				}
				sb.WriteString(digit(c))
			}
			if rng.IntN(2) == 0 {
				sb.WriteString(others[rng.IntN(len(others))])
			}
		}
		if agreesWithNaive(t, sb.String()) {
			flagged++
		}
	}
	if flagged < 1000 || flagged > 19000 {
		t.Errorf("%d of 20000 inputs flagged: the cross-check is lopsided", flagged)
	}
}

func BenchmarkContainsCardNumberUnicode(b *testing.B) {
	// Non-ASCII text: every character goes through classifyRune.
	var sb strings.Builder
	for sb.Len() < 1024 {
		sb.WriteString("Flug ＬＨ４００ am 21.\u00a0November – Sitz 12A, Zimmer für zwei, 東京 ホテル ")
	}
	text := sb.String()
	if ContainsCardNumber(text) {
		b.Fatal("benchmark text unexpectedly contains a card number")
	}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		ContainsCardNumber(text)
	}
}
