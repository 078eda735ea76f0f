package contract

import "testing"

func TestIsMaskedCardNumber(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"VI 41-XXXX-1111", true},
		{"vi 41-xxxx-1111", true},
		{"CA 55-XxXx-4444", true},
		{"XX 99-XXXX-9995", true},
		{" VI 41-XXXX-1111 ", true},
		{"4111 XXXX XXXX 1111", true},
		{"4111-xxxx-xxxx-1111", true},
		{"************1111", true},
		{"4111********1111", true},
		{"XXXXXXXXXXXX1111", true},
		{"4111111111111111", false},
		{"4111 1111 1111 1111", false},
		{"VI 41-XXX-1111", false}, // run of 3
		{"41X1X1X1", false},
		{"", false},
		{"Visa XXXX", false}, // words are not a card number shape
		{"ABXXXX1234", false},
		{"VI 41-XXXX-1111 and more", false},
	}
	for _, tt := range tests {
		if got := IsMaskedCardNumber(tt.in); got != tt.want {
			t.Errorf("IsMaskedCardNumber(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestVersions(t *testing.T) {
	for _, c := range []struct {
		v, min string
		want   bool
	}{
		{"1.8.2.6", "1.8.2", true}, {"1.8.2", "1.8.2.0", true}, {"1.8.1.6", "1.8.2", false},
		{"1.10", "1.9.9", true}, {"x", "1", false}, {"1.8.2", "", false}, {" 2 ", "1.8", true},
	} {
		if got := AtLeast(c.v, c.min); got != c.want {
			t.Errorf("AtLeast(%q, %q) = %v", c.v, c.min, got)
		}
	}
	if _, ok := ParseVersion("1.-2"); ok {
		t.Error("a negative part parsed")
	}
}
