package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// EnvVar names the environment variable LoadRing's envValue is read from.
const EnvVar = "WAYFARER_CARD_KEYS"

// ErrNoKey is returned by LoadRing when no key source is configured.
var ErrNoKey = errors.New("no card encryption key: set --card-key-file or WAYFARER_CARD_KEYS")

// now is swapped in tests to pin the generated key id.
var now = time.Now

// DefaultKeyID is the id a new key gets unless one is asked for:
// "k<yyyymmdd>" (UTC) of today.
func DefaultKeyID() string { return "k" + now().UTC().Format("20060102") }

// LoadRing builds the ring from envValue (the content of WAYFARER_CARD_KEYS)
// when it is set, else from the key file. The environment wins so a
// deployment can override a file baked into an image.
func LoadRing(file string, envValue string) (*Ring, error) {
	ks, err := LoadKeyset(file, envValue)
	if err != nil {
		return nil, err
	}
	r, err := ks.Ring()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source(file, envValue), err)
	}
	return r, nil
}

// LoadKeyset reads the keyset from envValue when set, else from the file.
func LoadKeyset(file string, envValue string) (*Keyset, error) {
	if strings.TrimSpace(envValue) != "" {
		ks, err := ParseKeys([]byte(envValue))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", EnvVar, err)
		}
		return ks, nil
	}
	if file == "" {
		return nil, ErrNoKey
	}
	return ReadKeyFile(file)
}

func source(file, envValue string) string {
	if strings.TrimSpace(envValue) != "" {
		return EnvVar
	}
	return "card key file " + file
}

// ReadKeyFile reads a key file, refusing one that group or others may read.
func ReadKeyFile(file string) (*Keyset, error) {
	if err := CheckKeyFileMode(file); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("card key file: %w", err)
	}
	ks, err := ParseKeys(b)
	clear(b)
	if err != nil {
		return nil, fmt.Errorf("card key file %s: %w", file, err)
	}
	return ks, nil
}

// CheckKeyFileMode refuses a key file (after symlinks) whose mode lets group
// or others read or write it. Windows has no such bits to check.
//
// One exception: a file systemd hands the service as a credential (directly
// in $CREDENTIALS_DIRECTORY, not a symlink) may show group read (0440).
// systemd writes it 0400 and grants the service's user read access with a
// POSIX ACL entry, whose mask stat shows in the group bits; no group can
// read it, and the directory is private to the service.
func CheckKeyFileMode(file string) error {
	fi, err := os.Stat(file)
	if err != nil {
		return fmt.Errorf("card key file: %w", err)
	}
	if fi.IsDir() {
		return fmt.Errorf("card key file %s is a directory", file)
	}
	if runtime.GOOS == "windows" {
		return nil
	}
	forbidden := fs.FileMode(0o077)
	if systemdCredential(file) {
		forbidden = 0o037
	}
	if fi.Mode().Perm()&forbidden != 0 {
		return fmt.Errorf("card key file %s is open to group or others (mode %04o): run \"chmod 600 %s\" (owner only; in Kubernetes, defaultMode: 0400)",
			file, fi.Mode().Perm(), file)
	}
	return nil
}

// systemdCredential reports whether file is a regular file directly in the
// credentials directory systemd gave this process.
func systemdCredential(file string) bool {
	dir := os.Getenv("CREDENTIALS_DIRECTORY")
	if dir == "" || filepath.Dir(filepath.Clean(file)) != filepath.Clean(dir) {
		return false
	}
	fi, err := os.Lstat(file)
	return err == nil && fi.Mode().IsRegular()
}

// EnsureKeyFile creates path with mode 0600 holding a card key document
// with one new key, id "k<yyyymmdd>" (UTC), when the file does not exist,
// creating a missing parent directory with mode 0700. An existing file is
// left alone, whatever its content or permissions: it may be managed by
// other tooling, and LoadRing reports a bad one.
func EnsureKeyFile(path string) (created bool, err error) {
	if _, err := os.Stat(path); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("card key file: %w", err)
	}
	doc, err := GenerateKeyFile(DefaultKeyID())
	if err != nil {
		return false, err
	}
	defer clear(doc)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return false, fmt.Errorf("card key file: %w", err)
	}
	err = CreateKeyFile(path, doc)
	if errors.Is(err, fs.ErrExist) {
		return false, nil // another process created it meanwhile: keep theirs
	}
	return err == nil, err
}

// CreateKeyFile writes data to a new file at path with mode 0600; it fails
// with fs.ErrExist if the file exists.
func CreateKeyFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return err
		}
		return fmt.Errorf("card key file: %w", err)
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		// A truncated key file would fail later in a less obvious way.
		os.Remove(path)
		return fmt.Errorf("card key file: writing %s: %w", path, werr)
	}
	return nil
}

// ReplaceKeyFile replaces the file at path with data, atomically: a new
// 0600 file beside it is written, synced and renamed over it, so a crash
// leaves the old keys or the new ones, never half a file.
func ReplaceKeyFile(path string, data []byte) error {
	if err := CheckKeyFileMode(path); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".new-*") // mode 0600
	if err != nil {
		return fmt.Errorf("card key file: %w", err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("card key file: writing %s: %w", path, werr)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // make the rename durable where the platform allows
		d.Close()
	}
	return nil
}
