package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/client"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

type cliRun struct {
	out, err string
	fail     error
}

func runClientCLI(t *testing.T, stdin string, args ...string) cliRun {
	t.Helper()
	root := rootCommand()
	var out, errb bytes.Buffer
	root.Writer, root.ErrWriter, root.Reader = &out, &errb, strings.NewReader(stdin)
	err := root.Run(context.Background(), append([]string{"wayfarer", "client"}, args...))
	return cliRun{out.String(), errb.String(), err}
}

func (r cliRun) must(t *testing.T) cliRun {
	t.Helper()
	if r.fail != nil {
		t.Fatalf("command failed: %v\nstdout: %s\nstderr: %s", r.fail, r.out, r.err)
	}
	return r
}

func readTestSession(t *testing.T, path string) clientSession {
	t.Helper()
	s, err := readClientSession(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// writeEditor writes an $EDITOR script that runs sed expressions on the file.
func writeEditor(t *testing.T, dir, name string, exprs ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("#!/bin/sh\nset -e\nsed")
	for _, e := range exprs {
		b.WriteString(" -e '" + e + "'")
	}
	b.WriteString(" \"$1\" > \"$1.new\"\nmv \"$1.new\" \"$1\"\n")
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

const personFile = `{
  "firstName": "Ken", "lastName": "Quarrel", "activeStatus": 1,
  "personCommunicationLink": [{"communication": {"type": 2, "value": "ken@quarrel.example", "isPrimary": true}}],
  "personCardLink": [
    {"person_recNo": null, "card_recNo": null, "card": {"recNo": null, "type": 1, "cardNumber": "4111 1111 1111 1111", "expirationDate": "2030-12-31", "nameOnCard": "KEN QUARREL"}},
    {"card": {"type": 2, "cardNumber": "SKY-42", "description": "miles"}}
  ]
}`

func mustJSONBytes(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestClientCLI(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	dir := t.TempDir()
	sessPath := filepath.Join(dir, "cfg", "wayfarer", "session.json")
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WAYFARER_SESSION", sessPath)
	t.Setenv("TMPDIR", tmp)
	t.Setenv("VISUAL", "")
	ctx := context.Background()

	// login
	if r := runClientCLI(t, "wrong\n", "login", "--url", s.URL, "--alias", "DEMO", "--user", "admin", "--password-stdin"); r.fail == nil {
		t.Fatal("login with a wrong password succeeded")
	}
	if _, err := os.Stat(sessPath); err == nil {
		t.Fatal("a failed login wrote a session")
	}
	if r := runClientCLI(t, "", "login", "--url", s.URL, "--alias", "DEMO", "--user", "admin"); r.fail == nil || !strings.Contains(r.fail.Error(), "--password-stdin") {
		t.Fatalf("login without a terminal: %v", r.fail)
	}
	r := runClientCLI(t, "demo-admin\n", "login", "--url", s.URL, "--alias", "DEMO", "--user", "admin", "--password-stdin").must(t)
	sess := readTestSession(t, sessPath)
	if st, err := os.Stat(sessPath); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("session file mode: %v %v", st.Mode(), err)
	}
	if st, _ := os.Stat(filepath.Dir(sessPath)); st.Mode().Perm() != 0o700 {
		t.Fatalf("session directory mode: %v", st.Mode())
	}
	if strings.Contains(r.out+r.err, sess.Token) || strings.Contains(r.out+r.err, "demo-admin") {
		t.Fatal("login printed a secret")
	}

	// create
	file := filepath.Join(dir, "person.json")
	os.WriteFile(file, []byte(personFile), 0o600)
	r = runClientCLI(t, "", "create", file).must(t)
	recNo, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(r.out), "created person "), 10, 64)
	if err != nil {
		t.Fatalf("create said %q", r.out)
	}
	bad := filepath.Join(dir, "cvv.json")
	os.WriteFile(bad, []byte(strings.Replace(personFile, `"nameOnCard"`, `"cvvCode": "123", "nameOnCard"`, 1)), 0o600)
	if r := runClientCLI(t, "", "create", bad); r.fail == nil || !strings.Contains(r.fail.Error(), "cvvCode") {
		t.Fatalf("create with a cvvCode: %v", r.fail)
	}
	if r := runClientCLI(t, strings.Replace(personFile, `"firstName"`, `"firstNmae"`, 1), "create", "-"); r.fail == nil || !strings.Contains(r.fail.Error(), "firstNmae") {
		t.Fatalf("create with a misspelt field: %v", r.fail)
	}

	// search
	r = runClientCLI(t, "", "search", "--last-name", "quarr").must(t)
	if !strings.Contains(r.out, "Quarrel/Ken") || !strings.Contains(r.out, "ken@quarrel.example") || !strings.Contains(r.out, "active") ||
		!strings.Contains(r.err, "rows 1-1 of 1") {
		t.Fatalf("search table:\n%s%s", r.out, r.err)
	}
	r = runClientCLI(t, "", "search", "--email", "quarrel.example", "--match", "contains", "--cols", "name,cardNumber,recNo", "--json").must(t)
	var rows []map[string]any
	if err := json.Unmarshal([]byte(r.out), &rows); err != nil || len(rows) != 2 {
		t.Fatalf("search --json: %v\n%s", err, r.out)
	}
	if !strings.HasPrefix(strings.TrimSpace(r.out), "[\n  {\n    \"name\"") || rows[0]["cardNumber"] != "VI 41-XXXX-1111" {
		t.Fatalf("search --json column order or values:\n%s", r.out)
	}
	r = runClientCLI(t, "", "search", "--last-name", "Quarrel", "--all", "--limit", "1", "--cols", "recNo,cardRecNo").must(t)
	if strings.Count(r.out, "\n") != 3 {
		t.Fatalf("search --all:\n%s", r.out)
	}
	if r := runClientCLI(t, "", "search", "--cols", "bogus"); r.fail == nil {
		t.Fatal("unknown column accepted")
	}

	// activities
	act := s.Do(t, "POST", "/activity", fmt.Sprintf(`{"type":1,"priority":2,"subject":"Final Payment Due","targetDate":"2026-11-24","activityPersonLink":{"person_recNo":%d}}`, recNo),
		testserver.Bearer(sess.Token)...)
	if act.Status != 200 {
		t.Fatalf("activity: %d %s", act.Status, act.Body)
	}
	r = runClientCLI(t, "", "activities", "--type", "task", "--open", "--due-from", "2026-11-23", "--due-to", "2026-11-29").must(t)
	if !strings.Contains(r.out, "Final Payment Due") || !strings.Contains(r.out, "Quarrel/Ken") || !strings.Contains(r.out, "2026-11-24") {
		t.Fatalf("activities:\n%s%s", r.out, r.err)
	}
	if r := runClientCLI(t, "", "activities", "--type", "chore"); r.fail == nil || !strings.Contains(r.fail.Error(), "chore") {
		t.Fatalf("unknown type: %v", r.fail)
	}

	// get
	r = runClientCLI(t, "", "get", strconv.FormatInt(recNo, 10)).must(t)
	if !strings.Contains(r.out, "Quarrel/Ken") || !strings.Contains(r.out, "VI 41-XXXX-1111") || strings.Contains(r.out, "4111111111111111") {
		t.Fatalf("get:\n%s", r.out)
	}
	r = runClientCLI(t, "", "get", "--json", strconv.FormatInt(recNo, 10)).must(t)
	loaded, err := client.DecodePerson([]byte(r.out))
	if err != nil || loaded.RecNo() != recNo || len(loaded.Cards) != 2 {
		t.Fatalf("get --json: %v", err)
	}
	var creditID int64
	for _, l := range loaded.Cards {
		if l.Card.Type() == client.CardCreditDebit {
			creditID = l.CardRecNo()
		}
	}
	// GET /person of a missing person is 204: the SDK's typed not-found.
	if r := runClientCLI(t, "", "get", "999999"); !client.IsNotFound(r.fail) || !errors.Is(r.fail, client.ErrNotFound) ||
		r.fail.Error() != "wayfarer person 999999: no such person within your reach" {
		t.Fatalf("get a missing person: %v", r.fail)
	}
	if r := runClientCLI(t, "", "edit", "999999"); !client.IsNotFound(r.fail) {
		t.Fatalf("edit a missing person: %v", r.fail)
	}

	// edit: a card field and a person field; the card keeps its identifiers.
	t.Setenv("EDITOR", writeEditor(t, dir, "ed.sh", `s/"remarks": null/"remarks": "edited in vi"/`, `s/"nameOnCard": "KEN QUARREL"/"nameOnCard": "K QUARREL"/`))
	r = runClientCLI(t, "", "edit", strconv.FormatInt(recNo, 10)).must(t)
	if !strings.Contains(r.out, "changed: personCardLink[0].card.nameOnCard, remarks") {
		t.Fatalf("edit said %q", r.out)
	}
	c := client.New(s.URL, client.WithToken(readTestSession(t, sessPath).Token))
	p, err := c.LoadPerson(ctx, recNo)
	if err != nil {
		t.Fatal(err)
	}
	l := p.Card(creditID)
	if *p.Remarks != "edited in vi" || l == nil || *l.Card.NameOnCard != "K QUARREL" || l.Card.Number() != "VI 41-XXXX-1111" || len(p.Cards) != 2 {
		t.Fatalf("after edit: remarks %v card %+v", p.Remarks, l)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Fatalf("edit left %d temporary files", len(left))
	}
	t.Setenv("EDITOR", "true")
	if r := runClientCLI(t, "", "edit", strconv.FormatInt(recNo, 10)).must(t); strings.TrimSpace(r.out) != "no changes" {
		t.Fatalf("unchanged edit said %q", r.out)
	}
	before, _ := json.Marshal(p)
	t.Setenv("EDITOR", writeEditor(t, dir, "cvv.sh", `s/"nameOnCard": "K QUARREL"/"cvvCode": "123", "nameOnCard": "X"/`))
	if r := runClientCLI(t, "", "edit", strconv.FormatInt(recNo, 10)); r.fail == nil || !strings.Contains(r.fail.Error(), "cvvCode") {
		t.Fatalf("edit adding a cvvCode: %v", r.fail)
	}
	t.Setenv("EDITOR", writeEditor(t, dir, "ids.sh", `s/"card_recNo": `+strconv.FormatInt(creditID, 10)+`/"card_recNo": 999/`))
	if r := runClientCLI(t, "", "edit", strconv.FormatInt(recNo, 10)); r.fail == nil || !strings.Contains(r.fail.Error(), "identifiers disagree") {
		t.Fatalf("edit breaking a card identifier: %v", r.fail)
	}
	t.Setenv("EDITOR", writeEditor(t, dir, "type.sh", `s/"type": 2,/"type": 1,/`))
	if r := runClientCLI(t, "", "edit", strconv.FormatInt(recNo, 10)); r.fail == nil || !strings.Contains(r.fail.Error(), "type") {
		t.Fatalf("edit changing a card type: %v", r.fail)
	}
	if p2, _ := c.LoadPerson(ctx, recNo); !bytes.Equal(mustJSONBytes(t, p2), before) {
		t.Fatal("a refused edit saved something")
	}

	// An old session is extended before use, and the new token kept.
	sess = readTestSession(t, sessPath)
	sess.Saved = time.Now().Add(-11 * time.Minute)
	if err := writeClientSession(sessPath, sess); err != nil {
		t.Fatal(err)
	}
	s.Clock.Advance(20 * time.Minute)
	runClientCLI(t, "", "get", strconv.FormatInt(recNo, 10)).must(t)
	if tok := readTestSession(t, sessPath).Token; tok == sess.Token {
		t.Fatal("the session was not refreshed")
	}
	s.Clock.Advance(20 * time.Minute) // 40 minutes after login, 20 after the refresh
	runClientCLI(t, "", "get", strconv.FormatInt(recNo, 10)).must(t)
	s.Clock.Advance(31 * time.Minute)
	if r := runClientCLI(t, "", "get", strconv.FormatInt(recNo, 10)); r.fail == nil || !strings.Contains(r.fail.Error(), "wayfarer client login") {
		t.Fatalf("expired session: %v", r.fail)
	}

	// logout
	runClientCLI(t, "demo-admin\n", "login", "--url", s.URL, "--alias", "DEMO", "--user", "admin", "--password-stdin", "--basic").must(t)
	tok := readTestSession(t, sessPath).Token
	runClientCLI(t, "", "logout").must(t)
	if _, err := os.Stat(sessPath); err == nil {
		t.Fatal("session file kept after logout")
	}
	if _, err := client.New(s.URL, client.WithToken(tok)).LoadPerson(ctx, recNo); client.ResultCode(err) != client.CodeTokenNotInStore {
		t.Fatalf("token after logout: %v", err)
	}
	if r := runClientCLI(t, "", "search"); r.fail == nil || !strings.Contains(r.fail.Error(), "not logged in") {
		t.Fatalf("search after logout: %v", r.fail)
	}
}

// TestClientCLINoContent: the server's 204s (a person out of reach, a
// search matching nothing) are "no person" and "no rows", on both engines.
func TestClientCLINoContent(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		t.Setenv("WAYFARER_SESSION", filepath.Join(t.TempDir(), "session.json"))
		runClientCLI(t, "demo-agent\n", "login", "--url", s.URL, "--alias", "DEMO", "--user", "agent", "--password-stdin").must(t)
		for _, args := range [][]string{{"get", "999999"}, {"get", "3"}, {"edit", "999999"}} { // 3: Hale, outside the agent's scope
			r := runClientCLI(t, "", args...)
			if !errors.Is(r.fail, client.ErrNotFound) || r.fail.Error() != "wayfarer person "+args[1]+": no such person within your reach" {
				t.Fatalf("%v: %v", args, r.fail)
			}
		}
		if r := runClientCLI(t, "", "search", "--last-name", "Nobodyhere", "--json").must(t); strings.TrimSpace(r.out) != "[]" {
			t.Fatalf("search matching nothing, --json: %q", r.out)
		}
		r := runClientCLI(t, "", "search", "--last-name", "Nobodyhere").must(t)
		if strings.TrimSpace(r.out) != "recNo  name  primaryEmail  primaryPhone  activeStatus" || !strings.Contains(r.err, "rows 0-0 of 0") {
			t.Fatalf("search matching nothing: %q %q", r.out, r.err)
		}
		if r := runClientCLI(t, "", "search", "--last-name", "Nobodyhere", "--all", "--json").must(t); strings.TrimSpace(r.out) != "[]" {
			t.Fatalf("search --all matching nothing: %q", r.out)
		}
	})
}

