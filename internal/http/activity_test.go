package http_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// oneActivity reads GET /activity or POST /activity/refresh: 200, an array of one.
func oneActivity(t *testing.T, r *testserver.Response) *wayfarer.Activity {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	var as []map[string]any
	if err := json.Unmarshal(r.Body, &as); err != nil || len(as) != 1 {
		t.Fatalf("want an array of one activity: %v %s", err, r.Body)
	}
	var out []*wayfarer.Activity
	if err := testJSONDecode(r.Body, &out); err != nil {
		t.Fatal(err)
	}
	return out[0]
}

// testJSONDecode reads a body as the server's decoder would (Opt fields).
func testJSONDecode(body []byte, v any) error {
	return jsoncodec.Strict.Decode(body, v, "test")
}

func (c personClient) createActivity(body string) int64 {
	c.t.Helper()
	return c.createAt("/activity", body, "Activity created")
}

func (c personClient) activitySearch(body string) []map[string]any {
	c.t.Helper()
	r := c.do("POST", "/activitySearch", body)
	if noRows(r) {
		return nil
	}
	if r.Status != 200 {
		c.t.Fatalf("activitySearch %s: %d %s", body, r.Status, r.Body)
	}
	var rows []map[string]any
	if err := json.Unmarshal(r.Body, &rows); err != nil {
		c.t.Fatal(err)
	}
	return rows
}

func recNos(rows []map[string]any) []int64 {
	out := []int64{}
	for _, r := range rows {
		out = append(out, int64(r["recNo"].(float64)))
	}
	return out
}

func sameIDs(t *testing.T, what string, got []int64, want ...int64) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(append([]int64{}, want...)) && !(len(got) == 0 && len(want) == 0) {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
}

