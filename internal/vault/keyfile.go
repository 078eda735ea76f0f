package vault

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// EnvVar names the environment variable LoadRing's envValue is read from.
const EnvVar = "WAYFARER_CARD_KEYS"

// ErrNoKey is returned by LoadRing when no key source is configured.
var ErrNoKey = errors.New("no card encryption key: set --card-key-file or WAYFARER_CARD_KEYS")

// now is swapped in tests to pin the generated key id.
var now = time.Now

// ParseRing reads key text: entries "id:base64(32 bytes)" (standard base64),
// one per line or several per line separated by commas. Blank lines and lines
// starting with # are ignored. The first entry is the current key. Ids match
// [a-z0-9_-]{1,32} and must be unique.
//
// Errors name the line and entry position, and the id once it is known to be
// well formed, never the key text: a malformed entry may be a key pasted in
// the wrong place.
func ParseRing(text string) (*Ring, error) {
	var ids []string
	var keys [][]byte
	seen := map[string]bool{}
	for lineNo, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		for entryNo, entry := range strings.Split(line, ",") {
			entry = strings.TrimSpace(entry)
			if entry == "" {
				continue
			}
			where := fmt.Sprintf("vault: key line %d entry %d", lineNo+1, entryNo+1)
			id, b64, ok := strings.Cut(entry, ":")
			if !ok {
				return nil, fmt.Errorf("%s: want id:base64key", where)
			}
			id, b64 = strings.TrimSpace(id), strings.TrimSpace(b64)
			if !validKeyID(id) {
				return nil, fmt.Errorf("%s: key id must be 1 to 32 of a-z, 0-9, _ and -", where)
			}
			if seen[id] {
				return nil, fmt.Errorf("%s: duplicate key id %q", where, id)
			}
			key, err := base64.StdEncoding.Strict().DecodeString(b64)
			if err != nil {
				return nil, fmt.Errorf("%s: key %q is not valid standard base64", where, id)
			}
			if len(key) != KeySize {
				return nil, fmt.Errorf("%s: key %q is %d bytes, want %d", where, id, len(key), KeySize)
			}
			seen[id] = true
			ids = append(ids, id)
			keys = append(keys, key)
		}
	}
	if len(ids) == 0 {
		return nil, errors.New("vault: no keys found in key text")
	}
	r, err := newRing(ids, keys)
	for _, k := range keys {
		clear(k)
	}
	return r, err
}

// GenerateKeyText returns a new entry "id:base64key" with 32 random bytes.
func GenerateKeyText(id string) (string, error) {
	if !validKeyID(id) {
		return "", fmt.Errorf("vault: key id %q must be 1 to 32 of a-z, 0-9, _ and -", shorten(id, 40))
	}
	key := make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return "", fmt.Errorf("vault: reading random key: %w", err)
	}
	s := id + ":" + base64.StdEncoding.EncodeToString(key)
	clear(key)
	return s, nil
}

// LoadRing builds the ring from envValue (the content of WAYFARER_CARD_KEYS)
// when it is set, else from the key file. The environment wins so a
// deployment can override a file baked into an image.
func LoadRing(file string, envValue string) (*Ring, error) {
	if strings.TrimSpace(envValue) != "" {
		r, err := ParseRing(envValue)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", EnvVar, err)
		}
		return r, nil
	}
	if file == "" {
		return nil, ErrNoKey
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("card key file: %w", err)
	}
	r, err := ParseRing(string(b))
	clear(b)
	if err != nil {
		return nil, fmt.Errorf("card key file %s: %w", file, err)
	}
	return r, nil
}

const keyFileHeader = `# Wayfarer card encryption keys (AES-256-GCM for card numbers at rest).
#
# Back this file up, separately from database backups: without it the stored
# card numbers cannot be decrypted, and with it a stolen dump can be.
# Never store it in the database. Keep it readable by the server user only.
#
# Format: one "id:base64(32 random bytes)" per line; ids are 1 to 32 of
# a-z, 0-9, _ and -. Lines starting with # are ignored. The same entries,
# comma-separated, may be given in WAYFARER_CARD_KEYS instead of this file.
#
# Rotation: prepend a new line with a new id and a fresh key (for example
# from "openssl rand -base64 32"). The first key encrypts new card numbers;
# keep the older lines so existing numbers still decrypt until re-encrypted.
`

// EnsureKeyFile creates path with mode 0600, a header comment and one new
// key with id "k<yyyymmdd>" (UTC) when the file does not exist, creating a
// missing parent directory with mode 0700. An existing file is left alone,
// whatever its content or permissions: it may be managed by other tooling,
// and LoadRing reports a bad one.
func EnsureKeyFile(path string) (created bool, err error) {
	if _, err := os.Stat(path); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("card key file: %w", err)
	}
	entry, err := GenerateKeyText("k" + now().UTC().Format("20060102"))
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return false, fmt.Errorf("card key file: %w", err)
	}
	// O_EXCL: if another process created it meanwhile, keep theirs.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("card key file: %w", err)
	}
	_, werr := f.WriteString(keyFileHeader + entry + "\n")
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		// A truncated key file would fail later in a less obvious way.
		os.Remove(path)
		return false, fmt.Errorf("card key file: writing %s: %w", path, werr)
	}
	return true, nil
}

func validKeyID(id string) bool {
	if len(id) == 0 || len(id) > 32 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
