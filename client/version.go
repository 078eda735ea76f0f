package client

import (
	"context"
	"fmt"
	"net/http"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// CardLinkVersion is the first contract version with personCardLink.
const CardLinkVersion = contract.CardLinkVersion

// ServerVersion is what GET /version reports.
type ServerVersion struct {
	Contract string // contract version, e.g. "1.8.2.6"
	Wayfarer string // the server's own build (its X-Wayfarer-Version header); empty for other servers
}

// AtLeast reports whether the contract version is v or later. An
// unreadable version is never at least anything.
func (v ServerVersion) AtLeast(min string) bool {
	return contract.AtLeast(v.Contract, min)
}

// CardLinks reports whether the server speaks the personCardLink shape.
func (v ServerVersion) CardLinks() bool { return v.AtLeast(CardLinkVersion) }

// Version reads GET /version once and keeps the answer (§9.5: a client
// checks its target's version before using the 1.8.2 card shape).
func (c *Client) Version(ctx context.Context) (ServerVersion, error) {
	c.mu.Lock()
	cached := c.version
	c.mu.Unlock()
	if cached != nil {
		return *cached, nil
	}
	var res contract.VersionResult
	a, err := c.send(ctx, http.MethodGet, "/version", nil, "", nil, &res)
	if err != nil {
		return ServerVersion{}, err
	}
	v := ServerVersion{Contract: res.Version, Wayfarer: a.Header.Get(contract.WayfarerVersionHeader)}
	if _, ok := contract.ParseVersion(v.Contract); !ok {
		return ServerVersion{}, fmt.Errorf("wayfarer version: unreadable contract version %q", v.Contract)
	}
	c.mu.Lock()
	c.version = &v
	c.mu.Unlock()
	return v, nil
}

// requireCardLinks refuses to go on against a server older than 1.8.2.
func (c *Client) requireCardLinks(ctx context.Context) error {
	v, err := c.Version(ctx)
	if err != nil {
		return err
	}
	if !v.CardLinks() {
		hint := ""
		if v.Wayfarer != "" {
			// A Wayfarer server serves 1.8.1 below contract.BasePath181
			// and 1.8.2 without it.
			hint = fmt.Sprintf("; this Wayfarer server speaks 1.8.2 at the base URL without %s", contract.BasePath181)
		}
		return fmt.Errorf("%w: the server reports %s; this client saves persons only in the 1.8.2 personCardLink shape, which an older server would misread%s",
			ErrServerTooOld, v.Contract, hint)
	}
	return nil
}
