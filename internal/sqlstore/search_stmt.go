package sqlstore

import (
	"container/list"
	"context"
	"database/sql"
	"sync"
	"time"
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
	// warmers bounds the statements being prepared in the background
	// (warm) at once.
	warmers chan struct{}
}

type stmtEntry struct {
	key     stmtKey
	stmt    *sql.Stmt
	users   int  // queries holding the statement
	evicted bool // out of the cache: close when the last user is done
}

func newStmtCache(max int) *stmtCache {
	return &stmtCache{max: max, ll: list.New(), items: map[stmtKey]*list.Element{}, warmers: make(chan struct{}, 2)}
}

// cached returns query's statement on db and its release when the cache
// holds it, without preparing it.
func (c *stmtCache) cached(db *sql.DB, query string) (*sql.Stmt, func(), bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[stmtKey{db, query}]
	if !ok {
		return nil, nil, false
	}
	c.ll.MoveToFront(e)
	ent := e.Value.(*stmtEntry)
	ent.users++
	return ent.stmt, c.release(ent), true
}

// warm prepares query on db in the background, for the next caller; with
// as many already being prepared as warmers holds, it leaves query to a
// later miss.
func (c *stmtCache) warm(db *sql.DB, query string) {
	select {
	case c.warmers <- struct{}{}:
	default:
		return
	}
	go func() {
		defer func() { <-c.warmers }()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, done, err := c.get(ctx, db, query); err == nil {
			done()
		}
	}()
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
	// Statements are closed outside the lock: closing one waits for each
	// connection it is prepared on, and a transaction can hold one for
	// seconds (a SQLite BEGIN waiting for the write lock); under the lock,
	// every query needing the cache, those transactions' own among them,
	// would wait too.
	c.mu.Lock()
	if e, ok := c.items[k]; ok { // prepared meanwhile by another query
		c.ll.MoveToFront(e)
		ent := e.Value.(*stmtEntry)
		ent.users++
		c.mu.Unlock()
		st.Close()
		return ent.stmt, c.release(ent), nil
	}
	ent := &stmtEntry{key: k, stmt: st, users: 1}
	c.items[k] = c.ll.PushFront(ent)
	var unused []*sql.Stmt
	for c.ll.Len() > c.max {
		old := c.ll.Back()
		c.ll.Remove(old)
		o := old.Value.(*stmtEntry)
		delete(c.items, o.key)
		o.evicted = true
		if o.users == 0 {
			unused = append(unused, o.stmt)
		}
	}
	c.mu.Unlock()
	for _, u := range unused {
		u.Close()
	}
	return st, c.release(ent), nil
}

func (c *stmtCache) release(ent *stmtEntry) func() {
	return func() {
		c.mu.Lock()
		ent.users--
		last := ent.evicted && ent.users == 0
		c.mu.Unlock()
		if last { // outside the lock, as in get
			ent.stmt.Close()
		}
	}
}
