package wayfarer

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// HashGate admits password checks: at most a fixed number run at once, a
// login waits a short while for a free slot, and only a bounded number
// wait at all. A slow hash (argon2id, 64 MiB) on every core at once would
// stall every other request; a login that finds no slot is answered 429
// instead of queueing without bound.
type HashGate struct {
	slots      chan struct{}
	wait       time.Duration
	maxWaiting int64
	waiting    atomic.Int64
}

// NewHashGate admits slots checks at once; others wait up to wait, at most
// maxWaiting of them.
func NewHashGate(slots int, wait time.Duration, maxWaiting int) *HashGate {
	return &HashGate{slots: make(chan struct{}, max(slots, 1)), wait: wait, maxWaiting: int64(max(maxWaiting, 0))}
}

// Acquire takes a slot, waiting up to the gate's wait; ok is false when
// none freed up in time (or too many wait already). release gives the slot
// back.
func (g *HashGate) Acquire(ctx context.Context) (release func(), ok bool) {
	if g == nil {
		return func() {}, true
	}
	select {
	case g.slots <- struct{}{}:
		return g.release, true
	default:
	}
	if g.wait <= 0 {
		return nil, false
	}
	if g.waiting.Add(1) > g.maxWaiting {
		g.waiting.Add(-1)
		return nil, false
	}
	defer g.waiting.Add(-1)
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return g.release, true
	case <-t.C:
	case <-ctx.Done():
	}
	return nil, false
}

func (g *HashGate) release() { <-g.slots }

// Slots is how many checks run at once.
func (g *HashGate) Slots() int { return cap(g.slots) }

// FailureLimiter bounds failed logins per client address, in memory of one
// instance: a token bucket per address holding up to perMinute failures
// and refilling at perMinute a minute. A login is let in while its address
// has a failure left (Allow) and charged when it fails (Fail). Logins in
// flight are not charged, so an office's parallel logins are never
// refused for failures they have not made; parallel failures beyond the
// budget put the bucket in debt (down to a minute's worth), which the
// address pays back before its next login, so the rate holds over time.
// Memory is bounded: only addresses that failed have a bucket, a full
// bucket says nothing and is dropped when room is needed, and beyond
// maxAddresses arbitrary ones are forgotten (an attacker with that many
// addresses is stopped by the lockout counters and the hash gate).
type FailureLimiter struct {
	perMinute    float64
	maxAddresses int

	mu      sync.Mutex
	buckets map[string]*failureBucket
}

type failureBucket struct {
	tokens float64
	at     time.Time // when tokens was last brought up to date
}

// NewFailureLimiter allows perMinute failed logins a minute per address,
// remembering at most maxAddresses addresses.
func NewFailureLimiter(perMinute, maxAddresses int) *FailureLimiter {
	return &FailureLimiter{perMinute: float64(max(perMinute, 1)), maxAddresses: max(maxAddresses, 1),
		buckets: map[string]*failureBucket{}}
}

func (l *FailureLimiter) refill(b *failureBucket, now time.Time) {
	if now.After(b.at) {
		b.tokens = math.Min(l.perMinute, b.tokens+now.Sub(b.at).Minutes()*l.perMinute)
		b.at = now
	}
}

// Allow reports whether addr may try a login now; when not, how long
// until it may.
func (l *FailureLimiter) Allow(addr string, now time.Time) (bool, time.Duration) {
	if l == nil {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[addr]
	if b == nil {
		return true, 0
	}
	l.refill(b, now)
	if b.tokens < 1 {
		return false, time.Duration((1 - b.tokens) / l.perMinute * float64(time.Minute))
	}
	return true, 0
}

// Fail charges addr one failed login.
func (l *FailureLimiter) Fail(addr string, now time.Time) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[addr]
	if b == nil {
		l.makeRoom(now)
		b = &failureBucket{tokens: l.perMinute, at: now}
		l.buckets[addr] = b
	}
	l.refill(b, now)
	b.tokens = math.Max(b.tokens-1, -l.perMinute)
}

// makeRoom keeps the map under maxAddresses: first it drops buckets that
// have refilled (they hold nothing a missing one would not), then, if that
// is not enough, an eighth of the rest, so the work is paid once per many
// insertions.
func (l *FailureLimiter) makeRoom(now time.Time) {
	if len(l.buckets) < l.maxAddresses {
		return
	}
	for k, b := range l.buckets {
		if l.refill(b, now); b.tokens >= l.perMinute {
			delete(l.buckets, k)
		}
	}
	for k := range l.buckets {
		if len(l.buckets) < l.maxAddresses-l.maxAddresses/8 {
			break
		}
		delete(l.buckets, k)
	}
}

// Len is how many addresses the limiter remembers.
func (l *FailureLimiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}
