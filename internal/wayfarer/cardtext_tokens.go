package wayfarer

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Step 4 of the card-number-in-text rule: what a number that looks like a
// card may be instead. It runs only on text that holds a candidate (rare),
// so it is written for clarity rather than speed. Each recognizer claims
// whole groups of a run; a candidate all of whose groups are claimed is not
// a card number. The shapes are strict (valid dates and times, a phone
// number valid for its country, an IBAN with its check digits), so the
// digits of a card number written as a card number are never all claimed.

// digitGroup is a group of digits written together, with its byte offsets
// in the normalized text and the index of its run.
type digitGroup struct {
	start, end int
	run        int
	claimed    bool
	phone      bool // part of a valid phone number
}

// textScan is normalized text cut into runs and groups.
type textScan struct {
	s           string
	phone       bool // the text is a phone number: a bare international number is one
	groups      []digitGroup
	runStart    []int // byte offset where each run starts
	lookahead   bool  // recognizing a token only to see whether one starts here
	phoneChecks int   // phone numbers parsed so far (maxPhoneChecks)
}

func scanText(s string, phone bool) *textScan {
	t := &textScan{s: s, phone: phone, runStart: []int{0}}
	run := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= '0' && c <= '9' {
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			t.groups = append(t.groups, digitGroup{start: i, end: j, run: run})
			i = j
			continue
		}
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		if isLetter(r) && len(t.groups) > 0 && t.groups[len(t.groups)-1].run == run {
			run++
			t.runStart = append(t.runStart, i)
		} else if isLetter(r) {
			t.runStart[run] = i
		}
	}
	t.claimIBANs()
	for i := 0; i < len(t.groups); {
		n := t.claimAt(i)
		for k := i; k < i+n; k++ {
			t.groups[k].claimed = true
		}
		i += max(n, 1)
	}
	return t
}

func isLetter(r rune) bool {
	if r < utf8.RuneSelf {
		return isASCIILetter(byte(r))
	}
	return unicode.IsLetter(r)
}

// unexplainedCard reports whether some candidate has a group nothing
// claims. Candidates are tried as in hasCardCandidate: sequences of whole
// groups, a leading "00" counting as a group of its own. A valid phone
// number is taken whole: a candidate reaching into one from outside is
// digits of two things, not a card number.
func (t *textScan) unexplainedCard() bool {
	type unit struct {
		group  int
		digits string
	}
	var units []unit
	for i := range t.groups {
		d := t.digits(i)
		if len(d) > 2 && d[:2] == "00" {
			units = append(units, unit{i, "00"})
			d = d[2:]
		}
		units = append(units, unit{i, d})
	}
	var digits []byte
	for a := range units {
		digits = digits[:0]
		claimed := true
		var p iinPrefixes
		for b := a; b < len(units) && t.groups[units[b].group].run == t.groups[units[a].group].run; b++ {
			g := t.groups[units[b].group]
			if g.phone {
				break
			}
			for _, c := range []byte(units[b].digits) {
				digits = append(digits, c)
				p.add(c - '0')
			}
			if len(digits) > cardMaxDigits {
				break
			}
			claimed = claimed && g.claimed
			if len(digits) >= cardMinDigits && !claimed && luhnValid(string(digits)) && issuedCard(&p, len(digits)) {
				return true
			}
		}
	}
	return false
}

func (t *textScan) digits(i int) string { return t.s[t.groups[i].start:t.groups[i].end] }

// inRun reports whether groups i..i+k exist and share a run.
func (t *textScan) inRun(i, k int) bool {
	return i+k < len(t.groups) && t.groups[i].run == t.groups[i+k].run
}

// sepBefore is the text between group i and the group before it in its run,
// or the start of the run.
func (t *textScan) sepBefore(i int) string {
	if i > 0 && t.groups[i-1].run == t.groups[i].run {
		return t.s[t.groups[i-1].end:t.groups[i].start]
	}
	return t.s[t.runStart[t.groups[i].run]:t.groups[i].start]
}

func (t *textScan) firstInRun(i int) bool { return i == 0 || t.groups[i-1].run != t.groups[i].run }

