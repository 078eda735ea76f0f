package wayfarer

import (
	"cmp"
	"slices"
)

// The issued card ranges: the one table that brand detection (masks) and the
// card-number-in-text rule read. Sources, checked November 2026:
//
//   - Wikipedia, "Payment card number", table "Issuer identification
//     number (IIN)" (active schemes; the inactive Bankcard, Laser, Solo,
//     Switch and Diners Club enRoute are left out: no such card is in use);
//   - braintree/credit-card-type, src/lib/card-types.ts (Visa 18, Diners
//     16/19, JCB 1800/2131, UnionPay 14–15 and 8100–8171, Elo, Hiper,
//     Hipercard, Maestro);
//   - Mastercard's Maestro range 50, 56–69 (lengths 12–19).
//
// An entry lists a prefix range of one width (1 to 8 digits) and the
// lengths numbers of that range are issued with. Ranges nested inside a wider
// one (RuPay 60 inside Maestro 56–69) are listed all the same: detection
// picks the most specific, so the brand is named right.
//
// Brands without a two-letter code of the reference show as XX in masks.

// BrandUATP is the airlines' Universal Air Travel Plan card; TP is its code
// in airline and GDS forms of payment.
var BrandUATP = CardBrand{"TP", "UATP"}

// nationalBrand is a scheme the reference has no code for: masked as XX.
func nationalBrand(name string) CardBrand { return CardBrand{BrandUnknown.Code, name} }

var (
	brandMir          = nationalBrand("Mir")
	brandRuPay        = nationalBrand("RuPay")
	brandTroy         = nationalBrand("Troy")
	brandElo          = nationalBrand("Elo")
	brandHipercard    = nationalBrand("Hipercard")
	brandVerve        = nationalBrand("Verve")
	brandDankort      = nationalBrand("Dankort")
	brandTUnion       = nationalBrand("China T-Union")
	brandBORICA       = nationalBrand("BORICA")
	brandGPN          = nationalBrand("GPN")
	brandLankaPay     = nationalBrand("LankaPay")
	brandUkrCard      = nationalBrand("UkrCard")
	brandNPS          = nationalBrand("NPS Pridnestrovie")
	brandInterPayment = nationalBrand("InterPayment")
	brandInstaPayment = nationalBrand("InstaPayment")
	brandUzCard       = nationalBrand("UzCard")
	brandHumo         = nationalBrand("Humo")
	brandNapas        = nationalBrand("Napas")
	brandBelkart      = nationalBrand("Belkart")
	brandArCa         = nationalBrand("ArCa")
	brandProstir      = nationalBrand("Prostir")
	brandElcart       = nationalBrand("Elcart")
)

// iinRange is one issued range: numbers whose first width digits lie in
// lo..hi and whose length has its bit set in lengths.
type iinRange struct {
	lo, hi  uint32
	width   uint8
	lengths uint32
	brand   CardBrand
}

// cardLengths is a set of card number lengths as a bit mask.
func cardLengths(ns ...int) uint32 {
	var m uint32
	for _, n := range ns {
		m |= 1 << n
	}
	return m
}

func cardLengthRange(lo, hi int) uint32 {
	var m uint32
	for n := lo; n <= hi; n++ {
		m |= 1 << n
	}
	return m
}

var (
	len15     = cardLengths(15)
	len16     = cardLengths(16)
	len19     = cardLengths(19)
	len14to19 = cardLengthRange(14, 19)
	len16to19 = cardLengthRange(16, 19)
)

// iinTable is the table, in the order written; iinBySpecificity is the same
// sorted for detection.
var iinTable = buildIINTable()

