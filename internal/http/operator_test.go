package http_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Host operators (issue 12 item 6, docs/operators.md).

const (
	opName     = "anthony.martin@example.com" // an e-mail as in the recording's token
	opPassword = "operator-secret-1"
)

func basicAuth(user, password string) []string {
	return []string{"Authorization", "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))}
}

// seedOperator creates the operator and grants it DEMO with read access to
// persons of every user and branch.
func seedOperator(a *app.App) error {
	ctx := context.Background()
	if _, err := a.Operators.Create(ctx, opName, opPassword); err != nil {
		return err
	}
	o, err := a.Operators.Operator(ctx, opName)
	if err != nil {
		return err
	}
	return a.Operators.Grant(ctx, o, "DEMO", map[wayfarer.Area]wayfarer.Permission{
		wayfarer.AreaPerson: wayfarer.PermSelect | wayfarer.PermRead | wayfarer.PermAllUsers | wayfarer.PermAllBranches})
}

var operatorOpts = testserver.Options{Seed: seedOperator}

// operatorLogin logs the operator in with GET /login/{alias}: and answers
// the token.
func operatorLogin(t *testing.T, s *testserver.Server, alias string) string {
	t.Helper()
	r := s.Do(t, "GET", "/login/"+alias+":", nil, basicAuth(opName, opPassword)...)
	if r.Status != 200 {
		t.Fatalf("operator login %q: %d %s", alias+":", r.Status, r.Body)
	}
	return r.JSON(t)["identityToken"].(string)
}

// claimsOf reads a token's claims without checking it (the server did).
func claimsOf(t *testing.T, tok string) map[string]any {
	t.Helper()
	parts := strings.Split(tok, ".")
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func operator(t *testing.T, s *testserver.Server) *wayfarer.Operator {
	t.Helper()
	o, err := s.App.Operators.Operator(t.Context(), opName)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestOperatorReplay replays the recorded operator logins (GET /login/:
// and GET /login/AVDB: with Basic) and checks status, Content-Type, key
// set and JSON types as the devportal's Login page has them, and the
// token's claims as the recording's (appUserRecNo null, adminUserRecNo
// the operator).
func TestOperatorReplay(t *testing.T) {
	opts := testserver.Options{Seed: func(a *app.App) error {
		if _, err := a.Admin.CreateAgency(context.Background(), "AVDB", "AVDB", wayfarer.AgencyActive, 0); err != nil {
			return err
		}
		if err := seedOperator(a); err != nil {
			return err
		}
		o, _ := a.Operators.Operator(context.Background(), opName)
		return a.Operators.Grant(context.Background(), o, "AVDB", map[wayfarer.Area]wayfarer.Permission{wayfarer.AreaPerson: wayfarer.PermSelect})
	}}
	testserver.Each(t, opts, func(t *testing.T, s *testserver.Server) {
		const jsonType = "application/json; charset=utf-8"
		for _, path := range []string{"/login/:", "/Login/AVDB:", "/login/avdb:"} {
			r := s.Do(t, "GET", path, nil, basicAuth(opName, opPassword)...)
			if r.Status != 200 || r.Header.Get("Content-Type") != jsonType {
				t.Fatalf("%s: %d %q %s", path, r.Status, r.Header.Get("Content-Type"), r.Body)
			}
			wantShape(t, path, r.Body, "login", true)
			m := r.JSON(t)
			if m["resultCode"] != float64(0) || m["resultDescription"] != "Login Successful" {
				t.Fatalf("%s: %s", path, r.Body)
			}
			c := claimsOf(t, m["identityToken"].(string))
			if c["appUserRecNo"] != nil || c["adminUserRecNo"] != float64(operator(t, s).ID) || c["userName"] != opName {
				t.Fatalf("%s: claims %v", path, c)
			}
			if wantAlias := map[bool]string{true: "", false: "AVDB"}[path == "/login/:"]; c["alias"] != wantAlias {
				t.Fatalf("%s: alias claim %v, want %q", path, c["alias"], wantAlias)
			}
		}
		// A wrong operator password: 401/101 as in the recording.
		for _, path := range []string{"/login/:", "/login/AVDB:"} {
			r := s.Do(t, "GET", path, nil, basicAuth(opName, "BOGOS")...)
			wantShape(t, path+" wrong password", r.Body, "result", true)
			m := wantResult(t, r, 401, contract.CodeInvalidCredentials, "login")
			if m["resultDescription"] != "Invalid Username/Password" {
				t.Fatalf("%s: %s", path, r.Body)
			}
		}
		// The user's form keeps its claims: adminUserRecNo null.
		c := claimsOf(t, s.LoginDemo(t, "admin"))
		if v, ok := c["adminUserRecNo"]; !ok || v != nil || c["appUserRecNo"] == nil {
			t.Fatalf("user token claims %v", c)
		}
	})
}

// TestOperatorLogins: the admin domain and an agency; unknown names, no
// grant, a disabled operator, an unknown or disabled agency, no
// credentials (the Basic challenge), and the lockout of the name.
func TestOperatorLogins(t *testing.T) {
	testserver.Each(t, operatorOpts, func(t *testing.T, s *testserver.Server) {
		ctx := t.Context()
		adminTok, demoTok := operatorLogin(t, s, ""), operatorLogin(t, s, "DEMO")

		// The agency session reaches DEMO's persons within the grant.
		if r := s.Do(t, "POST", "/personSearch", `{"includeCols":["recNo","name"]}`, testserver.Bearer(demoTok)...); r.Status != 200 && r.Status != 204 {
			t.Fatalf("operator search in DEMO: %d %s", r.Status, r.Body)
		}
		// ... and no further: no Insert granted.
		wantResult(t, s.Do(t, "POST", "/person", `{"lastName":"Op","activeStatus":1}`, testserver.Bearer(demoTok)...), 403, contract.CodePermissionDenied, "")
		// The admin domain is no agency: agency routes answer 600.
		wantResult(t, s.Do(t, "POST", "/personSearch", `{"includeCols":["recNo"]}`, testserver.Bearer(adminTok)...), 403, contract.CodePermissionDenied, "personSearch")
		wantResult(t, s.Do(t, "GET", "/person/1", nil, testserver.Bearer(adminTok)...), 403, contract.CodePermissionDenied, "person")
		// Refresh and logout work as for users.
		if r := s.Do(t, "GET", "/refreshIdentityToken", nil, testserver.Bearer(adminTok)...); r.Status != 200 {
			t.Fatalf("refresh: %d %s", r.Status, r.Body)
		}

		// No grant in OTHER: 101, the credentials are not valid there.
		wantResult(t, s.Do(t, "GET", "/login/OTHER:", nil, basicAuth(opName, opPassword)...), 401, contract.CodeInvalidCredentials, "login")
		// Unknown and inactive agencies answer as for users.
		wantResult(t, s.Do(t, "GET", "/login/NOPE:", nil, basicAuth(opName, opPassword)...), 401, contract.CodeInvalidAlias, "login")
		wantResult(t, s.Do(t, "GET", "/login/DISABLED:", nil, basicAuth(opName, opPassword)...), 401, contract.CodeAgencyDisabled, "login")
		// An unknown operator, and a user's name and password at the host: 101.
		wantResult(t, s.Do(t, "GET", "/login/:", nil, basicAuth("nobody", opPassword)...), 401, contract.CodeInvalidCredentials, "login")
		wantResult(t, s.Do(t, "GET", "/login/DEMO:", nil, basicAuth("admin", "demo-admin")...), 401, contract.CodeInvalidCredentials, "login")
		// An operator's credentials are not a user's: DEMO without the colon.
		wantResult(t, s.Do(t, "GET", "/login/DEMO", nil, basicAuth(opName, opPassword)...), 401, contract.CodeInvalidCredentials, "login")

		// No credentials: the recorded answer plus a Basic challenge.
		for _, c := range []struct {
			path string
			code int
		}{{"/login/:", contract.CodeInvalidCredentials}, {"/login/DEMO:", contract.CodeInvalidCredentials},
			{"/login/DEMO", contract.CodeInvalidCredentials}, {"/login/NOPE", contract.CodeInvalidAlias}} {
			r := s.Do(t, "GET", c.path, nil)
			wantResult(t, r, 401, c.code, "login")
			if h := r.Header.Get("WWW-Authenticate"); !strings.HasPrefix(h, `Basic realm="Wayfarer"`) {
				t.Fatalf("%s: WWW-Authenticate %q", c.path, h)
			}
		}
		if r := s.Do(t, "GET", "/login/DEMO:", nil, basicAuth(opName, "wrong")...); r.Header.Get("WWW-Authenticate") != "" {
			t.Fatalf("a challenge answered to credentials: %v", r.Header)
		}

		// Changing the grant ends the operator's sessions, everywhere.
		o := operator(t, s)
		if err := s.App.Operators.Grant(ctx, o, "DEMO", map[wayfarer.Area]wayfarer.Permission{wayfarer.AreaPerson: wayfarer.PermAll}); err != nil {
			t.Fatal(err)
		}
		wantEnded(t, s, demoTok, "grant changed: agency session")
		wantEnded(t, s, adminTok, "grant changed: admin session")
		// Revoking it: no login into DEMO any more.
		demoTok = operatorLogin(t, s, "DEMO")
		if err := s.App.Operators.Revoke(ctx, o, "DEMO"); err != nil {
			t.Fatal(err)
		}
		wantEnded(t, s, demoTok, "grant revoked")
		wantResult(t, s.Do(t, "GET", "/login/DEMO:", nil, basicAuth(opName, opPassword)...), 401, contract.CodeInvalidCredentials, "login")

		// Disabling ends its sessions and answers 104 to the right password only.
		adminTok = operatorLogin(t, s, "")
		if err := s.App.Operators.SetEnabled(ctx, o, false); err != nil {
			t.Fatal(err)
		}
		wantEnded(t, s, adminTok, "operator disabled")
		wantResult(t, s.Do(t, "GET", "/login/:", nil, basicAuth(opName, opPassword)...), 401, contract.CodeUserDisabled, "login")
		wantResult(t, s.Do(t, "GET", "/login/:", nil, basicAuth(opName, "wrong")...), 401, contract.CodeInvalidCredentials, "login")
		if err := s.App.Operators.SetEnabled(ctx, o, true); err != nil {
			t.Fatal(err)
		}

		// The lockout of users holds for operator names: 5 failures from
		// one address lock the name there (103, even with the password).
		for range 5 {
			s.Do(t, "GET", "/login/:", nil, basicAuth(opName, "wrong")...)
		}
		wantResult(t, s.Do(t, "GET", "/login/:", nil, basicAuth(opName, opPassword)...), 401, contract.CodeUserLocked, "login")
		// A new password lifts it.
		if err := s.App.Operators.SetPassword(ctx, o, opPassword+"2"); err != nil {
			t.Fatal(err)
		}
		if r := s.Do(t, "GET", "/login/:", nil, basicAuth(opName, opPassword+"2")...); r.Status != 200 {
			t.Fatalf("after a new password: %d %s", r.Status, r.Body)
		}
	})
}

// TestOperatorAdminDomain: the admin routes work for an operator of the
// admin domain, are audited with its name, and refuse everybody else.
func TestOperatorAdminDomain(t *testing.T) {
	testserver.Each(t, operatorOpts, func(t *testing.T, s *testserver.Server) {
		ctx := t.Context()
		tok := operatorLogin(t, s, "")
		op := func(method, path string, body any) *testserver.Response {
			return s.Do(t, method, path, body, testserver.Bearer(tok)...)
		}

		r := op("GET", "/admin/agencies", nil)
		if r.Status != 200 || !strings.Contains(string(r.Body), `"alias":"DEMO"`) || !strings.Contains(string(r.Body), `"status":"disabled"`) {
			t.Fatalf("agencies: %d %s", r.Status, r.Body)
		}
		wantDocumented(t, r, "AdminAgency")

		// Disable OTHER: its users' sessions end and logins answer 107; enable again.
		otherTok := s.Login(t, "OTHER", "admin", "demo-admin")
		wantResult(t, op("POST", "/admin/agency/other/disable", nil), 200, 0, "")
		wantEnded(t, s, otherTok, "agency disabled by an operator")
		wantResult(t, s.Do(t, "POST", "/login", `{"alias":"OTHER","userName":"admin","password":"demo-admin"}`), 401, contract.CodeAgencyDisabled, "login")
		wantResult(t, op("POST", "/admin/agency/OTHER/enable", nil), 200, 0, "")
		s.Login(t, "OTHER", "admin", "demo-admin")

		// Create a user with a password and permissions; it logs in.
		const pw = "new-user-pw-1"
		r = op("POST", "/admin/agency/DEMO/user", `{"userName":"newbie","password":"`+pw+`","type":1,"branch":"Main","permissions":{"Person":3}}`)
		if r.Status != 200 || r.Code(t) != 0 || r.JSON(t)["recNo"] == nil {
			t.Fatalf("create user: %d %s", r.Status, r.Body)
		}
		wantDocumented(t, r, "AdminUserCreateResult")
		newbie := s.Login(t, "DEMO", "newbie", pw)
		wantLive(t, s, newbie, "created user")
		// Bad input: clear 400s, nothing created.
		wantResult(t, op("POST", "/admin/agency/DEMO/user", `{"userName":"newbie","password":"`+pw+`"}`), 400, contract.CodeInvalidValue, "admin")
		wantResult(t, op("POST", "/admin/agency/DEMO/user", `{"userName":"x","password":"short"}`), 400, contract.CodeInvalidValue, "admin")
		wantResult(t, op("POST", "/admin/agency/DEMO/user", `{"userName":"x","type":4}`), 400, contract.CodeInvalidValue, "admin")
		wantResult(t, op("POST", "/admin/agency/DEMO/user", `{"userName":"x","permissions":{"Person":4096}}`), 400, contract.CodeInvalidValue, "admin")
		wantResult(t, op("POST", "/admin/agency/DEMO/user", `{"userName":"4111 1111 1111 1111"}`), 400, contract.CodeInvalidValue, "admin")
		wantResult(t, op("POST", "/admin/agency/DEMO/user", ``), 400, contract.CodeDeserialization, "admin")
		wantResult(t, op("POST", "/admin/agency/DEMO/user", `{"userName":"y","permissions":{"Persons":3}}`), 400, contract.CodeInvalidValue, "admin")
		wantResult(t, op("POST", "/admin/agency/DEMO/user", `{"userName":"y","branch":"Nowhere"}`), 404, contract.CodeRecordNotFound, "admin")
		wantResult(t, op("POST", "/admin/agency/DEMO/user", `{"userNmae":"y"}`), 400, contract.CodeDeserialization, "admin")
		wantResult(t, op("POST", "/admin/agency/NOPE/user", `{"userName":"y"}`), 404, contract.CodeRecordNotFound, "admin")
		demoAgency, _ := s.App.DB.AgencyByAlias(ctx, "DEMO")
		for _, name := range []string{"x", "y"} {
			if _, err := s.App.DB.UserByName(ctx, demoAgency.ID, name); err == nil {
				t.Fatalf("user %q created by a refused request", name)
			}
		}

		// Unlock a user locked out by failed logins.
		for range 5 {
			s.Do(t, "POST", "/login", `{"alias":"DEMO","userName":"newbie","password":"wrong"}`)
		}
		wantResult(t, s.Do(t, "POST", "/login", `{"alias":"DEMO","userName":"newbie","password":"`+pw+`"}`), 401, contract.CodeUserLocked, "login")
		r = op("GET", "/admin/agency/DEMO/users", nil)
		if r.Status != 200 || !strings.Contains(string(r.Body), `"userName":"newbie"`) || !strings.Contains(string(r.Body), `"lockedOut":true`) {
			t.Fatalf("users: %d %s", r.Status, r.Body)
		}
		wantDocumented(t, r, "AdminUser")
		unlocked := op("POST", "/admin/agency/DEMO/user/newbie/unlock", nil)
		wantResult(t, unlocked, 200, 0, "")
		wantDocumented(t, unlocked, "AdminResult")
		s.Login(t, "DEMO", "newbie", pw)
		wantResult(t, op("POST", "/admin/agency/DEMO/user/nobody/unlock", nil), 404, contract.CodeRecordNotFound, "admin")

		// Nobody else reaches the admin routes: a user of an agency (even
		// its admin), an operator's agency session, no token.
		demoOp := operatorLogin(t, s, "DEMO")
		for what, h := range map[string][]string{
			"agency admin": testserver.Bearer(s.LoginDemo(t, "admin")), "operator in DEMO": testserver.Bearer(demoOp),
		} {
			wantResult(t, s.Do(t, "GET", "/admin/agencies", nil, h...), 403, contract.CodePermissionDenied, "admin")
			wantResult(t, s.Do(t, "POST", "/admin/agency/DEMO/disable", nil, h...), 403, contract.CodePermissionDenied, "admin")
			wantResult(t, s.Do(t, "POST", "/admin/agency/DEMO/user", `{"userName":"z","password":"zzzzzzzzzz"}`, h...), 403, contract.CodePermissionDenied, "admin")
			wantResult(t, s.Do(t, "POST", "/admin/agency/DEMO/user/agent/unlock", nil, h...), 403, contract.CodePermissionDenied, "admin")
			_ = what
		}
		wantResult(t, s.Do(t, "GET", "/admin/agencies", nil), 401, contract.CodeTokenMissing, "identityToken")
		if d, _ := s.App.DB.AgencyByAlias(ctx, "DEMO"); d.Status != wayfarer.AgencyActive {
			t.Fatal("DEMO disabled by a refused request")
		}

		// The operator's search in DEMO is audited too.
		s.Do(t, "POST", "/personSearch", `{"includeCols":["recNo"]}`, testserver.Bearer(demoOp)...)

		// The audit names the operator for every action; no password.
		rows, err := s.App.DB.OperatorAudit(ctx, 100)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, e := range rows {
			if e.OperatorName != opName && e.Action != "operator.create" && e.Action != "operator.grant" {
				t.Fatalf("audit row without the operator: %+v", e)
			}
			if strings.Contains(e.Target+e.Detail, pw) {
				t.Fatalf("a password in the audit: %+v", e)
			}
			seen[e.Action+" "+e.Target] = true
		}
		for _, want := range []string{"login ", "agency.list ", "agency.status OTHER", "user.create DEMO/newbie", "user.unlock DEMO/newbie",
			"user.list DEMO", "POST /personSearch /personSearch"} {
			if !seen[want] {
				t.Fatalf("no audit row %q in %v", want, seen)
			}
		}
		// The access log names the operator; passwords never reach it.
		logs := s.Logs.String()
		if !strings.Contains(logs, "operator="+opName) || strings.Contains(logs, pw) || strings.Contains(logs, opPassword) {
			t.Fatalf("access log: operator missing or a password present:\n%s", logs)
		}
	})
}

// wantDocumented checks an admin answer (an object, or each element of an
// array) against its schema in docs/openapi.json: the JSON type, every
// required member present, no member the schema does not list.
func wantDocumented(t *testing.T, r *testserver.Response, schema string) {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Fatalf("%s: Content-Type %q", schema, ct)
	}
	sch := loadOpenAPI(t).get(t, "components", "schemas", schema)
	props := sch["properties"].(map[string]any)
	var v any
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatal(err)
	}
	items, ok := v.([]any)
	if !ok {
		items = []any{v}
	}
	jsonType := func(x any) string {
		switch x.(type) {
		case string:
			return "string"
		case float64:
			return "integer"
		case bool:
			return "boolean"
		case map[string]any:
			return "object"
		}
		return "null"
	}
	for _, it := range items {
		m := it.(map[string]any)
		for _, req := range sch["required"].([]any) {
			if _, ok := m[req.(string)]; !ok {
				t.Errorf("%s: no %s in %s", schema, req, r.Body)
			}
		}
		for k, x := range m {
			p, ok := props[k].(map[string]any)
			if !ok {
				t.Errorf("%s: member %s is not documented: %s", schema, k, r.Body)
				continue
			}
			if p["type"] != jsonType(x) {
				t.Errorf("%s.%s: %s, documented as %v", schema, k, jsonType(x), p["type"])
			}
		}
	}
}

// TestBasicChallengeCostsNothing: the first, credential-less leg of a
// challenge-response login (the Java client's HTTP library) answers the
// recorded 401/101 with the challenge, but checks no password and is not
// charged to the address: more of them than the address's failure budget
// (30 a minute) leave a real login possible. An unknown alias is 105 as
// before.
func TestBasicChallengeCostsNothing(t *testing.T) {
	testserver.Each(t, operatorOpts, func(t *testing.T, s *testserver.Server) {
		h := &countingHasher{PasswordHasher: s.App.Login.Hasher}
		s.App.Login.Hasher = h
		for i := range 40 {
			path := []string{"/login/DEMO", "/login/DEMO:", "/login/:"}[i%3]
			r := s.Do(t, "GET", path, nil)
			wantResult(t, r, 401, contract.CodeInvalidCredentials, "login")
			if r.Header.Get("WWW-Authenticate") == "" {
				t.Fatalf("%s: no challenge", path)
			}
		}
		if n := h.n.Load(); n != 0 {
			t.Fatalf("credential-less requests cost %d password checks", n)
		}
		wantResult(t, s.Do(t, "GET", "/login/NOPE", nil), 401, contract.CodeInvalidAlias, "login")
		wantResult(t, s.Do(t, "GET", "/login/DISABLED:", nil), 401, contract.CodeAgencyDisabled, "login")
		if r := s.Do(t, "GET", "/login/DEMO", nil, basicAuth("admin", "demo-admin")...); r.Status != 200 {
			t.Fatalf("login after the challenges: %d %s", r.Status, r.Body)
		}
		operatorLogin(t, s, "DEMO")
		// A header that is there but no Basic credentials is a try like any other.
		wantResult(t, s.Do(t, "GET", "/login/DEMO", nil, "Authorization", "Basic !!"), 401, contract.CodeInvalidCredentials, "login")
		if n := h.n.Load(); n < 3 {
			t.Fatalf("%d password checks, want the two logins' and the malformed header's", n)
		}
	})
}
