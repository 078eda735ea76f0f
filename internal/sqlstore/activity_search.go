package sqlstore

// The activity search, and the activity filter of the person search
// (personActivitySearchParams): one set of conditions for both.

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// activityLinkedPerson is the person an activity of alias a links to (at
// most one: the link is a singleton).
func activityLinkedPerson(a string) string {
	return "(SELECT pl.person_id FROM activity_person_link pl WHERE pl.agency_id = " + a + ".agency_id AND pl.activity_id = " + a + ".rec_no)"
}

// activityConds are the filters of c on the activities of alias a.
func activityConds(d Dialect, a string, c *wayfarer.ActivityCriteria) []Expr {
	w := []Expr{
		NumCond(a+".rec_no", c.RecNo),
		NumCond(a+".app_user_id", c.AppUserRecNo),
		NumCond(a+".type", c.Type),
		StringCond(d, a+".subject", c.Subject),
		DateCond(a+".target_date", c.TargetDate),
		TimeCond(a+".target_date_time", c.TargetDateTime),
		TimeCond(a+".create_date_time", c.Created),
		TimeCond(a+".last_modified_date_time", c.Modified),
	}
	if c.PersonRecNo.Active() {
		w = append(w, NumCond(activityLinkedPerson(a), c.PersonRecNo))
	}
	if c.Completed != nil {
		if *c.Completed {
			w = append(w, E(a+".completion_date_time IS NOT NULL"))
		} else {
			w = append(w, E(a+".completion_date_time IS NULL"))
		}
	}
	for i, tg := range c.Tags {
		at, t := a+"t"+strconv.Itoa(i), a+"g"+strconv.Itoa(i)
		es := []Expr{E(at+".tag_id = ?", *tg.TagRecNo)}
		if tg.TagName != nil {
			es = append(es, FoldEquals(d, t+".name", []string{*tg.TagName}))
		}
		es = append(es, StringCond(d, at+".value", tg.Value))
		prefix := "EXISTS (SELECT 1 FROM activity_tag " + at + " JOIN tag " + t + " ON " + t + ".agency_id = " + at + ".agency_id AND " +
			t + ".rec_no = " + at + ".tag_id WHERE " + at + ".agency_id = " + a + ".agency_id AND " + at + ".activity_id = " + a + ".rec_no AND "
		if !tg.Checked {
			prefix = "NOT " + prefix
		}
		w = append(w, Wrap(prefix, And(es...), ")"))
	}
	return w
}

// personActivityFilter is personActivitySearchParams as a filter on the
// person's child rows (search_child.go): a link to an activity in reach
// that passes every activity filter. Sized up on SQLite like the others,
// so that "my open tasks due this week" starts from those few activities
// (index activity_user_date) instead of walking every person.
func personActivityFilter(d Dialect, c *wayfarer.SearchCriteria) (childFilter, bool) {
	if c.PersonActivity == nil {
		return childFilter{}, false
	}
	conds := append(activityReach(d, "act", c.ActivityScope)[1:], activityConds(d, "act", c.PersonActivity)...)
	return childFilter{key: "activity", from: "activity_person_link apl JOIN activity act ON act.agency_id = apl.agency_id AND act.rec_no = apl.activity_id",
		agency: "apl.agency_id", person: "apl.person_id", conds: nonZero(conds)}, true
}

// activityColumnSQL is the SQL of each activity search column over the
// aliases a (activity), u (its app user) and pn (its person); columns
// Wayfarer has no data for are NULL.
func activityColumnSQL(d Dialect, name string) string {
	switch name {
	case "recNo":
		return "a.rec_no"
	case "tags":
		return "(SELECT string_agg(t2.name || CASE WHEN at2.value IS NULL OR at2.value = '' THEN '' ELSE '=' || at2.value END, '; ' ORDER BY " +
			d.Fold("t2.name") + ", at2.rec_no) FROM activity_tag at2 JOIN tag t2 ON t2.agency_id = at2.agency_id AND t2.rec_no = at2.tag_id" +
			" WHERE at2.agency_id = a.agency_id AND at2.activity_id = a.rec_no)"
	case "createDateTime":
		return "a.create_date_time"
	case "lastModifiedDateTime":
		return "a.last_modified_date_time"
	case "type":
		return "a.type"
	case "appUser_recNo":
		return "a.app_user_id"
	case "appUserId":
		return "u.user_name"
	case "subject":
		return "a.subject"
	case "priority":
		return "a.priority"
	case "targetDateTime":
		return "a.target_date_time"
	case "targetDate":
		return "a.target_date"
	case "completionDateTime":
		return "a.completion_date_time"
	case "personRecNo":
		return "pn.rec_no"
	case "personName":
		return personNameSQL(d, "pn")
	case "remarks":
		return "a.remarks"
	}
	return "NULL"
}

