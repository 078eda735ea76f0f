package wayfarer

import (
	"strings"
	"unicode/utf8"

	"github.com/nyaruka/phonenumbers"
)

// Phone numbers and IBANs for step 4 of the card-number-in-text rule. Both
// are recognized only with their own check: a phone number must be valid for
// its country (libphonenumber's metadata: country code, length and number
// ranges), an IBAN must have its country's length and pass ISO 7064 mod 97.

// phoneMaxDigits bounds the digits tried as one phone number: E.164's 15,
// and a written trunk "(0)" or exit code.
const phoneMaxDigits = 17

// maxPhoneChecks bounds the phone numbers parsed for one text (a few
// microseconds each): no real text needs more, and a text made of nothing
// but "+" and digits must not cost milliseconds per field.
const maxPhoneChecks = 64

// phoneAt claims the groups from i that make a valid international number
// starting there: after a "+" ("+49 151 1234 5678", "tel:+1-212-555-0123"),
// after an exit code 00 or 011 ("00 49 ...", "0049 ...", "011 49 ..."), or,
// in a phone field, at the start of a run ("49 151 12345678"). The number is
// all the groups joined by phone punctuation from there, at most 17 digits
// (E.164's 15 and a trunk "(0)" or so); fewer only when what follows is a
// token of its own ("+49 30 1234567 12:30"). So a number is never cut out of
// the start of a longer one: "+6011 5811 6807 4907" is no Malaysian phone.
func (t *textScan) phoneAt(i int) int {
	from, exitCode, ok := t.phoneStart(i)
	if !ok {
		return 0
	}
	last, digits := i-1, 0
	for j := i; t.inRun(i, j-i); j++ {
		if j > i {
			if _, plus := t.plusStart(j); plus || !phonePunctuation(t.sepBefore(j)) {
				break // another number starts, or something else
			}
		}
		digits += len(t.digits(j))
		if digits > phoneMaxDigits {
			return 0
		}
		last = j
	}
	for j := last; j >= i; j-- {
		if j < last && !t.startsToken(j+1) {
			continue
		}
		if t.phoneChecks == maxPhoneChecks {
			return 0 // text made to cost: what is left is not explained
		}
		t.phoneChecks++
		if validPhone("+" + t.s[from:t.groups[j].end]) {
			if exitCode {
				t.groups[i-1].claimed, t.groups[i-1].phone = true, true
			}
			for k := i; k <= j; k++ {
				t.groups[k].phone = true
			}
			return j - i + 1
		}
	}
	return 0
}

// startsToken reports whether a token other than a phone number starts at
// group i.
func (t *textScan) startsToken(i int) bool {
	saved := t.lookahead
	t.lookahead = true
	defer func() { t.lookahead = saved }()
	return t.claimAt(i) > 0
}

// phoneStart reports whether an international number may start at group i
// and the offset its digits (after the "+" or exit code) start at.
func (t *textScan) phoneStart(i int) (from int, exitCode, ok bool) {
	if p, plus := t.plusStart(i); plus {
		return p + 1, false, true
	}
	g := t.groups[i]
	if d := t.digits(i); len(d) > 2 && d[:2] == "00" {
		return g.start + 2, false, true // "0049 ..."
	}
	if !t.firstInRun(i) {
		if prev := t.digits(i - 1); (prev == "00" || prev == "011") && len(t.sepBefore(i)) <= 1 {
			return g.start, true, true
		}
	}
	if t.phone && t.firstInRun(i) {
		return g.start, false, true
	}
	return 0, false, false
}

// plusStart reports whether group i is preceded by a "+" that starts a
// number (followed by nothing but spaces or "(", and not glued to the digit
// before it as in "4111+1111"), and its offset.
func (t *textScan) plusStart(i int) (int, bool) {
	sep := t.sepBefore(i)
	p := strings.LastIndexByte(sep, '+')
	if p < 0 || strings.Trim(sep[p+1:], " (") != "" || p == 0 && !t.firstInRun(i) {
		return 0, false
	}
	return t.groups[i].start - len(sep) + p, true
}

// phonePunctuation reports whether sep may stand between the digit groups
// of one phone number: a space, dash, dot or slash, or brackets ("(0)",
// "(212) 555").
func phonePunctuation(sep string) bool {
	switch sep {
	case " ", "-", ".", "/", "(", ")", " (", ") ", "\u2013":
		return true
	}
	return false
}

func validPhone(number string) bool {
	n, err := phonenumbers.Parse(number, "")
	return err == nil && phonenumbers.IsValidNumber(n)
}

// claimIBANs claims the groups inside valid IBANs: two letters, two check
// digits and the account, in groups of four or written together.
func (t *textScan) claimIBANs() {
	s := t.s
	for p := 0; p+4 <= len(s); p++ {
		if !isASCIILetter(s[p]) || !isASCIILetter(s[p+1]) || !isDigitByte(s[p+2]) || !isDigitByte(s[p+3]) {
			continue
		}
		if r, _ := utf8.DecodeLastRuneInString(s[:p]); p > 0 && (isLetter(r) || r >= '0' && r <= '9') {
			continue
		}
		want := ibanLengths[strings.ToUpper(s[p:p+2])]
		if want == 0 {
			continue
		}
		chars := make([]byte, 0, want)
		q := p
	read:
		for q < len(s) && len(chars) < want {
			switch c := s[q]; {
			case isASCIILetter(c) || isDigitByte(c):
				chars = append(chars, c)
				q++
			case c == ' ' && s[q-1] != ' ' && q+1 < len(s) && (isASCIILetter(s[q+1]) || isDigitByte(s[q+1])):
				q++
			default:
				break read
			}
		}
		if len(chars) != want || q < len(s) && (isASCIILetter(s[q]) || isDigitByte(s[q])) || !ibanCheck(chars) {
			continue
		}
		for k := range t.groups {
			if g := &t.groups[k]; g.start >= p && g.end <= q {
				g.claimed = true
			}
		}
		p = q - 1
	}
}

// ibanCheck is ISO 13616's check: the country and check digits moved to
// the end, letters read as 10..35, the number modulo 97 is 1.
func ibanCheck(iban []byte) bool {
	rem := 0
	for k := range iban {
		c := iban[(k+4)%len(iban)]
		switch {
		case isDigitByte(c):
			rem = (rem*10 + int(c-'0')) % 97
		default:
			v := int(c|0x20-'a') + 10
			rem = (rem*100 + v) % 97
		}
	}
	return rem == 1
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// ibanLengths is the length of an IBAN of each country (SWIFT IBAN
// Registry).
var ibanLengths = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BI": 27,
	"BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28,
	"EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
	"GL": 18, "GR": 27, "GT": 28, "HN": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
	"IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21,
	"LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28,
	"NL": 18, "NO": 15, "OM": 23, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22,
	"RU": 33, "SA": 24, "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25,
	"SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}
