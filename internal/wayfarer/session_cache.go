package wayfarer

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Revocation names sessions to end or to read again: one session (TokenID
// set), every session of a user (UserID set), every session of an operator
// in every agency and the admin domain (OperatorID set), or every session
// of an agency (none set).
type Revocation struct {
	AgencyID, UserID, TokenID int64
	OperatorID                int64
}

func (r Revocation) matches(s *Session) bool {
	switch {
	case r.OperatorID != 0:
		return s.OperatorID == r.OperatorID
	case s.AgencyID != r.AgencyID:
		return false
	case r.TokenID != 0:
		return s.TokenID == r.TokenID
	case r.UserID != 0:
		return s.UserID == r.UserID
	}
	return true
}

// RevocationLog is the store's log of revocations, written in the same
// transaction as the change that caused each one, in commit order.
type RevocationLog interface {
	// LastRevocation is the sequence number of the newest revocation (0: none).
	LastRevocation(ctx context.Context) (int64, error)
	// RevocationsSince answers revocations after seq, oldest first, at
	// most limit of them, and the sequence number of the last one answered
	// (seq when none).
	RevocationsSince(ctx context.Context, seq int64, limit int) ([]Revocation, int64, error)
}

// SessionCacheConfig sizes the session cache.
type SessionCacheConfig struct {
	Size int // most sessions kept
	// TTL bounds how long a session is served from memory before it is read
	// again, whatever the revocation log says: the bound on a revocation
	// lost for any reason.
	TTL time.Duration
	// StaleAfter: when the revocation log has not been read successfully
	// for this long, the cache is not used (every request asks the store),
	// and once it is read again the cache starts empty.
	StaleAfter time.Duration
}

// SessionCache keeps live sessions in memory, so that a request's token
// check does not ask the store. It serves a session only while the
// revocation log has been followed recently (Follow), only for TTL after
// reading it, and never past its expiry. Revocations made through this
// instance apply at once (Revoke is called after their commit); those of
// other processes arrive through the log within its poll interval, or at
// once where the store wakes the follower (PostgreSQL NOTIFY).
type SessionCache struct {
	cfg   SessionCacheConfig
	clock Clock

	mu      sync.Mutex
	entries map[sessionCacheKey]cachedSession
	gen     uint64    // counts revocations applied: a read older than one is not kept
	synced  time.Time // when the log was last read up to its end
	inSync  bool
}

type sessionCacheKey struct{ agencyID, tokenID int64 }

type cachedSession struct {
	sess *Session
	read time.Time
}

// NewSessionCache returns an empty cache; it serves nothing until Follow
// has read the revocation log once.
func NewSessionCache(cfg SessionCacheConfig, clock Clock) *SessionCache {
	return &SessionCache{cfg: cfg, clock: clock, entries: map[sessionCacheKey]cachedSession{}}
}

func (c *SessionCache) usable(now time.Time) bool {
	return c.inSync && now.Sub(c.synced) <= c.cfg.StaleAfter
}

// Get answers the cached live session of a token, or false when the store
// must be asked. The returned session is shared: callers only read it.
func (c *SessionCache) Get(agencyID, tokenID int64, now time.Time) (*Session, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.usable(now) {
		return nil, false
	}
	k := sessionCacheKey{agencyID, tokenID}
	e, ok := c.entries[k]
	if !ok {
		return nil, false
	}
	if now.Sub(e.read) > c.cfg.TTL || !now.Before(e.sess.ExpiresAt) {
		delete(c.entries, k)
		return nil, false
	}
	return e.sess, true
}

// Generation is taken before reading a session from the store and handed
// to Put, which keeps the session only if no revocation came in between:
// a read that raced a revocation might hold what it revoked.
func (c *SessionCache) Generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// Put keeps a session read from the store at now.
func (c *SessionCache) Put(s *Session, gen uint64, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen || !c.usable(now) {
		return
	}
	if len(c.entries) >= c.cfg.Size {
		c.makeRoom(now)
		if len(c.entries) >= c.cfg.Size {
			return
		}
	}
	c.entries[sessionCacheKey{s.AgencyID, s.TokenID}] = cachedSession{sess: s, read: now}
}

// makeRoom drops sessions past their TTL or expiry, then, if that is not
// enough, an eighth of the rest.
func (c *SessionCache) makeRoom(now time.Time) {
	for k, e := range c.entries {
		if now.Sub(e.read) > c.cfg.TTL || !now.Before(e.sess.ExpiresAt) {
			delete(c.entries, k)
		}
	}
	for k := range c.entries {
		if len(c.entries) < c.cfg.Size-c.cfg.Size/8 {
			break
		}
		delete(c.entries, k)
	}
}

// Revoke drops the sessions the revocations name.
func (c *SessionCache) Revoke(revs ...Revocation) {
	if len(revs) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for _, r := range revs {
		if r.TokenID != 0 {
			delete(c.entries, sessionCacheKey{r.AgencyID, r.TokenID})
			continue
		}
		for k, e := range c.entries {
			if r.matches(e.sess) {
				delete(c.entries, k)
			}
		}
	}
}

// Len is how many sessions the cache holds.
func (c *SessionCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// markSynced records that the log has been read up to its end at now. A
// cache that had gone stale starts empty: it may have missed revocations.
func (c *SessionCache) markSynced(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.usable(now) {
		clear(c.entries)
		c.gen++
	}
	c.synced, c.inSync = now, true
}

// revocationBatch is how many revocations one read of the log takes.
const revocationBatch = 1000

// Follow reads the revocation log every interval, and at once when wake
// fires (nil: never), applying what it finds, until ctx ends. It starts at
// the log's current end: the cache is empty then.
func (c *SessionCache) Follow(ctx context.Context, log RevocationLog, interval time.Duration, wake <-chan struct{}, logger *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	var seq int64
	started, failing := false, false
	for {
		var err error
		if !started {
			if seq, err = log.LastRevocation(ctx); err == nil {
				started = true
			}
		} else {
			err = c.readLog(ctx, log, &seq)
		}
		switch {
		case err == nil:
			c.markSynced(c.clock.Now())
			if failing {
				logger.Info("session revocation log readable again; the session cache is in use")
			}
			failing = false
		case ctx.Err() == nil && !failing:
			// Logged once per outage; meanwhile the cache goes unused.
			logger.Warn("cannot read the session revocation log; sessions are read from the store", "error", err.Error())
			failing = true
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-wake:
		}
	}
}

// readLog applies every revocation after *seq.
func (c *SessionCache) readLog(ctx context.Context, log RevocationLog, seq *int64) error {
	for {
		revs, last, err := log.RevocationsSince(ctx, *seq, revocationBatch)
		if err != nil {
			return err
		}
		c.Revoke(revs...)
		*seq = last
		if len(revs) < revocationBatch {
			return nil
		}
	}
}
