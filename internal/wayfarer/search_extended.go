package wayfarer

import (
	"strconv"
	"strings"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// includeColsExtended of the person search. The reference does not publish
// its structure; Wayfarer's (docs/search.md, "Extended columns") is an
// array of {"type": "tag" | "marketing", "recNo": n}, each entry adding one
// column to every row, after the includeCols columns and in entry order:
//
//   - {"type":"tag","recNo":12} is column "tag:12": the value of the
//     person's tag 12 (the values of several rows of it joined by "; "), ""
//     for the tag without a value, absent when the person lacks the tag;
//   - {"type":"marketing","recNo":7} is column "marketing:7": true when the
//     person is marked for marketing element 7, false otherwise.
//
// They never add rows (one row per person, as without them) and each is one
// correlated subquery on an indexed child table.

// Extended column types.
const (
	ExtendedTag       = "tag"
	ExtendedMarketing = "marketing"
)

// MaxExtendedColumns is the most includeColsExtended entries of one search:
// each is a subquery per row.
const MaxExtendedColumns = 20

// ExtendedColumn is the definition behind an extended column; Path names
// its entry in errors ("includeColsExtended[1]").
type ExtendedColumn struct {
	Type  string // ExtendedTag or ExtendedMarketing
	RecNo int64  // the tag definition or marketing element
	Path  string
}

// ExtendedColumnRequest is one includeColsExtended entry as decoded.
type ExtendedColumnRequest struct {
	Type  *string
	RecNo *int64
}

// NewExtendedColumns reads includeColsExtended into columns. Missing members
// are a 404 and other mistakes a 407, naming the entry; so is a column
// asked for twice. Whether each tag or element exists in the agency is
// the store's to check (ErrUnknownExtended).
func NewExtendedColumns(entries []ExtendedColumnRequest) ([]SearchColumn, error) {
	if len(entries) > MaxExtendedColumns {
		return nil, searchValueError("includeColsExtended", "%d extended columns are more than the %d one search takes",
			len(entries), MaxExtendedColumns)
	}
	var cols []SearchColumn
	seen := map[string]bool{}
	for i, e := range entries {
		path := "includeColsExtended[" + strconv.Itoa(i) + "]"
		if e.Type == nil || strings.TrimSpace(*e.Type) == "" {
			return nil, Errorf(KindInvalid, contract.CodeMissingParameter, MethodParam,
				"Missing or blank required parameter: %s.type is required (tag or marketing).", path)
		}
		if e.RecNo == nil {
			return nil, Errorf(KindInvalid, contract.CodeMissingParameter, MethodParam,
				"Missing or blank required parameter: %s.recNo is required.", path)
		}
		typ := strings.ToLower(strings.TrimSpace(*e.Type))
		col := SearchColumn{Group: GroupPerson}
		switch typ {
		case ExtendedTag:
			col.Type, col.Size = ColString, 1024
		case ExtendedMarketing:
			col.Type = ColBool
		default:
			shown := *e.Type
			if ContainsCardNumber(shown) || len(shown) > 64 {
				shown = "(withheld)"
			}
			return nil, searchValueError(path+".type", "unknown extended column type %q (known: tag, marketing)", shown)
		}
		if *e.RecNo <= 0 {
			return nil, searchValueError(path+".recNo", "%d is not a record number", *e.RecNo)
		}
		col.Name = typ + ":" + strconv.FormatInt(*e.RecNo, 10)
		if seen[col.Name] {
			return nil, searchValueError(path, "column %s is asked for twice", col.Name)
		}
		seen[col.Name] = true
		col.Extended = &ExtendedColumn{Type: typ, RecNo: *e.RecNo, Path: path}
		cols = append(cols, col)
	}
	return cols, nil
}

// UnknownExtendedError is the answer for an extended column whose tag or
// marketing element the agency does not have.
func UnknownExtendedError(e *ExtendedColumn) error {
	what := "tag"
	if e.Type == ExtendedMarketing {
		what = "marketing element"
	}
	return searchValueError(e.Path+".recNo", "%s %d does not exist", what, e.RecNo)
}
