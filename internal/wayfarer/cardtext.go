package wayfarer

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// ContainsCardNumber reports whether free text holds a payment card number,
// however it is separated or spelled. The rule (docs/security.md, "Card
// numbers in text"):
//
//  1. Normalize: Unicode NFKC (full-width, superscript, circled and
//     mathematical digits become 0–9; full-width and small punctuation its
//     ASCII form), then every decimal digit of any script (category Nd,
//     and the circled digits NFKC leaves alone) to its ASCII digit, and drop
//     combining marks, format characters (zero-width space, soft hyphen, ...)
//     and other default-ignorable code points (Hangul fillers, ...).
//  2. A run is a sequence of digits separated by anything that is not a
//     letter: spaces, tabs, newlines, any punctuation or symbol. A letter
//     ends it. The run's digits come in groups (digits written together);
//     a leading "00" (the international exit code) is a group of its own.
//  3. A card number is a sequence of whole groups of a run with 13 to 19
//     digits in all that passes Luhn and lies in an issued range with that
//     length (cardiin.go).
//  4. Such a number does not count when each of its groups belongs to
//     something the text says it is: a date, a time, an amount, a decimal
//     number, an e-ticket number, a valid international phone number, or a
//     valid IBAN (cardtext_tokens.go).
//
// "ref 12 4111 1111 1111 1111" and "4111_1111_1111_1111" are card numbers;
// "94111111111111111" (glued into a longer number) and "2025-12-24 10:30"
// are not. ASCII text is checked without allocating unless it holds a
// candidate.
func ContainsCardNumber(text string) bool { return containsCard(text, false) }

// ContainsCardNumberInPhone is the rule for phone numbers (a phone-type
// communication's value, the emergency contact's phone): the same, except
// that a value's digits may also be a valid international number written
// without its "+" ("49 151 12345678"). E.164 numbers have at most 15 digits,
// so a 16–19-digit card number is never excused; a 13–15-digit one only when
// it is a valid phone number of its country.
func ContainsCardNumberInPhone(text string) bool { return containsCard(text, true) }

func containsCard(text string, phone bool) bool {
	if !enoughDigits(text) {
		return false
	}
	s := normalizeCardText(text)
	if !hasCardCandidate(s) {
		return false
	}
	return scanText(s, phone).unexplainedCard()
}

const (
	cardMinDigits, cardMaxDigits = 13, 19
	groupStart                   = 0x10 // flag on a digit in hasCardCandidate's buffer
)

// hasCardCandidate reports whether normalized text holds a card number by
// steps 2 and 3 of the rule, before anything is excused. It reads the text
// once and allocates nothing: each digit is written twice, at p and
// p+cardMaxDigits, so the latest cardMaxDigits digits always sit
// contiguously in the buffer; a digit that begins a group carries groupStart.
func hasCardCandidate(s string) bool {
	var buf [2 * cardMaxDigits]byte
	n := 0 // digits in the current run
	inGroup := false
	zeros := 0 // leading zeros of the current group while they may be an exit code
	for i := 0; i < len(s); i++ {
		c := s[i]
		if d := c - '0'; d <= 9 {
			switch {
			case !inGroup:
				inGroup, zeros = true, 0
				if d == 0 {
					zeros = 1
				}
				d |= groupStart
			case zeros == 1:
				zeros = 0
				if d == 0 {
					zeros = 2
				}
			case zeros == 2:
				// An exit code "00" has ended: a group of its own.
				zeros = 0
				if n >= cardMinDigits && groupsEndCard(&buf, n) {
					return true
				}
				d |= groupStart
			}
			p := n % cardMaxDigits
			buf[p], buf[p+cardMaxDigits] = d, d
			n++
			continue
		}
		if n == 0 {
			continue // outside a run nothing else matters (continuation bytes included)
		}
		letter := false
		if c < utf8.RuneSelf {
			letter = isASCIILetter(c)
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size - 1
			letter = unicode.IsLetter(r)
		}
		if inGroup {
			inGroup = false
			if n >= cardMinDigits && groupsEndCard(&buf, n) {
				return true
			}
		}
		if letter {
			n = 0
		}
	}
	return inGroup && n >= cardMinDigits && groupsEndCard(&buf, n)
}

// groupsEndCard checks, for a run of n digits whose latest group has just
// ended, every sequence of whole groups ending there with 13..19 digits:
// Luhn, then issued range and length. The last digit is the check digit, so
// doubling starts one to its left.
func groupsEndCard(buf *[2 * cardMaxDigits]byte, n int) bool {
	last := (n-1)%cardMaxDigits + cardMaxDigits
	m := min(n, cardMaxDigits)
	sum := 0
	for k := 0; k < m; k++ {
		j := last - k
		d := buf[j] &^ groupStart
		if k%2 == 1 {
			d = luhnDoubled[d]
		}
		sum += int(d)
		if k+1 >= cardMinDigits && buf[j]&groupStart != 0 && sum%10 == 0 {
			var p iinPrefixes
			for x := 0; x <= k && x < 8; x++ {
				p.add(buf[j+x] &^ groupStart)
			}
			if issuedCard(&p, k+1) {
				return true
			}
		}
	}
	return false
}

