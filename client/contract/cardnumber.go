package contract

import "strings"

// IsMaskedCardNumber reports whether s is a masked card number rather than
// a real one: the server's shape "VI 41-XXXX-1111", or digits, spaces and
// dashes with a run of four or more mask characters (X, x or *), optionally
// after a two-letter brand code. A masked number is never saved as a
// number: the server refuses it and the client does not send it.
func IsMaskedCardNumber(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) >= 3 && isASCIILetter(s[0]) && isASCIILetter(s[1]) && s[2] == ' ' {
		s = s[3:]
	}
	run, best := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 'X' || c == 'x' || c == '*':
			run++
			best = max(best, run)
		case c >= '0' && c <= '9', c == ' ', c == '-':
			run = 0
		default:
			return false
		}
	}
	// The reference shape "41-XXXX-1111" is covered: it has a run of 4.
	return best >= 4
}

func isASCIILetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
