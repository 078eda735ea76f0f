package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

func decodeJSON(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }

// WriteMarkdown writes the report as the tables of BENCHMARKS.md: the
// transport floor, then per query and concurrency, direct and HTTP side by
// side with their difference and ratio (HTTP p50 over direct p50).
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Engine %s, %d persons in DEMO, %s, %d CPUs, %s per measurement, started %s.\n\n",
		r.Engine, r.Persons, r.GoVersion, r.CPUs, r.Duration, r.Started.Format("2006-01-02 15:04 MST"))
	if len(r.Settings) > 0 {
		var parts []string
		for _, s := range r.Settings {
			parts = append(parts, s.Name+" "+s.Value)
		}
		fmt.Fprintf(&b, "Engine settings: %s.\n\n", strings.Join(parts, ", "))
	}
	for _, f := range r.Floor {
		fmt.Fprintf(&b, "Transport floor at c=%d (GET /version over HTTP: no token, no database): p50 %s, p99 %s, %.0f req/s.\n",
			f.Concurrency, ms(f.P50), ms(f.P99), f.Throughput)
	}
	floorRate := map[int]float64{}
	if len(r.Floor) > 0 {
		for _, f := range r.Floor {
			floorRate[f.Concurrency] = f.Throughput
		}
		b.WriteString("\nHTTP ceiling: the rate HTTP would reach if the server added nothing to a request but the floor's own work, with the floor's and the query's work sharing the same cores (1 / (1/direct + 1/floor) at that concurrency); HTTP/ceiling is how near the server comes.\n\n")
	}
	b.WriteString("| query | c | rows | direct p50 | direct p99 | direct req/s | HTTP p50 | HTTP p99 | HTTP req/s | HTTP − direct p50 | ratio p50 | ratio req/s | HTTP ceiling req/s | HTTP/ceiling | peak RSS |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	type key struct {
		q string
		c int
	}
	byKey := map[key]map[string]Result{}
	var order []key
	for _, res := range r.Results {
		k := key{res.Query, res.Concurrency}
		if byKey[k] == nil {
			byKey[k] = map[string]Result{}
			order = append(order, k)
		}
		byKey[k][res.Mode] = res
	}
	for _, k := range order {
		d, h := byKey[k]["direct"], byKey[k]["http"]
		ratio, tput := "-", "-"
		if d.P50 > 0 {
			ratio = fmt.Sprintf("%.2f", float64(h.P50)/float64(d.P50))
		}
		if h.Throughput > 0 {
			tput = fmt.Sprintf("%.2f", d.Throughput/h.Throughput)
		}
		rss := "-"
		if p := max(d.PeakRSS, h.PeakRSS); p > 0 {
			rss = fmt.Sprintf("%d MB", p>>20)
			if a := max(d.PeakAnon, h.PeakAnon); a > 0 {
				rss += fmt.Sprintf(" (anon. %d MB)", a>>20)
			}
		}
		ceiling, near := "-", "-"
		if c := httpCeiling(d.Throughput, floorRate[k.c]); c > 0 {
			ceiling, near = fmt.Sprintf("%.0f", c), fmt.Sprintf("%.2f", h.Throughput/c)
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %s | %s | %.0f | %s | %s | %.0f | %s | %s | %s | %s | %s | %s |\n",
			k.q, k.c, h.Rows, ms(d.P50), ms(d.P99), d.Throughput, ms(h.P50), ms(h.P99), h.Throughput, ms(h.P50-d.P50), ratio, tput, ceiling, near, rss)
	}
	if w := r.Walk; w != nil {
		fmt.Fprintf(&b, "\nWalk through every person over HTTP by continuation, pages of %d: %d rows in %d pages, %s (%.0f rows/s).\n",
			w.PageSize, w.Rows, w.Pages, w.Took.Round(time.Millisecond), float64(w.Rows)/w.Took.Seconds())
	}
	if r.PeakRSS > 0 {
		fmt.Fprintf(&b, "\nPeak RSS of the benchmark process (server, driver and clients) while measuring: %d MB (the highest of the rows' own peaks; each row's peak is reset before it where Linux allows).\n", r.PeakRSS>>20)
		if r.PeakAnon > 0 {
			fmt.Fprintf(&b, "Of it anonymous memory (heap, stacks, the connections' own caches; sampled every 10 ms): at most %d MB. The rest is pages of mapped files: the program's own and, on SQLite, its memory map of the database (the kernel's page cache, shared and reclaimable; a page counts once per connection that mapped it).\n", r.PeakAnon>>20)
		}
	}
	b.WriteString("\nQueries (personSearch bodies):\n\n")
	for _, q := range r.QueryTexts {
		if q.Body == "" {
			fmt.Fprintf(&b, "- %s, as `%s`\n", q.Name, q.User)
			continue
		}
		fmt.Fprintf(&b, "- %s, as `%s`: `%s`\n", q.Name, q.User, q.Body)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// httpCeiling is the most requests a second HTTP can serve of a query
// answered direct at direct a second, when the floor (GET /version) runs
// at floor a second on the same cores: each request does the query's work
// and at least the floor's, and where both saturate the cores their costs
// add. 0 when either is unknown.
func httpCeiling(direct, floor float64) float64 {
	if direct <= 0 || floor <= 0 {
		return 0
	}
	return 1 / (1/direct + 1/floor)
}
