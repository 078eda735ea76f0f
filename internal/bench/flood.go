package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/demo"
	whttp "github.com/wayfarerhq/wayfarer/internal/http"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// FloodConfig is a login-flood run: person loads at a steady rate, alone
// and then beside clients that log in back to back, in alternating phases
// of one run (issue 11 item 2).
type FloodConfig struct {
	App      app.Config    // the instance, with the production password parameters unless set
	Rate     int           // person loads a second, spread over the loaders (default 100)
	Loaders  int           // concurrent person-load clients (default 4)
	Flooders int           // clients logging in back to back (default 32)
	Phase    time.Duration // each phase (default 2s)
	Rounds   int           // quiet/flood phase pairs (default 15)
	Timeout  time.Duration // a flood login's client timeout (default 10s)
	Progress io.Writer
}

// FloodPhase is one phase's person loads and, in a flood phase, logins.
type FloodPhase struct {
	Flood      bool
	Loads      int
	LoadErrors int
	P50, P99   time.Duration  // person-load latency, from when each load was due
	Logins     map[string]int // by outcome: status, "timeout" or "error"
	LoginP99   time.Duration  // flood logins' latency
	LoginMax   time.Duration

	lat, loginLat []time.Duration
}

// FloodReport is a run's phases and where they ran.
type FloodReport struct {
	Engine, GoVersion string
	CPUs              int
	Params            string
	HashSlots         int
	HashWait          time.Duration
	HashWhere         string // "in the server process" or "in a worker process at nice N"
	Config            FloodConfig
	Phases            []FloodPhase
	// Quiet and Flood pool the phases of each kind.
	Quiet, Flood FloodPhase
	Started      time.Time
}

func (c *FloodConfig) defaults() {
	if c.Rate <= 0 {
		c.Rate = 100
	}
	if c.Loaders <= 0 {
		c.Loaders = 4
	}
	if c.Flooders <= 0 {
		c.Flooders = 32
	}
	// Short phases, many of them: a stall of a shared host lands in
	// either kind alike.
	if c.Phase <= 0 {
		c.Phase = 2 * time.Second
	}
	if c.Rounds <= 0 {
		c.Rounds = 15
	}
	if c.Timeout <= 0 {
		c.Timeout = 10 * time.Second
	}
	if c.Progress == nil {
		c.Progress = io.Discard
	}
}

// RunFlood measures person loads with and without a login flood.
func RunFlood(ctx context.Context, cfg FloodConfig) (*FloodReport, error) {
	cfg.defaults()
	cfg.App.Defaults()
	a, err := app.Open(ctx, cfg.App, slog.New(slog.DiscardHandler), wayfarer.SystemClock{})
	if err != nil {
		return nil, err
	}
	defer a.Close()
	fmt.Fprintf(cfg.Progress, "seeding the demo data (password hashes with %+v)\n", cfg.App.PasswordParams)
	if err := demo.Seed(ctx, a.Admin, a.DB); err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	if _, err := demo.SeedPersons(ctx, a.DB, a.Server.Persons.Sealer); err != nil {
		return nil, fmt.Errorf("seed persons: %w", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: a.Server, ReadHeaderTimeout: 10 * time.Second}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- whttp.Run(runCtx, srv, l, "", "", 5*time.Second) }()
	defer func() { stop(); <-done }()
	base := "http://" + l.Addr().String()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 256}, Timeout: time.Minute}

	tok, err := login(ctx, client, base, "admin")
	if err != nil {
		return nil, err
	}
	recNos, err := personRecNos(ctx, client, base, tok)
	if err != nil {
		return nil, err
	}
	rep := &FloodReport{Engine: a.DB.Dialect.Name, GoVersion: runtime.Version(), CPUs: runtime.NumCPU(),
		Params:    fmt.Sprintf("argon2id m=%d KiB, t=%d, p=%d", cfg.App.PasswordParams.MemoryKiB, cfg.App.PasswordParams.Iterations, cfg.App.PasswordParams.Parallelism),
		HashSlots: cfg.App.HashSlots, HashWait: cfg.App.HashWait, Config: cfg, Started: time.Now().UTC(),
		HashWhere: "in the server process"}
	if cfg.App.HashProcess {
		rep.HashWhere = fmt.Sprintf("in a worker process at nice %d", cfg.App.HashNice)
	}
	// Warm up: connections, statements, the session cache.
	if _, err := runPhase(ctx, cfg, client, base, tok, recNos, false, time.Second); err != nil {
		return nil, err
	}
	for round := range cfg.Rounds {
		for _, flood := range []bool{false, true} {
			ph, err := runPhase(ctx, cfg, client, base, tok, recNos, flood, cfg.Phase)
			if err != nil {
				return nil, err
			}
			rep.Phases = append(rep.Phases, ph)
			fmt.Fprintf(cfg.Progress, "round %d %-5s loads %5d p50 %8s p99 %8s  logins %v\n", round+1, map[bool]string{false: "quiet", true: "flood"}[flood],
				ph.Loads, ms(ph.P50), ms(ph.P99), ph.Logins)
		}
	}
	rep.Quiet, rep.Flood = rep.pool(false), rep.pool(true)
	return rep, nil
}

