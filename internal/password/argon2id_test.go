package password

import (
	"strings"
	"testing"
)

var cheap = Params{MemoryKiB: 1024, Iterations: 1, Parallelism: 1, SaltLen: 16, KeyLen: 32}

func TestHashVerify(t *testing.T) {
	h := New(cheap, 2)
	enc, err := h.Hash("s3cret")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(enc, "$argon2id$v=19$m=1024,t=1,p=1$") {
		t.Fatalf("unexpected encoding %q", enc)
	}
	if strings.Contains(enc, "s3cret") {
		t.Fatal("hash contains the password")
	}
	if !h.Verify("s3cret", enc) {
		t.Fatal("right password rejected")
	}
	if h.Verify("s3cret ", enc) || h.Verify("", enc) {
		t.Fatal("wrong password accepted")
	}
	other, _ := h.Hash("s3cret")
	if other == enc {
		t.Fatal("two hashes of one password share a salt")
	}
}

func TestVerifyUsesStoredParams(t *testing.T) {
	old := New(cheap, 1)
	enc, _ := old.Hash("pw")
	stronger := New(Params{MemoryKiB: 2048, Iterations: 2, Parallelism: 1, SaltLen: 16, KeyLen: 32}, 1)
	if !stronger.Verify("pw", enc) {
		t.Fatal("a hash made under older parameters must still verify")
	}
}

func TestMalformedHashNeverMatches(t *testing.T) {
	h := New(cheap, 1)
	for _, enc := range []string{"", "plain", "$argon2id$v=19$m=1,t=1,p=1$$", "$argon2i$v=19$m=1024,t=1,p=1$c2FsdA$a2V5", "$argon2id$v=18$m=1024,t=1,p=1$c2FsdA$a2V5"} {
		if h.Verify("", enc) || h.Verify("plain", enc) {
			t.Fatalf("malformed hash %q matched", enc)
		}
	}
}
