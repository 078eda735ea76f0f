package token

import (
	"sync"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// maxVerifiedTokens bounds the memory of verified tokens: a few hundred
// bytes each, so about a megabyte at most.
const maxVerifiedTokens = 4096

// verifiedTokens remembers the claims of tokens whose signature checked
// out, so a client sending the same token request after request pays the
// HMAC and JSON decoding once. Only good tokens enter, so a client cannot
// fill it with garbage; when full it starts over, which costs one
// verification per live token.
type verifiedTokens struct {
	mu     sync.RWMutex
	max    int
	claims map[string]wayfarer.TokenClaims
}

func (v *verifiedTokens) get(token string) (wayfarer.TokenClaims, bool) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	tc, ok := v.claims[token]
	return tc, ok
}

func (v *verifiedTokens) put(token string, tc wayfarer.TokenClaims) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.claims == nil || len(v.claims) >= v.max {
		v.claims = make(map[string]wayfarer.TokenClaims, min(v.max, 64))
	}
	v.claims[token] = tc
}

func (v *verifiedTokens) drop(token string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	delete(v.claims, token)
}
