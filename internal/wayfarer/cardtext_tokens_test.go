package wayfarer

import (
	"strings"
	"testing"
)

// Step 4 of the rule: each case holds a candidate (checked), which the
// recognizers explain, or must not.

func TestCardTextExplained(t *testing.T) {
	for _, c := range []struct {
		kind, text string
		phone      bool
	}{
		{"date and time", "07.05.72 20:57:32 - 22.08.53 20.10", false},
		{"date and time", "27.09.1997 07.49 \u2013 18.09.2009 19:05", false},
		{"date and time", "1.10.1943, 4:07:59-15:51:59", false},
		{"dates", "08.03.62, 09.07.25, 25.01.00", false},
		{"date range", "2000/01/18 6:47:47 - 2012/09/08 11:13:51", false},
		{"date range", "14-07-1955 6:50:27 \u2013 08-04-1950 14:55:02", false},
		{"amounts", "Total: 82'193'582.18 + 69.42 + 72 771 521,29 = 60.067.445,41", false},
		{"amounts", "Total: 63 098 593,35 + 48,600,565.17 + 71,96 = 95 491 932,55", false},
		{"ticket", "FA PAX 618-9409332413/ETTX/EUR1602.44/07DEC25/FRAL12347/98779188", false},
		{"ticket after its word", "Ticket no. 6077893813685", false},
		{"ticket after its word", "ticket ETKT 6560151589907 | late check-in", false},
		{"IBAN", "IBAN: PL71 3948 3283 3993 0112 0232 2103, BIC IRBVBQMD", false},
		{"IBAN", "IBAN: SE46 6863 1443 5650 2095 6518, BIC KPZNLCJC", false},
		{"coordinates", "4.171429, 163.555455", false},
		{"coordinates", "-44.397932, -55.539665", false},
		{"phone after an exit code", "0049 30 124939558", false},
		{"phone after an exit code", "00381 10 2373277006", false},
		{"two phones", "+55 11 96142-6679; +225 21 23 7 55091", false},
		{"two phones", "+43 664 1276578312 / +880 1812-179944", false},
		{"phone without +, in a phone field", "4915123622602", true},
		{"phone with +, in a phone field", "+49 1512 3622602", true},
		{"code and amounts", "PNR 4LRTT3\n85116415.76 / 4 621,32 / 3.517,04 $\n28.04. bis 18.12.2027", false},
	} {
		if !hasCardCandidate(normalizeCardText(c.text)) {
			t.Errorf("%s: %q holds no candidate: the case shows nothing", c.kind, c.text)
			continue
		}
		if containsCard(c.text, c.phone) {
			t.Errorf("%s: %q (phone field %v) is taken for a card number", c.kind, c.text, c.phone)
		}
	}
}

func TestCardTextNotExplained(t *testing.T) {
	for _, c := range []struct {
		why, text string
		phone     bool
	}{
		{"a phone number is not cut from the start of a card", "+6011 5811 6807 4907", false},
		{"a phone number is not cut from the start of a card", "+6011 5811 6807 4907", true},
		{"a phone number is not cut from the start of a card", "6011 5811 6807 4907", true},
		{"a phone number before a card does not take its digits", "+49 30 1234567 4111 1111 1111 1111", false},
		{"a glued + is a separator", "4111+1111+1111+1111", false},
		{"+1111 is no phone number", "4111 +1111 +1111 +1111", false},
		{"16 digits are never a phone number", "+4111 1111 1111 1111", true},
		{"a 15-digit Amex is no phone number", "+378282246310005", true},
		{"a 15-digit Amex is no phone number", "00 378282246310005", true},
		{"in a phone field only phone numbers explain", "384-1005756022", true},
		{"a date before a card", "24.12.2025 4111 1111 1111 1111", false},
		{"a time after a card", "4111 1111 1111 1111 12:30", false},
		{"an IBAN before a card", "DE89 3704 0044 0532 0130 00 4111 1111 1111 1111", false},
		{"an IBAN with a wrong check", "DE00 4111 1111 1111 1111 00", false},
		{"a ticket word before 16 digits", "Ticket 4111111111111111", false},
		{"letters before the first group", "Visa4111 1111 1111 1111", false},
		{"an amount before a card", "1,234,567.89 4111 1111 1111 1111", false},
		{"pairs glued by dots", "41.11.11.11.11.11.11.11", false},
		{"times glued on", "4111:1111:1111:1111", false},
	} {
		if !containsCard(c.text, c.phone) {
			t.Errorf("%s: %q (phone field %v) is not taken for a card number", c.why, c.text, c.phone)
		}
	}
}

// The price of step 4, written down (docs/security.md): a card number
// written in a shape it explains is not found. Each shape is strict, so
// only a number whose digits fit it can be written so.
func TestCardTextExplainedShapesHideWhatFits(t *testing.T) {
	for _, s := range []string{
		"e-ticket 4222222222222",  // 13-digit Visa after a word for ticket
		"+49 1512 3061546",        // a valid German mobile number that is also a Luhn-valid Visa-13
		"422-2222222222",          // 13 digits shaped as a ticket
		"23.01.12.05.09.10.11.12", // pairs that are all valid times or dates
	} {
		if ContainsCardNumber(s) {
			t.Errorf("%q: the shape is no longer explained; update docs/security.md", s)
		}
	}
}

func TestIBANCheck(t *testing.T) {
	for _, s := range []string{"DE89370400440532013000", "GB29NWBK60161331926819", "FR1420041010050500013M02606", "NO9386011117947"} {
		if !ibanCheck([]byte(s)) || ibanLengths[s[:2]] != len(s) {
			t.Errorf("%s: not a valid IBAN", s)
		}
	}
	if ibanCheck([]byte("DE88370400440532013000")) {
		t.Error("a wrong check digit passes")
	}
}

func BenchmarkContainsCardNumberExplained(b *testing.B) {
	// The slow path: text with candidates that step 4 must explain.
	text := strings.Repeat("Tel. +49 1512 3061546, 27.09.1997 07.49 \u2013 18.09.2009 19:05, IBAN PL71 3948 3283 3993 0112 0232 2103. ", 4)
	if ContainsCardNumber(text) || !hasCardCandidate(normalizeCardText(text)) {
		b.Fatal("the benchmark text must hold explained candidates only")
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		ContainsCardNumber(text)
	}
}

// A text made of phone-like pieces costs a bounded number of phone checks;
// past the bound, what is left is not explained (refused, never accepted).
func TestCardTextPhoneChecksBounded(t *testing.T) {
	text := strings.Repeat("+4 9 1 5 1 2 3 0 6 1 5 4 6 ", 100) + "4111 1111 1111 1111"
	s := scanText(normalizeCardText(text), false)
	if s.phoneChecks > maxPhoneChecks {
		t.Errorf("%d phone checks", s.phoneChecks)
	}
	if !ContainsCardNumber(text) {
		t.Error("the card number at the end is not found")
	}
}
