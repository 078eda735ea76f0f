package sqlstore

import (
	"context"
	"database/sql"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Affiliations, their marketing categories and elements
// (wayfarer.AffiliationStore), and what the admin commands write.

// LoadAffiliation returns an affiliation of the agency with its categories
// (by name) and their elements (by sortNo, then name).
func (db *DB) LoadAffiliation(ctx context.Context, agencyID, recNo int64) (a *wayfarer.Affiliation, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	err = db.read(ctx, db.primary, func(q personQuerier) error {
		var name string
		if err := q.QueryRowContext(ctx, db.q(`SELECT name FROM affiliation WHERE agency_id = ? AND rec_no = ?`),
			agencyID, recNo).Scan(&name); err != nil {
			return notFound(err)
		}
		a = &wayfarer.Affiliation{RecNo: wayfarer.Some(recNo), Name: wayfarer.Some(name), Categories: []wayfarer.MarketingCategory{}}
		index := map[int64]int{}
		err := queryEach(ctx, q, db.q(`SELECT rec_no, name, code FROM marketing_category
			WHERE agency_id = ? AND affiliation_id = ? ORDER BY rec_no`), []any{agencyID, recNo}, func(rows *sql.Rows) error {
			var id int64
			var name string
			var code sql.NullString
			if err := rows.Scan(&id, &name, &code); err != nil {
				return err
			}
			index[id] = len(a.Categories)
			a.Categories = append(a.Categories, wayfarer.MarketingCategory{
				AffiliationRecNo: wayfarer.Some(recNo), RecNo: wayfarer.Some(id), Name: wayfarer.Some(name),
				ID: absentIfNull(code), Elements: []wayfarer.MarketingElement{},
			})
			return nil
		})
		if err != nil {
			return err
		}
		return queryEach(ctx, q, db.q(`SELECT e.rec_no, e.category_id, e.name, e.code, e.sort_no FROM marketing_element e
			JOIN marketing_category mc ON mc.agency_id = e.agency_id AND mc.rec_no = e.category_id
			WHERE e.agency_id = ? AND mc.affiliation_id = ?
			ORDER BY e.category_id, COALESCE(e.sort_no, 0), e.rec_no`), []any{agencyID, recNo}, func(rows *sql.Rows) error {
			var id, cat int64
			var name, code string
			var sortNo sql.NullInt64
			if err := rows.Scan(&id, &cat, &name, &code, &sortNo); err != nil {
				return err
			}
			c := &a.Categories[index[cat]]
			e := wayfarer.MarketingElement{RecNo: wayfarer.Some(id), CategoryRecNo: wayfarer.Some(cat),
				Name: wayfarer.Some(name), ID: wayfarer.Some(code)}
			if sortNo.Valid {
				e.SortNo = wayfarer.Some(int(sortNo.Int64))
			}
			c.Elements = append(c.Elements, e)
			return nil
		})
	})
	return a, err
}

// absentIfNull leaves a null text out of the answer, as the devportal's
// example leaves out a category's id.
func absentIfNull(s sql.NullString) wayfarer.Opt[string] {
	if !s.Valid {
		return wayfarer.Opt[string]{}
	}
	return wayfarer.Some(s.String)
}

// CreateAffiliation adds an affiliation to the agency, or returns the one
// of that name.
func (db *DB) CreateAffiliation(ctx context.Context, agencyID int64, name string) (int64, error) {
	return db.EnsureAffiliation(ctx, agencyID, name)
}

// NewMarketingElement is a marketing element the admin command adds.
type NewMarketingElement struct {
	AffiliationID int64
	Category      string // the category's name: created when the affiliation has none of that name
	CategoryID    string // the category's id (code), when the category is new; may be empty
	Code          string // the element's id, e.g. 12575
	Name          string
	SortNo        *int
}

// CreateMarketingElement adds an element under an affiliation's category
// (creating the category) and returns the element's and the category's
// recNo. An element of that id already in the category is returned as is.
func (db *DB) CreateMarketingElement(ctx context.Context, agencyID int64, e NewMarketingElement) (elementID, categoryID int64, err error) {
	err = db.Tx(ctx, func(tx *sql.Tx) error {
		var one int
		if err := tx.QueryRowContext(ctx, db.q(`SELECT 1 FROM affiliation WHERE agency_id = ? AND rec_no = ?`),
			agencyID, e.AffiliationID).Scan(&one); err != nil {
			return notFound(err)
		}
		err := tx.QueryRowContext(ctx, db.q(`SELECT rec_no FROM marketing_category WHERE agency_id = ? AND affiliation_id = ? AND name = ?`),
			agencyID, e.AffiliationID, e.Category).Scan(&categoryID)
		if err == sql.ErrNoRows {
			var code any
			if e.CategoryID != "" {
				code = e.CategoryID
			}
			err = tx.QueryRowContext(ctx, db.q(`INSERT INTO marketing_category (agency_id, affiliation_id, name, code)
				VALUES (?, ?, ?, ?) RETURNING rec_no`), agencyID, e.AffiliationID, e.Category, code).Scan(&categoryID)
		}
		if err != nil {
			return err
		}
		err = tx.QueryRowContext(ctx, db.q(`SELECT rec_no FROM marketing_element WHERE agency_id = ? AND category_id = ? AND code = ?`),
			agencyID, categoryID, e.Code).Scan(&elementID)
		if err != sql.ErrNoRows {
			return err
		}
		var sortNo any
		if e.SortNo != nil {
			sortNo = *e.SortNo
		}
		return tx.QueryRowContext(ctx, db.q(`INSERT INTO marketing_element (agency_id, category_id, code, name, sort_no)
			VALUES (?, ?, ?, ?, ?) RETURNING rec_no`), agencyID, categoryID, e.Code, e.Name, sortNo).Scan(&elementID)
	})
	return elementID, categoryID, err
}

// AffiliationSummary is an affiliation as the admin command lists it.
type AffiliationSummary struct {
	RecNo    int64
	Name     string
	Elements int
}

// ListAffiliations lists the agency's affiliations by name, with their
// number of marketing elements.
func (db *DB) ListAffiliations(ctx context.Context, agencyID int64) ([]AffiliationSummary, error) {
	var out []AffiliationSummary
	err := queryEach(ctx, db.primary, db.q(`SELECT a.rec_no, a.name,
		(SELECT COUNT(*) FROM marketing_element e JOIN marketing_category mc ON mc.agency_id = e.agency_id AND mc.rec_no = e.category_id
		 WHERE mc.agency_id = a.agency_id AND mc.affiliation_id = a.rec_no)
		FROM affiliation a WHERE a.agency_id = ? ORDER BY a.name, a.rec_no`), []any{agencyID}, func(rows *sql.Rows) error {
		var s AffiliationSummary
		if err := rows.Scan(&s.RecNo, &s.Name, &s.Elements); err != nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	return out, err
}

// MarketingElementSummary is a marketing element as the admin command
// lists it; Affiliation and Category are empty for the agency's own
// elements outside any affiliation.
type MarketingElementSummary struct {
	RecNo       int64
	Code, Name  string
	Affiliation string
	Category    string
}

// ListMarketingElements lists the agency's marketing elements, those of one
// affiliation when affiliationID is not 0.
func (db *DB) ListMarketingElements(ctx context.Context, agencyID, affiliationID int64) ([]MarketingElementSummary, error) {
	query := `SELECT e.rec_no, e.code, e.name, COALESCE(a.name, ''), COALESCE(mc.name, '') FROM marketing_element e
		LEFT JOIN marketing_category mc ON mc.agency_id = e.agency_id AND mc.rec_no = e.category_id
		LEFT JOIN affiliation a ON a.agency_id = mc.agency_id AND a.rec_no = mc.affiliation_id
		WHERE e.agency_id = ?`
	args := []any{agencyID}
	if affiliationID != 0 {
		query, args = query+` AND mc.affiliation_id = ?`, append(args, affiliationID)
	}
	var out []MarketingElementSummary
	err := queryEach(ctx, db.primary, db.q(query+` ORDER BY COALESCE(a.name, ''), COALESCE(mc.name, ''), COALESCE(e.sort_no, 0), e.rec_no`), args,
		func(rows *sql.Rows) error {
			var s MarketingElementSummary
			if err := rows.Scan(&s.RecNo, &s.Code, &s.Name, &s.Affiliation, &s.Category); err != nil {
				return err
			}
			out = append(out, s)
			return nil
		})
	return out, err
}
