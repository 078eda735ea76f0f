package wayfarer

import (
	"github.com/wayfarerhq/wayfarer/client/contract"

	"strings"
	"testing"
)

func TestNeutralizeSpreadsheetFormula(t *testing.T) {
	neutralized := []string{
		"=cmd|' /C calc'!A0", "+1+1", "-2+3+cmd", "@SUM(A1:A9)", "\t=1", "\r=1", "\nx",
		"＝1+1", "＋1", "－1", "＠SUM(1)", // full-width
		"﹦1", "﹢1", "﹣1", "﹫x", // small forms
		"⁼1", "⁺1", "⁻1", "₌1", "₊1", "₋1", // super- and subscript
		"−1",                            // minus sign
		" =1+1", "\u00a0=1", "\u3000＝1", // spaces before
		"\u200b=1", "\ufeff=1", "\u202e=1", // invisible and bidi characters before
	}
	for _, s := range neutralized {
		if got := NeutralizeSpreadsheetFormula(s); got != "'"+s {
			t.Errorf("NeutralizeSpreadsheetFormula(%q) = %q, want %q", s, got, "'"+s)
		}
	}
	for _, s := range []string{"", "Abler/Ken", "1+1", "a=b", "'=x", "ken@example.com", "(=1)", "Ｒｅｍａｒｋ", "2026-11-21", " x"} {
		if got := NeutralizeSpreadsheetFormula(s); got != s {
			t.Errorf("NeutralizeSpreadsheetFormula(%q) = %q, want it unchanged", s, got)
		}
	}
}

func TestSafeReportFileName(t *testing.T) {
	tests := []struct{ in, ascii, full string }{
		{"", "personSearch.csv", "personSearch.csv"},
		{"  ", "personSearch.csv", "personSearch.csv"},
		{"ablers", "ablers.csv", "ablers.csv"},
		{"Report.CSV", "Report.CSV", "Report.CSV"},
		{"report.csv.exe", "report.csv.exe.csv", "report.csv.exe.csv"},
		{"../x\"y.CSV", "x_y.CSV", "x_y.CSV"},
		{`..\..\windows\win.ini`, "windows_win.ini.csv", "windows_win.ini.csv"},
		{"a;b\"c\r\nd\te", "a_b_c_d_e.csv", "a_b_c_d_e.csv"},
		{"Übersicht (1)", "_bersicht (1).csv", "Übersicht (1).csv"},
		{"東京レポート", "personSearch.csv", "東京レポート.csv"},
		{"Ｒｅｐｏｒｔ １", "Report 1.csv", "Report 1.csv"}, // NFKC
		{"evil\u202ecsv.exe", "evil_csv.exe.csv", "evil_csv.exe.csv"},
		{"a/b\\c:d*e?f<g>h|i", "a_b_c_d_e_f_g_h_i.csv", "a_b_c_d_e_f_g_h_i.csv"},
		{"CON", "_CON.csv", "_CON.csv"},
		{"nul.txt", "_nul.txt.csv", "_nul.txt.csv"},
		{"COM1", "_COM1.csv", "_COM1.csv"},
		{"COM10", "COM10.csv", "COM10.csv"},
		{".hidden", "hidden.csv", "hidden.csv"},
		{"💳💳", "personSearch.csv", "personSearch.csv"},
		// a card number in the name, however written: the name is not used
		{"cards 4111 1111 1111 1111", "personSearch.csv", "personSearch.csv"},
		{"4111_1111_1111_1111.csv", "personSearch.csv", "personSearch.csv"},
		{"ｶｰﾄﾞ４１１１１１１１１１１１１１１１", "personSearch.csv", "personSearch.csv"},
		{"⁴¹¹¹ ¹¹¹¹ ¹¹¹¹ ¹¹¹¹", "personSearch.csv", "personSearch.csv"},
		{"report 2026-11-21", "report 2026-11-21.csv", "report 2026-11-21.csv"},
	}
	for _, tt := range tests {
		ascii, full := SafeReportFileName(tt.in)
		if ascii != tt.ascii || full != tt.full {
			t.Errorf("SafeReportFileName(%q) = %q, %q; want %q, %q", tt.in, ascii, full, tt.ascii, tt.full)
		}
	}
	ascii, full := SafeReportFileName(strings.Repeat("ä", 300))
	if n := len([]rune(full)); n != reportNameMax+4 || ascii != "personSearch.csv" {
		t.Errorf("a long name: %d characters, ascii %q", n, ascii)
	}
}

// Error texts never hold a card number, even where a client's identifier
// or value is echoed.
func TestErrorfWithholdsCardNumbers(t *testing.T) {
	e := Errorf(KindInvalid, contract.CodeIdentifierMismatch, MethodPerson, "%s.person_recNo (%d) is not this person (%d)",
		"personCardLink[0].card", int64(4111111111111111), int64(7))
	if e.Message != "personCardLink[0].card.person_recNo ((withheld: looks like a card number)) is not this person (7)" {
		t.Errorf("message %q", e.Message)
	}
	if _, err := NewRowCount("startingRow", new(int64(-4111111111111111))); err == nil || strings.Contains(err.Error(), "4111") {
		t.Errorf("startingRow echoed: %v", err)
	}
	if e := Errorf(KindInvalid, contract.CodeInvalidValue, MethodParam, "%d is outside 1..%d", 13, 12); e.Message != "13 is outside 1..12" {
		t.Errorf("ordinary numbers are shown: %q", e.Message)
	}
}
