package wayfarer

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"
	"time"
)

// SearchTimeFormat is how DateTimeOffset columns are written.
const SearchTimeFormat = time.RFC3339Nano

// srFormatSearchValue renders a row value as text (CSV).
func srFormatSearchValue(v any) string {
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
	b, _ := json.Marshal(v)
	return string(b)
}

// WriteJSON writes the rows as a JSON array of objects holding the
// requested columns in request order; null values are left out.
// Rows are gathered in one buffer, written out whenever it passes 16 KiB:
// the writer (net/http's response) buffers on its own.
func (r *SearchResult) WriteJSON(w io.Writer) error {
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
			buf = srAppendJSONString(buf, r.Columns[j].Name)
			buf = append(buf, ':')
			switch x := v.(type) {
			case int64:
				buf = strconv.AppendInt(buf, x, 10)
			case string:
				buf = srAppendJSONString(buf, x)
			case bool:
				buf = strconv.AppendBool(buf, x)
			case time.Time:
				buf = append(buf, '"')
				buf = x.UTC().AppendFormat(buf, SearchTimeFormat)
				buf = append(buf, '"')
			default:
				b, err := json.Marshal(x)
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

// srAppendJSONString appends s as a JSON string, escaping as encoding/json
// does (including <, > and & for safety in HTML contexts).
func srAppendJSONString(buf []byte, s string) []byte {
	safe := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c >= 0x80 {
			safe = false
			break
		}
	}
	if safe {
		buf = append(buf, '"')
		buf = append(buf, s...)
		return append(buf, '"')
	}
	b, _ := json.Marshal(s)
	return append(buf, b...)
}

// WriteCSV writes the rows as CSV with a header row of column names; a
// null is an empty field. Text is neutralized for spreadsheets
// (NeutralizeSpreadsheetFormula: = + - @ in any width, a leading tab...).
func (r *SearchResult) WriteCSV(w io.Writer) error {
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
			rec[i] = srFormatSearchValue(v)
			if s, ok := v.(string); ok {
				rec[i] = NeutralizeSpreadsheetFormula(s)
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
