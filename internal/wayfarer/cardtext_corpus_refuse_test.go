package wayfarer

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Generator of the corpus of hidden card numbers (refuse-generated.txt):
// numbers of every issued range and length in the table, and well-known
// test numbers, written with every disguise of issue 11 and more.

// corpusPAN is a card number with the brand it was drawn for.
type corpusPAN struct{ brand, digits string }

func luhnComplete(body string) string {
	for d := byte('0'); d <= '9'; d++ {
		if luhnValid(body + string(d)) {
			return body + string(d)
		}
	}
	panic("unreachable")
}

// corpusPANs draws, for every range of the table, a number of its shortest,
// of 16 (when issued) and of its longest length.
func corpusPANs(rng *rand.Rand) []corpusPAN {
	var out []corpusPAN
	for _, r := range iinTable {
		var lengths []int
		for n := 13; n <= 19; n++ {
			if r.lengths&(1<<n) != 0 && (len(lengths) == 0 || n == 16) {
				lengths = append(lengths, n)
			}
		}
		for n := 19; n >= 13; n-- {
			if r.lengths&(1<<n) != 0 {
				if lengths[len(lengths)-1] != n {
					lengths = append(lengths, n)
				}
				break
			}
		}
		for _, n := range lengths {
			prefix := fmt.Sprintf("%0*d", r.width, int(r.lo)+rng.IntN(int(r.hi-r.lo)+1))
			out = append(out, corpusPAN{r.brand.Name, luhnComplete(prefix + randDigits(rng, n-1-len(prefix)))})
		}
	}
	for _, n := range []string{"4111111111111111", "4012888888881881", "4222222222222", "5555555555554444",
		"2223003122003222", "378282246310005", "371449635398431", "6011111111111117", "6011000990139424",
		"30569309025904", "38520000023237", "36227206271667", "3530111333300000", "3566002020360505",
		"6200000000000005", "6759649826438453", "6799990100000000019", "135410014004955", "2200000000000004",
		"5019717010103742", "6362970000457013", "6062826786276634", "6521111111111110", "9792000000000003"} {
		out = append(out, corpusPAN{"test:" + DetectCardBrand(n).Name, n})
	}
	return out
}

// grouped writes a number in its usual groups: 4-6-5 (15 digits), 4-6-4
// (14), else fours.
func grouped(d string) []string {
	var sizes []int
	switch len(d) {
	case 15:
		sizes = []int{4, 6, 5}
	case 14:
		sizes = []int{4, 6, 4}
	default:
		for n := len(d); n > 0; n -= 4 {
			sizes = append(sizes, min(4, n))
		}
	}
	var out []string
	for _, s := range sizes {
		out, d = append(out, d[:s]), d[s:]
	}
	return out
}

type disguise struct {
	name string
	f    func(rng *rand.Rand, d string) string
}

func joinWith(sep string) func(*rand.Rand, string) string {
	return func(_ *rand.Rand, d string) string { return strings.Join(grouped(d), sep) }
}

// mapDigits writes each digit with f.
func mapDigits(f func(d byte) string) func(*rand.Rand, string) string {
	return func(_ *rand.Rand, d string) string {
		var b strings.Builder
		for i, g := range grouped(d) {
			if i > 0 {
				b.WriteByte(' ')
			}
			for k := 0; k < len(g); k++ {
				b.WriteString(f(g[k]))
			}
		}
		return b.String()
	}
}

func fromZero(zero rune) func(d byte) string {
	return func(d byte) string { return string(zero + rune(d-'0')) }
}

func fromTable(t string) func(d byte) string {
	rs := []rune(t)
	return func(d byte) string { return string(rs[d-'0']) }
}

func afterEach(mark string) func(*rand.Rand, string) string {
	return mapDigits(func(d byte) string { return string(d) + mark })
}