// client edit never loses the user's text: a mistake is shown with its
// line and column and, on "y", the editor reopens on the same text; on no
// answer the file is kept and its path printed.
func TestClientEditKeepsTheEdit(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	dir := t.TempDir()
	t.Setenv("WAYFARER_SESSION", filepath.Join(dir, "session.json"))
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("VISUAL", "")
	runClientCLI(t, "demo-admin\n", "login", "--url", strings.TrimPrefix(s.URL, "http://"), "--alias", "DEMO", "--user", "admin", "--password-stdin").must(t)
	file := filepath.Join(dir, "person.json")
	os.WriteFile(file, []byte(personFile), 0o600)
	recNo := strings.TrimPrefix(strings.TrimSpace(runClientCLI(t, "", "create", file).must(t).out), "created person ")

	// First run: a syntax error (a doubled comma); second run, on the same
	// text (the mistake is still there): fixed, and remarks set.
	mark := filepath.Join(dir, "second")
	editor := filepath.Join(dir, "twice.sh")
	os.WriteFile(editor, []byte(`#!/bin/sh
set -e
if [ ! -e '`+mark+`' ]; then
  touch '`+mark+`'
  sed -e 's/"remarks": null,/"remarks": "draft",,/' "$1" > "$1.new"
else
  grep -q '"draft",,' "$1"
  sed -e 's/"draft",,/"final",/' "$1" > "$1.new"
fi
mv "$1.new" "$1"
`), 0o700)
	t.Setenv("EDITOR", editor)
	r := runClientCLI(t, "y\n", "edit", recNo).must(t)
	if !strings.Contains(r.err, "line ") || !strings.Contains(r.err, "column ") || !strings.Contains(r.err, "Edit again? [Y/n]") ||
		!strings.Contains(r.out, "saved person "+recNo+"; changed: remarks") {
		t.Fatalf("edit, mistake, edit again:\nout: %s\nerr: %s", r.out, r.err)
	}

	// The save is refused (a card's type changed), nobody answers: the text is kept.
	t.Setenv("EDITOR", writeEditor(t, dir, "type.sh", `s/"type": 2,/"type": 3,/`))
	r = runClientCLI(t, "", "edit", recNo)
	if r.fail == nil || !strings.Contains(r.fail.Error(), "personCardLink[1].card.type: the type of an existing card never changes") ||
		!regexp.MustCompile(`^line \d+, column \d+: `).MatchString(r.fail.Error()) {
		t.Fatalf("refused edit: %v\n%s", r.fail, r.err)
	}
	kept := regexp.MustCompile(`kept in (\S+) `).FindStringSubmatch(r.fail.Error())
	if kept == nil {
		t.Fatalf("no kept file named: %v", r.fail)
	}
	if b, err := os.ReadFile(kept[1]); err != nil || !strings.Contains(string(b), `"type": 3,`) || !strings.Contains(string(b), `"final"`) {
		t.Fatalf("the kept file does not hold the edit: %v\n%s", err, b)
	}
	if strings.Contains(r.fail.Error(), "wayfarer person:") || strings.HasPrefix(errorLine(r.fail), "wayfarer: wayfarer") {
		t.Errorf("doubled prefix: %s", errorLine(r.fail))
	}

	// A --url that is not an HTTP address is refused in words.
	if r := runClientCLI(t, "x\n", "login", "--url", "ftp://x", "--alias", "DEMO", "--user", "admin", "--password-stdin"); r.fail == nil ||
		!strings.Contains(r.fail.Error(), "is not a server address") {
		t.Fatalf("ftp url: %v", r.fail)
	}
}