func TestActivityCreateLoadAndSearchShape(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		ken := admin.create(kenJSON(r))
		// The devportal's fields; the recorded answer's values.
		id := admin.createActivity(fmt.Sprintf(`{"recNo":null,"appUser_recNo":%d,"type":1,"priority":1,"subject":"Final Payment Due",
			"targetDate":"2002-01-10T00:00:00","remarks":"Call to followup.","private":false,"duration":30,"alertOffset":-15,
			"activityPersonLink":{"person_recNo":%d},"activityTag":[{"tag_recNo":%d,"value":"gold"}]}`, r.agentUser, ken, r.vip))
		resp := admin.do("GET", fmt.Sprintf("/activity/%d", id), nil)
		a := oneActivity(t, resp)
		if a.Subject.Value != "Final Payment Due" || a.AppUserID.Value != "agent" || a.TargetDate.Value.String() != "2002-01-10" ||
			a.ActivityPersonLink == nil || a.ActivityPersonLink.PersonRecNo.Value != ken || a.ActivityPersonLink.PersonName.Value != "Abler/Ken" ||
			a.ActivityPersonLink.PersonEmail.Value != "ken@example.com" || len(a.ActivityTag) != 1 || a.ActivityTag[0].Name.Value != "VIP" {
			t.Fatalf("loaded %s", resp.Body)
		}
		for _, key := range []string{`"targetDate":"2002-01-10T00:00:00"`, `"appUserId":"agent"`, `"private":false`, `"personName_lookup":"Abler/Ken"`} {
			if !strings.Contains(string(resp.Body), key) {
				t.Errorf("missing %s in %s", key, resp.Body)
			}
		}
		note := admin.createActivity(`{"type":3,"priority":2,"subject":"New Trip Inquiry","targetDateTime":"2001-12-01T03:51:00-08:00"}`)
		wantNoContent(t, admin.do("GET", "/activity/999999", nil))
		wantNoContent(t, admin.do("GET", "/activity/abc", nil))

		// The Java client's recorded request and its answer's shape.
		rows := admin.activitySearch(fmt.Sprintf(`{"appUserRecNo":{"value":[%d],"compareCondition":1},"completed":false}`, r.agentUser))
		sameIDs(t, "agent's open", recNos(rows), id)
		want := map[string]any{"recNo": float64(id), "type": float64(1), "appUser_recNo": float64(r.agentUser), "appUserId": "agent",
			"subject": "Final Payment Due", "priority": float64(1), "targetDate": "2002-01-10T00:00:00", "remarks": "Call to followup.",
			"personRecNo": float64(ken), "personName": "Abler/Ken"}
		if fmt.Sprint(rows[0]) != fmt.Sprint(want) {
			t.Fatalf("row %v\nwant %v", rows[0], want)
		}
		rows = admin.activitySearch(`{"startingRow":0,"appUserRecNo":{"value":[1825,1],"compareCondition":1},"completed":false}`)
		if len(rows) > 0 && int64(rows[0]["appUser_recNo"].(float64)) != 1 {
			t.Fatalf("%v", rows)
		}
		if rows := admin.activitySearch(`{"startingRow":0,"appUserRecNo":{"compareCondition":3},"completed":false}`); rows != nil {
			t.Fatalf("blank appUser: %v", rows)
		}
		// The admin's note: created without appUser_recNo, it is the admin's.
		rows = admin.activitySearch(fmt.Sprintf(`{"appUserRecNo":{"value":[%d]},"type":{"value":[3]},"includeCols":["recNo","targetDateTime","summaryCount","tags"]}`, r.adminUser))
		if len(rows) != 1 || rows[0]["targetDateTime"] != "2001-12-01T11:51:00+00:00" || rows[0]["summaryCount"] != float64(1) {
			t.Fatalf("note %v (%d)", rows, note)
		}
		rows = admin.activitySearch(`{"includeCols":["recNo","tags","clientProfileRecNo"],"tags":[{"recNo":` + fmt.Sprint(r.vip) + `,"value":{"value":["gold"],"compareCondition":1}}]}`)
		if len(rows) != 1 || rows[0]["tags"] != "VIP=gold" || len(rows[0]) != 2 {
			t.Fatalf("tags %v", rows)
		}
		sameIDs(t, "date range", recNos(admin.activitySearch(`{"targetDateFrom":{"date":"01/10/2002"},"targetDateTo":{"date":"2002-01-10"}}`)), id)
		sameIDs(t, "instant range", recNos(admin.activitySearch(`{"targetDateTimeFrom":{"dateTime":"2001-12-01T11:51:00Z"},"targetDateTimeTo":{"date":"2001-12-01"}}`)), note)
		sameIDs(t, "person", recNos(admin.activitySearch(fmt.Sprintf(`{"personRecNo":{"value":[%d]}}`, ken))), id)
		// The other conditions on the one linked person, and a tag the
		// activity must not have: the linked activity on one side, the
		// note without person or tag on the other.
		for body, wantID := range map[string]bool{
			fmt.Sprintf(`{"personRecNo":{"value":[%d],"compareCondition":2}}`, ken): false,
			`{"personRecNo":{"compareCondition":3}}`:                                false,
			`{"personRecNo":{"compareCondition":4}}`:                                true,
			fmt.Sprintf(`{"tags":[{"recNo":%d,"checked":false}]}`, r.vip):           false,
		} {
			got := recNos(admin.activitySearch(body))
			if slices.Contains(got, id) != wantID || slices.Contains(got, note) == wantID {
				t.Errorf("%s: %v, want the linked %d %v, the note %d %v", body, got, id, wantID, note, !wantID)
			}
		}
		sameIDs(t, "subject", recNos(admin.activitySearch(`{"subject":{"value":["final"],"compareCondition":5}}`)), id)
		// CSV
		csv := admin.do("POST", "/activitySearch", `{"includeCols":["recNo","subject"],"reportFormat":true,"recNo":{"value":[`+fmt.Sprint(id)+`]}}`)
		if csv.Status != 200 || !strings.HasPrefix(string(csv.Body), "recNo,subject\n") {
			t.Fatalf("csv %d %q", csv.Status, csv.Body)
		}
	})
}

