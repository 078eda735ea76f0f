package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"maps"
	"math/bits"
	"strings"
	"time"
)

// BulkPerson is a person with its children as the bulk loader writes them:
// straight into the tables, bypassing the person service (no diff, no card
// rules), for demo volumes and test fixtures. Identifiers are assigned by
// InsertBulkPersons (or BulkLoad) and written back into the structs.
type BulkPerson struct {
	RecNo                                                        int64
	FirstName, MiddleName, LastName, UniqueID, BirthdayNote, Rem *string
	BirthdayDay, BirthdayMonth, BirthdayYear                     *int64
	BranchID, AdvisorID                                          *int64
	ActiveStatus                                                 int64
	Created, Modified                                            time.Time

	Comms       []BulkComm
	Cards       []BulkCard
	Tags        []BulkTag
	ActionItems []BulkActionItem
	Profiles    []int64 // client profiles the person is associated with
	Marketing   []BulkMarketing
	Activities  []BulkActivity // activities about the person (activityPersonLink)
}

// BulkActivity is an activity linked to the person it is written with.
type BulkActivity struct {
	RecNo                      int64
	Type, Priority             int64
	AppUserID                  *int64
	Subject, Remarks           *string
	TargetDate                 *string // "2006-01-02"
	TargetDateTime, Completion *time.Time
	Private                    bool
	Created                    time.Time
}

// BulkComm is a communication of a person.
type BulkComm struct {
	RecNo                                        int64
	Type                                         int64
	Value, CountryDomain, CityArea, UserSpecific *string
	IsPrimary, PermitMarketing                   bool
}

// BulkCard is a card of a person. Number is stored as given: the masked
// form for a credit/debit card, whose digits go in Cipher (sealed by the
// vault) or nowhere.
type BulkCard struct {
	RecNo                   int64
	Type                    int64
	SubType                 *int64
	Number                  string
	Cipher                  []byte
	KeyID, Token            *string
	Expiration              *string // "2006-01-02"
	Description, NameOnCard *string
}

// BulkTag is a tag (by its definition's recNo) with a value on a person.
type BulkTag struct {
	RecNo int64 // of the person_tag row
	TagID int64
	Value *string
}

// BulkActionItem is an action item of a person.
type BulkActionItem struct {
	RecNo            int64
	Description      *string
	TriggerIndex     *int64
	TriggerFixedDate *string // "2006-01-02"
	Date             *string // "2006-01-02"
	AppUserID        *int64
	Completed        *time.Time
}

// BulkMarketing marks a person for a marketing element; AffiliationID 0 is
// none.
type BulkMarketing struct {
	ElementID, AffiliationID int64
}

// batch collects rows of one table and writes them as multi-row INSERTs.
type batch struct {
	table string
	cols  []string
	rows  [][]any
}

// maxParams keeps a statement under SQLite's 32766 bound parameters (and
// PostgreSQL's 65535).
const maxParams = 30000

// maxRowsPerStmt caps a multi-row INSERT: the statements of a load stay
// prepared for all its batches, and one of 30,000 parameters held several
// MB of SQLite's memory per table and shape for no measurable gain.
const maxRowsPerStmt = 256

func (b *batch) add(vals ...any) { b.rows = append(b.rows, vals) }

// bulkStmts are the prepared INSERTs of a load. With db set they are
// prepared once on the handle and bound to each batch's transaction
// (Tx.StmtContext reuses the statement on the same connection): SQLite
// parsed a 30,000-parameter INSERT per table and batch otherwise, an
// eighth of the load's CPU. Without db, they live in one transaction.
//
// ids are the next free rec_no of each table, read by the load's first
// batch and carried to the next ones: MAX(rec_no) is not an index probe on
// PostgreSQL, whose keys are (agency_id, rec_no), and read at each batch it
// scanned every table the load grew (3,500 persons/s at 1M, falling).
type bulkStmts struct {
	db  *sql.DB
	m   map[string]*sql.Stmt
	ids map[string]int64 // nil: read in the next batch's transaction
}

func (s *bulkStmts) get(ctx context.Context, tx *sql.Tx, key, q string) (*sql.Stmt, error) {
	st := s.m[key]
	if st == nil {
		var err error
		if s.db != nil {
			st, err = s.db.PrepareContext(ctx, q)
		} else {
			st, err = tx.PrepareContext(ctx, q)
		}
		if err != nil {
			return nil, err
		}
		s.m[key] = st
	}
	if s.db != nil {
		return tx.StmtContext(ctx, st), nil
	}
	return st, nil
}

