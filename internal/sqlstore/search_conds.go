package sqlstore

// The conditions of the person search parameters, as SQL fragments.

import (
	"strconv"
	"strings"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// StringCond is a StringSearchParam on a text column (see
// wayfarer.StringParam for the semantics: negative conditions are the
// complement of the positive ones, nulls included).
func StringCond(d Dialect, col string, p wayfarer.StringParam) Expr {
	pos, neg := p.Cond.Negated()
	var e Expr
	switch pos {
	case wayfarer.StrIgnore:
		return Expr{}
	case wayfarer.StrBlank:
		// On the folded value, the expression an index of the column
		// holds where there is one (the same rows: lower() keeps null and
		// empty as they are): a blank communication value nobody has was
		// a read of every communication (SQLite 0.96 s, PostgreSQL 0.38 s
		// at a million persons).
		f := d.Fold(col)
		e = E("(" + f + " IS NULL OR " + f + " = '')")
		if neg {
			return E("(" + col + " IS NOT NULL AND " + col + " <> '')")
		}
		return e
	case wayfarer.StrEqual, wayfarer.StrIn:
		e = FoldEquals(d, col, p.Values)
	case wayfarer.StrStartingWith:
		var es []Expr
		for _, v := range p.Values {
			es = append(es, FoldPrefix(d, col, v))
		}
		e = Or(es...)
	case wayfarer.StrContains:
		var es []Expr
		for _, v := range p.Values {
			es = append(es, FoldContains(d, col, v))
		}
		e = Or(es...)
	default:
		panic("sqlstore: unknown string condition " + strconv.Itoa(int(p.Cond)))
	}
	if neg {
		return Or(E(col+" IS NULL"), Not(e))
	}
	return e
}

// NumCond is a NumSearchParam on a numeric column.
func NumCond(col string, p wayfarer.NumParam) Expr {
	switch p.Cond {
	case wayfarer.NumEqual:
		return In(col, p.Values)
	case wayfarer.NumNotEqual:
		return Or(E(col+" IS NULL"), Not(In(col, p.Values)))
	case wayfarer.NumBlank:
		return E(col + " IS NULL")
	case wayfarer.NumNotBlank:
		return E(col + " IS NOT NULL")
	}
	return Expr{}
}

// DateCond bounds a DATE column by an inclusive range of days. Comparing
// with "YYYY-MM-DD" and the day after works whether a date is stored as a
// date, as that text, or as a timestamp text starting with it.
func DateCond(col string, r wayfarer.DateRange) Expr {
	var es []Expr
	if r.From != "" {
		es = append(es, E(col+" >= ?", r.From))
	}
	if r.To != "" {
		t, err := time.Parse(time.DateOnly, r.To)
		if err == nil {
			es = append(es, E(col+" < ?", t.AddDate(0, 0, 1).Format(time.DateOnly)))
		}
	}
	return join(" AND ", es)
}

// TimeCond bounds a timestamp column by a half-open range.
func TimeCond(col string, r wayfarer.TimeRange) Expr {
	var es []Expr
	if r.From != nil {
		es = append(es, E(col+" >= ?", r.From.UTC()))
	}
	if r.Before != nil {
		es = append(es, E(col+" < ?", r.Before.UTC()))
	}
	return join(" AND ", es)
}

// birthdayCond is the birthday range; see wayfarer.BirthdayRange.
func birthdayCond(b wayfarer.BirthdayRange) Expr {
	wrapped := func(col string, lo, hi int) Expr {
		if lo <= hi {
			return E(col+" BETWEEN ? AND ?", lo, hi)
		}
		return E("("+col+" >= ? OR "+col+" <= ?)", lo, hi)
	}
	switch {
	case !b.Active():
		return Expr{}
	case b.HasMonths() && b.HasDays():
		// Bounds on the month and on the day within the first and the last
		// month, which an index on (month, day) seeks by and both engines
		// estimate from each column's statistics. A key month*100+day did
		// neither: PostgreSQL guessed hundreds of persons born on February
		// 29 and walked all of them, finding nobody in 2 s at a million
		// persons, and SQLite's probe of December 20 to January 10 read all
		// of December (search_person_filters.go).
		ml, mh := b.Months()
		dl, dh := b.Days()
		first, last := E("(p.birthday_month = ? AND p.birthday_day >= ?)", ml, dl), E("(p.birthday_month = ? AND p.birthday_day <= ?)", mh, dh)
		if kl, kh := b.Keys(); kl > kh { // wraps the year end
			return And(E("p.birthday_day IS NOT NULL"), Or(first, E("p.birthday_month > ?", ml), E("p.birthday_month < ?", mh), last))
		}
		if ml == mh {
			return E("p.birthday_month = ? AND p.birthday_day BETWEEN ? AND ?", ml, dl, dh)
		}
		return And(E("p.birthday_day IS NOT NULL"), Or(first, E("(p.birthday_month > ? AND p.birthday_month < ?)", ml, mh), last))
	case b.HasMonths():
		ml, mh := b.Months()
		return wrapped("p.birthday_month", ml, mh)
	default:
		dl, dh := b.Days()
		return wrapped("p.birthday_day", dl, dh)
	}
}

func cardConds(d Dialect, c *wayfarer.SearchCriteria) []Expr {
	es, _ := cardCondsSeeking(c)
	return es
}

// cardCondsSeeking is cardConds and, for each, whether an index seeks it
// alone (the type's, a subType's of a positive condition, the expiry's:
// card_search_type, card_search_sub_type, card_search_expiration).
func cardCondsSeeking(c *wayfarer.SearchCriteria) (es []Expr, seeks []bool) {
	if len(c.CardType) > 0 {
		es, seeks = append(es, In("c.type", c.CardType)), append(seeks, true)
	}
	sub := c.CardSubType.Cond
	es = append(es, NumCond("c.sub_type", c.CardSubType), DateCond("c.expiration_date", c.CardExpiration))
	seeks = append(seeks, sub == wayfarer.NumEqual || sub == wayfarer.NumBlank, true)
	return es, seeks
}

func actionItemConds(d Dialect, c *wayfarer.SearchCriteria) []Expr {
	var es []Expr
	if c.ActionItemCompleted != nil {
		if *c.ActionItemCompleted {
			es = append(es, E("ai.completed IS NOT NULL"))
		} else {
			es = append(es, E("ai.completed IS NULL"))
		}
	}
	es = append(es, DateCond("ai.action_date", c.ActionItemDate), NumCond("ai.app_user_id", c.ActionItemAssignedTo))
	return es
}

func commConds(d Dialect, c *wayfarer.SearchCriteria) []Expr {
	var es []Expr
	if len(c.CommType) > 0 {
		es = append(es, In("cm.type", c.CommType))
	}
	return append(es, commValueCond(d, c.CommValue), StringCond(d, "cm.country_domain", c.CommValueCountryDomain),
		StringCond(d, "cm.city_area", c.CommValueCityArea), StringCond(d, "cm.user_specific", c.CommValueUserSpecific))
}

// commValueCond is the commValue filter on cm.value. On PostgreSQL a
// positive Contains asks the trigram index for at most three trigrams of
// the fragment (trigramPieces) and finds the fragment itself with strpos,
// which the index does not serve: given the whole fragment, pg_trgm
// searches every trigram of it, padded ones at its words' edges too ("  j"
// begins every word starting with j), and "ryan.jensen" read nine posting
// lists in 8-11 ms where three took 1.1-1.5 (BENCHMARKS.md). The pieces,
// apart and in the fragment's order, hold wherever the fragment does, so
// the rows are the same; so does the last trigram that a fragment of one
// piece also asks for in a condition of its own (lastTrigram).
func commValueCond(d Dialect, p wayfarer.StringParam) Expr {
	if !d.sparseTrigrams || p.Cond != wayfarer.StrContains {
		return StringCond(d, "cm.value", p)
	}
	var es []Expr
	for _, v := range p.Values {
		pieces := trigramPieces(v)
		if len(pieces) == 0 || len(pieces) == 1 && pieces[0] == v {
			es = append(es, FoldContains(d, "cm.value", v))
			continue
		}
		like, args := "lower(cm.value) LIKE '%'", make([]any, 0, len(pieces)+2)
		for _, piece := range pieces {
			like += " || lower(?) || '%'"
			args = append(args, piece)
		}
		if t := lastTrigram(v, pieces); t != "" {
			like += " AND lower(cm.value) LIKE '%' || lower(?) || '%'"
			args = append(args, t)
		}
		es = append(es, E(like+" AND strpos(lower(cm.value), lower(?)) > 0", append(args, v)...))
	}
	return Or(es...)
}

// trigramPieces picks up to three pieces of sub of three ASCII letters or
// digits each (pg_trgm reads such a piece between wildcards as exactly one
// trigram): the first, the last and the one nearest the middle, none
// overlapping another. None when sub has no such piece. A piece is never
// followed by a character outside ASCII within sub: a combining mark there
// can change how lower() folds the piece's last letter (ICU's Turkish
// rules fold "I" with a dot above to "i", a lone "I" to "ı"), and the piece
// must fold as it does inside the fragment.
func trigramPieces(sub string) []string {
	at := trigramStarts(sub)
	if len(at) == 0 {
		return nil
	}
	first, last, mid := at[0], at[len(at)-1], (len(sub)-3)/2
	picked := []int{first}
	middle := -1
	for _, i := range at {
		if i >= first+3 && i+3 <= last && (middle < 0 || abs(i-mid) < abs(middle-mid)) {
			middle = i
		}
	}
	if middle >= 0 {
		picked = append(picked, middle)
	}
	if last >= first+3 {
		picked = append(picked, last)
	}
	pieces := make([]string, len(picked))
	for k, i := range picked {
		pieces[k] = sub[i : i+3]
	}
	return pieces
}

// trigramStarts lists where in sub a piece of trigramPieces could start;
// ASCII bytes are whole characters in UTF-8.
func trigramStarts(sub string) []int {
	alnum := func(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	var at []int
	for i := 0; i+3 <= len(sub); i++ {
		if alnum(sub[i]) && alnum(sub[i+1]) && alnum(sub[i+2]) && (i+3 == len(sub) || sub[i+3] < 0x80) {
			at = append(at, i)
		}
	}
	return at
}

// lastTrigram is the trigram to ask the index for besides the one piece
// of a longer fragment sub (pieces, from trigramPieces), as a condition of
// its own since it overlaps the piece: sub's last, as trigramPieces would
// pick it; "" when it has no other. With one trigram the index offered
// every value holding it, and a common one cost what reading them does
// ("5551", whose "555" every demo phone number holds: 1.7 s at a million
// persons, 41 ms with "551"; "4711" 22 → 9 ms; "s4711@" 6.6 → 3.3 ms).
// pg_trgm ANDs a scan's trigrams from the rarest (GIN's fast scan), so a
// common one added costs little; a third, the middle, cost more than it
// saved where the three go together ("smith": 7.8, 9.4 and 11.4 ms for
// one, two and three).
func lastTrigram(sub string, pieces []string) string {
	if len(pieces) != 1 || pieces[0] == sub {
		return ""
	}
	at := trigramStarts(sub)
	if t := sub[at[len(at)-1]:][:3]; !strings.EqualFold(t, pieces[0]) {
		return t
	}
	return ""
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
