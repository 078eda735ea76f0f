package wayfarer

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

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
		// Changed by the rule of issue 11: any non-letter separates (these
		// were false when only single spaces and dashes did).
		{"4111  1111  1111  1111", true},
		{"4111 - 1111 - 1111 - 1111", true},
		{"4111.1111.1111.1111", true},
		{"4111_1111_1111_1111", true},
		{"(4111) (1111) (1111) (1111)", true},
		{"4111\t1111\n1111\r\n1111", true},
		{"4111/1111/1111/1111", true},
		{"4111+1111+1111+1111", true},
		{"4111 +1111 +1111 +1111", true}, // "+1111" is no phone number
		{"+4111 1111 1111 1111", true},   // 16 digits: no phone number
		{"00 4111 1111 1111 1111", true},
		{"004111111111111111", true}, // an exit code 00 is a group of its own
		// Brands the old table did not know.
		{"2200 0000 0000 0004", true},       // Mir
		{"6521 0000 0000 0007", true},       // RuPay
		{"9792 0000 0000 0003", true},       // Troy
		{"1354 1001 4004 955", true},        // UATP
		{"5018 0000 0000 0009", true},       // Maestro 50
		{"6799 9901 0000 0000 019", true},   // Maestro 67, 19 digits
		{"5067 0000 0000 0009", true},       // Elo
		{"6062 8200 0000 0003", true},       // Hipercard
		{"8600 0000 0000 0007", true},       // UzCard
		{"3100 0000 0000 0000 005", true},   // China T-Union, 19 digits
		{"Karte 5019 7170 1010 3742", true}, // Dankort
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
		{"4111 11111111111111", false}, // only the whole 18 digits, which fail Luhn
		{"VI 41-XXXX-1111", false},
		{"4111 XXXX XXXX 1111", false},
		{"booking 123456 for 2 adults", false},
		// An issued prefix with a length not issued there.
		{"1354 1001 4004 9550 0", false}, // 17 digits from UATP's 1 (15 only)
		{"3782 8224 6310 0003", false},   // 16 digits from Amex's 37 (15 only)
		{"2200 0000 0000 004", false},    // 15 digits from Mir (16-19)
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
		var p iinPrefixes
		p.fromDigits(n)
		if issuedCard(&p, len(n)) {
			t.Errorf("fixture %s is in an issued range", n)
		}
	}
	for _, n := range []string{"2200000000000004", "6521000000000007", "9792000000000003", "135410014004955",
		"5018000000000009", "6799990100000000019", "5067000000000009", "6062820000000003", "8600000000000007",
		"3100000000000000005", "5019717010103742", "13541001400495500", "3782822463100003", "220000000000004"} {
		if !luhnValid(n) {
			t.Errorf("fixture %s is not Luhn-valid", n)
		}
	}
}

// The rule's steps 1 to 3 written out plainly, to cross-check the streaming
// scan and the normalization: characters are classified with the unicode
// package directly, runs split into groups, and every sequence of whole
// groups tried against the table by a linear walk.