func (s *bulkStmts) close() {
	for _, st := range s.m {
		st.Close()
	}
}

func (b *batch) flush(ctx context.Context, tx *sql.Tx, d Dialect, stmts *bulkStmts, rowsPerStmt int) error {
	per := min(maxParams/len(b.cols), maxRowsPerStmt)
	if rowsPerStmt > 0 {
		per = rowsPerStmt
	}
	for len(b.rows) > 0 {
		// Full statements, then the rest in powers of two: a few statement
		// shapes per table, each prepared once.
		n := per
		if len(b.rows) < per {
			n = 1 << (bits.Len(uint(len(b.rows))) - 1)
		}
		key := fmt.Sprintf("%s/%d", b.table, n)
		row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(b.cols)), ", ") + ")"
		st, err := stmts.get(ctx, tx, key, d.Rebind("INSERT INTO "+b.table+" ("+strings.Join(b.cols, ", ")+") VALUES "+
			strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")))
		if err != nil {
			return fmt.Errorf("bulk %s: %w", b.table, err)
		}
		args := make([]any, 0, n*len(b.cols))
		for _, r := range b.rows[:n] {
			args = append(args, r...)
		}
		if _, err := st.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("bulk %s: %w", b.table, err)
		}
		b.rows = b.rows[n:]
	}
	b.rows = b.rows[:0]
	return nil
}

// bulkTables are the tables whose rec_no the loader assigns itself.
var bulkTables = []string{"person", "communication", "card", "person_tag", "person_action_item", "activity"}

// nextIDs reads the next free rec_no of each table the loader fills.
func nextIDs(ctx context.Context, tx *sql.Tx) (map[string]int64, error) {
	ids := map[string]int64{}
	for _, t := range bulkTables {
		var m sql.NullInt64
		if err := tx.QueryRowContext(ctx, "SELECT MAX(rec_no) FROM "+t).Scan(&m); err != nil {
			return nil, err
		}
		ids[t] = m.Int64 + 1
	}
	return ids, nil
}

// InsertBulkPersons writes the persons of one agency and their children in
// one transaction, assigning identifiers after the highest in use (so run it
// alone: a concurrent insert could take the same numbers).
func (db *DB) InsertBulkPersons(ctx context.Context, agencyID int64, persons []BulkPerson) error {
	return insertBulk(ctx, db.primary, db.Dialect, nil, agencyID, persons, 0)
}

// InsertPlainPersons writes persons as InsertBulkPersons does, in one
// transaction, but each row with its own single-row prepared INSERT: the
// plainest write into the same schema, with its indexes and triggers
// maintained row by row. It is the baseline the bulk load is measured
// against (BenchmarkBulkLoad, BENCHMARKS.md "Bulk load").
func (db *DB) InsertPlainPersons(ctx context.Context, agencyID int64, persons []BulkPerson) error {
	return insertBulk(ctx, db.primary, db.Dialect, nil, agencyID, persons, 1)
}

