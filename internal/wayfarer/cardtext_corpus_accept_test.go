package wayfarer

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/nyaruka/phonenumbers"
)

// Generators of the corpus of ordinary text (accept-generated.txt) and of
// the ambiguous one. Everything is drawn from fixed seeds.

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

func randDigits(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + rng.IntN(10))
	}
	return string(b)
}

func randLetters(rng *rand.Rand, n int, alphabet string) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

const upperAlnum = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"

// corpusPhones returns, for every region libphonenumber has metadata for,
// valid mobile and fixed-line numbers drawn from its example numbers.
func corpusPhones(rng *rand.Rand) []*phonenumbers.PhoneNumber {
	regions := make([]string, 0, 256)
	for r := range phonenumbers.GetSupportedRegions() {
		regions = append(regions, r)
	}
	slices.Sort(regions)
	var out []*phonenumbers.PhoneNumber
	for _, region := range regions {
		for _, typ := range []phonenumbers.PhoneNumberType{phonenumbers.MOBILE, phonenumbers.FIXED_LINE} {
			ex := phonenumbers.GetExampleNumberForType(region, typ)
			if ex == nil {
				continue
			}
			nsn := phonenumbers.GetNationalSignificantNumber(ex)
			k := min(4, len(nsn)-2)
			for try := 0; try < 40; try++ {
				cand := "+" + strconv.Itoa(int(ex.GetCountryCode())) + nsn[:len(nsn)-k] + randDigits(rng, k)
				n, err := phonenumbers.Parse(cand, "")
				if err == nil && phonenumbers.IsValidNumber(n) && phonenumbers.GetRegionCodeForNumber(n) == region {
					out = append(out, n)
					break
				}
			}
		}
	}
	return out
}

func generateAcceptCorpus() []corpusItem {
	rng := rand.New(rand.NewPCG(11, 1))
	var out []corpusItem
	add := func(cat, field, text string) { out = append(out, corpusItem{cat, field, text}) }

	for _, n := range corpusPhones(rng) {
		region := phonenumbers.GetRegionCodeForNumber(n)
		intl := phonenumbers.Format(n, phonenumbers.INTERNATIONAL)
		add("phone:international:"+region, "any", intl)
		add("phone:e164:"+region, "any", phonenumbers.Format(n, phonenumbers.E164))
		add("phone:national:"+region, "any", phonenumbers.Format(n, phonenumbers.NATIONAL))
		add("phone:exit-code:"+region, "any", "00"+strings.TrimPrefix(intl, "+"))
		add("phone:bare:"+region, "phone", strings.TrimPrefix(phonenumbers.Format(n, phonenumbers.E164), "+"))
		add("phone:in-text:"+region, "text", pick(rng, []string{"Tel. ", "call ", "mobile: ", "Handy ", "WhatsApp "})+intl+
			pick(rng, []string{"", " after 6pm", ", ask for reception", " (office)"}))
	}
	for i := 0; i < 400; i++ {
		add("date", "text", corpusDate(rng))
	}
	for i := 0; i < 150; i++ {
		add("amount", "text", corpusAmount(rng))
	}
	for i := 0; i < 150; i++ {
		add("ticket", "text", corpusTicket(rng))
	}
	for i := 0; i < 150; i++ {
		add("iban", "text", corpusIBAN(rng))
	}
	for i := 0; i < 100; i++ {
		add("coordinates", "text", corpusCoordinates(rng))
	}
	for i := 0; i < 200; i++ {
		add("reference", "text", corpusReference(rng))
	}
	for i := 0; i < 200; i++ {
		add("name", "text", corpusName(rng))
	}
	for i := 0; i < 200; i++ {
		add("address", "text", corpusAddress(rng))
	}
	phones := corpusPhones(rand.New(rand.NewPCG(11, 2)))
	for i := 0; i < 250; i++ {
		add("remark", "text", corpusRemark(rng, phones))
	}
	// The hard cases: text of these kinds whose digits hold a candidate
	// (13-19 digits, Luhn, issued range), which only step 4 explains.
	hard := func(kind, field string, n int, gen func() string) {
		for found, tries := 0, 0; found < n && tries < 20000; tries++ {
			if s := gen(); hasCardCandidate(normalizeCardText(s)) {
				add("hard:"+kind, field, s)
				found++
			}
		}
	}
	// Numbers of 13 digits or more, the ones a card rule can mistake: the
	// example numbers, lengthened where the country's plan allows.
	var long []*phonenumbers.PhoneNumber
	for _, n := range phones {
		nsn := phonenumbers.GetNationalSignificantNumber(n)
		cc := strconv.Itoa(int(n.GetCountryCode()))
		for extra := 0; extra <= 4; extra++ {
			if len(cc)+len(nsn)+extra < 13 {
				continue
			}
			v, err := phonenumbers.Parse("+"+cc+nsn+randDigits(rng, extra), "")
			if err == nil && phonenumbers.IsValidNumber(v) {
				long = append(long, v)
			}
		}
	}
	hardPhone := func(format phonenumbers.PhoneNumberFormat, bare bool) func() string {
		return func() string {
			n := pick(rng, long)
			nsn := phonenumbers.GetNationalSignificantNumber(n)
			k := min(6, len(nsn)-2)
			v, err := phonenumbers.Parse("+"+strconv.Itoa(int(n.GetCountryCode()))+nsn[:len(nsn)-k]+randDigits(rng, k), "")
			if err != nil || !phonenumbers.IsValidNumber(v) {
				return ""
			}
			if bare {
				return strings.TrimPrefix(phonenumbers.Format(v, phonenumbers.E164), "+")
			}
			return phonenumbers.Format(v, format)
		}
	}
	hard("phone-international", "any", 60, hardPhone(phonenumbers.INTERNATIONAL, false))
	hard("phone-e164", "any", 60, hardPhone(phonenumbers.E164, false))
	hard("phone-bare", "phone", 60, hardPhone(phonenumbers.E164, true))
	hard("phone-exit-code", "any", 40, func() string { return "00" + strings.TrimPrefix(hardPhone(phonenumbers.INTERNATIONAL, false)(), "+") })
	hard("phones", "text", 40, func() string {
		return hardPhone(phonenumbers.INTERNATIONAL, false)() + pick(rng, []string{" / ", ", ", " or ", "; "}) + hardPhone(phonenumbers.INTERNATIONAL, false)()
	})
	hard("date", "text", 60, func() string { return corpusDate(rng) })
	hard("amount", "text", 60, func() string { return corpusAmount(rng) })
	hard("ticket", "text", 40, func() string { return corpusTicket(rng) })
	hard("iban", "text", 60, func() string { return corpusIBAN(rng) })
	hard("coordinates", "text", 40, func() string { return corpusCoordinates(rng) })
	hard("remark", "text", 60, func() string { return corpusRemark(rng, phones) })
	return out
}

