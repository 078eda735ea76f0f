package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// Target 3 of issue 15: deep pages and full walks, by continuation
// (docs/search.md, "Walking every person").

// ContinuedQuery is query d by continuation: the page of 50 after row
// 100,000, asked with the continuation of row 100,000 instead of
// startingRow.
const ContinuedQuery = "d, continued: the page after row 100000 by continuation"

const continuedBody = `{"includeCols":["recNo","name"],"rowCount":50}`

// continuedRow is the row query ContinuedQuery continues after: 100,000,
// or half the persons of a smaller agency (a smoke test).
func continuedRow(persons int64) int64 { return min(100_000, max(persons/2, 1)) }

// continuedAfter is body with the continuation after row n (1-based) of
// its search, as scope sees it.
func continuedAfter(ctx context.Context, db *sqlstore.DB, scope wayfarer.Scope, body string, n int64) (string, error) {
	crit, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(body))
	if err != nil {
		return "", err
	}
	crit.StartingRow, crit.RowCount = n-1, 1
	res, err := db.SearchPersons(ctx, scope, crit)
	if err != nil {
		return "", err
	}
	if res.Continuation == "" {
		return "", fmt.Errorf("the search has fewer than %d rows", n)
	}
	return strings.TrimSuffix(body, "}") + fmt.Sprintf(`,"continuation":%q}`, res.Continuation), nil
}

// WalkResult is one walk through every person of the agency.
type WalkResult struct {
	PageSize    int
	Pages, Rows int
	Took        time.Duration
}

// walk reads every person over HTTP in pages of size, each page continuing
// the previous one.
func walk(ctx context.Context, client *http.Client, base, token string, size int) (WalkResult, error) {
	res := WalkResult{PageSize: size}
	start := time.Now()
	cont := ""
	for {
		body := fmt.Sprintf(`{"includeCols":["recNo","name"],"rowCount":%d`, size)
		if cont != "" {
			body += fmt.Sprintf(`,"continuation":%q`, cont)
		}
		req, err := http.NewRequestWithContext(ctx, "POST", base+"/personSearch", bytes.NewBufferString(body+"}"))
		if err != nil {
			return res, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			return res, err
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return res, err
		}
		res.Pages++
		if resp.StatusCode == 204 {
			break
		}
		if resp.StatusCode != 200 {
			return res, fmt.Errorf("walk page %d: status %d: %s", res.Pages, resp.StatusCode, b)
		}
		res.Rows += bytes.Count(b, []byte(`"recNo"`))
		if cont = resp.Header.Get("X-Wayfarer-Continuation"); cont == "" {
			break
		}
	}
	res.Took = time.Since(start)
	return res, nil
}
