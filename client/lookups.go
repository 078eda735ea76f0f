package client

import (
	"context"
	"encoding/json"
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