func corpusDate(rng *rand.Rand) string {
	date := func() (y, m, d int) { return 1940 + rng.IntN(100), 1 + rng.IntN(12), 1 + rng.IntN(28) }
	one := func(style int) string {
		y, m, d := date()
		switch style {
		case 0:
			return fmt.Sprintf("%02d.%02d.%d", d, m, y)
		case 1:
			return fmt.Sprintf("%d.%d.%d", d, m, y)
		case 2:
			return fmt.Sprintf("%02d/%02d/%d", m, d, y)
		case 3:
			return fmt.Sprintf("%d-%02d-%02d", y, m, d)
		case 4:
			return fmt.Sprintf("%d/%02d/%02d", y, m, d)
		case 5:
			return fmt.Sprintf("%02d-%02d-%d", d, m, y)
		case 6:
			return fmt.Sprintf("%02d.%02d.%02d", d, m, y%100)
		default:
			return fmt.Sprintf("%d%02d%02d", y, m, d)
		}
	}
	clock := func() string {
		switch rng.IntN(3) {
		case 0:
			return fmt.Sprintf("%02d:%02d", rng.IntN(24), rng.IntN(60))
		case 1:
			return fmt.Sprintf("%d:%02d:%02d", rng.IntN(24), rng.IntN(60), rng.IntN(60))
		default:
			return fmt.Sprintf("%02d.%02d", rng.IntN(24), rng.IntN(60))
		}
	}
	style := rng.IntN(8)
	dash := pick(rng, []string{"-", " - ", "–", " – ", " bis ", " to ", " / ", ", "})
	switch rng.IntN(8) {
	case 0:
		return one(style)
	case 1:
		return one(style) + " " + clock()
	case 2:
		return one(style) + dash + one(style)
	case 3:
		return one(style) + " " + clock() + dash + one(style) + " " + clock()
	case 4:
		return one(style) + ", " + clock() + dash + clock()
	case 5:
		return pick(rng, []string{"Check-in ", "Abflug ", "departure ", "Départ le ", "Anreise "}) + one(style) +
			pick(rng, []string{", return ", ", Rückflug ", ", retour le ", " – "}) + one(style)
	case 6:
		d := fmt.Sprintf("%02d.%02d.", 1+rng.IntN(28), 1+rng.IntN(12))
		return d + dash + fmt.Sprintf("%02d.%02d.%d", 1+rng.IntN(28), 1+rng.IntN(12), 2020+rng.IntN(10))
	default:
		return one(style) + ", " + one(style) + ", " + one(style)
	}
}

func corpusAmount(rng *rand.Rand) string {
	amount := func() string {
		cents := rng.IntN(100)
		whole := rng.IntN([]int{100, 10000, 1000000, 100000000}[rng.IntN(4)])
		w := strconv.Itoa(whole)
		group := func(sep string) string {
			var parts []string
			for len(w) > 3 {
				parts = append([]string{w[len(w)-3:]}, parts...)
				w = w[:len(w)-3]
			}
			return strings.Join(append([]string{w}, parts...), sep)
		}
		switch rng.IntN(5) {
		case 0:
			return fmt.Sprintf("%s.%02d", group(","), cents)
		case 1:
			return fmt.Sprintf("%s,%02d", group("."), cents)
		case 2:
			return fmt.Sprintf("%s,%02d", group(" "), cents)
		case 3:
			return fmt.Sprintf("%s.%02d", group("'"), cents)
		default:
			return fmt.Sprintf("%s.%02d", w, cents)
		}
	}
	cur := pick(rng, []string{"EUR ", "€", "USD ", "$", "CHF ", "", "GBP ", "¥"})
	switch rng.IntN(4) {
	case 0:
		return cur + amount()
	case 1:
		return "Total: " + amount() + " + " + amount() + " + " + amount() + " = " + amount()
	case 2:
		return amount() + " / " + amount() + " / " + amount() + " " + strings.TrimSpace(cur)
	default:
		return "Paid " + cur + amount() + ", balance " + cur + amount()
	}
}

