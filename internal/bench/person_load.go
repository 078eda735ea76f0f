package bench

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// LoadQuery is the "query" of target 4 (issue 15): GET /person/{recNo} of a
// typical demo person, one with communications, cards, tags and an action
// item, against sqlstore.DB.LoadPerson with the same user's scope.
const LoadQuery = "load: GET /person/{recNo}, typical person"

// typicalPerson is the first demo person (in recNo order) with at least one
// communication, card, tag and action item: what an agent opens.
func typicalPerson(ctx context.Context, db *sqlstore.DB, scope wayfarer.Scope) (int64, error) {
	recNos, err := typicalPersons(ctx, db, scope, 1)
	if err != nil {
		return 0, err
	}
	return recNos[0], nil
}

// typicalPersons are the first n such persons.
func typicalPersons(ctx context.Context, db *sqlstore.DB, scope wayfarer.Scope, n int) ([]int64, error) {
	crit, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(`{"includeCols":["recNo"],"rowCount":2000}`))
	if err != nil {
		return nil, err
	}
	res, err := db.SearchPersons(ctx, scope, crit)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, row := range res.Rows {
		recNo, ok := row[0].(int64)
		if !ok {
			return nil, fmt.Errorf("recNo is a %T", row[0])
		}
		p, err := db.LoadPerson(ctx, scope, recNo)
		if err != nil {
			return nil, err
		}
		if len(p.PersonCommunicationLink) > 0 && len(p.PersonCardLink) > 0 && len(p.PersonTag) > 0 && len(p.PersonActionItemLink) > 0 {
			if out = append(out, recNo); len(out) == n {
				return out, nil
			}
		}
	}
	return nil, fmt.Errorf("only %d of the first %d persons have communications, cards, tags and an action item; %d wanted", len(out), len(res.Rows), n)
}

// loadFuncs are the direct and HTTP loads of person recNo.
func loadFuncs(db *sqlstore.DB, scope wayfarer.Scope, client *http.Client, base, token string, recNo int64) (direct, overHTTP func(context.Context) (int, error)) {
	url := base + "/person/" + strconv.FormatInt(recNo, 10)
	direct = func(ctx context.Context) (int, error) {
		_, err := db.LoadPerson(ctx, scope, recNo)
		return 1, err
	}
	overHTTP = func(ctx context.Context) (int, error) {
		req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
		if err != nil {
			return 0, err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		_, err = roundTrip(client, req)
		return 1, err
	}
	return direct, overHTTP
}
