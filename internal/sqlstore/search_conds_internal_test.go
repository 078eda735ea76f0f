package sqlstore

import (
	"slices"
	"testing"
)

// TestTrigramsAskedOfTheIndex: the trigrams a PostgreSQL commValue
// Contains asks the trigram index for. A fragment whose trigrams all
// overlap its first ("4711") gets its last as a condition of its own; one
// with pieces apart keeps them, in one pattern.
func TestTrigramsAskedOfTheIndex(t *testing.T) {
	for _, tc := range []struct {
		sub    string
		pieces []string
		last   string
	}{
		{"ryan.jensen", []string{"rya", "jen", "sen"}, ""},
		{"son", []string{"son"}, ""},
		{"@ex", nil, ""},
		{"4711", []string{"471"}, "711"},
		{"5551", []string{"555"}, "551"},
		{"s4711@", []string{"s47"}, "711"},
		{"smith", []string{"smi"}, "ith"},
		{"5555", []string{"555"}, ""},          // the same trigram again
		{"s47@", []string{"s47"}, ""},          // one trigram in a longer fragment
		{"ab1AB1", []string{"ab1", "AB1"}, ""}, // apart: one pattern
		{"Ab1aB", []string{"Ab1"}, "1aB"},
	} {
		pieces := trigramPieces(tc.sub)
		if !slices.Equal(pieces, tc.pieces) {
			t.Errorf("%q: pieces %q, want %q", tc.sub, pieces, tc.pieces)
		}
		if got := lastTrigram(tc.sub, pieces); got != tc.last {
			t.Errorf("%q: last trigram %q, want %q", tc.sub, got, tc.last)
		}
	}
}