// BulkLoad runs fn with an insert that writes a batch of the agency's
// persons as InsertBulkPersons does, each batch committing on its own. All
// batches go through one connection, tuned for the load (see
// Dialect.bulkBegin). With DeferIndexes (a load large against the tables)
// the secondary indexes of the tables it fills are dropped first and built
// once at the end, also when fn fails or ctx is cancelled; a killed load
// leaves them to the next open of the database (bulk_defer.go). When fn
// succeeds, fresh statistics let the planner pick the search indexes well.
func (db *DB) BulkLoad(ctx context.Context, agencyID int64, opt BulkOptions, fn func(insert func([]BulkPerson) error) error) (err error) {
	conn, err := db.primary.Conn(ctx)
	if err != nil {
		return err
	}
	// The connection is closed after the load, not given back to the
	// pool with the load's settings.
	defer conn.Raw(func(any) error { return driver.ErrBadConn })
	if db.Dialect.bulkBegin != "" {
		if _, err := conn.ExecContext(ctx, db.Dialect.bulkBegin); err != nil {
			return err
		}
	}
	if opt.DeferIndexes {
		if err := deferIndexes(ctx, conn, db.Dialect); err != nil {
			return err
		}
	}
	// Whatever an earlier, killed load left dropped is built here too.
	defer func() {
		start := time.Now()
		if db.Dialect.bulkBuild != "" {
			_, _ = conn.ExecContext(context.WithoutCancel(ctx), db.Dialect.bulkBuild) // a tuning: the build works without it
		}
		// A cancelled load's connection may still hold its last
		// transaction: database/sql rolls it back on a goroutine of its
		// own, which on SQLite could land inside a restore's transaction
		// on the same connection (an index built, its bulk_deferred row
		// kept: every later open failed on "already exists"). So after a
		// cancellation the build runs on fresh connections, in place.
		var on execQuerier = conn
		side := db.primary
		if ctx.Err() != nil {
			on, side = db.primary, nil
		}
		n, rerr := restoreDeferred(context.WithoutCancel(ctx), on, db.Dialect, side, opt.Log)
		if rerr != nil {
			// pgx closes a connection whose query was cancelled: build
			// on a fresh one.
			var m int
			m, rerr = restoreDeferred(context.WithoutCancel(ctx), db.primary, db.Dialect, nil, nil)
			n += m
		}
		if rerr != nil {
			err = errors.Join(err, rerr)
		}
		if n > 0 && opt.Log != nil {
			opt.Log("built %d indexes and keys in %s", n, time.Since(start).Round(100*time.Millisecond))
		}
		if err == nil {
			start = time.Now()
			if _, aerr := conn.ExecContext(ctx, db.Dialect.bulkAnalyze); aerr != nil {
				err = fmt.Errorf("analyze: %w", aerr)
			}
			if opt.Log != nil {
				opt.Log("statistics in %s", time.Since(start).Round(100*time.Millisecond))
			}
		}
	}()
	stmts := &bulkStmts{db: db.primary, m: map[string]*sql.Stmt{}}
	defer stmts.close()
	return fn(func(persons []BulkPerson) error {
		return insertBulk(ctx, conn, db.Dialect, stmts, agencyID, persons, 0)
	})
}

// BulkOptions adjust a BulkLoad.
type BulkOptions struct {
	// DeferIndexes builds the secondary indexes after the rows
	// (bulk_defer.go): for a load large against the tables.
	DeferIndexes bool
	// Log, when set, hears about the phases after the rows.
	Log func(format string, args ...any)
}

// txBeginner is a *sql.DB or a *sql.Conn.
type txBeginner interface {
	BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error)
}

