package sqlstore

import (
	"container/list"
	"context"
	"database/sql"
	"sync"
)

// preparedStmts keeps the prepared statements of recent queries: SQLite
// spends a good part of a fast query parsing and planning its text.
// Statements are keyed by handle and text; beyond the limit the least
// recently used is closed, once no query uses it any more.
var preparedStmts = newStmtCache(256)

// prepared returns query prepared on h (a handle of db), prepared once per
// handle and text, and the function to call when done with it. For queries
// run often whose text does not vary with input.
func (db *DB) prepared(ctx context.Context, h *sql.DB, query string) (*sql.Stmt, func(), error) {
	return preparedStmts.get(ctx, h, db.Dialect.Rebind(query))
}

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
	key     stmtKey
	stmt    *sql.Stmt
	users   int  // queries holding the statement
	evicted bool // out of the cache: close when the last user is done
}

func newStmtCache(max int) *stmtCache {
	return &stmtCache{max: max, ll: list.New(), items: map[stmtKey]*list.Element{}}
}

// get returns the prepared statement of query on db and its release.
func (c *stmtCache) get(ctx context.Context, db *sql.DB, query string) (*sql.Stmt, func(), error) {
	k := stmtKey{db, query}
	c.mu.Lock()
	if e, ok := c.items[k]; ok {
		c.ll.MoveToFront(e)
		ent := e.Value.(*stmtEntry)
		ent.users++
		c.mu.Unlock()
		return ent.stmt, c.release(ent), nil
	}
	c.mu.Unlock()
	st, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil, nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok { // prepared meanwhile by another query
		st.Close()
		c.ll.MoveToFront(e)
		ent := e.Value.(*stmtEntry)
		ent.users++
		return ent.stmt, c.release(ent), nil
	}
	ent := &stmtEntry{key: k, stmt: st, users: 1}
	c.items[k] = c.ll.PushFront(ent)
	for c.ll.Len() > c.max {
		old := c.ll.Back()
		c.ll.Remove(old)
		o := old.Value.(*stmtEntry)
		delete(c.items, o.key)
		o.evicted = true
		if o.users == 0 {
			o.stmt.Close()
		}
	}
	return st, c.release(ent), nil
}

func (c *stmtCache) release(ent *stmtEntry) func() {
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		ent.users--
		if ent.evicted && ent.users == 0 {
			ent.stmt.Close()
		}
	}
}
