package http_test

import (
	"reflect"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// TestOpenAPIActivitySchemas checks the activity schemas against the code:
// the record against wayfarer.Activity and its tags, the search row
// against wayfarer.ActivitySearchColumns, the request against the
// parameters the decoder knows.
func TestOpenAPIActivitySchemas(t *testing.T) {
	doc := loadOpenAPI(t)
	checkRecordSchema(t, doc, "Activity", reflect.TypeFor[wayfarer.Activity](), doc.get(t, "components", "schemas", "Activity"))

	row := doc.get(t, "components", "schemas", "ActivitySearchRow", "properties")
	known := map[string]bool{}
	for _, c := range wayfarer.ActivitySearchColumns {
		known[c.Name] = true
		v, ok := row[c.Name]
		if !ok {
			t.Errorf("column %s is missing from ActivitySearchRow", c.Name)
			continue
		}
		s := oaObj(t, v, "ActivitySearchRow."+c.Name)
		what := "ActivitySearchRow." + c.Name
		switch c.Type {
		case wayfarer.ColLong:
			wantType(t, what, s, "integer", "int64")
		case wayfarer.ColInt:
			wantType(t, what, s, "integer", "int32")
		case wayfarer.ColShort:
			wantType(t, what, s, "integer", "")
		case wayfarer.ColString:
			wantType(t, what, s, "string", "")
		case wayfarer.ColDate:
			wantReferenceDate(t, what, s)
		case wayfarer.ColDateTimeOffset:
			wantType(t, what, s, "string", "date-time")
		}
		wantMaxLength(t, what, s, c.Size)
	}
	for name := range row {
		if !known[name] {
			t.Errorf("ActivitySearchRow.%s is not in wayfarer.ActivitySearchColumns", name)
		}
	}

	params := doc.get(t, "components", "schemas", "ActivitySearchRequest", "properties")
	names := map[string]bool{}
	for _, p := range wire.ActivitySearchParamNames {
		names[p] = true
		if _, ok := params[p]; !ok {
			t.Errorf("activity search parameter %s is missing from ActivitySearchRequest", p)
		}
	}
	for name := range params {
		if !names[name] {
			t.Errorf("ActivitySearchRequest.%s is not in wire.ActivitySearchParamNames", name)
		}
	}
}
