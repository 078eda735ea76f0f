package postgres_test

import (
	"context"
	"encoding/json"
	"testing"
)

// TestCardTypeStatistics: the planner knows which subTypes go with which
// card type (migration 00024), so a pair no card has is estimated as
// nobody's, not as the product of the two columns' shares: taken as
// independent, "a travel document of subType 3" was guessed for thousands
// of cards at a million persons, and the search walked every person for a
// page (past the 5 s limit).
func TestCardTypeStatistics(t *testing.T) {
	ctx := context.Background()
	db, _ := openFresh(t)
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	pg := db.Primary()
	var agency int64
	if err := pg.QueryRowContext(ctx, `INSERT INTO agency (alias, name, status, created_at) VALUES ('STATS', 'Stats', 1, now()) RETURNING rec_no`).Scan(&agency); err != nil {
		t.Fatal(err)
	}
	// As the demo's: credit cards without a subType, loyalty cards of
	// subTypes 1-3, travel documents of subType 1.
	if _, err := pg.ExecContext(ctx, `INSERT INTO card (agency_id, type, sub_type, card_number)
		SELECT $1, t, CASE t WHEN 1 THEN NULL WHEN 2 THEN 1 + (i / 3) % 3 ELSE 1 END, 'N-' || i
		FROM generate_series(1, 9000) i, LATERAL (SELECT 1 + i % 3 AS t) x`, agency); err != nil {
		t.Fatal(err)
	}
	if _, err := pg.ExecContext(ctx, `ANALYZE card`); err != nil {
		t.Fatal(err)
	}
	estimate := func(cond string) float64 {
		t.Helper()
		var plan []map[string]map[string]any
		var raw []byte
		if err := pg.QueryRowContext(ctx, `EXPLAIN (FORMAT JSON) SELECT 1 FROM card WHERE agency_id = $1 AND `+cond, agency).Scan(&raw); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &plan); err != nil {
			t.Fatal(err)
		}
		return plan[0]["Plan"]["Plan Rows"].(float64)
	}
	if n := estimate("type = 3 AND sub_type = 3"); n > 10 {
		t.Errorf("travel documents of subType 3 (none): estimated %v cards, want about none", n)
	}
	if n := estimate("type = 2 AND sub_type = 3"); n < 500 || n > 2000 {
		t.Errorf("loyalty cards of subType 3 (1,000): estimated %v cards", n)
	}
}
