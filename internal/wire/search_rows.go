package wire

import (
	"encoding/csv"
	"io"
	"strconv"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Search rows are written by hand, without reflection per row: a search
// answer can hold 100,000 rows.

// SearchTimeFormat is how DateTimeOffset columns are written in CSV; JSON
// rows write dates and times as every JSON answer does
// (jsoncodec.DateLayout, jsoncodec.TimestampLayout).
const SearchTimeFormat = time.RFC3339Nano

// WriteSearchJSON writes the rows as a JSON array of objects holding the
// requested columns in request order; null values are left out. Rows are
// gathered in one buffer, written out whenever it passes 16 KiB: the writer
// (net/http's response) buffers on its own.
func WriteSearchJSON(w io.Writer, r *wayfarer.SearchResult) error {
	buf := make([]byte, 0, min(64*len(r.Rows)+2, 20<<10))
	buf = append(buf, '[')
	for i, row := range r.Rows {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '{')
		first := true
		for j, v := range row {
			if v == nil {
				continue
			}
			if !first {
				buf = append(buf, ',')
			}
			first = false
			buf = jsoncodec.AppendString(buf, r.Columns[j].Name)
			buf = append(buf, ':')
			switch x := v.(type) {
			case int64:
				buf = strconv.AppendInt(buf, x, 10)
			case string:
				if r.Columns[j].Type == wayfarer.ColDate && len(x) == len("2006-01-02") {
					// A Date column's value is its day; the answer holds its midnight.
					buf = append(append(append(buf, '"'), x...), "T00:00:00\""...)
					break
				}
				buf = jsoncodec.AppendString(buf, x)
			case bool:
				buf = strconv.AppendBool(buf, x)
			case time.Time:
				buf = append(buf, '"')
				buf = jsoncodec.AppendTimestamp(buf, x)
				buf = append(buf, '"')
			default:
				b, err := jsoncodec.Marshal(x)
				if err != nil {
					return err
				}
				buf = append(buf, b...)
			}
		}
		buf = append(buf, '}')
		if len(buf) > 16<<10 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	buf = append(buf, ']')
	_, err := w.Write(buf)
	return err
}

// WriteSearchCSV writes the rows as CSV with a header row of column names;
// a null is an empty field. Text is neutralized for spreadsheets
// (wayfarer.NeutralizeSpreadsheetFormula: = + - @ in any width, a leading
// tab...), so a spreadsheet shows it instead of running it as a formula
// (OWASP "CSV injection").
func WriteSearchCSV(w io.Writer, r *wayfarer.SearchResult) error {
	cw := csv.NewWriter(w)
	rec := make([]string, len(r.Columns))
	for i, c := range r.Columns {
		rec[i] = c.Name
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	for _, row := range r.Rows {
		for i, v := range row {
			rec[i] = csvValue(v)
			if s, ok := v.(string); ok {
				rec[i] = wayfarer.NeutralizeSpreadsheetFormula(s)
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvValue renders a row value as text.
func csvValue(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case int64:
		return strconv.FormatInt(x, 10)
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case time.Time:
		return x.UTC().Format(SearchTimeFormat)
	}
	b, _ := jsoncodec.Marshal(v)
	return string(b)
}
