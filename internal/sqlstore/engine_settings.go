package sqlstore

import (
	"context"
	"fmt"
)

// The engine's version and the settings that move a measurement, for the
// header of `wayfarer bench` (BENCHMARKS.md): PostgreSQL's figures at a
// million persons depend on whether the tables fit its shared buffers
// (the default 128 MB holds neither the persons, 140 MB, nor their
// communications, 225 MB), SQLite's on its durability and cache.

// sqliteEngineSettings: the connection's own (mmap_size has no pragma
// function; the caller knows what it asked for).
const sqliteEngineSettings = `SELECT 'SQLite', sqlite_version()
UNION ALL SELECT 'journal_mode', journal_mode FROM pragma_journal_mode
UNION ALL SELECT 'synchronous', CASE synchronous WHEN 0 THEN 'off' WHEN 1 THEN 'normal' WHEN 2 THEN 'full' ELSE 'extra' END FROM pragma_synchronous
UNION ALL SELECT 'cache_size', cache_size FROM pragma_cache_size
UNION ALL SELECT 'database', (page_count * page_size / 1048576) || ' MiB' FROM pragma_page_count, pragma_page_size`

const pgEngineSettings = `SELECT 'PostgreSQL', current_setting('server_version')
UNION ALL SELECT 'shared_buffers', current_setting('shared_buffers')
UNION ALL SELECT 'effective_cache_size', current_setting('effective_cache_size')
UNION ALL SELECT 'work_mem', current_setting('work_mem')
UNION ALL SELECT 'synchronous_commit', current_setting('synchronous_commit')
UNION ALL SELECT 'database', (pg_database_size(current_database()) / 1048576) || ' MiB'`

// Setting is one of EngineSettings' answers.
type Setting struct{ Name, Value string }

// EngineSettings is the engine's version and the settings that move a
// measurement, in a fixed order.
func (db *DB) EngineSettings(ctx context.Context) ([]Setting, error) {
	rows, err := db.primary.QueryContext(ctx, db.Dialect.engineSettings)
	if err != nil {
		return nil, fmt.Errorf("engine settings: %w", err)
	}
	defer rows.Close()
	var out []Setting
	for rows.Next() {
		var s Setting
		if err := rows.Scan(&s.Name, &s.Value); err != nil {
			return nil, fmt.Errorf("engine settings: %w", err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("engine settings: %w", err)
	}
	return out, nil
}
