package wayfarer

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"
)

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func testCache(size int) (*SessionCache, *fakeClock) {
	clock := &fakeClock{t: t0}
	c := NewSessionCache(SessionCacheConfig{Size: size, TTL: 30 * time.Second, StaleAfter: 5 * time.Second}, clock)
	c.markSynced(clock.Now())
	return c, clock
}

func cachedTestSession(agency, user, token int64) *Session {
	return &Session{AgencyID: agency, UserID: user, TokenID: token, ExpiresAt: t0.Add(30 * time.Minute)}
}

func TestSessionCacheServesUntilTTLAndExpiry(t *testing.T) {
	c, clock := testCache(10)
	c.Put(cachedTestSession(1, 1, 1), c.Generation(), clock.Now())
	if _, ok := c.Get(1, 1, clock.Now()); !ok {
		t.Fatal("a session just put is not served")
	}
	if _, ok := c.Get(2, 1, clock.Now()); ok {
		t.Fatal("served under another agency")
	}
	clock.Advance(30*time.Second + time.Nanosecond)
	c.markSynced(clock.Now())
	if _, ok := c.Get(1, 1, clock.Now()); ok {
		t.Fatal("served past its TTL")
	}
	// Expiry is judged on every Get.
	s := cachedTestSession(1, 1, 2)
	s.ExpiresAt = clock.Now().Add(time.Second)
	c.Put(s, c.Generation(), clock.Now())
	clock.Advance(time.Second)
	c.markSynced(clock.Now())
	if _, ok := c.Get(1, 2, clock.Now()); ok {
		t.Fatal("served at its expiry")
	}
}

func TestSessionCacheRevocations(t *testing.T) {
	c, clock := testCache(10)
	now := clock.Now()
	for _, s := range []*Session{cachedTestSession(1, 1, 1), cachedTestSession(1, 1, 2), cachedTestSession(1, 2, 3), cachedTestSession(2, 3, 4), cachedTestSession(2, 4, 5)} {
		c.Put(s, c.Generation(), now)
	}
	c.Revoke(Revocation{AgencyID: 1, TokenID: 1})
	if _, ok := c.Get(1, 1, now); ok {
		t.Fatal("revoked token served")
	}
	if _, ok := c.Get(1, 2, now); !ok {
		t.Fatal("another token of the user dropped by a token revocation")
	}
	c.Revoke(Revocation{AgencyID: 1, UserID: 1})
	if _, ok := c.Get(1, 2, now); ok {
		t.Fatal("a revoked user's session served")
	}
	if _, ok := c.Get(1, 3, now); !ok {
		t.Fatal("another user's session dropped")
	}
	c.Revoke(Revocation{AgencyID: 2})
	if c.Len() != 1 {
		t.Fatalf("after revoking agency 2: %d sessions left, want 1", c.Len())
	}
}

func TestSessionCacheDropsReadsThatRacedARevocation(t *testing.T) {
	c, clock := testCache(10)
	gen := c.Generation() // a request starts reading the store...
	c.Revoke(Revocation{AgencyID: 1, UserID: 1})
	c.Put(cachedTestSession(1, 1, 1), gen, clock.Now()) // ...and may hold what was revoked
	if c.Len() != 0 {
		t.Fatal("a read older than a revocation was kept")
	}
}

func TestSessionCacheUnusedWhileTheLogIsNotFollowed(t *testing.T) {
	clock := &fakeClock{t: t0}
	c := NewSessionCache(SessionCacheConfig{Size: 10, TTL: time.Minute, StaleAfter: 5 * time.Second}, clock)
	c.Put(cachedTestSession(1, 1, 1), c.Generation(), clock.Now())
	if c.Len() != 0 {
		t.Fatal("cached before the log was read once")
	}
	c.markSynced(clock.Now())
	c.Put(cachedTestSession(1, 1, 1), c.Generation(), clock.Now())
	clock.Advance(6 * time.Second) // the log has not been read for longer than StaleAfter
	if _, ok := c.Get(1, 1, clock.Now()); ok {
		t.Fatal("served while the log is stale")
	}
	c.markSynced(clock.Now())
	if c.Len() != 0 {
		t.Fatal("a cache that went stale must start empty")
	}
}

func TestSessionCacheIsBounded(t *testing.T) {
	c, clock := testCache(64)
	for i := range int64(1000) {
		c.Put(cachedTestSession(1, i, i+1), c.Generation(), clock.Now())
		if c.Len() > 64 {
			t.Fatalf("%d sessions after %d puts", c.Len(), i+1)
		}
	}
}

type fakeLog struct {
	mu   sync.Mutex
	revs []Revocation
	fail error
}

func (l *fakeLog) LastRevocation(context.Context) (int64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return int64(len(l.revs)), l.fail
}

func (l *fakeLog) RevocationsSince(_ context.Context, seq int64, limit int) ([]Revocation, int64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fail != nil {
		return nil, seq, l.fail
	}
	end := min(int(seq)+limit, len(l.revs))
	return append([]Revocation(nil), l.revs[seq:end]...), int64(end), nil
}

func TestSessionCacheFollowsTheLog(t *testing.T) {
	clock := &fakeClock{t: t0}
	c := NewSessionCache(SessionCacheConfig{Size: 10, TTL: time.Minute, StaleAfter: 5 * time.Second}, clock)
	log := &fakeLog{revs: make([]Revocation, 2500)} // older revocations are not replayed
	wake := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Follow(ctx, log, time.Hour, wake, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for range 1000 {
			if cond() {
				return
			}
			wake <- struct{}{}
		}
		t.Fatalf("never: %s", what)
	}
	waitFor("first sync", func() bool { c.mu.Lock(); defer c.mu.Unlock(); return c.inSync })
	c.Put(cachedTestSession(1, 1, 1), c.Generation(), clock.Now())
	c.Put(cachedTestSession(1, 2, 2), c.Generation(), clock.Now())
	log.mu.Lock()
	log.revs = append(log.revs, make([]Revocation, 1500)...) // more than one batch
	log.revs = append(log.revs, Revocation{AgencyID: 1, UserID: 1})
	log.mu.Unlock()
	waitFor("revocation applied", func() bool { _, ok := c.Get(1, 1, clock.Now()); return !ok })
	if _, ok := c.Get(1, 2, clock.Now()); !ok {
		t.Fatal("an unrevoked session dropped")
	}
	// A log that cannot be read: the cache goes unused after StaleAfter.
	log.mu.Lock()
	log.fail = errors.New("database gone")
	log.mu.Unlock()
	wake <- struct{}{}
	clock.Advance(6 * time.Second)
	if _, ok := c.Get(1, 2, clock.Now()); ok {
		t.Fatal("served while the log cannot be read")
	}
	cancel()
	<-done
}
