package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// ClientVersion is sent in the X-Client-Version header: the contract this
// client implements. Servers may refuse logins below a minimum version.
const ClientVersion = contract.ContractVersion

// Client talks to one Wayfarer server for one agency session at a time.
type Client struct {
	base          string
	hc            *http.Client
	clientVersion string
	onToken       func(token string)

	mu      sync.Mutex
	token   string
	creds   *credentials
	version *ServerVersion

	loginMu sync.Mutex // one re-login at a time
}

type credentials struct {
	alias, user, password string
	basic                 bool // log in with GET /login/{alias} and Basic credentials
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient sets the HTTP client (timeouts, proxies, TLS). The default
// has a 60 second timeout.
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.hc = hc } }

// WithToken starts the client with an identity token from an earlier login.
func WithToken(token string) Option { return func(c *Client) { c.token = token } }

// WithCredentials lets the client log in by itself: before the first call
// that needs a token, and again once when the server reports the token
// expired (301) or gone (305).
func WithCredentials(alias, userName, password string) Option {
	return func(c *Client) { c.creds = &credentials{alias: alias, user: userName, password: password} }
}

// WithClientVersion overrides the X-Client-Version header.
func WithClientVersion(v string) Option { return func(c *Client) { c.clientVersion = v } }

// WithTokenHook calls f with every new identity token (login, refresh,
// automatic re-login) and with "" after a logout, e.g. to store it.
func WithTokenHook(f func(token string)) Option { return func(c *Client) { c.onToken = f } }

// New returns a client of the server at baseURL (e.g. "https://host:8080"
// or "https://host/wayfarer").
func New(baseURL string, opts ...Option) *Client {
	c := &Client{
		base:          strings.TrimRight(baseURL, "/"),
		hc:            &http.Client{Timeout: 60 * time.Second},
		clientVersion: ClientVersion,
	}
	for _, o := range opts {
		o(c)
	}
	return c
}

// String keeps tokens and passwords out of logs that print the client.
func (c *Client) String() string   { return "wayfarer client for " + c.base }
func (c *Client) GoString() string { return c.String() }

// BaseURL is the server address the client was made with.
func (c *Client) BaseURL() string { return c.base }

// Token is the current identity token, "" when there is none. Treat it as a
// secret: it is the session.
func (c *Client) Token() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.token
}

func (c *Client) setToken(t string) {
	c.mu.Lock()
	c.token = t
	hook := c.onToken
	c.mu.Unlock()
	if hook != nil {
		hook(t)
	}
}

// Login opens a session with POST /login and a JSON body. The credentials
// are kept in memory so that an expired session is renewed by itself.
func (c *Client) Login(ctx context.Context, alias, userName, password string) error {
	return c.login(ctx, &credentials{alias: alias, user: userName, password: password})
}

// LoginBasic opens a session with GET /login/{alias} and Basic credentials.
// The credentials are kept as with Login.
func (c *Client) LoginBasic(ctx context.Context, alias, userName, password string) error {
	return c.login(ctx, &credentials{alias: alias, user: userName, password: password, basic: true})
}

func (c *Client) login(ctx context.Context, cr *credentials) error {
	var res contract.LoginResult
	var err error
	if cr.basic {
		_, err = c.send(ctx, http.MethodGet, "/login/"+url.PathEscape(cr.alias), nil, "", cr, &res)
	} else {
		body, _ := json.Marshal(contract.LoginRequest{Alias: cr.alias, UserName: cr.user, Password: cr.password})
		_, err = c.send(ctx, http.MethodPost, "/login", body, "", nil, &res)
	}
	if err != nil {
		return err
	}
	if res.IdentityToken == "" {
		return errors.New("wayfarer login: the answer holds no identity token")
	}
	c.mu.Lock()
	c.creds = cr
	c.mu.Unlock()
	c.setToken(res.IdentityToken)
	return nil
}

