package http_test

import (
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// The search limits and the query timeout answer are in the OpenAPI
// document as the code has them.
func TestOpenAPISearchLimitsAndTimeout(t *testing.T) {
	doc := loadOpenAPI(t)
	limits := doc.get(t, "components", "schemas", "PersonSearchRequest", "x-wayfarer-limits")
	for name, want := range map[string]int{
		"MaxSearchFilterEntries":    wayfarer.MaxSearchFilterEntries,
		"MaxSearchFilterValues":     wayfarer.MaxSearchFilterValues,
		"MaxSearchValues":           wayfarer.MaxSearchValues,
		"MaxSearchReportNameLength": wayfarer.MaxSearchReportNameLength,
		"MaxSearchBaseURLLength":    wayfarer.MaxSearchBaseURLLength,
		"MaxSearchBodyBytes":        wayfarer.MaxSearchBodyBytes,
	} {
		if got, _ := limits[name].(float64); int(got) != want {
			t.Errorf("x-wayfarer-limits %s = %v, want %d", name, limits[name], want)
		}
	}
	props := doc.get(t, "components", "schemas", "PersonSearchRequest", "properties")
	for name, want := range map[string]int{"tags": wayfarer.MaxSearchFilterEntries, "marketing": wayfarer.MaxSearchFilterEntries,
		"activeStatus": wayfarer.MaxSearchFilterValues, "commType": wayfarer.MaxSearchFilterValues, "cardType": wayfarer.MaxSearchFilterValues} {
		if got, _ := oaObj(t, props[name], name)["maxItems"].(float64); int(got) != want {
			t.Errorf("%s maxItems %v, want %d", name, got, want)
		}
	}
	for _, s := range []string{"StringSearchParam", "NumSearchParam"} {
		v := doc.get(t, "components", "schemas", s, "properties", "value")
		if got, _ := v["maxItems"].(float64); int(got) != wayfarer.MaxSearchFilterValues {
			t.Errorf("%s value maxItems %v", s, got)
		}
	}
	if desc, _ := doc.get(t, "info")["description"].(string); !strings.Contains(desc, "| 420 | 503 |") {
		t.Errorf("info.description: no row for result code 420")
	}
	for _, path := range []string{"/personSearch", "/person/{recNo}", "/person", "/person/refresh"} {
		for verb, op := range doc.get(t, "paths", path) {
			responses := oaObj(t, oaObj(t, op, path)["responses"], path)
			if r, ok := responses["503"]; !ok || oaObj(t, r, path)["$ref"] != "#/components/responses/QueryTimeout" {
				t.Errorf("%s %s: no 503 QueryTimeout answer", verb, path)
			}
		}
	}
}
