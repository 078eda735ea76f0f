package http

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// personHandlers holds the person service; it is embedded in Server, so the
// wiring sets srv.Persons.
type personHandlers struct {
	Persons *wayfarer.PersonService
}

func (s *Server) personService() (*wayfarer.PersonService, error) {
	if s.Persons == nil {
		return nil, wayfarer.Errorf(wayfarer.KindInternal, contract.CodeInternal, wayfarer.MethodPerson, "the person service is not configured")
	}
	return s.Persons, nil
}

// handleLoadPerson is GET /person/{recNo}[?decrypt=true]: an array holding
// the person. A recNo that is not a number is as unknown as a missing one.
func (s *Server) handleLoadPerson(w http.ResponseWriter, r *http.Request) error {
	svc, err := s.personService()
	if err != nil {
		return err
	}
	decrypt, err := decryptParam(r)
	if err != nil {
		return err
	}
	// Not a number: recNo 0, which the service answers as not found once
	// it has checked the caller's permission, like any unknown recNo.
	recNo, _ := strconv.ParseInt(r.PathValue("recNo"), 10, 64)
	p, err := svc.Load(r.Context(), sessionOf(r), recNo, decrypt)
	if err != nil {
		return err
	}
	body, err := personShape(r).Encode(p)
	writeBody(w, http.StatusOK, body, err)
	return nil
}

// handleSavePerson is POST /person: create or update, answering the recNo.
func (s *Server) handleSavePerson(w http.ResponseWriter, r *http.Request) error {
	var recNo int64
	var created bool
	err := s.decodeSave(r, func(svc *wayfarer.PersonService, old, n *wayfarer.Person) (err error) {
		created = old == nil
		recNo, err = svc.Save(r.Context(), sessionOf(r), old, n)
		return err
	})
	if err != nil {
		return err
	}
	desc := "Person updated"
	if created {
		desc = "Person created"
	}
	writeJSON(w, http.StatusOK, wire.SaveResult{ResultCode: contract.CodeOK, ResultDescription: desc, RecNo: recNo})
	return nil
}

// decodeSave reads a save body (a person, [person] or an oldNewDataset) and
// hands its old and new sides to save.
func (s *Server) decodeSave(r *http.Request, save func(svc *wayfarer.PersonService, old, n *wayfarer.Person) error) error {
	svc, err := s.personService()
	if err != nil {
		return err
	}
	body, err := readBody(r)
	if err != nil {
		return err
	}
	shape := personShape(r)
	old, n, err := shape.DecodeSave(s.codec, body)
	if err != nil {
		return err
	}
	return shape.Reword(save(svc, old, n))
}

// handleSavePersonRefresh is POST /person/refresh: the same save, answering
// the person as GET /person/{recNo} shows it.
func (s *Server) handleSavePersonRefresh(w http.ResponseWriter, r *http.Request) error {
	var p *wayfarer.Person
	err := s.decodeSave(r, func(svc *wayfarer.PersonService, old, n *wayfarer.Person) (err error) {
		p, err = svc.SaveAndLoad(r.Context(), sessionOf(r), old, n)
		return err
	})
	if err != nil {
		return err
	}
	body, err := personShape(r).Encode(p)
	writeBody(w, http.StatusOK, body, err)
	return nil
}

// personShape is the person's JSON in the request's contract: the flat
// card array below /v1.8.1/, personCardLink elsewhere.
func personShape(r *http.Request) wire.PersonShape {
	if contractOf(r) == contract181 {
		return wire.Person181
	}
	return wire.Person182
}

// decryptParam reads ?decrypt= (name matched case-insensitively, like
// method names): true/false/1/0; absent is false.
func decryptParam(r *http.Request) (bool, error) {
	for k, vs := range r.URL.Query() {
		if !strings.EqualFold(k, "decrypt") || len(vs) == 0 {
			continue
		}
		if vs[0] == "" {
			return false, nil
		}
		v, err := strconv.ParseBool(vs[0])
		if err != nil {
			return false, wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeInvalidValue, wayfarer.MethodParam,
				"decrypt must be true or false")
		}
		return v, nil
	}
	return false, nil
}

// noStore keeps person data (and unmasked numbers) out of caches.
