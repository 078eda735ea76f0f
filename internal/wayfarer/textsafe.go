package wayfarer

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Text that leaves the service in a file: CSV cells and the report's file
// name (docs/security.md).

// NeutralizeSpreadsheetFormula returns a CSV cell's text so that a
// spreadsheet shows it rather than running it as a formula (OWASP "CSV
// injection"): text whose first visible character is a formula trigger
// gets a leading apostrophe. Triggers are = + - @ in any of their forms
// (full-width ＝ ＋ － ＠, small ﹦ ﹢ ﹣ ﹫, super- and subscript, the minus
// sign −), and a leading tab, carriage return or line feed. Spaces and
// invisible characters before a trigger do not hide it: importers trim them.
func NeutralizeSpreadsheetFormula(s string) string {
	if s == "" {
		return s
	}
	if c := s[0]; c == '\t' || c == '\r' || c == '\n' {
		return "'" + s
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point) {
			continue
		}
		if formulaTrigger(r) {
			return "'" + s
		}
		break
	}
	return s
}

func formulaTrigger(r rune) bool {
	switch r {
	case '=', '+', '-', '@', '\u2212':
		return true
	}
	if r < utf8.RuneSelf {
		return false
	}
	var buf [utf8.UTFMax]byte
	k := norm.NFKC.Properties(buf[:utf8.EncodeRune(buf[:], r)])
	if d := k.Decomposition(); len(d) > 0 {
		first, _ := utf8.DecodeRune(d)
		return first != r && formulaTrigger(first)
	}
	return false
}

// reportNameMax bounds a report file name, in characters before ".csv".
const reportNameMax = 100

// SafeReportFileName turns a client's reportName into the file name of a CSV
// report: ascii for Content-Disposition's filename, full (the same, or with
// its non-ASCII letters) for filename* (RFC 6266). A name that holds a card
// number is not used at all (personSearch.csv), whatever its spelling; else
// it is NFKC-normalized and reduced to letters, digits, marks, spaces and
// - _ . ( ), anything else (path separators, quotes, control and bidi
// characters) becoming "_", without leading or trailing dots, spaces or
// underscores and at most 100 characters, with ".csv" added unless it ends
// so. Device names Windows reserves (CON, NUL, COM1, ...) get a leading "_".
func SafeReportFileName(name string) (ascii, full string) {
	const fallback = "personSearch"
	name = strings.TrimSpace(name)
	if ContainsCardNumber(name) {
		name = ""
	}
	name = norm.NFKC.String(name)
	ext := ".csv"
	if len(name) >= 4 && strings.EqualFold(name[len(name)-4:], ".csv") {
		name, ext = name[:len(name)-4], name[len(name)-4:]
	}
	return safeFileName(name, fallback, ext)
}

// safeFileName makes name (NFKC already, without its extension ext) a file
// name as SafeReportFileName describes, with fallback for a name left
// empty.
func safeFileName(name, fallback, ext string) (ascii, full string) {
	var b strings.Builder
	n, replaced := 0, false
	for _, r := range name {
		if n == reportNameMax {
			break
		}
		if unicode.In(r, unicode.L, unicode.M, unicode.N) || strings.ContainsRune(" -_.()", r) {
			b.WriteRune(r)
			n++
			replaced = false
		} else if !replaced {
			b.WriteByte('_')
			n++
			replaced = true
		}
	}
	base := strings.Trim(b.String(), " ._")
	if base == "" {
		base = fallback
	}
	if windowsDeviceName(base) {
		base = "_" + base
	}
	full = base + ext
	asciiBase := strings.Map(func(r rune) rune {
		if r >= utf8.RuneSelf {
			return '_'
		}
		return r
	}, base)
	if strings.IndexFunc(asciiBase, func(r rune) bool { return r < utf8.RuneSelf && unicode.In(r, unicode.L, unicode.N) }) < 0 {
		asciiBase = fallback
	}
	return asciiBase + ext, full
}

// windowsDeviceName reports whether a file name's part before its first dot
// is a device name Windows will not open as a file.
func windowsDeviceName(base string) bool {
	stem, _, _ := strings.Cut(strings.ToUpper(base), ".")
	stem = strings.TrimSpace(stem)
	switch stem {
	case "CON", "PRN", "AUX", "NUL":
		return true
	}
	return len(stem) == 4 && (strings.HasPrefix(stem, "COM") || strings.HasPrefix(stem, "LPT")) && stem[3] >= '1' && stem[3] <= '9'
}
