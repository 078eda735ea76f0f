// Package cluster tests several Wayfarer processes on one PostgreSQL
// database, as they run behind a load balancer (docs/deployment.md).
package cluster

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/vault"
)

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
	buildDir  string
)

// wayfarerBinary builds cmd/wayfarer once per test run.
func wayfarerBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "wayfarer-cluster-")
		if buildErr != nil {
			return
		}
		binary = filepath.Join(buildDir, "wayfarer")
		out, err := exec.Command("go", "build", "-o", binary, "github.com/wayfarerhq/wayfarer/cmd/wayfarer").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binary
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// instance is one `wayfarer serve` process.
type instance struct {
	*testserver.Server
	name string
	cmd  *exec.Cmd
	out  *testserver.Logs // the process's combined output, readable while it runs
	done chan error
	base chan string // the address, once the banner shows it
}

var listening = regexp.MustCompile(`listening on (http://\S+)`)

// spawn starts `wayfarer --db url serve` on a free loopback port without
// waiting for it; every instance gets the same card vault key, as
// deployments must.
func spawn(t *testing.T, name, dbURL string, extra ...string) *instance {
	t.Helper()
	args := append([]string{"--db", dbURL, "--log-level", "warn", "serve", "--addr", "127.0.0.1:0"}, extra...)
	cmd := exec.Command(wayfarerBinary(t), args...)
	cmd.Env = append(os.Environ(), vault.EnvVar+"="+testserver.TestCardKeys)
	in := &instance{name: name, cmd: cmd, out: &testserver.Logs{}, done: make(chan error, 1), base: make(chan string, 1)}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = in.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The banner names the address once migrations and demo data are done.
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(in.out, line)
			if m := listening.FindStringSubmatch(line); m != nil {
				select {
				case in.base <- m[1]:
				default:
				}
			}
		}
	}()
	go func() {
		<-scanned // Wait closes the pipe: read it to the end first
		in.done <- cmd.Wait()
	}()
	t.Cleanup(func() { in.stop(t) })
	return in
}

// waitListening waits for the banner, then for /readyz.
func (in *instance) waitListening(t *testing.T) {
	t.Helper()
	select {
	case u := <-in.base:
		in.Server = &testserver.Server{URL: u, Engine: "postgres", DBPath: in.cmd.Args[2], Client: &http.Client{Timeout: 30 * time.Second}}
	case err := <-in.done:
		in.done <- err
		t.Fatalf("%s exited before listening: %v\n%s", in.name, err, in.out)
	case <-time.After(90 * time.Second):
		t.Fatalf("%s did not start listening in time:\n%s", in.name, in.out)
	}
	in.waitReady(t)
}

// stop ends the process with SIGTERM, as an orchestrator does, and
// expects a clean exit.
func (in *instance) stop(t *testing.T) {
	_ = in.cmd.Process.Signal(syscall.SIGTERM) // fails harmlessly if it exited
	select {
	case err := <-in.done:
		if err != nil {
			t.Errorf("%s: exit after SIGTERM: %v\n%s", in.name, err, in.out)
		}
	case <-time.After(30 * time.Second):
		_ = in.cmd.Process.Kill()
		<-in.done
		t.Errorf("%s: no exit within 30s of SIGTERM\n%s", in.name, in.out)
	}
}

