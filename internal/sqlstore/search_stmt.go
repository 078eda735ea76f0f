package sqlstore

import (
	"container/list"
	"context"
	"database/sql"
	"sync"
)

// searchStmts keeps the prepared statements of recent searches: the search
// SQL is long, and SQLite spends a good part of a fast search parsing it.
// Statements are keyed by handle and text; the least recently used is
// closed beyond the limit.
var searchStmts = newStmtCache(256)

type stmtKey struct {
	db  *sql.DB
	sql string
}

type stmtCache struct {
	mu    sync.Mutex
	max   int
	ll    *list.List // front: most recent; values are *stmtEntry
	items map[stmtKey]*list.Element
}

type stmtEntry struct {
	key  stmtKey
	stmt *sql.Stmt
}

func newStmtCache(max int) *stmtCache {
	return &stmtCache{max: max, ll: list.New(), items: map[stmtKey]*list.Element{}}
}

// get returns the prepared statement of query on db, preparing it once.
func (c *stmtCache) get(ctx context.Context, db *sql.DB, query string) (*sql.Stmt, error) {
	k := stmtKey{db, query}
	c.mu.Lock()
	if e, ok := c.items[k]; ok {
		c.ll.MoveToFront(e)
		st := e.Value.(*stmtEntry).stmt
		c.mu.Unlock()
		return st, nil
	}
	c.mu.Unlock()
	st, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok { // prepared meanwhile by another request
		st.Close()
		c.ll.MoveToFront(e)
		return e.Value.(*stmtEntry).stmt, nil
	}
	c.items[k] = c.ll.PushFront(&stmtEntry{k, st})
	for c.ll.Len() > c.max {
		old := c.ll.Back()
		c.ll.Remove(old)
		ent := old.Value.(*stmtEntry)
		delete(c.items, ent.key)
		// In-flight queries keep a closed statement usable until they end.
		ent.stmt.Close()
	}
	return st, nil
}