// Logout ends the session on the server (GET /logout) and forgets the token
// and the credentials, whatever the server answers.
func (c *Client) Logout(ctx context.Context) error {
	tok := c.Token()
	c.mu.Lock()
	c.creds = nil
	c.mu.Unlock()
	if tok == "" {
		return ErrNotLoggedIn
	}
	_, err := c.send(ctx, http.MethodGet, "/logout", nil, tok, nil, nil)
	c.setToken("")
	return err
}

// Refresh extends the session (GET /refreshIdentityToken) and switches to
// the new token it answers.
func (c *Client) Refresh(ctx context.Context) error {
	var res contract.RefreshResult
	if _, err := c.call(ctx, http.MethodGet, "/refreshIdentityToken", nil, &res); err != nil {
		return err
	}
	if res.RefreshIdentityToken == "" {
		return errors.New("wayfarer refresh: the answer holds no identity token")
	}
	c.setToken(res.RefreshIdentityToken)
	return nil
}

// call sends a request that needs a token. A token the server reports
// expired or gone is renewed with the kept credentials and the request sent
// once more: a request refused at the token check changed nothing, so
// sending it again is safe even for a save.
func (c *Client) call(ctx context.Context, method, path string, body []byte, out any) (*answer, error) {
	tok, err := c.ensureToken(ctx)
	if err != nil {
		return nil, err
	}
	a, err := c.send(ctx, method, path, body, tok, nil, out)
	if !IsSessionEnded(err) {
		return a, err
	}
	c.mu.Lock()
	canRenew := c.creds != nil
	c.mu.Unlock()
	if !canRenew {
		return nil, err
	}
	if tok, err = c.renew(ctx, tok); err != nil {
		return nil, err
	}
	return c.send(ctx, method, path, body, tok, nil, out)
}

// answer is what a successful exchange tells besides its body.
type answer struct {
	Status int
	Header http.Header
}

// noContent reports a 204: the server had nothing to return (no such
// person within reach, a search matching nothing).
func (a *answer) noContent() bool { return a != nil && a.Status == http.StatusNoContent }

// ensureToken returns the token, logging in first when there is none and
// credentials are kept.
func (c *Client) ensureToken(ctx context.Context) (string, error) {
	if tok := c.Token(); tok != "" {
		return tok, nil
	}
	return c.renew(ctx, "")
}

// renew logs in again unless another goroutine already replaced stale.
func (c *Client) renew(ctx context.Context, stale string) (string, error) {
	c.loginMu.Lock()
	defer c.loginMu.Unlock()
	c.mu.Lock()
	tok, cr := c.token, c.creds
	c.mu.Unlock()
	if tok != "" && tok != stale {
		return tok, nil
	}
	if cr == nil {
		return "", ErrNotLoggedIn
	}
	if err := c.login(ctx, cr); err != nil {
		return "", err
	}
	return c.Token(), nil
}

// send does one HTTP exchange: bearer token or Basic credentials, the
// client version header, JSON in and out, errors as *Error. A 204 leaves
// out untouched.
func (c *Client) send(ctx context.Context, method, path string, body []byte, token string, basic *credentials, out any) (*answer, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if c.clientVersion != "" {
		req.Header.Set(contract.ClientVersionHeader, c.clientVersion)
	}
	switch {
	case basic != nil:
		req.SetBasicAuth(basic.user, basic.password)
	case token != "":
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, readError(resp)
	}
	a := &answer{Status: resp.StatusCode, Header: resp.Header}
	if out == nil || resp.StatusCode == http.StatusNoContent {
		_, _ = io.Copy(io.Discard, resp.Body)
		return a, nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return nil, fmt.Errorf("wayfarer %s %s: reading the answer: %w", method, stripQuery(path), err)
	}
	return a, nil
}

func stripQuery(path string) string {
	p, _, _ := strings.Cut(path, "?")
	return p
}

func readError(resp *http.Response) error {
	e := &Error{Status: resp.StatusCode}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var body contract.Result
	if json.Unmarshal(b, &body) == nil {
		e.ResultCode, e.Description, e.Method = body.ResultCode, body.ResultDescription, body.Method
	}
	if e.Description == "" {
		e.Description = http.StatusText(resp.StatusCode)
	}
	return e
}