func corpusDisguises() []disguise {
	var ds []disguise
	for _, sep := range []string{"_", ",", ":", "+", "·", "•", "'", ".", "/", "\t", "\n", "\r\n", ";", "|", "*", "#",
		"~", "=", "  ", " - ", " / ", ", ", "–", "—", "‐", "\u00a0", "\u2009", "\u202f", "\u3000", "．", "、", "・",
		"💳", "→", "\\", "\"", "°", "§"} {
		ds = append(ds, disguise{"separator:" + strconv.QuoteToASCII(sep), joinWith(sep)})
	}
	for _, b := range []string{"()", "[]", "{}", "<>", "«»", "【】", "''", `""`} {
		open, close := string([]rune(b)[0]), string([]rune(b)[1])
		ds = append(ds, disguise{"brackets:" + b, func(rng *rand.Rand, d string) string {
			gs := grouped(d)
			for i := range gs {
				gs[i] = open + gs[i] + close
			}
			return strings.Join(gs, pick(rng, []string{"", " "}))
		}})
	}
	ds = append(ds,
		disguise{"separator:mixed", func(rng *rand.Rand, d string) string {
			seps := []string{" ", "-", ".", "/", "_", ",", ":", "\t", "\n", "·", "+", "'", "(", ")"}
			var b strings.Builder
			for i := 0; i < len(d); i++ {
				if i > 0 && rng.IntN(3) == 0 {
					b.WriteString(pick(rng, seps))
				}
				b.WriteByte(d[i])
			}
			return b.String()
		}},
		disguise{"separator:every-digit", func(rng *rand.Rand, d string) string {
			return strings.Join(strings.Split(d, ""), pick(rng, []string{" ", "-", ".", ", ", "\n"}))
		}},
		disguise{"separator:lines", func(_ *rand.Rand, d string) string { return "  " + strings.Join(grouped(d), "\n  ") + "\n" }},
	)
	for _, s := range []struct {
		name string
		zero rune
	}{{"fullwidth", 0xFF10}, {"arabic-indic", 0x0660}, {"ext-arabic-indic", 0x06F0}, {"devanagari", 0x0966},
		{"bengali", 0x09E6}, {"gurmukhi", 0x0A66}, {"gujarati", 0x0AE6}, {"oriya", 0x0B66}, {"tamil", 0x0BE6},
		{"telugu", 0x0C66}, {"kannada", 0x0CE6}, {"malayalam", 0x0D66}, {"thai", 0x0E50}, {"lao", 0x0ED0},
		{"tibetan", 0x0F20}, {"myanmar", 0x1040}, {"khmer", 0x17E0}, {"mongolian", 0x1810}, {"nko", 0x07C0},
		{"osmanya", 0x104A0}, {"adlam", 0x1E950}, {"math-bold", 0x1D7CE}, {"math-double-struck", 0x1D7D8},
		{"math-sans", 0x1D7E2}, {"math-monospace", 0x1D7F6}, {"segmented", 0x1FBF0}} {
		ds = append(ds, disguise{"digits:" + s.name, mapDigits(fromZero(s.zero))})
	}
	ds = append(ds,
		disguise{"digits:superscript", mapDigits(fromTable("⁰¹²³⁴⁵⁶⁷⁸⁹"))},
		disguise{"digits:subscript", mapDigits(fromTable("₀₁₂₃₄₅₆₇₈₉"))},
		disguise{"digits:circled", mapDigits(fromTable("⓪①②③④⑤⑥⑦⑧⑨"))},
		disguise{"digits:dingbat-circled", mapDigits(fromTable("⓿❶❷❸❹❺❻❼❽❾"))},
		disguise{"digits:double-circled", mapDigits(fromTable("⓪⓵⓶⓷⓸⓹⓺⓻⓼⓽"))},
		disguise{"digits:sans-circled", mapDigits(fromTable("🄋➀➁➂➃➄➅➆➇➈"))},
		disguise{"digits:full-stop", mapDigits(fromTable("🄀⒈⒉⒊⒋⒌⒍⒎⒏⒐"))},
		disguise{"digits:mixed-scripts", func(rng *rand.Rand, d string) string {
			zeros := []rune{'0', 0xFF10, 0x0660, 0x0966, 0x0E50, 0x1D7CE}
			return mapDigits(func(c byte) string { return fromZero(pick(rng, zeros))(c) })(rng, d)
		}},
	)
	for _, m := range [][2]string{{"low-line", "\u0332"}, {"long-stroke", "\u0336"}, {"keycap", "\u20e3"},
		{"emoji-keycap", "\ufe0f\u20e3"}, {"acute", "\u0301"}, {"overlay-solidus", "\u0338"}, {"dot-below", "\u0323"},
		{"enclosing-circle", "\u20dd"}, {"zero-width-space", "\u200b"}, {"zero-width-joiner", "\u200d"},
		{"soft-hyphen", "\u00ad"}, {"word-joiner", "\u2060"}, {"bom", "\ufeff"}, {"hangul-filler", "\u3164"},
		{"variation-selector", "\ufe0e"}, {"mongolian-vowel-separator", "\u180e"}, {"lrm", "\u200e"},
		{"combining-grapheme-joiner", "\u034f"}} {
		ds = append(ds, disguise{"marks:" + m[0], afterEach(m[1])})
	}
	return ds
}

