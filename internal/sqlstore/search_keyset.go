package sqlstore

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Keyset continuation of a person search (docs/search.md, "Walking every
// person"): a full page answers, beside its rows, the order keys of its
// last row (searchOrder: folded last and first name, recNo, the shown
// children's recNos); the next request hands them back and the search
// starts after that row, through the name index, instead of skipping
// startingRow rows one by one.
//
// A continuation is opaque to the client: a version, the search's
// fingerprint and the keys, in base64url. The fingerprint is a hash of the
// search's statement without its paging, built from the criteria and the
// caller's scope, so a continuation works only for the same search by a
// caller with the same scope. A continuation changed by hand can only move
// the start within that same search: the scope and the filters are part of
// every statement, so it reveals nothing the search itself would not.

const continuationVersion = 1

// searchFingerprint identifies a search without its paging.
func (db *DB) searchFingerprint(sc wayfarer.Scope, c *wayfarer.SearchCriteria) [16]byte {
	q := db.buildSearch(sc, c, searchOptions{}) // options depend on the data, not the search
	base := q.rows
	base.Limit, base.Offset = nil, 0
	query, args := base.Build(db.Dialect)
	h := sha256.New()
	h.Write([]byte(query))
	for _, a := range args {
		fmt.Fprintf(h, "\x00%T:%v", a, a)
	}
	var fp [16]byte
	copy(fp[:], h.Sum(nil))
	return fp
}

// encodeContinuation is the continuation after a row with these order keys.
func encodeContinuation(fp [16]byte, keys []any) string {
	b := append([]byte{continuationVersion}, fp[:]...)
	b = append(b, byte(len(keys)))
	for _, k := range keys {
		switch v := normalizeKey(k).(type) {
		case nil:
			b = append(b, 0)
		case int64:
			b = binary.AppendVarint(append(b, 1), v)
		case string:
			b = binary.AppendUvarint(append(b, 2), uint64(len(v)))
			b = append(b, v...)
		}
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeContinuation reads a continuation of the search fp with n keys.
func decodeContinuation(s string, fp [16]byte, n int) ([]any, error) {
	bad := func(why string) ([]any, error) { return nil, wayfarer.InvalidContinuation(why) }
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) < 18 || b[0] != continuationVersion {
		return bad("not a continuation this server gave")
	}
	if [16]byte(b[1:17]) != fp || int(b[17]) != n {
		return bad("it belongs to another search; send the same search as the page that answered it")
	}
	b = b[18:]
	keys := make([]any, 0, n)
	for range n {
		if len(b) == 0 {
			return bad("not a continuation this server gave")
		}
		tag := b[0]
		b = b[1:]
		switch tag {
		case 0:
			keys = append(keys, nil)
		case 1:
			v, m := binary.Varint(b)
			if m <= 0 {
				return bad("not a continuation this server gave")
			}
			keys, b = append(keys, v), b[m:]
		case 2:
			l, m := binary.Uvarint(b)
			if m <= 0 || uint64(len(b)-m) < l {
				return bad("not a continuation this server gave")
			}
			keys, b = append(keys, string(b[m:m+int(l)])), b[m+int(l):]
		default:
			return bad("not a continuation this server gave")
		}
	}
	if len(b) != 0 {
		return bad("not a continuation this server gave")
	}
	return keys, nil
}

// normalizeKey is a scanned order key as int64, string or nil.
func normalizeKey(v any) any {
	switch x := v.(type) {
	case int32:
		return int64(x)
	case int:
		return int64(x)
	case []byte:
		return string(x)
	case int64, string, nil:
		return x
	}
	return fmt.Sprint(v)
}

// afterKeys is the condition "the row comes after the one with these
// keys" in the order of searchOrder, where NULL sorts first. Without a
// null key, on engines with Dialect.rowValueSeek, it is one row-value
// comparison, run as a range of the name index starting at the
// continuation; a row with a null
// key where the continuation has a value sorts before it, and the
// comparison (unknown there) leaves it out, as it should. With a null key
// it is spelled out: for each key i, the keys before it equal and key i
// greater, the first key bounding the index range from below.
func afterKeys(d Dialect, order []string, keys []any) Expr {
	if d.rowValueSeek && !slices.Contains(keys, nil) {
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(keys)), ", ")
		return E("("+strings.Join(order, ", ")+") > ("+marks+")", keys...)
	}
	var alts []Expr
	var eqs []Expr
	for i, k := range order {
		v := keys[i]
		var gt, eq Expr
		if v == nil {
			gt, eq = E(k+" IS NOT NULL"), E(k+" IS NULL")
		} else {
			gt, eq = E(k+" > ?", v), E(k+" = ?", v)
		}
		alts = append(alts, And(append(append([]Expr{}, eqs...), gt)...))
		eqs = append(eqs, eq)
	}
	cond := Or(alts...)
	if keys[0] != nil {
		cond = And(E(order[0]+" >= ?", keys[0]), cond)
	}
	return cond
}

// keyColumns selects the order keys after the search's columns, named
// k0, k1, ...
func keyColumns(order []string) []Expr {
	cols := make([]Expr, len(order))
	for i, k := range order {
		cols[i] = E(k + " AS k" + strconv.Itoa(i))
	}
	return cols
}
