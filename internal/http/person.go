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

// saveBodyLimit is the body limit of person saves: --body-limit plus room
// for the files one person may hold, in base64 (4 bytes for every 3).
func (s *Server) saveBodyLimit() int64 {
	if s.Persons == nil {
		return 0
	}
	l := s.Persons.Attachments.WithDefaults()
	return s.Config.BodyLimit + (l.MaxPersonBytes+2)/3*4
}

func (s *Server) personService() (*wayfarer.PersonService, error) {
	if s.Persons == nil {
		return nil, wayfarer.Errorf(wayfarer.KindInternal, contract.CodeInternal, wayfarer.MethodPerson, "the person service is not configured")
	}
	return s.Persons, nil
}

// handleLoadPerson is GET /person/{recNo}[?decrypt=true]: an array holding
// the person, with its version as a strong ETag. A person out of reach
// (missing, another agency's, outside the caller's scope, a recNo that is
// not a number) is 204 with no body, one answer for all: as the reference.
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
	if isNotFound(err) {
		noContent(w)
		return nil
	}
	if err != nil {
		return err
	}
	writePerson(w, r, p)
	return nil
}

// writePerson answers a person (an array of one) with its ETag.
func writePerson(w http.ResponseWriter, r *http.Request, p *wayfarer.Person) {
	body, err := personShape(r).Encode(p)
	if err == nil {
		w.Header().Set("ETag", `"`+p.VersionTag()+`"`)
	}
	writeBody(w, http.StatusOK, body, err)
}

func isNotFound(err error) bool {
	e := wayfarer.AsError(err)
	return e != nil && e.Kind == wayfarer.KindNotFound
}

// handleSavePerson is POST /person: create or update, answering the recNo.
func (s *Server) handleSavePerson(w http.ResponseWriter, r *http.Request) error {
	var recNo int64
	var created bool
	err := s.decodeSave(r, func(svc *wayfarer.PersonService, old, n *wayfarer.Person) (err error) {
		created = old == nil
		recNo, err = svc.SaveIf(r.Context(), sessionOf(r), old, n, ifMatch(r))
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
// the person as GET /person/{recNo} shows it, with its new ETag.
func (s *Server) handleSavePersonRefresh(w http.ResponseWriter, r *http.Request) error {
	var p *wayfarer.Person
	err := s.decodeSave(r, func(svc *wayfarer.PersonService, old, n *wayfarer.Person) (err error) {
		p, err = svc.SaveAndLoadIf(r.Context(), sessionOf(r), old, n, ifMatch(r))
		return err
	})
	if err != nil {
		return err
	}
	writePerson(w, r, p)
	return nil
}

// ifMatch reads If-Match (RFC 9110 §13.1.1) as a save's precondition: nil
// when absent or "*"; otherwise the strong entity tags it lists. A weak
// tag (W/"...") never matches, as If-Match compares strongly, and neither
// does an element that is not an entity tag: with only such, the
// precondition matches nothing.
func ifMatch(r *http.Request) *wayfarer.Precondition {
	values := r.Header.Values("If-Match")
	if len(values) == 0 {
		return nil
	}
	pre := &wayfarer.Precondition{VersionTags: []string{}}
	for _, v := range values {
		for _, el := range splitEntityTags(v) {
			switch {
			case el == "*":
				return nil
			case len(el) >= 2 && el[0] == '"' && el[len(el)-1] == '"':
				pre.VersionTags = append(pre.VersionTags, el[1:len(el)-1])
			}
		}
	}
	return pre
}

// splitEntityTags splits a list of entity tags at the commas outside quotes.
func splitEntityTags(v string) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i <= len(v); i++ {
		if i < len(v) && v[i] == '"' {
			quoted = !quoted
		}
		if i == len(v) || v[i] == ',' && !quoted {
			if el := strings.TrimSpace(v[start:i]); el != "" {
				out = append(out, el)
			}
			start = i + 1
		}
	}
	return out
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
