package main

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
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
)

// binary is this command built once for the package's tests (buildBinary).
var binary struct {
	once      sync.Once
	dir, path string
	err       error
	out       []byte
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binary.dir != "" {
		_ = os.RemoveAll(binary.dir)
	}
	os.Exit(code)
}

// buildBinary builds this command, once for all the tests that run it as
// a process.
func buildBinary(t *testing.T) string {
	t.Helper()
	binary.once.Do(func() {
		binary.dir, binary.err = os.MkdirTemp("", "wayfarer-bin-")
		if binary.err != nil {
			return
		}
		binary.path = filepath.Join(binary.dir, "wayfarer")
		binary.out, binary.err = exec.Command("go", "build", "-o", binary.path, ".").CombinedOutput()
	})
	if binary.err != nil {
		t.Fatalf("go build: %v\n%s", binary.err, binary.out)
	}
	return binary.path
}

var listening = regexp.MustCompile(`listening on (https?://\S+)`)

// startServe starts `wayfarer serve` as a process and returns its base URL.
func startServe(t *testing.T, bin string, args ...string) (*exec.Cmd, string, *testserver.Logs) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--demo", "--addr", "127.0.0.1:0"}, args...)...)
	stderr := &testserver.Logs{} // written by exec while the test reads it
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
	}()
	select {
	case u := <-urls:
		return cmd, u, stderr
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not start:\n%s", stderr)
	}
	return nil, "", nil
}

func TestServeFinishesRequestsInFlightOnSIGTERM(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := buildBinary(t)
	cmd, base, stderr := startServe(t, bin, "--db", filepath.Join(dir, "w.db"))

	// A login whose body is still arriving when SIGTERM comes.
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"alias":"DEMO","userName":"admin","password":"demo-admin"}`
	fmt.Fprintf(conn, "POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:10])
	time.Sleep(300 * time.Millisecond) // the handler is reading the body
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if _, err := io.WriteString(conn, body[10:]); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("the request in flight got no answer: %v\n%s", err, stderr)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"resultCode":0`) {
		t.Fatalf("in-flight login: %d %s", resp.StatusCode, b)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve exited with %v\n%s", err, stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop after SIGTERM")
	}
	if !strings.Contains(stderr.String(), "msg=stopped") {
		t.Fatalf("no orderly stop in the log:\n%s", stderr)
	}
	// new connections are refused once it stopped
	if _, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), time.Second); err == nil {
		t.Fatal("still accepting connections after shutdown")
	}
}

func TestServeTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := buildBinary(t)
	certFile, keyFile, pool := selfSignedCert(t, dir)
	_, base, _ := startServe(t, bin, "--db", filepath.Join(dir, "w.db"), "--tls-cert", certFile, "--tls-key", keyFile)
	if !strings.HasPrefix(base, "https://") {
		t.Fatalf("banner shows %s", base)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := client.Get(base + "/version")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.TLS == nil {
		t.Fatalf("https /version: %d, tls %v", resp.StatusCode, resp.TLS != nil)
	}
	// plain HTTP on the TLS port gets no JSON answer
	if r, err := http.Get(strings.Replace(base, "https://", "http://", 1) + "/version"); err == nil {
		r.Body.Close()
		if r.StatusCode == 200 {
			t.Fatal("plain HTTP served on the TLS port")
		}
	}
}

func selfSignedCert(t *testing.T, dir string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// With --metrics-addr, /metrics is served there and not on --addr; the
// OTLP endpoint is checked before anything listens.
func TestServeMetricsAddr(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := buildBinary(t)
	_, base, stderr := startServe(t, bin, "--db", filepath.Join(dir, "w.db"), "--metrics-addr", "127.0.0.1:0",
		"--otlp-endpoint", "http://127.0.0.1:1")
	// The line is written before the banner; the pipe may bring it a little later.
	var m []string
	for deadline := time.Now().Add(10 * time.Second); m == nil && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		m = regexp.MustCompile(`msg="serving metrics" addr=(\S+)`).FindStringSubmatch(stderr.String())
	}
	if m == nil {
		t.Fatalf("no metrics listener in the log:\n%s", stderr)
	}
	resp, err := http.Get("http://" + m[1] + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "wayfarer_http_requests_total") && !strings.Contains(string(body), "go_sql_open_connections") {
		t.Fatalf("metrics listener: %d %.300s", resp.StatusCode, body)
	}
	resp, err = http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Fatalf("/metrics on --addr with --metrics-addr: %d", resp.StatusCode)
	}
	out, err := exec.Command(bin, "serve", "--db", filepath.Join(dir, "w.db"), "--addr", "127.0.0.1:0", "--otlp-endpoint", "collector:4318").CombinedOutput()
	if err == nil || !strings.Contains(string(out), `--otlp-endpoint "collector:4318" is not a URL`) {
		t.Fatalf("a bad OTLP endpoint: %v\n%s", err, out)
	}
}