func buildIINTable() []iinRange {
	var t []iinRange
	// add puts ranges "lo" or "lo-hi" (decimal prefixes of one width) of a brand.
	add := func(brand CardBrand, lengths uint32, ranges ...string) {
		for _, r := range ranges {
			lo, hi := r, r
			for i := 0; i < len(r); i++ {
				if r[i] == '-' {
					lo, hi = r[:i], r[i+1:]
				}
			}
			if len(lo) != len(hi) || len(lo) < 1 || len(lo) > 8 {
				panic("iin range " + r + ": both ends need the same width of 1 to 8 digits")
			}
			l, _ := atoiDigits(lo)
			h, _ := atoiDigits(hi)
			t = append(t, iinRange{uint32(l), uint32(h), uint8(len(lo)), lengths, brand})
		}
	}
	add(BrandUATP, len15, "1")
	add(BrandJCB, len15, "1800", "2131")
	add(BrandJCB, len16to19, "3528-3589")
	add(brandGPN, cardLengths(16, 18, 19), "1946")
	add(brandMir, len16to19, "2200-2204")
	add(brandBORICA, len16, "2205")
	add(BrandMastercard, len16, "2221-2720", "51-55")
	add(brandTUnion, len19, "31")
	add(BrandDiners, len14to19, "300-305", "3095", "36", "38-39")
	add(BrandAmex, len15, "34", "37")
	add(brandRuPay, len16, "353", "356", "508", "60", "6521-6522", "81", "82")
	add(brandLankaPay, len16, "357111")
	add(brandHipercard, cardLengths(13, 16, 19), "384100", "384140", "384160")
	add(brandHipercard, len16, "606282", "637095", "637568", "637599", "637609", "637612", "63737423", "63743358")
	add(BrandVisa, cardLengths(13, 16, 18, 19), "4")
	add(brandElo, len16, "401178-401179", "431274", "438935", "451416", "457393", "457631-457632",
		"504175", "506699-506778", "509000-509999", "627780", "636297", "636368",
		"650031-650033", "650035-650051", "650405-650439", "650485-650538", "650541-650598",
		"650700-650718", "650720-650727", "650901-650978", "651652-651679", "655000-655019", "655021-655058")
	// Maestro: Mastercard's ranges; the 5018, 5020, 5038, 5893, 6304, 6759,
	// 6761–6763 and Maestro UK 676770/676774 of the Wikipedia table lie inside.
	add(BrandMaestro, cardLengthRange(12, 19), "50", "56-69")
	add(brandDankort, len16, "5019")
	add(brandVerve, cardLengths(16, 18, 19), "506099-506198", "507865-507964", "650002-650027")
	add(BrandDiscover, len16to19, "6011", "622126-622925", "644-649", "65")
	add(brandUkrCard, len16to19, "60400100-60420099")
	add(brandNPS, len16, "6054740-6054744")
	add(BrandUnionPay, len14to19, "62", "8100-8171")
	add(brandInterPayment, len16to19, "636")
	add(brandInstaPayment, len16, "637-639")
	add(brandUzCard, len16, "8600")
	add(brandBelkart, len16, "9112")
	add(brandArCa, len16, "9051")
	add(brandElcart, len16, "9417")
	add(brandNapas, cardLengths(16, 19), "9704")
	add(brandTroy, len16, "9792") // Troy's 65 lies in Discover's
	add(brandProstir, len16, "9804")
	add(brandHumo, len16, "9860")
	return t
}

// iinBySpecificity holds the table with the longest prefixes first and,
// among prefixes of one width, the narrowest ranges first, so that detection
// names RuPay for 60 rather than Maestro for 56–69.
var iinBySpecificity = func() []iinRange {
	t := slices.Clone(iinTable)
	slices.SortStableFunc(t, func(a, b iinRange) int {
		if c := cmp.Compare(b.width, a.width); c != 0 {
			return c
		}
		return cmp.Compare(a.hi-a.lo, b.hi-b.lo)
	})
	return t
}()

// DetectCardBrand returns the brand of a digit string by its IIN prefix
// alone (the most specific range that matches), or BrandUnknown.
func DetectCardBrand(digits string) CardBrand {
	var p iinPrefixes
	if !p.fromDigits(digits) {
		return BrandUnknown
	}
	for _, r := range iinBySpecificity {
		if p.in(r) {
			return r.brand
		}
	}
	return BrandUnknown
}

// iinPrefixes holds the values of a number's first 1..8 digits.
type iinPrefixes struct {
	v [9]uint32 // v[w]: the first w digits
	n int       // digits known (at most 8)
}

// fromDigits reads the leading digits of an ASCII digit string; false when
// it does not start with a digit.
func (p *iinPrefixes) fromDigits(s string) bool {
	p.n = 0
	for i := 0; i < len(s) && i < 8; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			break
		}
		p.add(c - '0')
	}
	return p.n > 0
}

func (p *iinPrefixes) add(d byte) {
	if p.n < 8 {
		p.v[p.n+1] = p.v[p.n]*10 + uint32(d)
		p.n++
	}
}

func (p *iinPrefixes) in(r iinRange) bool {
	w := int(r.width)
	return w <= p.n && p.v[w] >= r.lo && p.v[w] <= r.hi
}

// issuedCard reports whether a number with these leading digits and this
// length lies in an issued range of a length issued there.
func issuedCard(p *iinPrefixes, length int) bool {
	for _, r := range iinTable {
		if r.lengths&(1<<length) != 0 && p.in(r) {
			return true
		}
	}
	return false
}