// contexts are sentences a number is written into.
var corpusContexts = []string{"%s", "Card: %s exp 12/29", "pay with %s.", "Karte %s, gültig bis 08/28",
	"carte bancaire %s", "номер карты %s", "卡号%s", "カード番号：%s", "ref 12 %s end", "%s 2026", "(%s)",
	"VISA\n%s\nCVV on file", "Kreditkarte: %s / Inhaber Max Muster"}

func generateRefuseCorpus() []corpusItem {
	rng := rand.New(rand.NewPCG(17, 1))
	pans := corpusPANs(rng)
	var out []corpusItem
	add := func(cat, field, text string) { out = append(out, corpusItem{cat, field, text}) }
	for _, p := range pans {
		add("brand:"+p.brand, "any", fmt.Sprintf(pick(rng, corpusContexts), strings.Join(grouped(p.digits), " ")))
		add("brand:"+p.brand, "any", p.digits)
	}
	ds := corpusDisguises()
	for di, d := range ds {
		for k := 0; k < 10; k++ {
			p := pans[(di*7+k*13)%len(pans)]
			text := d.f(rng, p.digits)
			if k%3 == 1 {
				text = fmt.Sprintf(pick(rng, corpusContexts), text)
			}
			add(d.name, pick(rng, []string{"text", "any"}), text)
		}
	}
	// 13 to 15 digits in phone fields, written as phone numbers; a number
	// that is also a valid phone number of its country is not a test of
	// the rule (docs/security.md), so it is drawn again.
	for _, p := range pans {
		if len(p.digits) > 15 {
			continue
		}
		d := p.digits
		if validPhone("+" + d) {
			continue
		}
		for _, form := range []string{d, "+" + d, "00" + d, "+" + d[:2] + " " + d[2:5] + " " + d[5:9] + " " + d[9:],
			"(" + d[:3] + ") " + d[3:6] + "-" + d[6:10] + "-" + d[10:], "tel:+" + d[:3] + "-" + d[3:],
			d[:3] + " " + d[3:6] + " " + d[6:]} {
			add(fmt.Sprintf("phone-field:%d-digits", len(d)), "phone", form)
		}
	}
	// 16 to 19 digits with a "+" or exit code: never a phone number.
	for _, p := range pans {
		if len(p.digits) >= 16 && rng.IntN(2) == 0 {
			add("phone-field:16-19-digits", "phone", pick(rng, []string{"+", "00", "+ ", "tel:+"})+strings.Join(grouped(p.digits), " "))
		}
	}
	return out
}
