package wayfarer

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

func TestClientKey(t *testing.T) {
	for in, want := range map[string]string{
		"10.0.0.1":                  "10.0.0.1",
		" 10.0.0.1 ":                "10.0.0.1",
		"::ffff:10.0.0.1":           "10.0.0.1",
		"2001:db8:1:2:3:4:5:6":      "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff::1":      "2001:db8:1:2::/64",
		"fe80::1%eth0":              "fe80::/64",
		"":                          "unknown",
		"not an address":            "unknown",
		"10.0.0.1:1234":             "unknown",
		"2001:db8:1:3:3:4:5:6":      "2001:db8:1:3::/64",
		"2001:0db8:0001:0002::0abc": "2001:db8:1:2::/64",
	} {
		if got := ClientKey(in); got != want {
			t.Errorf("ClientKey(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLockoutPolicyPerAddress(t *testing.T) {
	p := LockoutPolicy{MaxFailures: 5, MaxUserFailures: 50, Lockout: 15 * time.Minute}
	var all, addr LoginCounter
	for i := 1; i <= 5; i++ {
		if err := p.Attempt(&all, &addr, t0); err != nil {
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	// The fifth attempt locked the address; it was still let through.
	if err := p.Attempt(&all, &addr, t0); !errors.Is(err, errLockedOut) {
		t.Fatalf("sixth attempt: %v", err)
	}
	if all.Failures != 5 {
		t.Fatalf("a refused attempt must not count: %d", all.Failures)
	}
	// Another address of the same name is not locked.
	var other LoginCounter
	if err := p.Attempt(&all, &other, t0); err != nil {
		t.Fatalf("another address: %v", err)
	}
	// The lock ends after Lockout, and the count starts afresh.
	if err := p.Attempt(&all, &addr, t0.Add(15*time.Minute-time.Second)); !errors.Is(err, errLockedOut) {
		t.Fatalf("before the end of the lockout: %v", err)
	}
	if err := p.Attempt(&all, &addr, t0.Add(15*time.Minute)); err != nil || addr.Failures != 1 {
		t.Fatalf("after the lockout: %v, failures %d", err, addr.Failures)
	}
}

func TestLockoutPolicyRightPasswordTakesAttemptBack(t *testing.T) {
	p := LockoutPolicy{MaxFailures: 5, MaxUserFailures: 50, Lockout: 15 * time.Minute}
	var all, addr LoginCounter
	for range 4 {
		_ = p.Attempt(&all, &addr, t0)
	}
	// The fifth attempt, with the right password, locks and is let through;
	// its success ends the lock and starts the count over.
	if err := p.Attempt(&all, &addr, t0); err != nil || !addr.lockedAt(t0) {
		t.Fatalf("fifth: %v %+v", err, addr)
	}
	p.Succeeded(&all, &addr)
	if addr.Failures != 0 || addr.lockedAt(t0) || all.Failures != 4 {
		t.Fatalf("after success: addr %+v all %+v", addr, all)
	}
	for i := range 4 {
		if err := p.Attempt(&all, &addr, t0); err != nil {
			t.Fatalf("attempt %d after success: %v", i+1, err)
		}
	}
}

func TestLockoutPolicyAllAddresses(t *testing.T) {
	p := LockoutPolicy{MaxFailures: 5, MaxUserFailures: 12, Lockout: 15 * time.Minute}
	var all LoginCounter
	addrs := make([]LoginCounter, 10)
	n := 0
	for i := range addrs {
		for range 2 {
			err := p.Attempt(&all, &addrs[i], t0.Add(time.Duration(n)*time.Second))
			n++
			if n <= 12 && err != nil {
				t.Fatalf("attempt %d: %v", n, err)
			}
			if n > 12 && !errors.Is(err, errLockedOut) {
				t.Fatalf("attempt %d past the cap from a fresh address: %v", n, err)
			}
		}
	}
	// Locked for everybody for Lockout from the 12th attempt...
	var fresh LoginCounter
	if err := p.Attempt(&all, &fresh, t0.Add(11*time.Second+15*time.Minute-time.Millisecond)); !errors.Is(err, errLockedOut) {
		t.Fatalf("still locked: %v", err)
	}
	// ...then a new window begins.
	if err := p.Attempt(&all, &fresh, t0.Add(11*time.Second+15*time.Minute)); err != nil || all.Failures != 1 {
		t.Fatalf("after the lock: %v %+v", err, all)
	}
	// The window forgets: 11 attempts, a window later 11 more, never locked.
	all = LoginCounter{}
	for w := range 2 {
		for i := range 11 {
			var a LoginCounter
			if err := p.Attempt(&all, &a, t0.Add(time.Duration(w)*16*time.Minute+time.Duration(i)*time.Second)); err != nil {
				t.Fatalf("window %d attempt %d: %v", w, i, err)
			}
		}
	}
}

func TestLockoutPolicyOff(t *testing.T) {
	p := LockoutPolicy{Lockout: time.Minute}
	var all, addr LoginCounter
	for i := range 100 {
		if err := p.Attempt(&all, &addr, t0); err != nil {
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
}

func TestFailureLimiter(t *testing.T) {
	l := NewFailureLimiter(30, 1000)
	for i := range 30 {
		if ok, _ := l.Allow("10.0.0.1", t0); !ok {
			t.Fatalf("failure %d refused", i+1)
		}
		l.Fail("10.0.0.1", t0)
	}
	ok, retry := l.Allow("10.0.0.1", t0)
	if ok || retry != 2*time.Second {
		t.Fatalf("31st: %v, retry %s (want 2s: 30 a minute)", ok, retry)
	}
	if ok, _ := l.Allow("10.0.0.2", t0); !ok {
		t.Fatal("another address is refused")
	}
	if ok, _ := l.Allow("10.0.0.1", t0.Add(time.Second)); ok {
		t.Fatal("half a failure's refill is not enough")
	}
	if ok, _ := l.Allow("10.0.0.1", t0.Add(2*time.Second)); !ok {
		t.Fatal("refilled after 2s")
	}
}

func TestFailureLimiterParallelLoginsAndDebt(t *testing.T) {
	l := NewFailureLimiter(30, 1000)
	// Forty logins at once from one office: none has failed, none is refused.
	for i := range 40 {
		if ok, _ := l.Allow("10.0.0.1", t0); !ok {
			t.Fatalf("parallel login %d refused", i+1)
		}
	}
	// Forty failures at once: ten beyond the budget become debt, paid back
	// before the next login (ten failures' worth plus one: 22 s).
	for range 40 {
		l.Fail("10.0.0.1", t0)
	}
	if ok, retry := l.Allow("10.0.0.1", t0); ok || retry != 22*time.Second {
		t.Fatalf("after 40 failures: %v, retry %s", ok, retry)
	}
	// Debt is bounded: a minute's worth.
	for range 1000 {
		l.Fail("10.0.0.2", t0)
	}
	if ok, retry := l.Allow("10.0.0.2", t0); ok || retry != time.Minute+2*time.Second {
		t.Fatalf("after 1000 failures: %v, retry %s", ok, retry)
	}
}

func TestFailureLimiterMemoryIsBounded(t *testing.T) {
	l := NewFailureLimiter(30, 100)
	for i := range 10_000 {
		addr := fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255)
		l.Allow(addr, t0)
		l.Fail(addr, t0)
		if l.Len() > 100 {
			t.Fatalf("%d addresses remembered after %d", l.Len(), i+1)
		}
	}
	// Refilled buckets are dropped first: a busy address keeps its state
	// when room is needed.
	l = NewFailureLimiter(30, 100)
	for i := range 99 {
		l.Fail(fmt.Sprintf("idle-%d", i), t0.Add(-2*time.Second)) // refilled by t0
	}
	for range 30 {
		l.Fail("busy", t0)
	}
	l.Fail("newcomer", t0)
	if l.Len() != 2 {
		t.Fatalf("%d addresses after making room, want busy and the newcomer", l.Len())
	}
	if ok, _ := l.Allow("busy", t0.Add(time.Second)); ok {
		t.Fatal("the busy address's budget was forgotten")
	}
}

func TestHashGate(t *testing.T) {
	ctx := context.Background()
	g := NewHashGate(2, time.Millisecond, 1)
	r1, ok1 := g.Acquire(ctx)
	r2, ok2 := g.Acquire(ctx)
	if !ok1 || !ok2 {
		t.Fatal("two slots")
	}
	if _, ok := g.Acquire(ctx); ok {
		t.Fatal("a third check got a slot")
	}
	r1()
	r3, ok := g.Acquire(ctx)
	if !ok {
		t.Fatal("a released slot is free")
	}
	r2()
	r3()
	// No wait at all: answered at once.
	g = NewHashGate(1, 0, 10)
	r, _ := g.Acquire(ctx)
	if _, ok := g.Acquire(ctx); ok {
		t.Fatal("no slot, no wait")
	}
	r()
	// A wait ends with the slot when it frees up in time.
	g = NewHashGate(1, time.Minute, 10)
	r, _ = g.Acquire(ctx)
	got := make(chan bool)
	go func() { _, ok := g.Acquire(ctx); got <- ok }()
	for g.waiting.Load() == 0 {
		runtime.Gosched()
	}
	r()
	if !<-got {
		t.Fatal("the waiting check did not get the freed slot")
	}
	// Beyond maxWaiting, no one waits.
	g = NewHashGate(1, time.Minute, 1)
	r, _ = g.Acquire(ctx)
	cctx, cancel := context.WithCancel(ctx)
	go func() { _, ok := g.Acquire(cctx); got <- ok }()
	for g.waiting.Load() == 0 {
		runtime.Gosched()
	}
	if _, ok := g.Acquire(ctx); ok {
		t.Fatal("a second waiter beyond maxWaiting got a slot")
	}
	cancel()
	if <-got {
		t.Fatal("a canceled wait got a slot")
	}
	r()
	var nilGate *HashGate
	if _, ok := nilGate.Acquire(ctx); !ok {
		t.Fatal("no gate admits everything")
	}
}