func TestActivityScope(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		agent := clientFor(t, s, "agent")   // Main, advisor Alice, OnlySelf+OnlyBranch
		branch := clientFor(t, s, "branch") // Harbor, AllUsers
		viewer := clientFor(t, s, "viewer")
		other := personClient{t, s, testserver.Bearer(s.Login(t, "OTHER", "admin", "demo-admin"))}

		ken := admin.create(kenJSON(r)) // Main, Alice
		sue := admin.create(fmt.Sprintf(`{"lastName":"Sue","activeStatus":1,"branch_recNo":%d,"advisorProfile_recNo":%d}`, r.harbor, r.hana))
		agents := admin.createActivity(fmt.Sprintf(`{"type":1,"priority":2,"appUser_recNo":%d}`, r.agentUser))
		aboutKen := admin.createActivity(fmt.Sprintf(`{"type":1,"priority":2,"activityPersonLink":{"person_recNo":%d}}`, ken))
		aboutSue := admin.createActivity(fmt.Sprintf(`{"type":1,"priority":2,"activityPersonLink":{"person_recNo":%d}}`, sue))
		private := admin.createActivity(fmt.Sprintf(`{"type":3,"priority":2,"private":true,"activityPersonLink":{"person_recNo":%d}}`, ken))
		agentsPrivate := agent.createActivity(`{"type":3,"priority":1,"private":true}`)

		all := recNos(admin.activitySearch(`{}`))
		sameIDs(t, "admin", all, agents, aboutKen, aboutSue, private)
		sameIDs(t, "agent", recNos(agent.activitySearch(`{}`)), agents, aboutKen, agentsPrivate)
		sameIDs(t, "branch", recNos(branch.activitySearch(`{}`)), aboutSue)
		sameIDs(t, "other agency", recNos(other.activitySearch(`{}`)))
		wantResult(t, viewer.do("POST", "/activitySearch", `{}`), 403, contract.CodePermissionDenied, "activitySearch")
		wantResult(t, viewer.do("GET", fmt.Sprintf("/activity/%d", agents), nil), 403, contract.CodePermissionDenied, "activity")

		for _, id := range []int64{aboutSue, private, agentsPrivate} {
			resp := admin.do("GET", fmt.Sprintf("/activity/%d", id), nil)
			if id == agentsPrivate {
				wantNoContent(t, resp)
			} else {
				oneActivity(t, resp)
			}
		}
		wantNoContent(t, agent.do("GET", fmt.Sprintf("/activity/%d", aboutSue), nil))
		wantNoContent(t, agent.do("GET", fmt.Sprintf("/activity/%d", private), nil))
		wantNoContent(t, other.do("GET", fmt.Sprintf("/activity/%d", agents), nil))
		oneActivity(t, agent.do("GET", fmt.Sprintf("/activity/%d", agentsPrivate), nil))

		// Saves that would leave the saver's reach are refused, and write nothing.
		wantResult(t, agent.do("POST", "/activity", fmt.Sprintf(`{"type":1,"priority":1,"appUser_recNo":%d}`, r.adminUser)), 403, contract.CodePermissionDenied, "activity")
		wantResult(t, admin.do("POST", "/activity", fmt.Sprintf(`{"type":1,"priority":1,"private":true,"appUser_recNo":%d}`, r.agentUser)), 403, contract.CodePermissionDenied, "activity")
		old := oneActivity(t, agent.do("GET", fmt.Sprintf("/activity/%d", agents), nil))
		n := cloneActivity(t, old)
		n.AppUserRecNo = wayfarer.Some(r.adminUser)
		wantResult(t, agent.do("POST", "/activity", activityDataset(old, n)), 403, contract.CodePermissionDenied, "activity")
		sameIDs(t, "admin after refusals", recNos(admin.activitySearch(`{}`)), all...)
		// An update in reach works.
		n = cloneActivity(t, old)
		n.CompletionDateTime = wayfarer.Some(wayfarer.TimestampOf(s.Clock.Now()))
		done := oneActivity(t, agent.do("POST", "/activity/refresh", activityDataset(old, n)))
		if !done.CompletionDateTime.Valid {
			t.Fatal("completion not saved")
		}
		// OnlySelf alone (AllBranches, no AllUsers, no advisor): its own
		// activities only, whatever their branch.
		viewerUser, err := s.App.DB.UserByName(t.Context(), r.agency, "viewer")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.App.DB.SetUserPermissions(t.Context(), r.agency, viewerUser.ID, map[wayfarer.Area]wayfarer.Permission{
			wayfarer.AreaActivity: wayfarer.PermSelect | wayfarer.PermRead | wayfarer.PermInsert | wayfarer.PermAllBranches}); err != nil {
			t.Fatal(err)
		}
		viewers := admin.createActivity(fmt.Sprintf(`{"type":1,"priority":1,"appUser_recNo":%d,"activityPersonLink":{"person_recNo":%d}}`, viewerUser.ID, sue))
		viewer = clientFor(t, s, "viewer")
		sameIDs(t, "OnlySelf alone", recNos(viewer.activitySearch(`{}`)), viewers)
		wantNoContent(t, viewer.do("GET", fmt.Sprintf("/activity/%d", agents), nil))
		// Another agency's person cannot be linked.
		otherKen := other.create(`{"lastName":"Elsewhere","activeStatus":1}`)
		wantResult(t, admin.do("POST", "/activity", fmt.Sprintf(`{"type":1,"priority":1,"activityPersonLink":{"person_recNo":%d}}`, otherKen)), 400, contract.CodeInvalidValue, "activity")
	})
}

