package wayfarer

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

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
		// Changed by the rule of issue 11 (these were false): any run of
		// non-letters separates, a tab and a dot included.
		{"4111" + nbsp + nbsp + "1111" + nbsp + nbsp + "1111" + nbsp + nbsp + "1111", true},
		{"4111 " + enDash + " 1111 " + enDash + " 1111 " + enDash + " 1111", true},
		{"4111" + enDash + enDash + "1111" + enDash + enDash + "1111" + enDash + enDash + "1111", true},
		{"4111\t1111\t1111\t1111", true},
		{fw("4111.1111.1111.1111"), true},
		{"VI 41" + enDash + "XXXX" + enDash + "1111", false},
	}
	for _, tt := range tests {
		if got := ContainsCardNumber(tt.in); got != tt.want {
			t.Errorf("ContainsCardNumber(%q) = %v, want %v", tt.in, got, tt.want)
		}
		agreesWithNaive(t, tt.in)
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

// TestDecimalDigitRuns guards decimalDigitValue's assumption and checks the
// normalization against the plain one for every rune of the planes in use.
func TestDecimalDigitRuns(t *testing.T) {
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
	for _, plane := range [][2]rune{{utf8.RuneSelf, 0x20000}, {0xE0000, 0xE1000}} {
		for r := plane[0]; r < plane[1]; r++ {
			if s := string(r); utf8.ValidRune(r) && normalizeCardText(s) != naiveNormalize(s) {
				t.Fatalf("%U: %q, naive %q", r, normalizeCardText(s), naiveNormalize(s))
			}
		}
	}
	for _, c := range []struct {
		in, want string
	}{
		{"\uff14\uff11", "41"}, {"\u0664\u0661", "41"}, {"\u096a\u0967", "41"}, {"\U0001D7D2\U0001D7CF", "41"},
		{"\u2074\u00b9", "41"}, {"\u2084\u2081", "41"}, {"\u2463\u2460", "41"}, {"\u2779\u2776", "41"},
		{"\u24f8\u24f5", "41"}, {"\u24ff\u277f", "010"}, {"4\u20e31\u0332", "41"}, {"4\u200b\u00ad\u3164\ufe0f1", "41"},
		{"Müller", "Müller"}, {"\uff21\uff22", "AB"}, {"\uff0b\uff1d", "+="},
	} {
		if got := normalizeCardText(c.in); got != c.want {
			t.Errorf("normalizeCardText(%q) = %q, want %q", c.in, got, c.want)
		}
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

func BenchmarkContainsCardNumberUnicodeFewDigits(b *testing.B) {
	// Non-ASCII text with fewer than 13 digits, as most names and addresses:
	// no normalization needed.
	text := "Müller-Lüdenscheidt, Zoë — Straße 12, 10115 Berlin; 東京都千代田区丸の内1-9-1; Иванова Анна"
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		ContainsCardNumber(text)
	}
}
