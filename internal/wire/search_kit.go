package wire

import (
	"bytes"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// The search kit's edge (see wayfarer.SearchCatalog): the inherited
// parameters in one converter call, one filter per own parameter, and one
// decoding call. A flat search's body type is
//
//	type branchSearchBody struct {
//		contract.BranchSearchRequest // embeds contract.SearchBase
//		SearchUnserved
//	}
//
// and its decoder
//
//	var b branchSearchBody
//	if err := DecodeSearchBody(dec, body, &b); err != nil { ... }
//	v := &converter{}
//	c := &wayfarer.FlatCriteria{BaseCriteria: v.base(cat, &b.SearchBase)}
//	c.Add(v.strFilter(cat, "name", "name", b.Name))
//	c.Add(v.inFilter("activeStatus", "activeStatus", b.ActiveStatus))
//	return v.done(c)

// SearchUnserved are the inherited members the reference knows that no
// Wayfarer search serves yet: refused (408) when they hold anything.
type SearchUnserved struct {
	IncludeColsExtended []any  `json:"includeColsExtended" wf:"unsupported"`
	DisplayTagRecNo     *int64 `json:"displayTagRecNo" wf:"unsupported"` // the Java client's base search model
}

// DecodeSearchBody reads a search body into dst (a pointer to its body
// type); an empty body or null is a search without parameters.
func DecodeSearchBody(dec *jsoncodec.Decoder, body []byte, dst any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	return dec.Decode(body, dst, wayfarer.MethodParam)
}

// base converts the inherited parameters, with includeCols resolved on cat.
func (v *converter) base(cat *wayfarer.SearchCatalog, r *contract.SearchBase) wayfarer.BaseCriteria {
	b := wayfarer.BaseCriteria{
		ReadOnlyIntent: deref(r.ReadOnlyIntent), Distinct: deref(r.Distinct),
		BaseURL: deref(r.BaseURL), ReportFormat: deref(r.ReportFormat), ReportName: deref(r.ReportName),
		QueryOptimizerFlags: ints(r.QueryOptimizerFlags),
	}
	var err error
	b.Columns, b.DefaultCols, err = cat.Resolve(r.IncludeCols)
	v.check(err)
	b.StartingRow = v.count("startingRow", r.StartingRow)
	b.RowCount = v.count("rowCount", r.RowCount)
	b.TopRows = v.count("topRows", r.TopRows)
	b.Created.From = v.instant("createDateTimeFrom", r.CreateDateTimeFrom, false)
	b.Created.Before = v.instant("createDateTimeTo", r.CreateDateTimeTo, true)
	b.Modified.From = v.instant("modifiedDateTimeFrom", r.ModifiedDateTimeFrom, false)
	b.Modified.Before = v.instant("modifiedDateTimeTo", r.ModifiedDateTimeTo, true)
	b.RecNo = v.num("recNo", r.RecNo)
	return b
}

// strFilter reads a StringSearchParam on key; its values may be as long
// as the catalog's column key (when key is a column).
func (v *converter) strFilter(cat *wayfarer.SearchCatalog, path, key string, p *contract.StringSearchParam) wayfarer.SearchFilter {
	col, _ := cat.Lookup(key)
	return v.strFilterSized(path, key, p, col.Size)
}

// strFilterSized is strFilter for a filter-only key, with its size.
func (v *converter) strFilterSized(path, key string, p *contract.StringSearchParam, size int) wayfarer.SearchFilter {
	return wayfarer.SearchFilter{Key: key, Path: path, Str: v.str(path, p, size), Size: size}
}

// numFilter reads a NumSearchParam on key.
func (v *converter) numFilter(path, key string, p *contract.NumSearchParam) wayfarer.SearchFilter {
	return wayfarer.SearchFilter{Key: key, Path: path, Num: v.num(path, p)}
}

// inFilter reads a short<short> (or int<int>) list on key.
func inFilter[T int16 | int32](path, key string, vs []T) wayfarer.SearchFilter {
	return wayfarer.SearchFilter{Key: key, Path: path, In: ints(vs)}
}

// dateFilter reads a range of days (a ...DateFrom and ...DateTo pair of
// DateSearchParams, both inclusive) on key.
func (v *converter) dateFilter(path, key, fromPath, toPath string, from, to *contract.DateSearchParam) wayfarer.SearchFilter {
	return wayfarer.SearchFilter{Key: key, Path: path, Date: wayfarer.DateRange{From: v.date(fromPath, from), To: v.date(toPath, to)}}
}

// timeFilter reads a range of instants (a ...DateTimeFrom and ...DateTimeTo
// pair of DateTimeUTCSearchParams, both inclusive on the wire) on key.
func (v *converter) timeFilter(path, key, fromPath, toPath string, from, to *contract.DateTimeUTCSearchParam) wayfarer.SearchFilter {
	return wayfarer.SearchFilter{Key: key, Path: path,
		Time: wayfarer.TimeRange{From: v.instant(fromPath, from, false), Before: v.instant(toPath, to, true)}}
}

// boolFilter reads a bool on key.
func boolFilter(path, key string, b *bool) wayfarer.SearchFilter {
	return wayfarer.SearchFilter{Key: key, Path: path, Bool: b}
}

// done returns the criteria, or the first broken rule.
func (v *converter) done(c *wayfarer.FlatCriteria) (*wayfarer.FlatCriteria, error) {
	if v.err != nil {
		return nil, v.err
	}
	return c, nil
}

// The parameters of the look-up searches as the contract spells them, for
// the OpenAPI document's test.
var (
	BranchSearchParamNames  = paramNames[branchSearchBody]()
	ProfileSearchParamNames = paramNames[profileSearchBody]()
	AppUserSearchParamNames = paramNames[appUserSearchBody]()
)
