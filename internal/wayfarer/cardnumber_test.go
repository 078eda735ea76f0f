package wayfarer

import (
	"github.com/wayfarerhq/wayfarer/client/contract"

	"errors"
	"strings"
	"testing"
)

func TestNormalizeCardNumber(t *testing.T) {
	tests := []struct{ in, want string }{
		{"4111 1111 1111 1111", "4111111111111111"},
		{"4111-1111-1111-1111", "4111111111111111"},
		{" 4111 - 1111\t1111 1111 ", "4111111111111111"},
		{"", ""},
		{"41a1", "41a1"},
	}
	for _, tt := range tests {
		if got := NormalizeCardNumber(tt.in); got != tt.want {
			t.Errorf("NormalizeCardNumber(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestValidateCreditCardNumberBrands(t *testing.T) {
	tests := []struct {
		in    string
		brand CardBrand
	}{
		{"4111111111111111", BrandVisa},
		{"4012888888881881", BrandVisa},
		{"4111 1111 1111 1111", BrandVisa},
		{"5555555555554444", BrandMastercard},
		{"5555-5555-5555-4444", BrandMastercard},
		{"2223003122003222", BrandMastercard},
		{"378282246310005", BrandAmex},
		{"6011111111111117", BrandDiscover},
		{"30569309025904", BrandDiners},
		{"3530111333300000", BrandJCB},
		{"6200000000000005", BrandUnionPay},
		{"6759649826438453", BrandMaestro},
		{"411111111117", BrandVisa},           // 12 digits, shortest allowed
		{"4444444444444444442", BrandVisa},    // 19 digits, longest allowed
		{"9999999999999995", BrandUnknown},    // Luhn-valid, no known range
		{"1234567812345670", BrandUATP},       // prefix 1 (was unknown before UATP was in the table)
		{"8234567812345600", brandRuPay},      // 82
		{"7000000000000005", BrandUnknown},    // Luhn-valid, no known range
		{"2720990000000007", BrandMastercard}, // top of 2-series
	}
	for _, tt := range tests {
		digits, brand, err := ValidateCreditCardNumber(tt.in)
		if err != nil {
			t.Errorf("ValidateCreditCardNumber(%q): %v", tt.in, err)
			continue
		}
		if want := NormalizeCardNumber(tt.in); digits != want {
			t.Errorf("ValidateCreditCardNumber(%q) digits = %q, want %q", tt.in, digits, want)
		}
		if brand != tt.brand {
			t.Errorf("ValidateCreditCardNumber(%q) brand = %v, want %v", tt.in, brand, tt.brand)
		}
	}
}

func TestDetectCardBrandRanges(t *testing.T) {
	tests := []struct {
		prefix string
		want   CardBrand
	}{
		{"4", BrandVisa},
		{"51", BrandMastercard}, {"55", BrandMastercard},
		{"2221", BrandMastercard}, {"2720", BrandMastercard},
		{"2220", BrandUnknown}, {"2721", BrandUnknown},
		{"34", BrandAmex}, {"37", BrandAmex}, {"35", BrandUnknown},
		{"6011", BrandDiscover}, {"644", BrandDiscover}, {"649", BrandDiscover}, {"65", BrandDiscover},
		{"300", BrandDiners}, {"305", BrandDiners}, {"306", BrandUnknown},
		{"36", BrandDiners}, {"38", BrandDiners}, {"39", BrandDiners},
		{"3528", BrandJCB}, {"3589", BrandJCB}, {"3527", BrandUnknown}, {"3590", BrandUnknown},
		{"62", BrandUnionPay},
		{"50", BrandMaestro}, {"56", BrandMaestro}, {"58", BrandMaestro},
		{"6304", BrandMaestro}, {"6759", BrandMaestro}, {"6761", BrandMaestro}, {"6763", BrandMaestro},
		// Changed when the table grew (issue 11): these were unknown.
		{"6012", brandRuPay}, {"643", BrandMaestro}, {"6760", BrandMaestro}, {"6764", BrandMaestro},
		{"59", BrandMaestro}, {"1", BrandUATP},
		// The brands added then; the most specific range names the brand.
		{"2200", brandMir}, {"2204", brandMir}, {"2205", brandBORICA}, {"2206", BrandUnknown},
		{"60", brandRuPay}, {"6521", brandRuPay}, {"8172", brandRuPay}, {"8100", BrandUnionPay}, {"8171", BrandUnionPay},
		{"9792", brandTroy}, {"504175", brandElo}, {"650035", brandElo}, {"606282", brandHipercard},
		{"5019", brandDankort}, {"506099", brandVerve}, {"31", brandTUnion}, {"1800", BrandJCB}, {"2131", BrandJCB},
		{"8600", brandUzCard}, {"9860", brandHumo}, {"9704", brandNapas}, {"60400100", brandUkrCard},
		{"622126", BrandDiscover}, {"622125", BrandUnionPay}, {"3095", BrandDiners}, {"357111", brandLankaPay},
		{"0", BrandUnknown}, {"7", BrandUnknown}, {"9999", BrandUnknown}, {"", BrandUnknown},
	}
	for _, tt := range tests {
		// Pad to a full-length number; detection only looks at the prefix.
		n := tt.prefix + strings.Repeat("0", 16-len(tt.prefix))
		if got := DetectCardBrand(n); got != tt.want {
			t.Errorf("DetectCardBrand(%s...) = %v, want %v", tt.prefix, got, tt.want)
		}
	}
}

func TestValidateCreditCardNumberErrors(t *testing.T) {
	tests := []struct {
		in   string
		want error
	}{
		{"", ErrCardNumberEmpty},
		{" - ", ErrCardNumberEmpty},
		{"4111111111111112", ErrCardNumberLuhn},
		{"5555555555554445", ErrCardNumberLuhn},
		{"378282246310006", ErrCardNumberLuhn},
		{"44444444440", ErrCardNumberLength},          // 11 digits, Luhn-valid
		{"44444444444444444444", ErrCardNumberLength}, // 20 digits, Luhn-valid
		{"4111 1111 1111 111a", ErrCardNumberNotDigits},
		{"VI 41-XXXX-1111", ErrCardNumberNotDigits},
		{"4111.1111.1111.1111", ErrCardNumberNotDigits},
		{"４１１１１１１１１１１１１１１１", ErrCardNumberNotDigits}, // full-width digits
	}
	for _, tt := range tests {
		digits, _, err := ValidateCreditCardNumber(tt.in)
		if !errors.Is(err, tt.want) {
			t.Errorf("ValidateCreditCardNumber(%q) err = %v, want %v", tt.in, err, tt.want)
		}
		if digits != "" {
			t.Errorf("ValidateCreditCardNumber(%q) digits = %q on error", tt.in, digits)
		}
		if err != nil && strings.ContainsAny(err.Error(), "0123456789") && err != ErrCardNumberLength {
			t.Errorf("error message %q contains digits", err)
		}
		if d := NormalizeCardNumber(tt.in); err != nil && d != "" && strings.Contains(err.Error(), d) {
			t.Errorf("error message %q echoes the number", err)
		}
	}
}

func TestMaskCardNumber(t *testing.T) {
	tests := []struct {
		digits string
		brand  CardBrand
		want   string
	}{
		{"4111111111111111", BrandVisa, "VI 41-XXXX-1111"},
		{"5555555555554444", BrandMastercard, "CA 55-XXXX-4444"},
		{"378282246310005", BrandAmex, "AX 37-XXXX-0005"},
		{"30569309025904", BrandDiners, "DC 30-XXXX-5904"},
		{"9999999999999995", BrandUnknown, "XX 99-XXXX-9995"},
		{"4111111111111111", CardBrand{}, "XX 41-XXXX-1111"},
		{"4111 1111 1111 1111", BrandVisa, "VI 41-XXXX-1111"},
		{"41111", BrandVisa, "VI XX-XXXX-XXXX"},
		{"", BrandVisa, "VI XX-XXXX-XXXX"},
		{"41111111111a1111", BrandVisa, "VI XX-XXXX-XXXX"},
	}
	for _, tt := range tests {
		got := MaskCardNumber(tt.digits, tt.brand)
		if got != tt.want {
			t.Errorf("MaskCardNumber(%q, %v) = %q, want %q", tt.digits, tt.brand.Code, got, tt.want)
		}
		if !contract.IsMaskedCardNumber(got) {
			t.Errorf("contract.IsMaskedCardNumber(%q) = false for MaskCardNumber output", got)
		}
	}
}

func TestMaskValidatedNumbersRoundTrip(t *testing.T) {
	for _, n := range []string{"4111111111111111", "2223003122003222", "6759649826438453", "6200000000000005"} {
		d, b, err := ValidateCreditCardNumber(n)
		if err != nil {
			t.Fatal(err)
		}
		m := MaskCardNumber(d, b)
		if !contract.IsMaskedCardNumber(m) || ContainsCardNumber(m) {
			t.Errorf("mask %q: masked=%v contains=%v", m, contract.IsMaskedCardNumber(m), ContainsCardNumber(m))
		}
		if _, _, err := ValidateCreditCardNumber(m); err == nil {
			t.Errorf("masked %q validates as a card number", m)
		}
	}
}

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
		if got := contract.IsMaskedCardNumber(tt.in); got != tt.want {
			t.Errorf("contract.IsMaskedCardNumber(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
