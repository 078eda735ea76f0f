package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// SaveQuery is the save of target 4 (issue 15): POST /person changing one
// field (the remarks) of a typical demo person, as a client that loaded it
// sends it (the whole person on both sides), against "direct", the
// engine's own single-row UPDATE of that column (prepared, committed on
// its own) with the same durability setting. It writes, so it runs only
// when named (--queries save); each concurrent client saves persons of its
// own, taken from a pool, so that no save is stale.
const SaveQuery = "save: POST /person, one field of a typical person"

// WriteQueries are the benchmarks that change the database: run only when
// Select names them.
var WriteQueries = []Query{{SaveQuery, "admin", ""}}

// savePool is the number of persons the saves take turns on: more than the
// highest concurrency anyone measures.
const savePool = 64

// heldPerson is a person as the client last saved it: its JSON fields,
// and encoded (nil: not yet), the old side of its next save.
type heldPerson struct {
	recNo    int64
	last     map[string]any
	lastJSON []byte
}

// saveFuncs are the engine's UPDATE and the HTTP save of one field, each
// call on a person of the pool that no other call holds meanwhile.
func saveFuncs(ctx context.Context, db *sqlstore.DB, scope wayfarer.Scope, client *http.Client, base, token string) (direct, overHTTP func(context.Context) (int, error), err error) {
	recNos, err := typicalPersons(ctx, db, scope, savePool)
	if err != nil {
		return nil, nil, err
	}
	pool := make(chan *heldPerson, len(recNos))
	for _, recNo := range recNos {
		req, err := http.NewRequestWithContext(ctx, "GET", base+"/person/"+strconv.FormatInt(recNo, 10), nil)
		if err != nil {
			return nil, nil, err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		b, err := roundTrip(client, req)
		if err != nil {
			return nil, nil, err
		}
		var ps []map[string]any
		if err := json.Unmarshal(b, &ps); err != nil || len(ps) != 1 {
			return nil, nil, fmt.Errorf("person %d: want an array of one person: %v", recNo, err)
		}
		pool <- &heldPerson{recNo: recNo, last: ps[0]}
	}
	update, err := db.Primary().PrepareContext(ctx, db.Dialect.Rebind(`UPDATE person SET remarks = ? WHERE agency_id = ? AND rec_no = ?`))
	if err != nil {
		return nil, nil, err
	}
	context.AfterFunc(ctx, func() { update.Close() })
	var n atomic.Int64
	remarks := func() string { return "bench " + strconv.FormatInt(n.Add(1), 10) }
	changed := func(p *heldPerson) map[string]any {
		next := make(map[string]any, len(p.last))
		for k, v := range p.last {
			next[k] = v
		}
		next["remarks"] = remarks()
		return next
	}
	direct = func(ctx context.Context) (int, error) {
		p := <-pool
		defer func() { pool <- p }()
		next := changed(p)
		if _, err := update.ExecContext(ctx, next["remarks"], scope.AgencyID, p.recNo); err != nil {
			return 0, err
		}
		p.last, p.lastJSON = next, nil // what the client's next save has as old
		return 1, nil
	}
	overHTTP = func(ctx context.Context) (int, error) {
		p := <-pool
		defer func() { pool <- p }()
		next := changed(p)
		if p.lastJSON == nil {
			last, err := json.Marshal(p.last)
			if err != nil {
				return 0, err
			}
			p.lastJSON = last
		}
		nextJSON, err := json.Marshal(next)
		if err != nil {
			return 0, err
		}
		body := fmt.Appendf(nil, `{"oldNewDataset":{"oldData":[%s],"newData":[%s]}}`, p.lastJSON, nextJSON)
		req, err := http.NewRequestWithContext(ctx, "POST", base+"/person", bytes.NewReader(body))
		if err != nil {
			return 0, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		if _, err := roundTrip(client, req); err != nil {
			return 0, err
		}
		p.last, p.lastJSON = next, nextJSON
		return 1, nil
	}
	return direct, overHTTP, nil
}
