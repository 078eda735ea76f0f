package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// LoadPerson loads a person (GET /person/{recNo}). Credit/debit card
// numbers are masked. From a server older than 1.8.2 the flat card array is
// read into the same CardLink values. A person that does not exist or is
// outside the caller's reach (the server answers 204) is an error for
// which IsNotFound is true (errors.Is(err, ErrNotFound)).
func (c *Client) LoadPerson(ctx context.Context, recNo int64) (*Person, error) {
	return c.loadPerson(ctx, recNo, false)
}

// LoadPersonDecrypted loads a person with clear credit/debit card numbers
// (the Decrypt permission; the server audits it). Such a person is for
// reading only: it is refused as the base of a save.
func (c *Client) LoadPersonDecrypted(ctx context.Context, recNo int64) (*Person, error) {
	return c.loadPerson(ctx, recNo, true)
}

func (c *Client) loadPerson(ctx context.Context, recNo int64, decrypt bool) (*Person, error) {
	v, err := c.Version(ctx)
	if err != nil {
		return nil, err
	}
	path := "/person/" + strconv.FormatInt(recNo, 10)
	if decrypt {
		path += "?decrypt=true"
	}
	var raw []json.RawMessage
	a, err := c.call(ctx, http.MethodGet, path, nil, &raw)
	if err != nil {
		return nil, err
	}
	if a.noContent() {
		return nil, fmt.Errorf("wayfarer person %d: %w", recNo, ErrNotFound)
	}
	p, err := onePerson(raw, !v.CardLinks())
	if err != nil {
		return nil, err
	}
	p.decrypted = decrypt
	return p, nil
}

// CreatePerson creates a person with its cards and other children (POST
// /person/refresh) and returns it as saved, with the identifiers the server
// assigned. p must be new: no recNo, only new cards.
func (c *Client) CreatePerson(ctx context.Context, p *Person) (*Person, error) {
	if err := c.requireCardLinks(ctx); err != nil {
		return nil, err
	}
	payload, err := prepareSave(nil, p)
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	return c.save(ctx, body)
}

// UpdatePerson changes a person the contract's way (§4.5): it loads the
// person, passes a deep copy to edit, and sends the loaded person as oldData
// and the edited copy as newData. It returns the person as saved; edit a
// card saved this way again only from that result or a new load.
//
// If edit returns an error, nothing is sent and the error is returned. A
// save refused because someone else changed the person meanwhile is an
// error for which IsConflict is true; calling UpdatePerson again reloads
// and applies edit afresh.
func (c *Client) UpdatePerson(ctx context.Context, recNo int64, edit func(p *Person) error) (*Person, error) {
	if err := c.requireCardLinks(ctx); err != nil {
		return nil, err
	}
	old, err := c.LoadPerson(ctx, recNo)
	if err != nil {
		return nil, err
	}
	n := old.Clone()
	if err := edit(n); err != nil {
		return nil, err
	}
	return c.SavePerson(ctx, old, n)
}

// SavePerson sends an update as an old/new dataset: old exactly as loaded,
// n the edited copy (see Person.Clone). UpdatePerson is the simpler way.
func (c *Client) SavePerson(ctx context.Context, old, n *Person) (*Person, error) {
	if old == nil {
		return c.CreatePerson(ctx, n)
	}
	if err := c.requireCardLinks(ctx); err != nil {
		return nil, err
	}
	payload, err := prepareSave(old, n)
	if err != nil {
		return nil, err
	}
	type dataset struct {
		OldData []*Person `json:"oldData"`
		NewData []*Person `json:"newData"`
	}
	body, err := json.Marshal(struct {
		OldNewDataset dataset `json:"oldNewDataset"`
	}{dataset{OldData: []*Person{old}, NewData: []*Person{payload}}})
	if err != nil {
		return nil, err
	}
	return c.save(ctx, body)
}

func (c *Client) save(ctx context.Context, body []byte) (*Person, error) {
	var raw []json.RawMessage
	if _, err := c.call(ctx, http.MethodPost, "/person/refresh", body, &raw); err != nil {
		return nil, err
	}
	return onePerson(raw, false)
}

func onePerson(raw []json.RawMessage, flat bool) (*Person, error) {
	if len(raw) != 1 {
		return nil, fmt.Errorf("wayfarer person: expected one person in the answer, got %d", len(raw))
	}
	if flat {
		return decodeFlatPerson(raw[0])
	}
	var p Person
	if err := json.Unmarshal(raw[0], &p); err != nil {
		return nil, fmt.Errorf("wayfarer person: reading the answer: %w", err)
	}
	return &p, nil
}

// decodeFlatPerson reads the shape of contracts before 1.8.2: cards in a
// flat "card" array, each with person_recNo and recNo (§9.3).
func decodeFlatPerson(raw []byte) (*Person, error) {
	var p Person
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("wayfarer person: reading the answer: %w", err)
	}
	var flat struct {
		Card []json.RawMessage `json:"card"`
	}
	if err := json.Unmarshal(raw, &flat); err != nil {
		return nil, fmt.Errorf("wayfarer person: reading the flat card array: %w", err)
	}
	p.Cards = make([]CardLink, 0, len(flat.Card))
	for i, rc := range flat.Card {
		var card Card
		var owner struct {
			PersonRecNo *int64 `json:"person_recNo"`
		}
		if err := json.Unmarshal(rc, &card); err != nil {
			return nil, fmt.Errorf("wayfarer person: reading card[%d]: %w", i, err)
		}
		if err := json.Unmarshal(rc, &owner); err != nil {
			return nil, fmt.Errorf("wayfarer person: reading card[%d]: %w", i, err)
		}
		if owner.PersonRecNo == nil {
			owner.PersonRecNo = p.recNo
		}
		l := CardLink{Card: card, personRecNo: owner.PersonRecNo}
		if card.recNo != nil {
			id := *card.recNo
			l.cardRecNo = &id
		}
		p.Cards = append(p.Cards, l)
	}
	return &p, nil
}
