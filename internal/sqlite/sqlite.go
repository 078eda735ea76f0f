// Package sqlite opens Wayfarer's embedded database: one SQLite file through
// modernc.org/sqlite, a pure-Go driver, so the binary needs no C toolchain.
package sqlite

import (
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"net/url"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Options adjust how the file is opened.
type Options struct {
	// Synchronous is when a commit waits for the disk: "full" (the
	// default: every commit is on disk before it is acknowledged, so it
	// survives a power cut) or "normal" (commits reach the disk at the
	// next checkpoint: a power cut or an operating system crash may lose
	// the last ones, a crash of Wayfarer alone loses nothing). See
	// docs/deployment.md.
	Synchronous string
	// MmapSize is how much of the file SQLite reads through a memory map
	// (PRAGMA mmap_size) rather than into each connection's own page
	// cache: 0 is DefaultMmapSize, a negative size none. docs/deployment.md,
	// "SQLite: memory".
	MmapSize int64
	// LockWait is how long a statement waits for another connection's
	// write lock before it fails (PRAGMA busy_timeout): 0 is
	// DefaultLockWait. The server sets it to its query time limit when that
	// is shorter, so that a statement run without a context's watcher
	// still ends within the limit (sqlstore.DB.SetLockWait).
	LockWait time.Duration
}

// DefaultLockWait is how long a statement waits for another connection's
// write lock unless Options say otherwise.
const DefaultLockWait = 10 * time.Second

// DefaultMmapSize maps the file up to SQLite's own largest map (2 GB in
// this build): every connection reads the same pages of the kernel's page
// cache, without a system call or a copy per page, where each of the 16
// connections otherwise copied what it read into its own 2 MB cache and
// read it again once evicted. docs/decisions.md, "SQLite reads the file
// through a memory map".
const DefaultMmapSize = 2147418112

// MmapBytes is the memory map Options.MmapSize asks for, in bytes: 0 is
// DefaultMmapSize, a negative size none.
func MmapBytes(size int64) int64 {
	switch {
	case size == 0:
		return DefaultMmapSize
	case size < 0:
		return 0
	}
	return size
}

// Synchronous modes (PRAGMA synchronous) Wayfarer accepts.
const (
	SynchronousFull   = "full"
	SynchronousNormal = "normal"
)

// Open opens (creating if needed) the SQLite file at path with the default
// options.
func Open(path string) (*sqlstore.DB, error) { return OpenWith(path, Options{}) }

// OpenWith opens (creating if needed) the SQLite file at path. WAL lets
// readers run beside the one writer; immediate transactions take the write
// lock at BEGIN, so two saves never deadlock upgrading from read to write.
// The pragmas are part of the connection string, so every connection the
// pool opens has them.
func OpenWith(path string, o Options) (*sqlstore.DB, error) {
	sync := strings.ToLower(o.Synchronous)
	switch sync {
	case "":
		sync = SynchronousFull
	case SynchronousFull, SynchronousNormal:
	default:
		return nil, fmt.Errorf("SQLite synchronous mode %q: must be %s or %s", o.Synchronous, SynchronousFull, SynchronousNormal)
	}
	mmap := MmapBytes(o.MmapSize)
	wait := o.LockWait
	if wait <= 0 {
		wait = DefaultLockWait
	}
	// Whole milliseconds, rounded up: a wait never ends before LockWait.
	waitMillis := strconv.FormatInt(int64((wait+time.Millisecond-1)/time.Millisecond), 10)
	q := url.Values{}
	for _, p := range []string{"journal_mode(WAL)", "busy_timeout(" + waitMillis + ")", "foreign_keys(ON)", "synchronous(" + strings.ToUpper(sync) + ")",
		"mmap_size(" + strconv.FormatInt(mmap, 10) + ")"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	q.Set("_time_format", "sqlite")
	db, err := sql.Open("sqlite", sqlstore.SQLiteFileURI(path)+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	// Keep connections idle rather than the default 2: under concurrent
	// requests they would be opened and closed constantly.
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(16)
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, err
	}
	store := sqlstore.New(db, sqlstore.SQLite, sub)
	store.SetLockWait(wait)
	return store, nil
}