// personRecNos lists the DEMO persons the admin can load.
func personRecNos(ctx context.Context, client *http.Client, base, tok string) ([]int64, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", base+"/personSearch", strings.NewReader(`{"includeCols":["recNo"],"rowCount":1000}`))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var rows []struct{ RecNo int64 }
	if err := decodeJSON(resp.Body, &rows); err != nil || len(rows) == 0 {
		return nil, fmt.Errorf("person search for the load: %d rows, %v", len(rows), err)
	}
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = r.RecNo
	}
	return out, nil
}

// runPhase loads persons at cfg.Rate for d, with the flood beside them
// when flood is set. A load's latency counts from when it was due, so a
// stalled server is not hidden by loads that were never sent.
func runPhase(ctx context.Context, cfg FloodConfig, client *http.Client, base, tok string, recNos []int64, flood bool, d time.Duration) (FloodPhase, error) {
	ph := FloodPhase{Flood: flood, Logins: map[string]int{}}
	phaseCtx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var mu sync.Mutex
	var lat, loginLat []time.Duration
	var wg sync.WaitGroup
	if flood {
		for range cfg.Flooders {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for phaseCtx.Err() == nil {
					start := time.Now()
					outcome := floodLogin(ctx, client, base, cfg.Timeout)
					took := time.Since(start)
					mu.Lock()
					ph.Logins[outcome]++
					loginLat = append(loginLat, took)
					mu.Unlock()
				}
			}()
		}
	}
	interval := time.Duration(float64(time.Second) * float64(cfg.Loaders) / float64(cfg.Rate))
	start := time.Now()
	for w := range cfg.Loaders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rnd := rand.New(rand.NewPCG(uint64(w), uint64(start.UnixNano())))
			due := start.Add(interval * time.Duration(w) / time.Duration(cfg.Loaders))
			for {
				if wait := time.Until(due); wait > 0 {
					select {
					case <-phaseCtx.Done():
						return
					case <-time.After(wait):
					}
				}
				if phaseCtx.Err() != nil {
					return
				}
				err := getPerson(ctx, client, base, tok, recNos[rnd.IntN(len(recNos))])
				took := time.Since(due)
				mu.Lock()
				if err != nil {
					ph.LoadErrors++
				} else {
					lat = append(lat, took)
				}
				mu.Unlock()
				due = due.Add(interval)
			}
		}()
	}
	wg.Wait()
	ph.lat, ph.loginLat = lat, loginLat
	ph.summarize()
	if ph.LoadErrors > 0 {
		return ph, fmt.Errorf("%d person loads failed", ph.LoadErrors)
	}
	return ph, nil
}

func (ph *FloodPhase) summarize() {
	slices.Sort(ph.lat)
	slices.Sort(ph.loginLat)
	ph.Loads = len(ph.lat)
	if len(ph.lat) > 0 {
		ph.P50, ph.P99 = percentile(ph.lat, 50), percentile(ph.lat, 99)
	}
	if len(ph.loginLat) > 0 {
		ph.LoginP99, ph.LoginMax = percentile(ph.loginLat, 99), ph.loginLat[len(ph.loginLat)-1]
	}
}

// getPerson loads one person and reads the whole answer, which must be a 200.
func getPerson(ctx context.Context, client *http.Client, base, tok string, recNo int64) error {
	req, err := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("%s/person/%d", base, recNo), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	_, err = roundTrip(client, req)
	return err
}

