package http_test

import (
	"slices"
	"sort"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// TestOpenAPILookups: the look-ups' request schemas name every parameter
// the server reads and nothing else, and their row schemas every column
// of the catalog, with the catalog's JSON types.
func TestOpenAPILookups(t *testing.T) {
	doc := loadOpenAPI(t)
	keys := func(m map[string]any) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	for _, tc := range []struct {
		request string
		params  []string
		row     string
		cat     *wayfarer.SearchCatalog
	}{
		{"BranchSearchRequest", wire.BranchSearchParamNames, "BranchSearchRow", wayfarer.BranchSearchCatalog},
		{"ProfileSearchRequest", wire.ProfileSearchParamNames, "ProfileSearchRow", wayfarer.ProfileSearchCatalog},
		{"AppUserSearchRequest", wire.AppUserSearchParamNames, "AppUserSearchRow", wayfarer.AppUserSearchCatalog},
		{"", nil, "Branch", wayfarer.BranchRecordCatalog},
	} {
		if tc.request != "" {
			want := slices.Sorted(slices.Values(tc.params))
			if got := keys(doc.get(t, "components", "schemas", tc.request, "properties")); !slices.Equal(got, want) {
				t.Errorf("%s: documented %v\nread by the server %v", tc.request, got, want)
			}
		}
		props := doc.get(t, "components", "schemas", tc.row, "properties")
		var cols []string
		for _, c := range tc.cat.Columns {
			cols = append(cols, c.Name)
			p, _ := props[c.Name].(map[string]any)
			want := map[wayfarer.ColumnType]string{wayfarer.ColLong: "integer", wayfarer.ColInt: "integer", wayfarer.ColShort: "integer",
				wayfarer.ColString: "string", wayfarer.ColBool: "boolean", wayfarer.ColDate: "string", wayfarer.ColDateTimeOffset: "string"}[c.Type]
			if p["type"] != want {
				t.Errorf("%s.%s: type %v, want %s", tc.row, c.Name, p["type"], want)
			}
		}
		if got := keys(props); !slices.Equal(got, slices.Sorted(slices.Values(cols))) {
			t.Errorf("%s: documented %v\ncatalog %v", tc.row, got, cols)
		}
	}
}