// normalizeCardText is step 1 of the rule. ASCII text is returned as it is,
// and so is other text the steps do not change, without allocating.
func normalizeCardText(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return s
	}
	s = norm.NFKC.String(s)
	var b strings.Builder
	done := 0 // s[:done] is in b (once b is in use)
	for i, r := range s {
		if r < utf8.RuneSelf {
			continue
		}
		out, keep := cardTextRune(r)
		if keep {
			continue
		}
		if b.Len() == 0 && done == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[done:i])
		b.WriteString(out)
		done = i + utf8.RuneLen(r)
	}
	if done == 0 && b.Len() == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// cardTextRune maps one non-ASCII rune of NFKC text: keep, or replace with
// out (a digit, or nothing). Invalid UTF-8 is kept: it reads as U+FFFD,
// which is not a letter.
func cardTextRune(r rune) (out string, keep bool) {
	switch {
	case unicode.Is(unicode.Nd, r):
		return digitString[decimalDigitValue(r)], false
	case unicode.In(r, unicode.M, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector):
		return "", false
	}
	if d, ok := circledDigits[r]; ok {
		return d, false
	}
	return "", true
}

var digitString = [10]string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}

// circledDigits are the circled digits NFKC has no mapping for (dingbat,
// negative and double circled); ①–⑳ and ⓪ it maps itself.
var circledDigits = func() map[rune]string {
	m := map[rune]string{0x24FF: "0", 0x1F10B: "0", 0x1F10C: "0"}
	for _, lo := range []rune{0x24F5, 0x2776, 0x2780, 0x278A} { // one to ten
		for k := rune(0); k < 10; k++ {
			if k == 9 {
				m[lo+k] = "10"
			} else {
				m[lo+k] = digitString[k+1]
			}
		}
	}
	return m
}()

// ndStarts are the first code points of the Nd ranges. Decimal digits come
// in contiguous runs of ten from 0 to 9 (a Unicode stability guarantee; see
// TestDecimalDigitRuns), so a digit's value is its distance from the
// range's start modulo 10.
var ndStarts = func() []rune {
	var out []rune
	for _, r := range unicode.Nd.R16 {
		out = append(out, rune(r.Lo))
	}
	for _, r := range unicode.Nd.R32 {
		out = append(out, rune(r.Lo))
	}
	slices.Sort(out)
	return out
}()

// decimalDigitValue is the value of a rune of category Nd.
func decimalDigitValue(r rune) int {
	i, found := slices.BinarySearch(ndStarts, r)
	if !found {
		i--
	}
	return int(r-ndStarts[i]) % 10
}

// enoughDigits reports whether text may hold the 13 digits of a card number
// once normalized, so that most text skips normalization: it counts ASCII
// digits, and any other character that is or may become digits as four
// (no character becomes more).
func enoughDigits(s string) bool {
	n := 0
	for i := 0; i < len(s) && n < cardMinDigits; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			n++
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size - 1
			if mayBecomeDigits(r) {
				n += 4
			}
		}
	}
	return n >= cardMinDigits
}

// mayBecomeDigits reports whether step 1 of the rule may turn r into
// digits: a decimal digit, a circled one, or a character whose NFKC form
// holds one ("¹", "⑴", "㉑").
func mayBecomeDigits(r rune) bool {
	if r < 0x10000 {
		return digitLikeBMP()[r/64]&(1<<(r%64)) != 0
	}
	return digitLike(r)
}

func digitLike(r rune) bool {
	if unicode.Is(unicode.Nd, r) || circledDigits[r] != "" {
		return true
	}
	var buf [utf8.UTFMax]byte
	d := norm.NFKC.Properties(buf[:utf8.EncodeRune(buf[:], r)]).Decomposition()
	for _, c := range string(d) {
		if unicode.Is(unicode.Nd, c) {
			return true
		}
	}
	return false
}

// digitLikeBMP is digitLike for the Basic Multilingual Plane as a bit set
// (8 KiB), built on first use.
var digitLikeBMP = sync.OnceValue(func() *[0x10000 / 64]uint64 {
	var bits [0x10000 / 64]uint64
	for r := rune(utf8.RuneSelf); r < 0x10000; r++ {
		if utf8.ValidRune(r) && digitLike(r) {
			bits[r/64] |= 1 << (r % 64)
		}
	}
	return &bits
})