// bounded reports whether groups i..j are not glued by one of seps to a
// group before or after: "41.11" in "41.11.11" is not a time. A dash or
// slash may join two tokens, a range or list: "10:30-2025-12-24".
func (t *textScan) bounded(i, j int, seps string) bool {
	if t.lookahead {
		return true
	}
	glued := func(sep string) bool { return len(sep) == 1 && strings.IndexByte(seps, sep[0]) >= 0 }
	joins := func(sep string) bool { return sep == "-" || sep == "/" }
	if !t.firstInRun(i) {
		if sep := t.sepBefore(i); glued(sep) && !(joins(sep) && t.groups[i-1].claimed) {
			return false
		}
	}
	if !t.inRun(j, 1) {
		return true
	}
	sep := t.sepBefore(j + 1)
	return !glued(sep) || joins(sep) && t.startsToken(j+1)
}

// claimAt tries the recognizers at group i and returns how many groups
// from i the first that matches claims (0: none). In a phone field only a
// phone number explains digits: a value there is not a date, an amount or
// a ticket.
func (t *textScan) claimAt(i int) int {
	if !t.lookahead {
		if n := t.phoneAt(i); n > 0 || t.phone {
			return n
		}
	}
	for _, f := range []func(int) int{t.dateAt, t.ticketAt, t.amountAt, t.timeAt, t.decimalAt, t.codeAt} {
		if n := f(i); n > 0 {
			return n
		}
	}
	return 0
}

// singleSep returns the separator between groups i-1 and i of one run when
// it is a single one of chars.
func (t *textScan) singleSep(i int, chars string) (byte, bool) {
	if i >= len(t.groups) || t.firstInRun(i) {
		return 0, false
	}
	sep := t.sepBefore(i)
	if len(sep) != 1 || strings.IndexByte(chars, sep[0]) < 0 {
		return 0, false
	}
	return sep[0], true
}

func num(s string) int { v, _ := atoiDigits(s); return v }

func validYear(y string) bool { return len(y) == 4 && num(y) >= 1900 && num(y) <= 2099 }

func validMonthDay(m, d string) bool {
	return num(m) >= 1 && num(m) <= 12 && num(d) >= 1 && num(d) <= 31
}

// dateAt: d.m.yyyy, m/d/yy, yyyy-mm-dd (one of . / - twice) and yyyymmdd.
func (t *textScan) dateAt(i int) int {
	a := t.digits(i)
	if len(a) == 8 && validYear(a[:4]) && validMonthDay(a[4:6], a[6:]) {
		return 1
	}
	if !t.inRun(i, 2) {
		return 0
	}
	s1, ok1 := t.singleSep(i+1, ".-/")
	s2, ok2 := t.singleSep(i+2, ".-/")
	if !ok1 || !ok2 || s1 != s2 {
		return 0
	}
	b, c := t.digits(i+1), t.digits(i+2)
	var ok bool
	switch {
	case len(a) == 4:
		ok = validYear(a) && len(b) <= 2 && len(c) <= 2 && validMonthDay(b, c)
	case len(a) <= 2 && len(b) <= 2 && (len(c) == 2 || validYear(c)):
		ok = validMonthDay(b, a) || validMonthDay(a, b)
	}
	if !ok || !t.bounded(i, i+2, string(s1)) {
		return 0
	}
	return 3
}

// timeAt: h:mm, h:mm:ss, h.mm, and d.m (day and month without a year).
func (t *textScan) timeAt(i int) int {
	if !t.inRun(i, 1) {
		return 0
	}
	sep, ok := t.singleSep(i+1, ":.")
	a, b := t.digits(i), t.digits(i+1)
	if !ok || len(a) > 2 || len(b) != 2 {
		return 0
	}
	time := num(a) <= 24 && num(b) <= 59
	if !time && !(sep == '.' && validMonthDay(b, a)) {
		return 0
	}
	n := 2
	if s, ok := t.singleSep(i+2, ":"); time && sep == ':' && ok && s == ':' && t.inRun(i, 2) &&
		len(t.digits(i+2)) == 2 && num(t.digits(i+2)) <= 59 {
		n = 3
	}
	if !t.bounded(i, i+n-1, string(sep)) {
		return 0
	}
	return n
}