func (in *instance) waitReady(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := in.Client.Get(in.URL + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: /readyz not 200 (%v)\n%s", in.name, err, in.out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// startPair starts two instances on one fresh database at the same moment,
// so that both migrate (and create the token key) concurrently; with
// bothDemo both also create the demo data, else A alone does. Both get
// the serve flags extra.
func startPair(t *testing.T, bothDemo bool, extra ...string) (a, b *instance) {
	t.Helper()
	db := testserver.FreshPostgres(t) // skips (fails under CI=true) without PostgreSQL
	wayfarerBinary(t)
	bArgs := extra
	if bothDemo {
		bArgs = append([]string{"--demo"}, extra...)
	}
	a, b = spawn(t, "A", db, append([]string{"--demo"}, extra...)...), spawn(t, "B", db, bArgs...)
	a.waitListening(t)
	b.waitListening(t)
	return a, b
}

func token(t *testing.T, r *testserver.Response) string {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("login: %d %s", r.Status, r.Body)
	}
	tok, _ := r.JSON(t)["identityToken"].(string)
	return tok
}

func login(t *testing.T, s *instance, user, password string) *testserver.Response {
	t.Helper()
	return s.Do(t, "POST", "/login", map[string]string{"alias": "DEMO", "userName": user, "password": password})
}

func wantCode(t *testing.T, what string, r *testserver.Response, status, code int) {
	t.Helper()
	if r.Status != status || r.Code(t) != code {
		t.Fatalf("%s: got %d %s, want %d with resultCode %d", what, r.Status, r.Body, status, code)
	}
}

// Two `serve --demo` started together must not trip over each other
// creating the demo data.
func TestTwoDemoInstancesStartTogether(t *testing.T) {
	a, b := startPair(t, true)
	for _, s := range []*instance{a, b} {
		token(t, login(t, s, "admin", "demo-admin"))
	}
}

func TestTwoInstancesOneDatabase(t *testing.T) {
	// Logins wait for a hashing slot long enough that a burst of them is
	// counted by the lockout rather than answered 429 by the hashing gate.
	a, b := startPair(t, false, "--hash-wait", "30s")

	t.Run("a token issued by one works on the other; logout on one ends it on both", func(t *testing.T) {
		tok := token(t, login(t, a, "admin", "demo-admin"))
		search := `{"includeCols":["recNo"],"rowCount":1}`
		if r := b.Do(t, "POST", "/personSearch", search, testserver.Bearer(tok)...); r.Status != 200 {
			t.Fatalf("B with A's token: %d %s", r.Status, r.Body)
		}
		if r := b.Do(t, "GET", "/logout", nil, testserver.Bearer(tok)...); r.Status != 200 {
			t.Fatalf("logout on B: %d %s", r.Status, r.Body)
		}
		wantCode(t, "A after logout on B", a.Do(t, "POST", "/personSearch", search, testserver.Bearer(tok)...), 401, 305)
		wantCode(t, "B after logout on B", b.Do(t, "POST", "/personSearch", search, testserver.Bearer(tok)...), 401, 305)
	})

	t.Run("failed logins through both instances add up to a lockout", func(t *testing.T) {
		for i := range 5 {
			s := []*instance{a, b}[i%2]
			wantCode(t, fmt.Sprintf("failure %d on %s", i+1, s.name), login(t, s, "viewer", "wrong"), 401, 101)
		}
		wantCode(t, "right password on A after 5 failures", login(t, a, "viewer", "demo-viewer"), 401, 103)
		wantCode(t, "right password on B after 5 failures", login(t, b, "viewer", "demo-viewer"), 401, 103)
	})

	t.Run("a logout on one is refused by the other within a second", func(t *testing.T) { logoutReachesTheOther(t, a, b) })
	t.Run("an admin command ends sessions on both within a second", func(t *testing.T) { adminCommandReachesBoth(t, a, b) })
	t.Run("a disabled operator's session ends on both within a second", func(t *testing.T) { operatorDisabledOnBoth(t, a, b) })

	t.Run("a card encrypted by one is read by the other", func(t *testing.T) {
		tok := token(t, login(t, a, "admin", "demo-admin"))
		r := a.Do(t, "POST", "/person", `{"lastName":"Cardholder","activeStatus":1,
			"personCardLink":[{"card":{"type":1,"cardNumber":"4111 1111 1111 1111","expirationDate":"2030-12-31"}}]}`,
			testserver.Bearer(tok)...)
		wantCode(t, "create on A", r, 200, 0)
		rec := int64(r.JSON(t)["recNo"].(float64))
		p := loadPerson(t, b, tok, fmt.Sprintf("/person/%d?decrypt=true", rec))
		cards, _ := p["personCardLink"].([]any)
		if len(cards) != 1 || !strings.Contains(string(mustJSON(t, cards[0])), `"4111111111111111"`) {
			t.Fatalf("B's decrypted card: %s", mustJSON(t, cards))
		}
	})

	t.Run("two conflicting saves through the two: exactly one wins", func(t *testing.T) {
		tok := token(t, login(t, a, "admin", "demo-admin"))
		r := a.Do(t, "POST", "/person", `{"firstName":"Ann","lastName":"Contested","activeStatus":1}`, testserver.Bearer(tok)...)
		wantCode(t, "create on A", r, 200, 0)
		rec := int64(r.JSON(t)["recNo"].(float64))
		path := fmt.Sprintf("/person/%d", rec)
		for round := range 5 {
			old := loadPerson(t, b, tok, path)
			const clients = 6
			statuses := make([]int, clients)
			bodies := make([]string, clients)
			var wg sync.WaitGroup
			for i := range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					s := []*instance{a, b}[i%2]
					n := clonePerson(t, old)
					n["firstName"] = fmt.Sprintf("%s-%d-%d", s.name, round, i)
					body := map[string]any{"oldNewDataset": map[string]any{"oldData": []any{old}, "newData": []any{n}}}
					r := s.Do(t, "POST", "/person", body, testserver.Bearer(tok)...)
					statuses[i], bodies[i] = r.Status, string(r.Body)
				}()
			}
			wg.Wait()
			won, lost, winner := 0, 0, ""
			for i, st := range statuses {
				switch st {
				case 200:
					won++
					winner = fmt.Sprintf("%s-%d-%d", []string{"A", "B"}[i%2], round, i)
				case 409:
					lost++
					if !strings.Contains(bodies[i], `"resultCode":602`) {
						t.Fatalf("409 without 602: %s", bodies[i])
					}
				}
			}
			if won != 1 || lost != clients-1 {
				t.Fatalf("round %d: statuses %v, want one 200 and %d× 409\n%s", round, statuses, clients-1, strings.Join(bodies, "\n"))
			}
			for _, s := range []*instance{a, b} {
				if got := loadPerson(t, s, tok, path)["firstName"]; got != winner {
					t.Fatalf("round %d: %s shows firstName %v, the winner wrote %s", round, s.name, got, winner)
				}
			}
		}
	})

	// Last: the burst spends this address's failed-login budget (429 for a minute).
	t.Run("150 parallel guesses over both instances: at most 5 answer 101", func(t *testing.T) { parallelGuessesOverBoth(t, a, b) })

	t.Run("both are still healthy", func(t *testing.T) {
		for _, s := range []*instance{a, b} {
			for _, p := range []string{"/healthz", "/readyz"} {
				if r := s.Do(t, "GET", p, nil); r.Status != 200 {
					t.Errorf("%s %s: %d", s.name, p, r.Status)
				}
			}
		}
	})
}