var corpusAirlineCodes = []string{"001", "006", "014", "016", "020", "027", "057", "065", "071", "074", "075", "081",
	"083", "086", "098", "105", "108", "114", "117", "125", "126", "131", "139", "157", "160", "176", "180", "205",
	"217", "220", "229", "232", "235", "257", "297", "479", "512", "555", "566", "589", "603", "607", "618", "629",
	"656", "695", "724", "738", "781", "784", "880", "957", "999"}

func corpusTicket(rng *rand.Rand) string {
	code, serial := pick(rng, corpusAirlineCodes), randDigits(rng, 10)
	switch rng.IntN(9) {
	case 0:
		return code + "-" + serial
	case 1:
		return "e-ticket " + code + " " + serial
	case 2:
		return "ETKT " + code + serial
	case 3:
		return "Ticket no. " + code + serial
	case 4:
		return code + "-" + serial + "/" + strconv.Itoa(1+rng.IntN(4))
	case 5:
		return fmt.Sprintf("FA PAX %s-%s/ET%s/EUR%d.%02d/%02dDEC25/FRAL1234%d/%s", code, serial,
			randLetters(rng, 2, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"), 100+rng.IntN(5000), rng.IntN(100), 1+rng.IntN(28), rng.IntN(10), randDigits(rng, 8))
	case 6:
		return "Ticketnummer: " + code + serial
	case 7:
		return "TKT " + code + "-" + serial + "-" + strconv.Itoa(rng.IntN(10))
	default:
		return "Billet n° " + code + " " + serial
	}
}

// corpusIBANCountries are BBAN shapes: n digits, a letters, c digits or letters.
var corpusIBANCountries = map[string]string{
	"DE": "18n", "AT": "16n", "CH": "17n", "FR": "23n", "ES": "20n", "IT": "1a22n", "NL": "4a10n", "BE": "12n",
	"PL": "24n", "PT": "21n", "GB": "4a14n", "IE": "4a14n", "SE": "20n", "DK": "14n", "NO": "11n", "FI": "14n",
	"LU": "16n", "CZ": "20n", "HU": "24n", "GR": "23n", "TR": "22n", "SA": "20n", "AE": "19n", "BR": "23n1a1c",
}

func corpusIBAN(rng *rand.Rand) string {
	countries := make([]string, 0, len(corpusIBANCountries))
	for c := range corpusIBANCountries {
		countries = append(countries, c)
	}
	slices.Sort(countries)
	cc := pick(rng, countries)
	var bban strings.Builder
	shape := corpusIBANCountries[cc]
	for len(shape) > 0 {
		k := strings.IndexAny(shape, "nac")
		n, _ := strconv.Atoi(shape[:k])
		switch shape[k] {
		case 'n':
			bban.WriteString(randDigits(rng, n))
		case 'a':
			bban.WriteString(randLetters(rng, n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
		default:
			bban.WriteString(randLetters(rng, n, upperAlnum))
		}
		shape = shape[k+1:]
	}
	// Check digits: 98 minus the number with check digits 00, modulo 97.
	rem := 0
	for _, c := range bban.String() + cc + "00" {
		if c >= '0' && c <= '9' {
			rem = (rem*10 + int(c-'0')) % 97
		} else {
			rem = (rem*100 + int(c-'A') + 10) % 97
		}
	}
	iban := fmt.Sprintf("%s%02d%s", cc, 98-rem, bban.String())
	grouped := ""
	for i := 0; i < len(iban); i += 4 {
		grouped += iban[i:min(i+4, len(iban))] + " "
	}
	grouped = strings.TrimSpace(grouped)
	switch rng.IntN(4) {
	case 0:
		return iban
	case 1:
		return grouped
	case 2:
		return "IBAN: " + grouped + ", BIC " + randLetters(rng, 8, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
	default:
		return "Refund to " + iban + " (" + pick(rng, []string{"account holder", "Kontoinhaber", "titulaire"}) + ")"
	}
}

func corpusCoordinates(rng *rand.Rand) string {
	lat := fmt.Sprintf("%.6f", rng.Float64()*180-90)
	lon := fmt.Sprintf("%.6f", rng.Float64()*360-180)
	switch rng.IntN(4) {
	case 0:
		return lat + ", " + lon
	case 1:
		return lat + "," + lon
	case 2:
		return "Hotel location: " + lat + " " + lon
	default:
		return "GPS " + lat[:len(lat)-1] + "; " + lon[:len(lon)-1]
	}
}
