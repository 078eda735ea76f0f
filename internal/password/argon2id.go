// Package password hashes passwords with argon2id (RFC 9106) in the PHC
// string format, so parameters can change without invalidating old hashes.
package password

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Params are argon2id cost parameters.
type Params struct {
	MemoryKiB   uint32
	Iterations  uint32
	Parallelism uint8
	SaltLen     uint32
	KeyLen      uint32
}

// DefaultParams follow RFC 9106's second recommended option (64 MiB), with
// three passes and parallelism 2 for the 2-core machines we target.
var DefaultParams = Params{MemoryKiB: 64 * 1024, Iterations: 3, Parallelism: 2, SaltLen: 16, KeyLen: 32}

// Hasher implements wayfarer.PasswordHasher. Concurrent hashes are capped so
// a burst of logins cannot claim MemoryKiB each without bound.
type Hasher struct {
	Params Params
	slots  chan struct{}
	dummy  string
	worker *Worker // nil: keys are derived in this process
}

// New returns a hasher running at most maxConcurrent hashes at once.
func New(p Params, maxConcurrent int) *Hasher {
	if maxConcurrent < 1 {
		maxConcurrent = 1
	}
	h := &Hasher{Params: p, slots: make(chan struct{}, maxConcurrent)}
	h.dummy, _ = h.Hash("wayfarer-dummy-password")
	return h
}

// Hash returns the PHC string of password under a fresh salt.
func (h *Hasher) Hash(password string) (string, error) {
	salt := make([]byte, h.Params.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := h.derive([]byte(password), salt, h.Params)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version,
		h.Params.MemoryKiB, h.Params.Iterations, h.Params.Parallelism,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// Verify reports whether password matches encoded, using the parameters
// stored in encoded. A malformed or empty hash never matches.
func (h *Hasher) Verify(password, encoded string) bool {
	p, salt, key, ok := parse(encoded)
	if !ok {
		h.Burn(password)
		return false
	}
	got := h.derive([]byte(password), salt, p)
	return subtle.ConstantTimeCompare(got, key) == 1
}

// Burn spends one verification's cost, so unknown users are not faster.
func (h *Hasher) Burn(password string) { h.Verify(password, h.dummy) }

// UseWorker derives keys in w's child process from now on (before the
// hasher is shared).
func (h *Hasher) UseWorker(w *Worker) { h.worker = w }

func (h *Hasher) derive(password, salt []byte, p Params) []byte {
	h.slots <- struct{}{}
	defer func() { <-h.slots }()
	if h.worker != nil {
		if key, err := h.worker.Derive(password, salt, p); err == nil {
			return key
		}
		// The worker died: this check runs here, the next starts a new one.
	}
	return argon2.IDKey(password, salt, p.Iterations, p.MemoryKiB, p.Parallelism, p.KeyLen)
}

func parse(encoded string) (p Params, salt, key []byte, ok bool) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return p, nil, nil, false
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return p, nil, nil, false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.MemoryKiB, &p.Iterations, &p.Parallelism); err != nil {
		return p, nil, nil, false
	}
	b64 := base64.RawStdEncoding
	salt, err1 := b64.DecodeString(parts[4])
	key, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(key) == 0 || p.Parallelism == 0 || p.Iterations == 0 {
		return p, nil, nil, false
	}
	p.KeyLen = uint32(len(key))
	return p, salt, key, true
}
