package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// lookupSearch runs one of the look-up searches (POST path with req as
// its body) and returns its rows; nothing found (204) is no rows. Rows
// hold only the asked columns (the search's defaults without includeCols):
// read them with Row's accessors, naming columns as Column("name").
func (c *Client) lookupSearch(ctx context.Context, path string, req any) ([]Row, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	rows := []Row{}
	if _, err := c.call(ctx, http.MethodPost, path, body, &rows); err != nil {
		return nil, err
	}
	return rows, nil
}

// recordNotFound is a load the server answered 204 for a record other than
// a person: errors.Is(err, ErrNotFound) and IsNotFound hold, and the text
// names the record.
type recordNotFound struct {
	what  string
	recNo int64
}

func (e *recordNotFound) Error() string {
	return fmt.Sprintf("wayfarer %s %d: no such %s within your reach", e.what, e.recNo, e.what)
}

func (e *recordNotFound) Is(target error) bool { return target == ErrNotFound }
