package wayfarer

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/nyaruka/phonenumbers"
)

// Generators of names, addresses, references, remarks (accept corpus) and of
// the ambiguous corpus.

func corpusReference(rng *rand.Rand) string {
	letters := "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	switch rng.IntN(16) {
	case 0:
		return "PNR " + randLetters(rng, 6, upperAlnum)
	case 1:
		return "Confirmation number: " + randDigits(rng, 8+rng.IntN(3))
	case 2:
		d := randDigits(rng, 10)
		return "Booking.com " + d[:4] + "." + d[4:7] + "." + d[7:] + ", PIN " + randDigits(rng, 4)
	case 3:
		return "Expedia itinerary " + "7" + randDigits(rng, 12)
	case 4:
		return "Airbnb HM" + randLetters(rng, 8, upperAlnum)
	case 5:
		return "DB Auftragsnummer " + randDigits(rng, 12)
	case 6:
		return "Hertz confirmation K" + randDigits(rng, 10)
	case 7:
		return fmt.Sprintf("Voucher %d/%02d/%06d", 2020+rng.IntN(8), 1+rng.IntN(12), rng.IntN(1000000))
	case 8:
		return fmt.Sprintf("Invoice INV-%d-%06d", 2020+rng.IntN(8), rng.IntN(1000000))
	case 9:
		d := randDigits(rng, 12)
		return "Miles & More 992 " + d[:3] + " " + d[3:6] + " " + d[6:9] + " " + d[9:]
	case 10:
		return "KrisFlyer " + randDigits(rng, 10) + ", Skywards EK " + randDigits(rng, 9)
	case 11:
		return "Passport " + randLetters(rng, 1, letters) + randDigits(rng, 8) + ", valid until " +
			fmt.Sprintf("%02d.%02d.%d", 1+rng.IntN(28), 1+rng.IntN(12), 2026+rng.IntN(10))
	case 12:
		return "Redress " + randDigits(rng, 7) + ", KTN " + randDigits(rng, 9)
	case 13:
		return fmt.Sprintf("Policy %s-%s-%s", randDigits(rng, 4), randDigits(rng, 4), randDigits(rng, 2))
	case 14:
		return fmt.Sprintf("Flight %s%d, seat %d%c, gate %c%d", pick(rng, []string{"LH", "BA", "AF", "UA", "EK", "SQ", "NH"}),
			1+rng.IntN(9000), 1+rng.IntN(60), "ABCDEFK"[rng.IntN(7)], "ABCDE"[rng.IntN(5)], 1+rng.IntN(60))
	default:
		return fmt.Sprintf("Room %d, %d nights, %d adults %d child", 100+rng.IntN(1500), 1+rng.IntN(14), 1+rng.IntN(4), rng.IntN(3))
	}
}

var (
	corpusFirstNames = []string{"Anna", "José", "Zoë", "Jürgen", "François", "Søren", "Łukasz", "Ngọc Anh", "Olúwásẹ́un",
		"Иван", "Ελένη", "محمد", "יעל", "राहुल", "美咲", "伟", "민준", "สมชาย", "Aoife", "Siobhán", "Björk", "Ömer",
		"Dương", "Nguyễn", "Mary-Jane", "D'Arcy", "Jean-Luc", "Ana María", "Priya", "Kwame", "Zhang Wei"}
	corpusLastNames = []string{"Müller", "García Márquez", "O'Neill", "Ødegaard", "Wiśniewski", "Nguyễn", "Иванова",
		"Παπαδόπουλος", "الحسيني", "כהן", "शर्मा", "佐藤", "王", "김", "ใจดี", "van der Berg", "de la Cruz", "Smith-Jones",
		"Łęcka", "Çelik", "Dvořák", "Ó Súilleabháin", "Mbeki", "Kowalczyk", "Abler", "Fernández", "Yılmaz"}
	corpusTitles = []string{"", "Dr. ", "Prof. Dr. ", "Mr ", "Mrs ", "Ms ", "Herr ", "Frau ", "M. ", "Mme ", "Sr. ", "Sra. "}
)

func corpusName(rng *rand.Rand) string {
	first, last := pick(rng, corpusFirstNames), pick(rng, corpusLastNames)
	switch rng.IntN(5) {
	case 0:
		return last + "/" + first
	case 1:
		return strings.ToUpper(last) + "/" + strings.ToUpper(first) + " " + pick(rng, []string{"MR", "MRS", "MS", "DR"})
	case 2:
		return pick(rng, corpusTitles) + first + " " + last + pick(rng, []string{"", " Jr.", " III", " (née Smith)"})
	default:
		return first + " " + last
	}
}

