package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGoInstall checks that `go install <module>/cmd/wayfarer@latest`,
// the README's way to get the binary, builds it. The module path is not
// published, so the test serves the committed HEAD (git archive) from a
// local module proxy (GOPROXY=file://...) beside the real one for the
// dependencies: the server module and the client module, each at a
// pseudo-version of HEAD, the server's go.mod requiring that client
// version instead of the development replace (the release step: tag
// client/vX first, then require it). It compiles the binary anew, so it
// runs only when WAYFARER_TEST_GOINSTALL is set (.ci/checks sets it).
func TestGoInstall(t *testing.T) {
	if os.Getenv("WAYFARER_TEST_GOINSTALL") == "" {
		t.Skip("set WAYFARER_TEST_GOINSTALL=1 to build the binary through go install from a local module proxy")
	}
	root := gitOut(t, "..", "rev-parse", "--show-toplevel")
	commit := gitOut(t, root, "rev-parse", "HEAD")
	when, err := time.Parse(time.RFC3339, gitOut(t, root, "show", "-s", "--format=%cI", "HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	version := fmt.Sprintf("v0.0.0-%s-%s", when.UTC().Format("20060102150405"), commit[:12])
	files := gitArchive(t, root)

	const server, client = "github.com/wayfarerhq/wayfarer", "github.com/wayfarerhq/wayfarer/client"
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	clientFiles, serverFiles := map[string][]byte{}, map[string][]byte{}
	for name, b := range files {
		if rest, ok := strings.CutPrefix(name, "client/"); ok {
			clientFiles[rest] = b
		} else {
			serverFiles[name] = b
		}
	}
	// The released go.mod: the client by version, no replace.
	mod := filepath.Join(tmp, "go.mod")
	if err := os.WriteFile(mod, serverFiles["go.mod"], 0o600); err != nil {
		t.Fatal(err)
	}
	run(t, tmp, nil, "go", "mod", "edit", "-dropreplace="+client, "-require="+client+"@"+version, mod)
	serverFiles["go.mod"], _ = os.ReadFile(mod)
	writeModule(t, proxy, client, version, when, clientFiles)
	writeModule(t, proxy, server, version, when, serverFiles)

	gobin := filepath.Join(tmp, "bin")
	env := []string{
		"GOPROXY=file://" + proxy + "," + goEnv(t, "GOPROXY"),
		"GONOSUMDB=" + server, // not in the checksum database: never published
		"GOFLAGS=-mod=mod", "GOWORK=off", "GOBIN=" + gobin,
	}
	run(t, tmp, env, "go", "install", server+"/cmd/wayfarer@latest")
	out := run(t, tmp, nil, filepath.Join(gobin, "wayfarer"), "--version")
	if !strings.HasPrefix(out, "wayfarer version ") {
		t.Fatalf("the installed binary says %q", out)
	}
	info := run(t, tmp, nil, "go", "version", "-m", filepath.Join(gobin, "wayfarer"))
	if !strings.Contains(info, "mod\t"+server+"\t"+version) || !strings.Contains(info, "dep\t"+client+"\t"+version) {
		t.Fatalf("built from the wrong modules:\n%s", info)
	}
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return strings.TrimSpace(run(t, dir, nil, "git", args...))
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	return strings.TrimSpace(run(t, ".", nil, "go", "env", name))
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// gitArchive is every file of HEAD, by path.
func gitArchive(t *testing.T, root string) map[string][]byte {
	t.Helper()
	cmd := exec.Command("git", "archive", "--format=tar", "HEAD")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git archive: %v", err)
	}
	files := map[string][]byte{}
	tr := tar.NewReader(bytes.NewReader(out))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		files[h.Name] = b
	}
}

// writeModule lays out one module version as the GOPROXY protocol serves
// it: @v/list, @v/<v>.info, .mod and .zip, and @latest.
func writeModule(t *testing.T, proxy, path, version string, when time.Time, files map[string][]byte) {
	t.Helper()
	dir := filepath.Join(proxy, path, "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	info, _ := json.Marshal(map[string]any{"Version": version, "Time": when.UTC()})
	var z bytes.Buffer
	zw := zip.NewWriter(&z)
	for name, b := range files {
		w, err := zw.Create(path + "@" + version + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"list": []byte(version + "\n"), version + ".info": info, version + ".mod": files["go.mod"], version + ".zip": z.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(proxy, path, "@latest"), info, 0o644); err != nil {
		t.Fatal(err)
	}
}
