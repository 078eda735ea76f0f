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

	checkSearchRowSchema(t, doc, "ActivitySearchRow", wayfarer.ActivitySearchColumns)

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