// SearchActivities runs an activity search within reach, ordered by recNo.
func (db *DB) SearchActivities(ctx context.Context, sc wayfarer.ActivityScope, c *wayfarer.ActivityCriteria) (_ *wayfarer.SearchResult, err error) {
	res := &wayfarer.SearchResult{Columns: c.Columns, Total: -1}
	if c.TopRows > 0 && c.StartingRow >= c.TopRows {
		if c.HasColumn("summaryCount") {
			res.Total = 0
		}
		return res, nil
	}
	ctx, end := db.bound(ctx)
	defer end(&err)
	d := db.Dialect
	var cols []Expr
	for i, col := range c.Columns {
		cols = append(cols, E(activityColumnSQL(d, col.Name)+" AS s"+strconv.Itoa(i)))
	}
	base := Select{
		Columns: cols,
		From:    E("activity a"),
		Joins: []Expr{
			E("LEFT JOIN app_user u ON u.agency_id = a.agency_id AND u.rec_no = a.app_user_id"),
			E("LEFT JOIN activity_person_link l ON l.agency_id = a.agency_id AND l.activity_id = a.rec_no"),
			E("LEFT JOIN person pn ON pn.agency_id = l.agency_id AND pn.rec_no = l.person_id"),
		},
		Where: append(activityReach(d, "a", sc), activityConds(d, "a", c)...),
	}
	var limit *int64
	if c.TopRows > 0 {
		l := max(c.TopRows-c.StartingRow, 0)
		limit = &l
	}
	if c.RowCount > 0 && (limit == nil || c.RowCount < *limit) {
		l := c.RowCount
		limit = &l
	}
	rowsQ := base
	rowsQ.OrderBy = []Expr{E("a.rec_no")}
	rowsQ.Limit, rowsQ.Offset = limit, c.StartingRow
	cnt := base
	cnt.Columns, cnt.Joins = []Expr{E("COUNT(*)")}, nil
	err = db.read(ctx, db.primary, func(q personQuerier) error {
		query, args := rowsQ.Build(d)
		rows, err := q.QueryContext(ctx, query, args...)
		if err != nil {
			return fmt.Errorf("activity search: %w", err)
		}
		defer rows.Close()
		if res.Rows, err = scanSearchRows(rows, c.Columns); err != nil {
			return fmt.Errorf("activity search: %w", err)
		}
		if !c.HasColumn("summaryCount") || len(res.Rows) == 0 {
			return nil
		}
		ce := cnt.Expr()
		if err := q.QueryRowContext(ctx, d.Rebind(ce.SQL), ce.Args...).Scan(&res.Total); err != nil {
			return fmt.Errorf("activity search count: %w", err)
		}
		if c.TopRows > 0 && res.Total > c.TopRows {
			res.Total = c.TopRows
		}
		for i, col := range c.Columns {
			if col.Name == "summaryCount" {
				for _, r := range res.Rows {
					r[i] = res.Total
				}
			}
		}
		return nil
	})
	return res, err
}

// scanSearchRows reads rows of the columns, converted to their wire values.
func scanSearchRows(rows *sql.Rows, columns []wayfarer.SearchColumn) ([]wayfarer.SearchRow, error) {
	n := len(columns)
	raw, dest := make([]any, n), make([]any, n)
	for i := range raw {
		dest[i] = &raw[i]
	}
	var out []wayfarer.SearchRow
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		row := make(wayfarer.SearchRow, n)
		for i, col := range columns {
			v, err := searchValue(col, raw[i])
			if err != nil {
				return nil, fmt.Errorf("column %s: %w", col.Name, err)
			}
			row[i] = v
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

// replaceAlias rewrites the table alias from in an SQL text to to: every
// "from." not preceded by a letter, digit, underscore or dot.
func replaceAlias(sqlText, from, to string) string {
	pat := from + "."
	var b []byte
	for i := 0; i < len(sqlText); i++ {
		if i+len(pat) <= len(sqlText) && sqlText[i:i+len(pat)] == pat && (i == 0 || !aliasChar(sqlText[i-1])) {
			b = append(b, to...)
			b = append(b, '.')
			i += len(pat) - 1
			continue
		}
		b = append(b, sqlText[i])
	}
	return string(b)
}

func aliasChar(c byte) bool {
	return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
