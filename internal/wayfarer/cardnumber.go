package wayfarer

import (
	"errors"
	"strings"
	"unicode"
)

// CardBrand is a payment card brand as shown in masked numbers. Codes are the
// reference's two-letter ones, and TP, the airlines' code for UATP:
//
//	VI Visa              4
//	CA Mastercard        51–55, 2221–2720
//	AX American Express  34, 37
//	DS Discover          6011, 622126–622925, 644–649, 65
//	DC Diners Club       300–305, 3095, 36, 38, 39
//	JC JCB               3528–3589, 1800, 2131
//	UP UnionPay          62, 8100–8171
//	MA Maestro           50, 56–69
//	TP UATP              1
//	XX any other         Mir, RuPay, Elo, Troy, ... (cardiin.go) and unknown
//
// Unknown is not an error: issuers add ranges faster than we update this
// table, and a Luhn-valid number is still a card number to protect.
type CardBrand struct {
	Code string
	Name string
}

var (
	BrandVisa       = CardBrand{"VI", "Visa"}
	BrandMastercard = CardBrand{"CA", "Mastercard"}
	BrandAmex       = CardBrand{"AX", "American Express"}
	BrandDiscover   = CardBrand{"DS", "Discover"}
	BrandDiners     = CardBrand{"DC", "Diners Club"}
	BrandJCB        = CardBrand{"JC", "JCB"}
	BrandUnionPay   = CardBrand{"UP", "UnionPay"}
	BrandMaestro    = CardBrand{"MA", "Maestro"}
	BrandUnknown    = CardBrand{"XX", "Unknown"}
)

// Validation errors. Messages never contain the number itself.
var (
	ErrCardNumberEmpty     = errors.New("card number is empty")
	ErrCardNumberNotDigits = errors.New("card number must contain only digits, spaces and dashes")
	ErrCardNumberLength    = errors.New("card number must be 12 to 19 digits")
	ErrCardNumberLuhn      = errors.New("card number fails the Luhn check")
)

// NormalizeCardNumber removes spaces and dashes, the separators people type
// into card numbers.
func NormalizeCardNumber(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// ValidateCreditCardNumber normalizes s and checks it is a plausible
// credit/debit card number. It returns the bare digits and the brand.
func ValidateCreditCardNumber(s string) (digits string, brand CardBrand, err error) {
	d := NormalizeCardNumber(s)
	if d == "" {
		return "", CardBrand{}, ErrCardNumberEmpty
	}
	if !allDigits(d) {
		return "", CardBrand{}, ErrCardNumberNotDigits
	}
	if len(d) < 12 || len(d) > 19 {
		return "", CardBrand{}, ErrCardNumberLength
	}
	if !luhnValid(d) {
		return "", CardBrand{}, ErrCardNumberLuhn
	}
	return d, DetectCardBrand(d), nil
}

// MaskCardNumber returns the reference's masked form, "VI 41-XXXX-1111".
// Input that is not 12+ digits (after normalizing) is masked completely:
// showing six digits of a short value would reveal most of it.
func MaskCardNumber(digits string, brand CardBrand) string {
	code := brand.Code
	if code == "" {
		code = BrandUnknown.Code
	}
	d := NormalizeCardNumber(digits)
	if len(d) < 12 || !allDigits(d) {
		return code + " XX-XXXX-XXXX"
	}
	return code + " " + d[:2] + "-XXXX-" + d[len(d)-4:]
}

var luhnDoubled = [10]byte{0, 2, 4, 6, 8, 1, 3, 5, 7, 9}

func luhnValid(digits string) bool {
	sum := 0
	double := false
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i] - '0')
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func atoiDigits(s string) (int, bool) {
	v := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		v = v*10 + int(s[i]-'0')
	}
	return v, true
}

func isASCIILetter(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}
