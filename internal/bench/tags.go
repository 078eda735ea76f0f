package bench

import (
	"context"
	"regexp"
	"strconv"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
)

// Target 7 of issue 15: tag filters with the demo's distribution. A query
// names a demo tag as {tag:Name}; the run puts in its recNo, which differs
// from one database to the next.

var tagRef = regexp.MustCompile(`\{tag:([^}]+)\}`)

// WithTagIDs is body with every {tag:Name} replaced by that tag's recNo in
// the agency.
func WithTagIDs(ctx context.Context, db *sqlstore.DB, agencyID int64, body string) (string, error) {
	var err error
	out := tagRef.ReplaceAllStringFunc(body, func(m string) string {
		id, e := db.EnsureTag(ctx, agencyID, tagRef.FindStringSubmatch(m)[1])
		if e != nil {
			err = e
			return m
		}
		return strconv.FormatInt(id, 10)
	})
	return out, err
}