// floodLogin is one login of the flood: the demo admin with the right
// password, Retry-After ignored (a flood does not wait). Its outcome is the
// status, or "timeout" / "error".
func floodLogin(ctx context.Context, client *http.Client, base string, timeout time.Duration) string {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", base+"/login", strings.NewReader(`{"alias":"DEMO","userName":"admin","password":"demo-admin"}`))
	if err != nil {
		return "error"
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if errors.Is(err, context.DeadlineExceeded) {
		return "timeout"
	} else if err != nil {
		return "error"
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return fmt.Sprint(resp.StatusCode)
}

// pool merges the phases of one kind.
func (r *FloodReport) pool(flood bool) FloodPhase {
	all := FloodPhase{Flood: flood, Logins: map[string]int{}}
	for _, ph := range r.Phases {
		if ph.Flood != flood {
			continue
		}
		all.lat = append(all.lat, ph.lat...)
		all.loginLat = append(all.loginLat, ph.loginLat...)
		all.LoadErrors += ph.LoadErrors
		for k, v := range ph.Logins {
			all.Logins[k] += v
		}
	}
	all.summarize()
	return all
}

// Ratio is the person-load p99 during the flood over the p99 without it,
// pooled over all phases of each kind.
func (r *FloodReport) Ratio() float64 {
	if r.Quiet.P99 <= 0 {
		return 0
	}
	return float64(r.Flood.P99) / float64(r.Quiet.P99)
}

// RoundRatios are each round's flood p99 over its quiet p99.
func (r *FloodReport) RoundRatios() []float64 {
	var out []float64
	for i := 0; i+1 < len(r.Phases); i += 2 {
		if q := r.Phases[i].P99; q > 0 {
			out = append(out, float64(r.Phases[i+1].P99)/float64(q))
		}
	}
	return out
}

// MedianRatio is the median of RoundRatios: a stall of the host in one
// phase moves it less than it moves the pooled Ratio.
func (r *FloodReport) MedianRatio() float64 {
	rs := slices.Clone(r.RoundRatios())
	if len(rs) == 0 {
		return 0
	}
	slices.Sort(rs)
	if len(rs)%2 == 1 {
		return rs[len(rs)/2]
	}
	return (rs[len(rs)/2-1] + rs[len(rs)/2]) / 2
}

// WriteMarkdown writes the run as BENCHMARKS.md's login-flood table.
func (r *FloodReport) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	c := r.Config
	fmt.Fprintf(&b, "Engine %s, %d CPUs, %s, %s %s; hashing slots %d, wait %s; person loads %d/s over %d clients; flood %d clients; %d rounds of %s quiet then %s flood; started %s.\n\n",
		r.Engine, r.CPUs, r.GoVersion, r.Params, r.HashWhere, r.HashSlots, r.HashWait, c.Rate, c.Loaders, c.Flooders, c.Rounds, c.Phase, c.Phase, r.Started.Format("2006-01-02 15:04 MST"))
	b.WriteString("| phase | person loads | load p50 | load p99 | logins 200 | logins 429 | other | timeouts | login p99 | slowest login |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	row := func(name string, ph FloodPhase) {
		other := 0
		for k, v := range ph.Logins {
			if k != "200" && k != "429" && k != "timeout" {
				other += v
			}
		}
		login := func(d time.Duration) string {
			if !ph.Flood {
				return "-"
			}
			return ms(d)
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %d | %d | %d | %d | %s | %s |\n", name, ph.Loads, ms(ph.P50), ms(ph.P99),
			ph.Logins["200"], ph.Logins["429"], other, ph.Logins["timeout"], login(ph.LoginP99), login(ph.LoginMax))
	}
	for i, ph := range r.Phases {
		row(fmt.Sprintf("round %d, %s", i/2+1, map[bool]string{false: "quiet", true: "flood"}[ph.Flood]), ph)
	}
	row("**all quiet**", r.Quiet)
	row("**all flood**", r.Flood)
	var per []string
	for _, x := range r.RoundRatios() {
		per = append(per, fmt.Sprintf("%.2f", x))
	}
	fmt.Fprintf(&b, "\nPerson-load p99 during the flood / without it: **%.2f** pooled, **%.2f** the median of the rounds (per round %s). p50: %s without, %s during.\n",
		r.Ratio(), r.MedianRatio(), strings.Join(per, ", "), ms(r.Quiet.P50), ms(r.Flood.P50))
	_, err := io.WriteString(w, b.String())
	return err
}
