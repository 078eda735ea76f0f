package http_test

import (
	"reflect"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// TestOpenAPITagSchemas: the tag and affiliation schemas hold the record
// structs' fields with their sizes and types, and nothing else.
func TestOpenAPITagSchemas(t *testing.T) {
	doc := loadOpenAPI(t)
	checkRecordSchema(t, doc, "Tag", reflect.TypeFor[wayfarer.Tag](), doc.get(t, "components", "schemas", "Tag"))
	checkRecordSchema(t, doc, "Affiliation", reflect.TypeFor[wayfarer.Affiliation](), doc.get(t, "components", "schemas", "Affiliation"))
	doc.get(t, "components", "schemas", "ExtendedColumn", "properties")
}
