package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// LoadTag loads a tag definition (GET /tag/{recNo}). A tag that does not
// exist or is another agency's (the server answers 204) is an error for
// which IsNotFound is true.
func (c *Client) LoadTag(ctx context.Context, recNo int64) (*contract.Tag, error) {
	var tags []*contract.Tag
	a, err := c.call(ctx, http.MethodGet, "/tag/"+strconv.FormatInt(recNo, 10), nil, &tags)
	if err != nil {
		return nil, err
	}
	if a.noContent() {
		return nil, fmt.Errorf("wayfarer tag %d: %w", recNo, ErrNotFound)
	}
	return oneOf("tag", tags)
}

// CreateTag creates a tag definition (POST /tag/refresh; the Tag Insert
// permission) and returns it as saved. t.Name and t.Requirement are required.
func (c *Client) CreateTag(ctx context.Context, t *contract.Tag) (*contract.Tag, error) {
	if t == nil || t.RecNo != nil {
		return nil, fmt.Errorf("wayfarer tag: a new tag has no recNo")
	}
	body, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	return c.saveTag(ctx, body)
}

// UpdateTag changes a tag definition the contract's way: it loads the tag,
// passes a copy to edit, and sends the loaded tag as oldData and the edited
// copy as newData (the Tag Update permission). A save refused because
// someone changed the tag meanwhile is an error for which IsConflict is
// true. If edit returns an error, nothing is sent.
func (c *Client) UpdateTag(ctx context.Context, recNo int64, edit func(t *contract.Tag) error) (*contract.Tag, error) {
	old, err := c.LoadTag(ctx, recNo)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(old)
	if err != nil {
		return nil, err
	}
	var n contract.Tag
	if err := json.Unmarshal(b, &n); err != nil {
		return nil, err
	}
	if err := edit(&n); err != nil {
		return nil, err
	}
	type dataset struct {
		OldData []*contract.Tag `json:"oldData"`
		NewData []*contract.Tag `json:"newData"`
	}
	body, err := json.Marshal(struct {
		OldNewDataset dataset `json:"oldNewDataset"`
	}{dataset{OldData: []*contract.Tag{old}, NewData: []*contract.Tag{&n}}})
	if err != nil {
		return nil, err
	}
	return c.saveTag(ctx, body)
}

func (c *Client) saveTag(ctx context.Context, body []byte) (*contract.Tag, error) {
	var tags []*contract.Tag
	if _, err := c.call(ctx, http.MethodPost, "/tag/refresh", body, &tags); err != nil {
		return nil, err
	}
	return oneOf("tag", tags)
}

// LoadAffiliation loads an affiliation with its marketing categories and
// elements (GET /affiliation/{recNo}). One that does not exist or is
// another agency's is an error for which IsNotFound is true.
func (c *Client) LoadAffiliation(ctx context.Context, recNo int64) (*contract.Affiliation, error) {
	var list []*contract.Affiliation
	a, err := c.call(ctx, http.MethodGet, "/affiliation/"+strconv.FormatInt(recNo, 10), nil, &list)
	if err != nil {
		return nil, err
	}
	if a.noContent() {
		return nil, fmt.Errorf("wayfarer affiliation %d: %w", recNo, ErrNotFound)
	}
	return oneOf("affiliation", list)
}

// oneOf is the one record of an answer that is an array of one.
func oneOf[T any](what string, list []*T) (*T, error) {
	if len(list) != 1 || list[0] == nil {
		return nil, fmt.Errorf("wayfarer %s: expected one %s in the answer, got %d", what, what, len(list))
	}
	return list[0], nil
}

// SearchTags runs POST /tagSearch (the Tag Select permission) and returns
// its rows, holding the columns of req.IncludeCols (without them recNo,
// name, description, activeStatus, requirement, areaFlags); read them with
// Row's methods, e.g. row.String("name"). A search matching nothing is no
// rows. req may be nil: every tag of the agency.
func (c *Client) SearchTags(ctx context.Context, req *contract.TagSearchRequest) ([]Row, error) {
	if req == nil {
		req = &contract.TagSearchRequest{}
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	rows := []Row{}
	if _, err := c.call(ctx, http.MethodPost, "/tagSearch", body, &rows); err != nil {
		return nil, err
	}
	return rows, nil
}