func loadPerson(t *testing.T, s *instance, tok, path string) map[string]any {
	t.Helper()
	r := s.Do(t, "GET", path, nil, testserver.Bearer(tok)...)
	if r.Status != 200 {
		t.Fatalf("%s GET %s: %d %s", s.name, path, r.Status, r.Body)
	}
	var ps []map[string]any
	if err := json.Unmarshal(r.Body, &ps); err != nil || len(ps) != 1 {
		t.Fatalf("%s GET %s: want [person]: %v %s", s.name, path, err, r.Body)
	}
	return ps[0]
}

func clonePerson(t *testing.T, p map[string]any) map[string]any {
	var c map[string]any
	if err := json.Unmarshal(mustJSON(t, p), &c); err != nil {
		t.Error(err)
	}
	return c
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Error(err)
	}
	return b
}

// TestMigrateCommand: `wayfarer migrate` on a fresh database, several at
// once: the advisory lock lets exactly one apply each migration.
func TestMigrateCommand(t *testing.T) {
	db := testserver.FreshPostgres(t)
	bin := wayfarerBinary(t)
	run := func(args ...string) (string, error) {
		out, err := exec.Command(bin, append([]string{"--db", db}, args...)...).CombinedOutput()
		return string(out), err
	}
	before, err := run("migrate", "status")
	if err != nil {
		t.Fatalf("migrate status: %v\n%s", err, before)
	}
	pending := strings.Count(before, "pending")
	if pending == 0 || strings.Contains(before, "applied") {
		t.Fatalf("fresh database, status:\n%s", before)
	}
	const n = 4
	outs := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() { defer wg.Done(); outs[i], errs[i] = run("migrate", "up") }()
	}
	wg.Wait()
	applied := 0
	re := regexp.MustCompile(`applied (\d+) migration`)
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("migrate up #%d: %v\n%s", i, errs[i], outs[i])
		}
		m := re.FindStringSubmatch(outs[i])
		if m == nil {
			t.Fatalf("migrate up #%d said: %s", i, outs[i])
		}
		var k int
		fmt.Sscan(m[1], &k)
		applied += k
	}
	if applied != pending {
		t.Errorf("%d migrations applied in all by %d concurrent runs, want %d: %q", applied, n, pending, outs)
	}
	after, err := run("migrate", "status")
	if err != nil || strings.Contains(after, "pending") || strings.Count(after, "applied") != pending {
		t.Fatalf("status after up: %v\n%s", err, after)
	}
}
