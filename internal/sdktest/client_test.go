package sdktest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/client"
	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

const (
	alias    = "DEMO"
	admin    = "admin"
	adminPW  = "demo-admin"
	viewer   = "viewer"
	viewerPW = "demo-viewer"
)

// countingTransport counts requests by path.
type countingTransport struct {
	paths  atomic.Pointer[[]string]
	header atomic.Pointer[http.Header]
}

func (t *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	for {
		old := t.paths.Load()
		var next []string
		if old != nil {
			next = append(next, *old...)
		}
		next = append(next, r.Method+" "+r.URL.Path)
		if t.paths.CompareAndSwap(old, &next) {
			break
		}
	}
	h := r.Header.Clone()
	t.header.Store(&h)
	return http.DefaultTransport.RoundTrip(r)
}

func (t *countingTransport) count(path string) int {
	n := 0
	if p := t.paths.Load(); p != nil {
		for _, x := range *p {
			if strings.HasSuffix(x, " "+path) {
				n++
			}
		}
	}
	return n
}

func newClient(t *testing.T, s *testserver.Server, opts ...client.Option) *client.Client {
	t.Helper()
	return client.New(s.URL+"/", opts...)
}

func loggedIn(t *testing.T, s *testserver.Server) *client.Client {
	t.Helper()
	c := newClient(t, s, client.WithCredentials(alias, admin, adminPW))
	if err := c.Login(context.Background(), alias, admin, adminPW); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestLoginForms(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	ctx := context.Background()

	c := newClient(t, s)
	if err := c.Login(ctx, alias, admin, adminPW); err != nil {
		t.Fatalf("JSON login: %v", err)
	}
	if strings.Count(c.Token(), ".") != 2 {
		t.Fatalf("token is not a JWT")
	}
	b := newClient(t, s)
	if err := b.LoginBasic(ctx, alias, admin, adminPW); err != nil {
		t.Fatalf("Basic login: %v", err)
	}
	if b.Token() == "" || b.Token() == c.Token() {
		t.Fatal("Basic login gave no fresh token")
	}

	err := newClient(t, s).Login(ctx, alias, admin, "wrong")
	if !client.IsUnauthorized(err) || client.ResultCode(err) != client.CodeInvalidCredentials {
		t.Fatalf("wrong password: %v", err)
	}
	var e *client.Error
	if !errors.As(err, &e) || e.Status != 401 || e.Method != "login" {
		t.Fatalf("error fields: %#v", e)
	}
	err = newClient(t, s).LoginBasic(ctx, "NOSUCH", admin, adminPW)
	if client.ResultCode(err) != client.CodeInvalidAlias {
		t.Fatalf("unknown alias: %v", err)
	}
	if strings.Contains(err.Error(), adminPW) {
		t.Fatal("password in an error")
	}
}

func TestClientVersionHeader(t *testing.T) {
	s := testserver.Start(t, testserver.Options{Config: func(c *app.Config) { c.MinClientVersion = "1.8.2" }})
	ctx := context.Background()
	if err := newClient(t, s).Login(ctx, alias, admin, adminPW); err != nil {
		t.Fatalf("login with the client's own version: %v", err)
	}
	err := newClient(t, s, client.WithClientVersion("1.7")).Login(ctx, alias, admin, adminPW)
	if client.ResultCode(err) != client.CodeInvalidClientVersion {
		t.Fatalf("old client version: %v", err)
	}
}

func TestVersionIsReadOnce(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	tr := &countingTransport{}
	c := newClient(t, s, client.WithHTTPClient(&http.Client{Transport: tr}))
	for range 3 {
		v, err := c.Version(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if v.Contract != "1.8.2.6" || !v.CardLinks() || v.Wayfarer != "test" {
			t.Fatalf("version %+v", v)
		}
	}
	if n := tr.count("/version"); n != 1 {
		t.Fatalf("GET /version sent %d times", n)
	}
	if !(client.ServerVersion{Contract: "1.8.2"}).CardLinks() || (client.ServerVersion{Contract: "1.8.1.6"}).CardLinks() ||
		(client.ServerVersion{Contract: "garbage"}).CardLinks() || !(client.ServerVersion{Contract: "1.10"}).CardLinks() {
		t.Fatal("version comparison")
	}
}

func TestRefreshAndLogout(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	ctx := context.Background()
	var seen []string
	c := newClient(t, s, client.WithTokenHook(func(tok string) { seen = append(seen, tok) }))
	if err := c.Login(ctx, alias, admin, adminPW); err != nil {
		t.Fatal(err)
	}
	first := c.Token()
	s.Clock.Advance(time.Second) // a refreshed token differs from the first
	if err := c.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if c.Token() == "" || c.Token() == first {
		t.Fatal("refresh kept the token")
	}
	if _, err := c.Search(ctx, client.Search().Page(0, 1)); err != nil {
		t.Fatalf("search with the refreshed token: %v", err)
	}
	dead := c.Token()
	if err := c.Logout(ctx); err != nil {
		t.Fatal(err)
	}
	if c.Token() != "" {
		t.Fatal("token kept after logout")
	}
	if len(seen) != 3 || seen[0] != first || seen[1] != dead || seen[2] != "" {
		t.Fatalf("token hook saw %d tokens", len(seen))
	}
	// Logout forgot the credentials too: no silent login afterwards.
	if _, err := c.Search(ctx, client.Search()); !errors.Is(err, client.ErrNotLoggedIn) {
		t.Fatalf("after logout: %v", err)
	}
	_, err := newClient(t, s, client.WithToken(dead)).Search(ctx, client.Search())
	if client.ResultCode(err) != client.CodeTokenNotInStore || !client.IsSessionEnded(err) {
		t.Fatalf("logged-out token: %v", err)
	}
}

func TestLogsInAgainOnExpiredOrDeadToken(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	ctx := context.Background()
	tr := &countingTransport{}
	c := newClient(t, s, client.WithCredentials(alias, admin, adminPW), client.WithHTTPClient(&http.Client{Transport: tr}))

	// First call logs in by itself.
	if _, err := c.Search(ctx, client.Search().Page(0, 1)); err != nil {
		t.Fatal(err)
	}
	if tr.count("/login") != 1 {
		t.Fatalf("logins: %d", tr.count("/login"))
	}

	// 301: expired.
	s.Clock.Advance(31 * time.Minute)
	tok := c.Token()
	p, err := c.CreatePerson(ctx, &client.Person{FirstName: new("Retry"), LastName: new("Zzretry"), ActiveStatus: new(client.StatusActive)})
	if err != nil {
		t.Fatalf("save after expiry: %v", err)
	}
	if c.Token() == tok || tr.count("/login") != 2 || tr.count("/person/refresh") != 2 {
		t.Fatalf("expected one re-login and one repeated save; logins %d saves %d", tr.count("/login"), tr.count("/person/refresh"))
	}
	// The repeated save wrote once.
	page, err := c.Search(ctx, client.Search().LastName(client.Equal, "Zzretry").WithCount())
	if err != nil || page.Total != 1 {
		t.Fatalf("persons after the repeated save: %v %v", page, err)
	}

	// 305: someone logged the session out.
	if err := newClient(t, s, client.WithToken(c.Token())).Logout(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.LoadPerson(ctx, p.RecNo()); err != nil {
		t.Fatalf("load after logout elsewhere: %v", err)
	}
	if tr.count("/login") != 3 {
		t.Fatalf("logins: %d", tr.count("/login"))
	}

	// Without credentials the error comes back.
	bare := newClient(t, s, client.WithToken(c.Token()))
	s.Clock.Advance(31 * time.Minute)
	if _, err := bare.LoadPerson(ctx, p.RecNo()); client.ResultCode(err) != client.CodeTokenExpired {
		t.Fatalf("expired token without credentials: %v", err)
	}
	// Other 401s are not retried.
	forged := newClient(t, s, client.WithToken("a.b.c"), client.WithCredentials(alias, admin, adminPW))
	if _, err := forged.LoadPerson(ctx, p.RecNo()); client.ResultCode(err) != client.CodeTokenInvalid {
		t.Fatalf("forged token: %v", err)
	}
}

func TestClientNeverPrintsSecrets(t *testing.T) {
	c := client.New("http://example.invalid", client.WithCredentials("A", "u", "s3cret"), client.WithToken("tok.en.x"))
	for _, f := range []string{"%v", "%+v", "%#v", "%s"} {
		if out := fmt.Sprintf(f, c); strings.Contains(out, "s3cret") || strings.Contains(out, "tok.en") {
			t.Fatalf("%s prints a secret: %s", f, out)
		}
	}
}

func TestConcurrentCallsShareOneRelogin(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	ctx := context.Background()
	tr := &countingTransport{}
	c := newClient(t, s, client.WithCredentials(alias, admin, adminPW), client.WithHTTPClient(&http.Client{Transport: tr}))
	if err := c.Login(ctx, alias, admin, adminPW); err != nil {
		t.Fatal(err)
	}
	s.Clock.Advance(time.Hour)
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			_, err := c.Search(ctx, client.Search().Page(0, 1))
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if n := tr.count("/login"); n != 2 {
		t.Fatalf("logins: %d, want the first and one renewal", n)
	}
}