// insertBulk writes persons in one transaction; rowsPerStmt > 0 caps the
// rows of each INSERT (and turns COPY off), 0 packs as many as fit.
// stmts nil: statements of this transaction only.
func insertBulk(ctx context.Context, on txBeginner, d Dialect, stmts *bulkStmts, agencyID int64, persons []BulkPerson, rowsPerStmt int) error {
	tx, err := on.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if stmts == nil {
		stmts = &bulkStmts{m: map[string]*sql.Stmt{}}
		defer stmts.close()
	}
	var copyConn *sql.Conn // COPY needs the connection itself
	if c, ok := on.(*sql.Conn); ok && d.copyFrom != nil && rowsPerStmt == 0 {
		copyConn = c
	}
	ids := map[string]int64{}
	if stmts.ids == nil {
		if ids, err = nextIDs(ctx, tx); err != nil {
			return err
		}
	} else {
		maps.Copy(ids, stmts.ids)
	}
	if err := insertBulkTx(ctx, tx, copyConn, d, stmts, ids, agencyID, persons, rowsPerStmt); err != nil {
		return err
	}
	// Move the engine's identity sequences past the numbers chosen above.
	for _, t := range bulkTables {
		if q := d.syncIdentity(t); q != "" {
			if _, err := tx.ExecContext(ctx, d.Rebind(q), ids[t]); err != nil {
				return fmt.Errorf("bulk: sequence of %s: %w", t, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if stmts.db != nil { // a load: the next batch goes on from here
		stmts.ids = ids
	}
	return nil
}

func insertBulkTx(ctx context.Context, tx *sql.Tx, copyConn *sql.Conn, d Dialect, stmts *bulkStmts, ids map[string]int64, agencyID int64, persons []BulkPerson, rowsPerStmt int) error {
	next := func(t string) int64 { id := ids[t]; ids[t]++; return id }
	bp := &batch{table: "person", cols: []string{"rec_no", "agency_id", "first_name", "middle_name", "last_name", "birthday_day",
		"birthday_month", "birthday_year", "birthday_note", "unique_id", "branch_id", "advisor_profile_id", "remarks",
		"active_status", "create_date_time", "last_modified_date_time"}}
	bc := &batch{table: "communication", cols: []string{"rec_no", "agency_id", "person_id", "type", "value", "country_domain",
		"city_area", "user_specific", "is_primary", "permit_marketing"}}
	bcard := &batch{table: "card", cols: []string{"rec_no", "agency_id", "type", "sub_type", "card_number", "number_cipher",
		"number_key_id", "card_number_token", "expiration_date", "description", "name_on_card"}}
	blink := &batch{table: "person_card_link", cols: []string{"agency_id", "person_id", "card_id"}}
	btag := &batch{table: "person_tag", cols: []string{"rec_no", "agency_id", "person_id", "tag_id", "value"}}
	bai := &batch{table: "person_action_item", cols: []string{"rec_no", "agency_id", "person_id", "description", "trigger_index",
		"trigger_fixed_date", "action_date", "app_user_id", "completed"}}
	bprof := &batch{table: "profile_person", cols: []string{"agency_id", "profile_id", "person_id"}}
	bmkt := &batch{table: "person_marketing", cols: []string{"agency_id", "person_id", "marketing_element_id", "affiliation_id"}}
	bact := &batch{table: "activity", cols: []string{"rec_no", "agency_id", "app_user_id", "type", "priority", "subject", "remarks",
		"target_date", "target_date_time", "completion_date_time", "private", "create_date_time", "last_modified_date_time", "person_id"}}
	// Parents before children, for the foreign keys.
	batches := []*batch{bp, bc, bcard, blink, btag, bai, bprof, bmkt, bact}
	flush := func() error {
		for _, b := range batches {
			if copyConn != nil {
				if err := b.flushCopy(ctx, copyConn, d); err != nil {
					return err
				}
				continue
			}
			if err := b.flush(ctx, tx, d, stmts, rowsPerStmt); err != nil {
				return err
			}
		}
		return nil
	}
	for i := range persons {
		p := &persons[i]
		p.RecNo = next("person")
		bp.add(p.RecNo, agencyID, p.FirstName, p.MiddleName, p.LastName, p.BirthdayDay, p.BirthdayMonth, p.BirthdayYear,
			p.BirthdayNote, p.UniqueID, p.BranchID, p.AdvisorID, p.Rem, p.ActiveStatus, ts(p.Created), ts(p.Modified))
		for j := range p.Comms {
			c := &p.Comms[j]
			c.RecNo = next("communication")
			bc.add(c.RecNo, agencyID, p.RecNo, c.Type, c.Value, c.CountryDomain, c.CityArea, c.UserSpecific, c.IsPrimary, c.PermitMarketing)
		}
		for j := range p.Cards {
			c := &p.Cards[j]
			c.RecNo = next("card")
			bcard.add(c.RecNo, agencyID, c.Type, c.SubType, c.Number, c.Cipher, c.KeyID, c.Token, c.Expiration, c.Description, c.NameOnCard)
			blink.add(agencyID, p.RecNo, c.RecNo)
		}
		for j := range p.Tags {
			t := &p.Tags[j]
			t.RecNo = next("person_tag")
			btag.add(t.RecNo, agencyID, p.RecNo, t.TagID, t.Value)
		}
		for j := range p.ActionItems {
			a := &p.ActionItems[j]
			a.RecNo = next("person_action_item")
			bai.add(a.RecNo, agencyID, p.RecNo, a.Description, a.TriggerIndex, a.TriggerFixedDate, a.Date, a.AppUserID, optTime(a.Completed))
		}
		for _, pr := range p.Profiles {
			bprof.add(agencyID, pr, p.RecNo)
		}
		for _, m := range p.Marketing {
			bmkt.add(agencyID, p.RecNo, m.ElementID, m.AffiliationID)
		}
		for j := range p.Activities {
			a := &p.Activities[j]
			a.RecNo = next("activity")
			bact.add(a.RecNo, agencyID, a.AppUserID, a.Type, a.Priority, a.Subject, a.Remarks, a.TargetDate,
				optTime(a.TargetDateTime), optTime(a.Completion), a.Private, ts(a.Created), ts(a.Created), p.RecNo)
		}
		if len(bp.rows) >= 2000 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// optTime is a nullable timestamp argument.
func optTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return ts(*t)
}
