package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	neturl "net/url"
	"os"
	"time"

	"github.com/urfave/cli/v3"
)

// healthcheckCommand is the container health check: distroless and scratch
// images have no curl, so the binary asks its own /healthz.
func healthcheckCommand() *cli.Command {
	return &cli.Command{
		Name:  "healthcheck",
		Usage: "GET /healthz of a running server; exit 0 when it answers 200, 1 otherwise",
		Description: `Without --url it asks /healthz at the address in WAYFARER_ADDR, as serve
reads it (a wildcard host such as 0.0.0.0 on 127.0.0.1; default
127.0.0.1:8080), so a container's HEALTHCHECK needs no arguments:

  HEALTHCHECK CMD ["/wayfarer", "healthcheck"]`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "url", Usage: "URL to GET (default: /healthz at WAYFARER_ADDR, wildcard hosts on 127.0.0.1)", Sources: cli.EnvVars("WAYFARER_HEALTHCHECK_URL")},
			&cli.DurationFlag{Name: "timeout", Value: 3 * time.Second, Usage: "give up after this long", Sources: cli.EnvVars("WAYFARER_HEALTHCHECK_TIMEOUT")},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			url := cmd.String("url")
			if url == "" {
				url = localHealthURL(os.Getenv("WAYFARER_ADDR"))
			} else if u, err := clientURL(url); err != nil {
				return err
			} else {
				url = u
			}
			ctx, cancel := context.WithTimeout(ctx, cmd.Duration("timeout"))
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			if err != nil {
				return fmt.Errorf("healthcheck: %s is not a URL to ask", url)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return fmt.Errorf("healthcheck: %s does not answer (%v)", url, unwrapURLError(err))
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("healthcheck: %s answered %s", url, resp.Status)
			}
			fmt.Fprintf(cmd.Root().Writer, "ok: %s\n", url)
			return nil
		},
	}
}

// unwrapURLError drops net/http's "Get \"<url>\": " from an error whose
// URL the message already names.
func unwrapURLError(err error) error {
	var ue *neturl.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// localHealthURL is /healthz at the listen address addr (as serve reads
// WAYFARER_ADDR): a wildcard host ("0.0.0.0", "::" or none) is asked on
// the loopback address.
func localHealthURL(addr string) string {
	host, port := "127.0.0.1", "8080"
	if addr != "" {
		if h, p, err := net.SplitHostPort(addr); err == nil {
			if p != "" && p != "0" {
				port = p
			}
			if h != "" && h != "0.0.0.0" && h != "::" {
				host = h
			}
		}
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz"
}
