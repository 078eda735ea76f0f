package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// probeContains sizes up a positive commValue Contains on PostgreSQL whose
// trigram pieces (commValueCond) are one piece of a longer fragment: the
// agency's communications whose value holds the fragment, found through the
// trigram index as the search's own condition finds them, up to
// trigramLimit of them. When there are no more, it returns their recNos as
// a JSON array and the search starts from them (searchWhere), as it does on
// SQLite; else "" and the planner decides as before.
//
// The planner guesses how many communications pass from the pieces alone:
// it cannot see through strpos. With one piece that guess can be far too
// high: for "s4711@" (piece "s47") it expected 7,749 communications where
// 1,722 held the piece and one the fragment, walked the persons in name
// order for 50 of them and tested every one of a million: 4 s ("4711": past
// the 5 s limit). Sized up, those searches took 3.5 and 22 ms.
//
// Not sized up: a fragment with two or three pieces ("ryan.jensen"), whose
// pattern of pieces the planner guesses from its statistics as any LIKE
// (low for a rare one: it starts from the candidates by itself; the probe
// cost such a search a millisecond more at a million persons); one that is
// its own piece ("son"), guessed as well as the index could tell, whose
// probe would cost what the search does when it is common (the trigram
// index answers with all its rows at once: 98,234 for "son", 10-20 ms
// before the first one); one with no piece ("@ex"), which the index cannot
// serve.
//
// many reports that the probe ran and found more than trigramLimit: the
// planner's guess, whatever it is, says nothing more (search_walk.go).
func (db *DB) probeContains(ctx context.Context, handle *sql.DB, agencyID int64, c *wayfarer.SearchCriteria) (ids string, many bool, err error) {
	p := c.CommValue
	if p.Cond != wayfarer.StrContains || len(p.Values) == 0 {
		return "", false, nil
	}
	guessed := false // from one piece, for a longer fragment
	for _, v := range p.Values {
		pieces := trigramPieces(v)
		if len(pieces) == 0 {
			return "", false, nil
		}
		guessed = guessed || len(pieces) == 1 && pieces[0] != v
	}
	if !guessed {
		return "", false, nil
	}
	ids, err = db.listComms(ctx, handle, agencyID, c)
	return ids, err == nil && ids == "", err
}

// probeStartingWith sizes up a positive commValue StartingWith on
// PostgreSQL: the persons of the agency's communications passing the
// search's communication filter, through the value index, up to
// trigramLimit of them. When there are no more, it returns them as a JSON
// array and the search starts from them (searchWhere); else "" and the
// planner decides as before. The planner guesses a prefix's rows from the
// value index's histogram, at least a bucket's worth: for a prefix nobody
// has ("jq") it expected 3,884 persons, walked the persons in name order
// for a page and tested every one of a million (3.8 s; 2 ms sized up).
// A common prefix costs the probe its 2,001 index entries.
func (db *DB) probeStartingWith(ctx context.Context, handle *sql.DB, agencyID int64, c *wayfarer.SearchCriteria) (string, error) {
	if c.CommValue.Cond != wayfarer.StrStartingWith || len(c.CommValue.Values) == 0 {
		return "", nil
	}
	return db.listCommPersons(ctx, handle, agencyID, c, db.newCandidateList())
}

// listComms lists the recNos of the agency's communications whose value
// passes search c's commValue filter, through the trigram index as the
// search's own condition finds them, up to trigramLimit of them: a JSON
// array, or "" when there are more.
func (db *DB) listComms(ctx context.Context, handle *sql.DB, agencyID int64, c *wayfarer.SearchCriteria) (string, error) {
	cond := commValueCond(db.Dialect, c.CommValue)
	return db.listIDs(ctx, handle, "SELECT cm.rec_no FROM communication cm WHERE cm.agency_id = ? AND "+cond.SQL,
		append([]any{agencyID}, cond.Args...), db.newCandidateList())
}

// listCommPersons lists the persons (recNos, once per matching
// communication) that have a communication of the agency passing search
// c's communication filter, every condition of it on the one row, up to
// list's limit of such communications: a JSON array, or "" when there are
// more. Starting from the persons, the search need not read those rows
// again (PostgreSQL, "jensen" at a million: 53 ms from 12,808 persons,
// 151 ms from their communications).
func (db *DB) listCommPersons(ctx context.Context, handle *sql.DB, agencyID int64, c *wayfarer.SearchCriteria, list *candidateList) (string, error) {
	conds := And(commConds(db.Dialect, c)...)
	return db.listIDs(ctx, handle, "SELECT cm.person_id FROM communication cm WHERE cm.agency_id = ? AND "+conds.SQL,
		append([]any{agencyID}, conds.Args...), list)
}

// listIDs reads the ids query selects (args its arguments, without the
// LIMIT it is given here) into list. PostgreSQL plans it for its values
// (searchPlansFor): planned once for any fragment, it read the whole
// trigram index for one of two letters, which the index cannot serve (2.7
// s at a million persons, against a read of the communications in 1.1).
func (db *DB) listIDs(ctx context.Context, handle *sql.DB, query string, args []any, list *candidateList) (string, error) {
	var steps []ReadStep
	if plans := db.searchPlansFor(false); plans != "" {
		steps = append(steps, db.searchPlansStep(plans))
	}
	err := db.readSteps(ctx, handle, append(steps, ReadStep{SQL: db.q(query + " LIMIT ?"), Args: append(args, list.limit+1), Row: func(r RowScanner) error {
		var id int64
		if err := r.Scan(&id); err != nil {
			return err
		}
		list.add(id)
		return nil
	}}))
	if err != nil {
		return "", fmt.Errorf("person search: commValue matches: %w", err)
	}
	return list.json(), nil
}

// commEstimate is the planner's guess (PostgreSQL) of how many of the
// agency's communications pass search c's communication filter.
func (db *DB) commEstimate(ctx context.Context, handle *sql.DB, agencyID int64, c *wayfarer.SearchCriteria) (float64, error) {
	conds := And(append([]Expr{E("cm.agency_id = ?", agencyID)}, commConds(db.Dialect, c)...)...)
	var plan []byte
	err := db.readSteps(ctx, handle, []ReadStep{{SQL: db.q("EXPLAIN (FORMAT JSON) SELECT 1 FROM communication cm WHERE " + conds.SQL),
		Args: conds.Args, Row: func(r RowScanner) error { return r.Scan(&plan) }}})
	if err != nil {
		return 0, fmt.Errorf("person search: commValue estimate: %w", err)
	}
	var explained []struct {
		Plan struct {
			Rows float64 `json:"Plan Rows"`
		}
	}
	if err := json.Unmarshal(plan, &explained); err != nil || len(explained) != 1 {
		return 0, fmt.Errorf("person search: commValue estimate: unexpected plan %.200q", plan)
	}
	return explained[0].Plan.Rows, nil
}