func cloneActivity(t *testing.T, a *wayfarer.Activity) *wayfarer.Activity {
	t.Helper()
	var c wayfarer.Activity
	if err := testJSONDecode([]byte(mustJSON(t, a)), &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

func activityDataset(old, new *wayfarer.Activity) string {
	b, err := jsoncodec.Marshal(map[string]any{"oldNewDataset": map[string]any{"oldData": []any{old}, "newData": []any{new}}})
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestActivityBadInput(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		before := admin.activitySearch(`{}`)
		for _, c := range []struct {
			body   string
			status int
			code   int
			text   string
		}{
			{`{"type":"task","priority":1}`, 400, contract.CodeDeserialization, "type"},
			{`{"type":1,"priority":1,"subjct":"x"}`, 400, contract.CodeDeserialization, "did you mean subject"},
			{`{"type":1,"priority":1,"subject":"` + strings.Repeat("x", 65) + `"}`, 400, contract.CodeInvalidValue, "subject is longer than 64"},
			{`{"type":9,"priority":1}`, 400, contract.CodeInvalidValue, "type must be one of"},
			{`{"priority":1}`, 400, contract.CodeInvalidValue, "type is required"},
			{`{"type":1}`, 400, contract.CodeInvalidValue, "priority is required"},
			{`{"type":1,"priority":1,"duration":40000}`, 400, contract.CodeInvalidValue, "duration"},
			{`{"type":1,"priority":1,"promoId":"SUMMER"}`, 400, contract.CodeNotSupported, "promoId"},
			{`{"type":1,"priority":1,"remarks":"card 4111 1111 1111 1111"}`, 400, contract.CodeCardRule, "remarks"},
			{`{"type":1,"priority":1,"activityTag":[{"tag_recNo":99999}]}`, 400, contract.CodeInvalidValue, "activityTag[0].tag_recNo 99999 does not exist"},
			{`{"type":1,"priority":1,"activityTag":[{"value":"x"}]}`, 400, contract.CodeInvalidValue, "activityTag[0].tag_recNo is required"},
			{`{"type":1,"priority":1,"activityPersonLink":{"person_recNo":99999}}`, 400, contract.CodeInvalidValue, "activityPersonLink.person_recNo 99999 does not exist"},
			{`{"type":1,"priority":1,"appUser_recNo":99999}`, 400, contract.CodeInvalidValue, "appUser_recNo 99999 does not exist"},
			{`[{"type":1,"priority":1},{"type":1,"priority":1}]`, 400, contract.CodeInvalidValue, "exactly one activity"},
			{`{"recNo":5,"type":1,"priority":1}`, 400, contract.CodeIdentifierMismatch, "recNo must be null"},
		} {
			resp := admin.do("POST", "/activity", c.body)
			m := wantResult(t, resp, c.status, c.code, "")
			if !strings.Contains(m["resultDescription"].(string), c.text) {
				t.Errorf("%s: %s", c.body, resp.Body)
			}
		}
		for _, c := range []struct {
			body string
			code int
			text string
		}{
			{`{"includeCols":["BOGUS"]}`, contract.CodeInvalidColumn, "Invalid column: BOGUS"},
			{`{"includeCols":["tagName"]}`, contract.CodeNotSupported, "tagName"},
			{`{"targetDateFrom":"2002-01-01"}`, contract.CodeDeserialization, "targetDateFrom"},
			{`{"targetDateFrom":{"date":"soon"}}`, contract.CodeDeserialization, "targetDateFrom.date"},
			{`{"appUserRecNo":{"value":[1],"compareCondition":7}}`, contract.CodeInvalidValue, "appUserRecNo.compareCondition"},
			{`{"subject":{"value":["` + strings.Repeat("x", 65) + `"]}}`, contract.CodeInvalidValue, "subject.value[0]"},
			{`{"tripRecNo":{"value":[1]}}`, contract.CodeNotSupported, "tripRecNo"},
			{`{"tags":[{"value":{"value":["x"]}}]}`, contract.CodeMissingParameter, "RecNo field is required"},
			{`{"completd":false}`, contract.CodeDeserialization, "did you mean completed"},
			{`{"rowCount":-1}`, contract.CodeInvalidValue, "rowCount"},
		} {
			resp := admin.do("POST", "/activitySearch", c.body)
			m := wantResult(t, resp, 400, c.code, "Param")
			if !strings.Contains(m["resultDescription"].(string), c.text) {
				t.Errorf("%s: %s", c.body, resp.Body)
			}
		}
		if after := admin.activitySearch(`{}`); len(after) != len(before) {
			t.Fatalf("bad input wrote: %v", after)
		}
	})
}

func TestActivityConflict(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		ken := admin.create(kenJSON(r))
		id := admin.createActivity(fmt.Sprintf(`{"type":1,"priority":1,"subject":"Call","activityTag":[{"tag_recNo":%d,"value":"a"}]}`, r.vip))
		old := oneActivity(t, admin.do("GET", fmt.Sprintf("/activity/%d", id), nil))
		first := cloneActivity(t, old)
		first.Subject = wayfarer.Some("Call back")
		first.ActivityPersonLink = &wayfarer.ActivityPersonLink{PersonRecNo: wayfarer.Some(ken)}
		saved := oneActivity(t, admin.do("POST", "/activity/refresh", activityDataset(old, first)))
		if saved.Subject.Value != "Call back" || saved.ActivityPersonLink == nil {
			t.Fatalf("%+v", saved)
		}
		second := cloneActivity(t, old)
		second.Subject = wayfarer.Some("Email")
		wantResult(t, admin.do("POST", "/activity", activityDataset(old, second)), 409, contract.CodeConcurrencyConflict, "activity")
		// A change to something else than the first save changed goes through.
		third := cloneActivity(t, old)
		third.Priority = wayfarer.Some(3)
		third.ActivityTag = []wayfarer.ActivityTag{}
		wantResult(t, admin.do("POST", "/activity", activityDataset(old, third)), 200, 0, "")
		got := oneActivity(t, admin.do("GET", fmt.Sprintf("/activity/%d", id), nil))
		if got.Subject.Value != "Call back" || got.Priority.Value != 3 || len(got.ActivityTag) != 0 {
			t.Fatalf("%+v", got)
		}
		// Removing the link: person_recNo null.
		unlink := cloneActivity(t, got)
		unlink.ActivityPersonLink = &wayfarer.ActivityPersonLink{PersonRecNo: wayfarer.Null[int64]()}
		if a := oneActivity(t, admin.do("POST", "/activity/refresh", activityDataset(got, unlink))); a.ActivityPersonLink != nil {
			t.Fatal("link kept")
		}
		// An identifier that disagrees.
		bad := cloneActivity(t, got)
		bad.RecNo = wayfarer.Some(id + 1)
		wantResult(t, admin.do("POST", "/activity", activityDataset(got, bad)), 400, contract.CodeIdentifierMismatch, "activity")
	})
}

