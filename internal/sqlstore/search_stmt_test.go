package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	_ "modernc.org/sqlite"
)

func TestStmtCacheEvictsOnlyUnused(t *testing.T) {
	h, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	c := newStmtCache(2)
	ctx := context.Background()
	held, release, err := c.get(ctx, h, "SELECT 1")
	if err != nil {
		t.Fatal(err)
	}
	for i := 2; i < 6; i++ { // pushes "SELECT 1" out while it is held
		_, rel, err := c.get(ctx, h, fmt.Sprintf("SELECT %d", i))
		if err != nil {
			t.Fatal(err)
		}
		rel()
	}
	var v int
	if err := held.QueryRow().Scan(&v); err != nil || v != 1 {
		t.Fatalf("held statement: %v %d", err, v)
	}
	release()
	if err := held.QueryRow().Scan(&v); err == nil {
		t.Error("evicted statement still open after release")
	}
	if len(c.items) != 2 || c.ll.Len() != 2 {
		t.Errorf("cache holds %d", len(c.items))
	}
	again, rel, err := c.get(ctx, h, "SELECT 5")
	if err != nil || again.QueryRow().Scan(&v) != nil || v != 5 {
		t.Errorf("cached statement: %v", err)
	}
	rel()
}
