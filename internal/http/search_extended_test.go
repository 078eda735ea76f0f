package http_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// TestSearchExtendedColumns: includeColsExtended adds a tag's value and a
// marketing flag per person, one row per person, in JSON and CSV.
func TestSearchExtendedColumns(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		ken := admin.create(kenJSON(r)) // VIP "gold", marked NOEMM
		other := admin.create(fmt.Sprintf(`{"activeStatus":1,"lastName":"Xtended","personTag":[{"tag_recNo":%d,"value":"vegan"},{"tag_recNo":%d},{"tag_recNo":%d,"value":"kosher"}]}`,
			r.diet, r.vip, r.diet))
		vip, diet, noemm := fmt.Sprintf("tag:%d", r.vip), fmt.Sprintf("tag:%d", r.diet), fmt.Sprintf("marketing:%d", r.noemm)
		body := fmt.Sprintf(`{"includeCols":["recNo","lastName","cardType"],"recNo":{"value":[%d,%d],"compareCondition":1},
			"includeColsExtended":[{"type":"tag","recNo":%d},{"type":"tag","recNo":%d},{"type":"marketing","recNo":%d}]}`,
			ken, other, r.vip, r.diet, r.noemm)
		resp := admin.do("POST", "/personSearch", body)
		if resp.Status != 200 {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}
		var rows []map[string]any
		if err := json.Unmarshal(resp.Body, &rows); err != nil {
			t.Fatal(err)
		}
		byName := map[string][]map[string]any{}
		for _, row := range rows {
			byName[row["lastName"].(string)] = append(byName[row["lastName"].(string)], row)
		}
		// Ken has three cards: three rows (cardType is a card column), each
		// with his tag and marketing values.
		if len(byName["Abler"]) != 3 || len(byName["Xtended"]) != 1 {
			t.Fatalf("%s", resp.Body)
		}
		k, x := byName["Abler"][0], byName["Xtended"][0]
		if k[vip] != "gold" || k[noemm] != true || k[diet] != nil {
			t.Fatalf("ken %v", k)
		}
		if x[vip] != "" || x[diet] != "vegan; kosher" || x[noemm] != false {
			t.Fatalf("other %v", x)
		}

		// CSV: the columns by name, in order.
		resp = admin.do("POST", "/personSearch", strings.TrimSuffix(strings.Replace(body, `"cardType"`, `"firstName"`, 1), "}")+`,"reportFormat":true}`)
		if resp.Status != 200 {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}
		recs, err := csv.NewReader(strings.NewReader(string(resp.Body))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(recs[0], ","); got != "recNo,lastName,firstName,"+vip+","+diet+","+noemm {
			t.Fatalf("header %s", got)
		}
		if len(recs) != 3 || recs[1][3] != "gold" || recs[1][5] != "true" || recs[2][4] != "vegan; kosher" || recs[2][5] != "false" {
			t.Fatalf("%q", recs)
		}

		// distinct and summaryCount keep working with extended columns.
		resp = admin.do("POST", "/personSearch", fmt.Sprintf(`{"includeCols":["lastName","summaryCount"],"distinct":true,
			"recNo":{"value":[%d,%d],"compareCondition":1},"includeColsExtended":[{"type":"marketing","recNo":%d}]}`, ken, other, r.noemm))
		if resp.Status != 200 || !strings.Contains(string(resp.Body), `"summaryCount":2`) {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}

		// A tag or element the agency does not have: 407 naming the entry.
		ctx := t.Context()
		otherAgency, err := s.App.DB.AgencyByAlias(ctx, "OTHER")
		if err != nil {
			t.Fatal(err)
		}
		foreign, err := s.App.DB.EnsureTag(ctx, otherAgency.ID, "Foreign")
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ body, contains string }{
			{fmt.Sprintf(`{"includeColsExtended":[{"type":"tag","recNo":%d},{"type":"tag","recNo":%d}]}`, r.vip, foreign),
				fmt.Sprintf("tag %d does not exist. Path 'includeColsExtended[1].recNo'", foreign)},
			{`{"includeColsExtended":[{"type":"marketing","recNo":999999}]}`,
				"marketing element 999999 does not exist. Path 'includeColsExtended[0].recNo'"},
			{`{"includeColsExtended":[{"type":"label","recNo":1}]}`, "Path 'includeColsExtended[0].type'"},
		} {
			m := wantResult(t, admin.do("POST", "/personSearch", c.body), 400, contract.CodeInvalidValue, "Param")
			if !strings.Contains(m["resultDescription"].(string), c.contains) {
				t.Fatalf("%s: %q", c.body, m["resultDescription"])
			}
		}
		m := wantResult(t, admin.do("POST", "/personSearch", `{"includeColsExtended":[{"recNo":1}]}`), 400, contract.CodeMissingParameter, "Param")
		if !strings.Contains(m["resultDescription"].(string), "includeColsExtended[0].type") {
			t.Fatalf("%v", m)
		}
	})
}
