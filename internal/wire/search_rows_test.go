package wire

import (
	"bytes"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

func TestSearchResultJSONAndCSV(t *testing.T) {
	rec, _ := wayfarer.LookupSearchColumn("recNo")
	name, _ := wayfarer.LookupSearchColumn("name")
	when, _ := wayfarer.LookupSearchColumn("createDateTime")
	perm, _ := wayfarer.LookupSearchColumn("primaryEmailMarketingPermission")
	exp, _ := wayfarer.LookupSearchColumn("cardExpDate")
	r := &wayfarer.SearchResult{Columns: []wayfarer.SearchColumn{name, rec, when, perm, exp}, Rows: []wayfarer.SearchRow{
		{"Abler/Ken", int64(7), time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), true, "2026-12-31"},
		{"O\"Neil/<b>", int64(8), nil, nil, nil},
	}}
	var b bytes.Buffer
	if err := WriteSearchJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"Abler/Ken","recNo":7,"createDateTime":"2024-01-02T03:04:05+00:00","primaryEmailMarketingPermission":true,"cardExpDate":"2026-12-31T00:00:00"},{"name":"O\"Neil/\u003cb\u003e","recNo":8}]`
	if b.String() != want {
		t.Errorf("json\n got %s\nwant %s", b.String(), want)
	}
	b.Reset()
	WriteSearchJSON(&b, &wayfarer.SearchResult{})
	if b.String() != "[]" {
		t.Errorf("empty: %s", b.String())
	}
	b.Reset()
	r.Rows = append(r.Rows, wayfarer.SearchRow{"=cmd()", int64(9), nil, false, nil})
	if err := WriteSearchCSV(&b, r); err != nil {
		t.Fatal(err)
	}
	wantCSV := "name,recNo,createDateTime,primaryEmailMarketingPermission,cardExpDate\n" +
		"Abler/Ken,7,2024-01-02T03:04:05Z,true,2026-12-31\n" +
		"\"O\"\"Neil/<b>\",8,,,\n" +
		"'=cmd(),9,,false,\n"
	if b.String() != wantCSV {
		t.Errorf("csv\n got %q\nwant %q", b.String(), wantCSV)
	}
}