// amountAt: 1,234,567.89, 1.234,56, 1'234.50, 1 200,00, 85116415.76 — two
// decimals required, at most nine digits before them.
func (t *textScan) amountAt(i int) int {
	a := t.digits(i)
	if len(a) > 9 {
		return 0
	}
	j, thousands := i, byte(0)
	for len(a) <= 3 && t.inRun(j, 1) && len(t.digits(j+1)) == 3 && len(a)+3*(j-i+1) <= 9 {
		sep, ok := t.singleSep(j+1, ",. '")
		if !ok || thousands != 0 && sep != thousands {
			break
		}
		thousands = sep
		j++
	}
	if !t.inRun(j, 1) || len(t.digits(j+1)) != 2 {
		return 0
	}
	dec, ok := t.singleSep(j+1, ".,")
	seps := string(dec)
	if thousands != 0 {
		seps += string(thousands)
	}
	if !ok || dec == thousands || !t.bounded(i, j+1, seps) {
		return 0
	}
	return j + 2 - i
}

// decimalAt: 48.137154, -74,005974: a coordinate or measurement.
func (t *textScan) decimalAt(i int) int {
	if !t.inRun(i, 1) {
		return 0
	}
	sep, ok := t.singleSep(i+1, ".,")
	a, b := t.digits(i), t.digits(i+1)
	if !ok || len(a) > 3 || len(b) < 4 || len(b) > 8 || !t.bounded(i, i+1, string(sep)) {
		return 0
	}
	return 2
}

// ticketAt: an airline ticket (e-ticket, EMD) number: a three-digit airline
// code and ten digits, "176-2345678901", optionally a coupon or check digit
// ("-1", "/2"); glued ("1762345678901") only after a word for ticket.
func (t *textScan) ticketAt(i int) int {
	a := t.digits(i)
	if (len(a) == 13 || len(a) == 14) && t.firstInRun(i) && ticketWordBefore(t.s[:t.runStart[t.groups[i].run]]) {
		return 1
	}
	if len(a) != 3 || !t.inRun(i, 1) || len(t.digits(i+1)) != 10 {
		return 0
	}
	sep, ok := t.singleSep(i+1, "- /")
	if !ok {
		return 0
	}
	n := 2
	if _, ok := t.singleSep(i+2, "-/"); ok && t.inRun(i, 2) && len(t.digits(i+2)) <= 2 {
		n = 3
	}
	if !t.bounded(i, i+n-1, string(sep)) {
		return 0
	}
	return n
}

var ticketWords = map[string]bool{
	"ticket": true, "tkt": true, "etkt": true, "tktt": true, "tkne": true, "eticket": true,
	"ticketnummer": true, "ticketnr": true, "flugschein": true, "billet": true, "biglietto": true,
	"billete": true, "boleto": true, "bilhete": true, "bilet": true, "билет": true, "emd": true,
}

var numberWords = map[string]bool{"no": true, "nr": true, "number": true, "num": true, "nummer": true,
	"numero": true, "número": true, "n": true, "nº": true}

// ticketWordBefore reports whether text ends with a word for ticket, maybe
// followed by one for number ("Ticket no.:", "e-ticket #").
func ticketWordBefore(text string) bool {
	w, rest := lastWord(text)
	if numberWords[w] {
		w, _ = lastWord(rest)
	}
	return ticketWords[w]
}

// lastWord returns the last word of text, lower-cased, skipping what follows
// it if that is not a digit, and the text before the word.
func lastWord(text string) (word, before string) {
	end := len(text)
	for end > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:end])
		if isLetter(r) {
			break
		}
		if r >= '0' && r <= '9' {
			return "", ""
		}
		end -= size
	}
	start := end
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:start])
		if !isLetter(r) {
			break
		}
		start -= size
	}
	return strings.ToLower(text[start:end]), text[:start]
}

// codeAt: up to four digits written together with letters, part of a code
// or word ("LH400", "12A", "4LRTT3"). Letters end runs, so such a group is
// only ever the first or last of its run; the groups between stay unclaimed.
func (t *textScan) codeAt(i int) int {
	g := t.groups[i]
	if g.end-g.start > 4 {
		return 0
	}
	before, _ := utf8.DecodeLastRuneInString(t.s[:g.start])
	after, _ := utf8.DecodeRuneInString(t.s[g.end:])
	if g.start > 0 && isLetter(before) || g.end < len(t.s) && isLetter(after) {
		return 1
	}
	return 0
}