func corpusAddress(rng *rand.Rand) string {
	n := func(k int) int { return 1 + rng.IntN(k) }
	z := func(digits int) string { return randDigits(rng, digits) }
	switch rng.IntN(20) {
	case 0:
		return fmt.Sprintf("Hauptstraße %d, %s Berlin", n(200), z(5))
	case 1:
		return fmt.Sprintf("%d Main St Apt %d, Springfield, IL %s-%s", n(9999), n(40), z(5), z(4))
	case 2:
		return fmt.Sprintf("Flat %d, %d Baker Street, London NW1 6XE", n(30), n(250))
	case 3:
		return fmt.Sprintf("%d rue de Rivoli, %s Paris", n(200), z(5))
	case 4:
		return fmt.Sprintf("〒%s-%s 東京都千代田区千代田%d-%d-%d", z(3), z(4), n(9), n(30), n(20))
	case 5:
		return fmt.Sprintf("北京市朝阳区建国路%d号 %s", n(200), z(6))
	case 6:
		return fmt.Sprintf("Rua Augusta, %d - Consolação, São Paulo - SP, %s-%s", n(3000), z(5), z(3))
	case 7:
		return fmt.Sprintf("Flat %d, %d MG Road, Bengaluru %s", n(900), n(300), z(6))
	case 8:
		return fmt.Sprintf("ул. Тверская, д. %d, кв. %d, Москва, %s", n(40), n(200), z(6))
	case 9:
		return fmt.Sprintf("Damrak %d, %s AB Amsterdam", n(100), z(4))
	case 10:
		return fmt.Sprintf("Unit %d/%d-%d George St, Sydney NSW %s", n(40), n(300), n(300), z(4))
	case 11:
		return fmt.Sprintf("Calle de Alcalá %d, %d.º %d.ª, %s Madrid", n(300), n(9), n(4), z(5))
	case 12:
		return fmt.Sprintf("Via del Corso %d, %s Roma RM", n(500), z(5))
	case 13:
		return fmt.Sprintf("서울특별시 중구 세종대로 %d, %d층", n(200), n(30))
	case 14:
		return fmt.Sprintf("Av. Corrientes %d, Piso %d, C%sAAB CABA", n(6000), n(20), z(4))
	case 15:
		return fmt.Sprintf("Av. Paseo de la Reforma %d, Col. Juárez, %s CDMX", n(500), z(5))
	case 16:
		return fmt.Sprintf("İstiklal Cd. No:%d D:%d, %s Beyoğlu/İstanbul", n(300), n(20), z(5))
	case 17:
		return fmt.Sprintf("Villa %d, Street %d, Jumeirah %d, P.O. Box %s, Dubai", n(90), n(40), n(3), z(5))
	case 18:
		return fmt.Sprintf("%d-%d, %s Praha %d", n(2000), n(60), z(3)+" "+z(2), n(10))
	default:
		return fmt.Sprintf("Calle %d #%d-%d, Bogotá, %s", n(200), n(99), n(99), z(6))
	}
}

// corpusRemark joins pieces of the other kinds as agents write them, each
// with its word ("ticket", "paid", "tel").
func corpusRemark(rng *rand.Rand, phones []*phonenumbers.PhoneNumber) string {
	return strings.Join(remarkPieces(rng, phones, true), pick(rng, []string{", ", "; ", ". ", "\n", " / ", " | "}))
}

func remarkPieces(rng *rand.Rand, phones []*phonenumbers.PhoneNumber, labelled bool) []string {
	phone := func() string { return phonenumbers.Format(pick(rng, phones), phonenumbers.INTERNATIONAL) }
	label := func(words ...string) string {
		if !labelled {
			return ""
		}
		return pick(rng, words) + " "
	}
	pieces := []func() string{
		func() string { return label("travel dates", "Reise", "stay", "séjour") + corpusDate(rng) },
		func() string { return label("ticket", "e-ticket", "TKT") + corpusTicket(rng) },
		func() string { return label("call", "tel", "mobile", "Handy") + phone() },
		func() string { return label("paid", "deposit", "Anzahlung") + corpusAmount(rng) },
		func() string { return corpusReference(rng) },
		func() string { return label("bank", "refund to", "IBAN") + corpusIBAN(rng) },
		func() string { return "Hotel " + corpusAddress(rng) },
		func() string {
			return pick(rng, []string{"vegetarian meal", "aisle seat", "wheelchair at arrival", "late check-in"})
		},
	}
	var parts []string
	for k := 2 + rng.IntN(3); k > 0; k-- {
		parts = append(parts, pick(rng, pieces)())
	}
	return parts
}

// generateAmbiguousCorpus makes text that the rule may take for a card
// number: lists of numbers, international numbers without their "+" in free
// text, glued e-tickets without a word for ticket, numeric profile ids, and
// numbers of different kinds strung together by punctuation alone.
func generateAmbiguousCorpus() []corpusItem {
	rng := rand.New(rand.NewPCG(13, 1))
	var out []corpusItem
	add := func(cat, text string) { out = append(out, corpusItem{cat, "text", text}) }
	for i := 0; i < 100; i++ {
		base := 100 + rng.IntN(9800)
		add("number-list", fmt.Sprintf("Rooms %d, %d, %d, %d", base, base+1, base+2, base+3))
	}
	for _, n := range corpusPhones(rand.New(rand.NewPCG(13, 2)))[:200] {
		add("phone-without-plus", "Tel "+strings.TrimPrefix(phonenumbers.Format(n, phonenumbers.INTERNATIONAL), "+"))
	}
	for i := 0; i < 100; i++ {
		add("glued-ticket", pick(rng, corpusAirlineCodes)+randDigits(rng, 10))
	}
	for i := 0; i < 100; i++ {
		add("profile-id", "https://www.facebook.com/profile.php?id=1000"+randDigits(rng, 11))
	}
	for i := 0; i < 100; i++ {
		add("long-reference", "Ref. "+randDigits(rng, 16+rng.IntN(4)))
	}
	phones := corpusPhones(rand.New(rand.NewPCG(13, 3)))
	for i := 0; i < 100; i++ {
		add("number-soup", strings.Join(remarkPieces(rng, phones, false), pick(rng, []string{", ", "; ", ". ", "\n", " / "})))
	}
	return out
}