func naiveNormalize(text string) string {
	var b strings.Builder
	for _, r := range norm.NFKC.String(text) {
		switch {
		case unicode.Is(unicode.Nd, r):
			b.WriteByte(byte('0' + naiveDigitValue(r)))
		case unicode.In(r, unicode.Mn, unicode.Mc, unicode.Me, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector):
		case naiveCircled(r) != "":
			b.WriteString(naiveCircled(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// naiveCircled is the value of a circled digit NFKC leaves alone.
func naiveCircled(r rune) string {
	switch {
	case r == 0x24FF || r == 0x1F10B || r == 0x1F10C:
		return "0"
	case r >= 0x24F5 && r <= 0x24FE, r >= 0x2776 && r <= 0x2793:
		lo := rune(0x24F5)
		if r >= 0x2776 {
			lo = 0x2776 + (r-0x2776)/10*10
		}
		return fmt.Sprint(r - lo + 1)
	}
	return ""
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

// naiveCandidate is steps 2 and 3 on normalized text.
func naiveCandidate(s string) bool {
	var runs [][]string
	var groups []string
	cur := ""
	endGroup := func() {
		if len(cur) > 2 && cur[:2] == "00" {
			groups = append(groups, "00")
			cur = cur[2:]
		}
		if cur != "" {
			groups = append(groups, cur)
		}
		cur = ""
	}
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			cur += string(r)
		case unicode.IsLetter(r):
			endGroup()
			runs = append(runs, groups)
			groups = nil
		default:
			endGroup()
		}
	}
	endGroup()
	runs = append(runs, groups)
	for _, gs := range runs {
		for i := range gs {
			w := ""
			for j := i; j < len(gs); j++ {
				w += gs[j]
				if len(w) >= 13 && len(w) <= 19 && luhnValid(w) && naiveIssued(w) {
					return true
				}
			}
		}
	}
	return false
}

func naiveIssued(w string) bool {
	for _, e := range iinTable {
		if p := num(w[:e.width]); p >= int(e.lo) && p <= int(e.hi) && e.lengths&(1<<len(w)) != 0 {
			return true
		}
	}
	return false
}

// agreesWithNaive fails the test unless the scan and the plainly spelled
// rule agree on s, and returns their verdict. ContainsCardNumber may only
// excuse what the naive steps find.
func agreesWithNaive(t *testing.T, s string) bool {
	t.Helper()
	n := normalizeCardText(s)
	if utf8.ValidString(s) && n != naiveNormalize(s) {
		t.Fatalf("normalizeCardText(%q) = %q, naive %q", s, n, naiveNormalize(s))
	}
	got, want := hasCardCandidate(n), naiveCandidate(naiveNormalize(s))
	if got != want {
		t.Fatalf("hasCardCandidate(%q) = %v, naive = %v", s, got, want)
	}
	if ContainsCardNumber(s) && !want {
		t.Fatalf("ContainsCardNumber(%q) without a candidate", s)
	}
	return got
}

// randomCardText draws text of digits in several scripts, separators of
// many kinds, letters, marks and invisible characters, and in every other
// text a card number (sometimes with a digit changed) split by them, so that
// positives and near misses are common rather than rare.
func randomCardText(rng *rand.Rand, i int, unicodeToo bool) string {
	digitZeros := []rune{'0'}
	seps := []string{" ", "-", ".", ",", "_", "/", "+", "(", ")", "\t", "\n", ":", "'", " - "}
	others := []string{"a", "X", "\xff"}
	if unicodeToo {
		digitZeros = []rune{'0', '0', 0xFF10, 0x0660, 0x06F0, 0x0966, 0x1D7CE, 0x0E50}
		seps = append(seps, "\u00a0", "\u2009", "\u3000", "\u2013", "\u2014", "\uff0d", "\u2212", "\u00b7",
			"\u2022", "\U0001F4B3", "\u200b", "\u00ad", "\u3164", "\u0301", "\u20e3", "\ufe0f")
		others = append(others, "é", "字", "ß", "Я")
	}
	cards := []string{"4111111111111111", "378282246310005", "30569309025904", "5555555555554444",
		"6011111111111117", "3530111333300000", "6200000000000005", "4444444444444444442",
		"2200000000000004", "135410014004955", "6799990100000000019"}
	digit := func(d byte) string {
		z := digitZeros[rng.IntN(len(digitZeros))]
		if unicodeToo && rng.IntN(8) == 0 {
			return string(rune(0x2070 + int(d-'0'))) // superscripts (¹²³ via NFKC too)
		}
		return string(z + rune(d-'0'))
	}
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
	return sb.String()
}

func TestContainsCardNumberMatchesNaive(t *testing.T) {
	for _, unicodeToo := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(1, 2))
		flagged := 0
		const n = 15000
		for i := 0; i < n; i++ {
			if agreesWithNaive(t, randomCardText(rng, i, unicodeToo)) {
				flagged++
			}
		}
		if flagged < n/20 || flagged > n-n/20 {
			t.Errorf("unicode %v: %d of %d inputs flagged: the cross-check is lopsided", unicodeToo, flagged, n)
		}
	}
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
	// Changed by issue 11 (was false): a 13-15-digit card number in a phone
	// field counts unless it is a valid phone number of its country.
	for _, n := range []string{"378282246310005", "+378282246310005", "30569309025904", "+30 569 309 025 904", "4222222222222", "00378282246310005"} {
		if !ContainsCardNumberInPhone(n) {
			t.Errorf("card %q in a phone field not flagged", n)
		}
	}
}

func TestContainsCardNumberAllocations(t *testing.T) {
	for _, s := range []string{
		"Flight 1234 5678 on 2026-11-21, seat 12A. Call +1 555 123 4567.",
		strings.Repeat("1", 200),
		"Müller, Zoë — Straße 12, 10115 Berlin",
	} {
		if n := testing.AllocsPerRun(100, func() { ContainsCardNumber(s) }); n != 0 {
			t.Errorf("ContainsCardNumber(%q) allocates %v times", s, n)
		}
	}
}