func TestPersonActivitySearchParams(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		ctx := t.Context()
		admin := clientFor(t, s, "admin")
		agent := clientFor(t, s, "agent")
		ken := admin.create(kenJSON(r))
		zoe := admin.create(fmt.Sprintf(`{"firstName":"Zoe","lastName":"Zed","activeStatus":1,"branch_recNo":%d,"advisorProfile_recNo":%d}`, r.main, r.alice))
		sue := admin.create(fmt.Sprintf(`{"lastName":"Sue","activeStatus":1,"branch_recNo":%d,"advisorProfile_recNo":%d}`, r.harbor, r.hana))
		admin.create(`{"lastName":"Nobody","activeStatus":1}`)
		act := func(body string, person int64) {
			admin.createActivity(fmt.Sprintf(`{%s,"activityPersonLink":{"person_recNo":%d}}`, body, person))
		}
		u := func(id int64) string { return fmt.Sprintf(`"appUser_recNo":%d`, id) }
		act(`"type":1,"priority":2,"targetDate":"2026-11-24",`+u(r.agentUser), ken)
		act(`"type":2,"priority":2,"targetDate":"2026-11-25",`+u(r.agentUser), ken)
		act(`"type":1,"priority":2,"targetDate":"2026-11-24","completionDateTime":"2026-11-20T10:00:00Z",`+u(r.agentUser), zoe)
		act(`"type":1,"priority":2,"targetDate":"2026-11-24","private":true,`+u(r.adminUser), zoe)
		act(`"type":1,"priority":2,"targetDate":"2026-12-24",`+u(r.adminUser), sue)

		names := func(c personClient, params string) []string {
			t.Helper()
			resp := c.do("POST", "/personSearch", `{"includeCols":["name"],"personActivitySearchParams":`+params+`}`)
			if noRows(resp) {
				return []string{}
			}
			var rows []map[string]any
			if resp.Status != 200 || json.Unmarshal(resp.Body, &rows) != nil {
				t.Fatalf("%s: %d %s", params, resp.Status, resp.Body)
			}
			out := []string{}
			for _, row := range rows {
				out = append(out, row["name"].(string))
			}
			return out
		}
		check := func(what string, got []string, want ...string) {
			t.Helper()
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("%s: got %q, want %q", what, got, want)
			}
		}
		myWeek := fmt.Sprintf(`{"appUserRecNo":{"value":[%d]},"type":{"value":[1]},"completed":false,"targetDateFrom":{"date":"2026-11-23"},"targetDateTo":{"date":"2026-11-29"}}`, r.agentUser)
		check("agent's open tasks this week", names(agent, myWeek), "Abler/Ken")
		check("the same for admin", names(admin, myWeek), "Abler/Ken")
		check("admin: open tasks", names(admin, `{"type":{"value":[1]},"completed":false}`), "Abler/Ken", "Sue/", "Zed/Zoe")
		check("agent: open tasks (another's private never counts)", names(agent, `{"type":{"value":[1]},"completed":false}`), "Abler/Ken")
		check("completed", names(admin, `{"completed":true}`), "Zed/Zoe")
		check("appointments", names(admin, `{"type":{"value":[2]}}`), "Abler/Ken")
		check("none", names(admin, `{"type":{"value":[4]}}`))
		check("empty is no filter", names(admin, `{}`), "Abler/Ken", "Nobody/", "Sue/", "Zed/Zoe")

		// It takes Activity Select.
		viewerUser, err := s.App.DB.UserByName(ctx, r.agency, "viewer")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.App.DB.SetUserPermissions(ctx, r.agency, viewerUser.ID, map[wayfarer.Area]wayfarer.Permission{
			wayfarer.AreaPerson: wayfarer.PermSelect | wayfarer.PermAllUsers | wayfarer.PermAllBranches}); err != nil {
			t.Fatal(err)
		}
		viewer := clientFor(t, s, "viewer")
		wantResult(t, viewer.do("POST", "/personSearch", `{"personActivitySearchParams":{"completed":false}}`), 403, contract.CodePermissionDenied, "personSearch")
		check("viewer without the filter", names(viewer, `null`), "Abler/Ken", "Nobody/", "Sue/", "Zed/Zoe")
	})
}
