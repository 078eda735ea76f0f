package wayfarer

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

type fakeSealer struct{}

func (fakeSealer) Seal(agencyID int64, digits string) (string, []byte, error) {
	b := []byte(digits)
	slices.Reverse(b)
	return "k1", append([]byte{byte(agencyID)}, b...), nil
}

func (fakeSealer) Open(agencyID int64, keyID string, c []byte) (string, error) {
	b := slices.Clone(c[1:])
	slices.Reverse(b)
	return string(b), nil
}

type fakeStore struct {
	persons map[int64]*Person
	sealed  map[int64]*SealedNumber
	writes  []*PersonWrite
	audits  []CardDecryptAudit
	rowAsks []RowExpect // UpdatePersonRow's calls
	rowTake bool        // UpdatePersonRow writes (records the write)
}

func newFakeStore(t *testing.T) *fakeStore {
	p := loaded(t)
	k, c, _ := fakeSealer{}.Seal(1, testVisa)
	return &fakeStore{persons: map[int64]*Person{10: p}, sealed: map[int64]*SealedNumber{200: {k, c}}}
}

func (s *fakeStore) get(scope Scope, recNo int64) (*Person, error) {
	p, ok := s.persons[recNo]
	if !ok || scope.AgencyID != 1 || !scope.Allows(p.BranchRecNo.Ptr(), p.AdvisorProfileRecNo.Ptr()) {
		return nil, ErrNotFound
	}
	c := clonePerson(p)
	for _, l := range c.PersonCardLink {
		l.Card.Sealed = s.sealed[l.CardRecNo.Value]
	}
	return c, nil
}

func (s *fakeStore) LoadPerson(ctx context.Context, scope Scope, recNo int64) (*Person, error) {
	return s.get(scope, recNo)
}

func (s *fakeStore) CreatePerson(ctx context.Context, scope Scope, w *PersonWrite) (int64, error) {
	s.writes = append(s.writes, w)
	return 77, nil
}

func (s *fakeStore) UpdatePerson(ctx context.Context, scope Scope, recNo int64, children bool, fn func(*Person) (*PersonWrite, error)) error {
	cur, err := s.get(scope, recNo)
	if err != nil {
		return err
	}
	if !children { // as the real stores: the child lists empty
		row := *cur
		row.PersonCommunicationLink, row.PersonCardLink = []CommunicationLink{}, []CardLink{}
		row.PersonMarketing, row.PersonAttachmentLink = []PersonMarketing{}, []AttachmentLink{}
		row.PersonTag, row.PersonActionItemLink = []PersonTag{}, []ActionItemLink{}
		cur = &row
	}
	w, err := fn(cur)
	if err != nil {
		return err
	}
	if !children && !w.Changes.PersonOnly() {
		return errors.New("fake store: child rows written without reading them")
	}
	s.writes = append(s.writes, w)
	return nil
}

// UpdatePersonRow records what it was asked; it writes only when rowTake
// says so, and otherwise the save runs the whole way.
func (s *fakeStore) UpdatePersonRow(ctx context.Context, scope Scope, recNo int64, expect RowExpect, w *PersonWrite) (bool, error) {
	s.rowAsks = append(s.rowAsks, expect)
	if s.rowTake {
		s.writes = append(s.writes, w)
	}
	return s.rowTake, nil
}

func (s *fakeStore) RecordCardDecrypts(ctx context.Context, a CardDecryptAudit) error {
	s.audits = append(s.audits, a)
	return nil
}

func (s *fakeStore) LoadAttachmentFile(ctx context.Context, scope Scope, recNo, attachmentRecNo int64) (*AttachmentFile, error) {
	p, err := s.get(scope, recNo)
	if err != nil {
		return nil, err
	}
	for _, l := range p.PersonAttachmentLink {
		if a := l.Attachment; a != nil && a.RecNo.Value == attachmentRecNo && a.FileData.Valid {
			return &AttachmentFile{Name: a.FileNameLinkURL.Value, Data: a.FileData.Value.Bytes()}, nil
		}
	}
	return nil, ErrNotFound
}

type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time { return c.t }

func session(perm Permission) *Session {
	main := int64(1)
	var perms Permissions
	perms[AreaPerson] = perm
	return &Session{AgencyID: 1, UserID: 9, Perms: perms, BranchID: &main, AdvisorIDs: []int64{2}}
}

const (
	everything = PermAll
	agentPerms = PermSelect | PermRead | PermInsert | PermUpdate // OnlySelf + OnlyBranch
)

func newService(t *testing.T) (*PersonService, *fakeStore) {
	st := newFakeStore(t)
	return &PersonService{Store: st, Sealer: fakeSealer{}, Clock: fixedClock{mustTime("2024-06-15T12:00:00Z")}}, st
}

func TestServiceLoadPermissions(t *testing.T) {
	svc, st := newService(t)
	ctx := context.Background()
	_, err := svc.Load(ctx, session(PermSelect), 10, false)
	wantCode(t, err, KindForbidden, contract.CodePermissionDenied, "read")
	_, err = svc.Load(ctx, session(PermRead|PermAllUsers|PermAllBranches), 10, true)
	wantCode(t, err, KindForbidden, contract.CodePermissionDenied, "decrypt")

	// Missing, other agency, out of scope: one answer.
	var msgs []string
	other := session(everything)
	other.AgencyID = 2
	outOfScope := session(agentPerms)
	outOfScope.AdvisorIDs = []int64{3}
	for _, c := range []struct {
		sess  *Session
		recNo int64
	}{{session(everything), 11}, {other, 10}, {outOfScope, 10}, {session(everything), 0}, {session(everything), -1}} {
		_, err := svc.Load(ctx, c.sess, c.recNo, false)
		wantCode(t, err, KindNotFound, contract.CodeRecordNotFound, "Person not found")
		msgs = append(msgs, dumpJSON(AsError(err)))
	}
	for _, m := range msgs[1:] {
		if m != msgs[0] {
			t.Fatalf("not-found answers differ: %v", msgs)
		}
	}
	if len(st.audits) != 0 {
		t.Fatal("audit without decrypt")
	}
}

func TestServiceLoadAndDecrypt(t *testing.T) {
	svc, st := newService(t)
	ctx := context.Background()
	p, err := svc.Load(ctx, session(agentPerms), 10, false)
	if err != nil {
		t.Fatal(err)
	}
	if p.PersonCardLink[0].Card.CardNumber.Value != "VI 41-XXXX-1111" || p.PersonCardLink[1].Card.CardNumber.Value != "AA12345" {
		t.Fatalf("masked load: %+v", p.PersonCardLink[0].Card)
	}
	if !p.Age.Present || p.Age.Valid {
		t.Fatalf("age without birthday must be null: %+v", p.Age)
	}
	if b := dumpJSON(p); strings.Contains(b, testVisa) || strings.Contains(b, "k1") {
		t.Fatalf("load leaks: %s", b)
	}

	p, err = svc.Load(ctx, session(agentPerms|PermDecrypt), 10, true)
	if err != nil {
		t.Fatal(err)
	}
	if p.PersonCardLink[0].Card.CardNumber.Value != testVisa || p.PersonCardLink[1].Card.CardNumber.Value != "AA12345" {
		t.Fatalf("decrypted load: %+v", p.PersonCardLink[0].Card)
	}
	if len(st.audits) != 1 || !slices.Equal(st.audits[0].CardIDs, []int64{200}) || st.audits[0].UserID != 9 || st.audits[0].PersonID != 10 {
		t.Fatalf("audit %+v", st.audits)
	}
}

func writtenJSON(t *testing.T, w *PersonWrite) string { return dumpJSON(w.Changes) }

func TestServiceCreate(t *testing.T) {
	svc, st := newService(t)
	ctx := context.Background()
	body := `{"firstName":"Sue","lastName":"Abler","activeStatus":1,
		"personCardLink":[{"card":{"type":1,"cardNumber":"4111 1111 1111 1111","nameOnCard":"SUE"}}]}`

	_, err := svc.Create(ctx, session(PermRead), mustPerson(t, body))
	wantCode(t, err, KindForbidden, contract.CodePermissionDenied, "insert")

	// The agent's branch and advisor are filled in.
	p := mustPerson(t, body)
	recNo, err := svc.Create(ctx, session(agentPerms), p)
	if err != nil || recNo != 77 {
		t.Fatal(recNo, err)
	}
	w := st.writes[0]
	if w.Changes.New.BranchRecNo.Value != 1 || w.Changes.New.AdvisorProfileRecNo.Value != 2 || w.UserID != 9 {
		t.Fatalf("defaults: %+v", w.Changes.New)
	}
	c := w.Changes.Cards[0]
	if c.New.CardNumber.Value != "VI 41-XXXX-1111" || !strings.HasPrefix(c.New.CardNumberToken.Value, "tok_") || c.New.Sealed == nil ||
		c.Digits != "" || !hasField(c.Fields, "cardNumberToken") || !hasField(c.Fields, "cardNumber") {
		t.Fatalf("sealed card: %+v %+v", c, c.New)
	}
	if strings.Contains(writtenJSON(t, w), "4111 1111") || p.PersonCardLink[0].Card.CardNumber.Value != "4111 1111 1111 1111" {
		t.Fatal("clear number in the write, or the caller's record was changed")
	}

	// Outside scope: another branch, another advisor, or explicitly none.
	for _, extra := range []string{`"branch_recNo":5`, `"advisorProfile_recNo":3`, `"branch_recNo":null`} {
		_, err := svc.Create(ctx, session(agentPerms), mustPerson(t, `{"activeStatus":1,`+extra+`}`))
		wantCode(t, err, KindForbidden, contract.CodePermissionDenied, "outside your branch")
	}
	// A user with AllUsers+AllBranches creates anywhere.
	if _, err := svc.Create(ctx, session(everything), mustPerson(t, `{"activeStatus":1,"branch_recNo":5}`)); err != nil {
		t.Fatal(err)
	}
	// Validation runs first.
	_, err = svc.Create(ctx, session(everything), mustPerson(t, `{"activeStatus":1,"remarks":"card 4111111111111111"}`))
	wantCode(t, err, KindInvalid, contract.CodeCardRule, "field remarks")
}

func TestServiceUpdate(t *testing.T) {
	ctx := context.Background()
	t.Run("permission", func(t *testing.T) {
		svc, _ := newService(t)
		_, err := svc.Update(ctx, session(PermRead|PermInsert|PermAllUsers|PermAllBranches), loaded(t), loaded(t))
		wantCode(t, err, KindForbidden, contract.CodePermissionDenied, "update")
	})
	t.Run("not found and out of scope", func(t *testing.T) {
		svc, _ := newService(t)
		o := loaded(t)
		o.RecNo = Some[int64](11)
		_, err := svc.Update(ctx, session(everything), o, mustPerson(t, `{"firstName":"X"}`))
		wantCode(t, err, KindNotFound, contract.CodeRecordNotFound, "Person not found")
		s := session(agentPerms)
		s.BranchID = nil
		_, err = svc.Update(ctx, s, loaded(t), mustPerson(t, `{"firstName":"X"}`))
		wantCode(t, err, KindNotFound, contract.CodeRecordNotFound, "Person not found")
	})
	t.Run("moving out of scope", func(t *testing.T) {
		svc, st := newService(t)
		n := loaded(t)
		n.BranchRecNo = Some[int64](2)
		_, err := svc.Update(ctx, session(agentPerms), loaded(t), n)
		wantCode(t, err, KindForbidden, contract.CodePermissionDenied, "outside your branch")
		n = loaded(t)
		n.AdvisorProfileRecNo = Null[int64]()
		_, err = svc.Update(ctx, session(agentPerms), loaded(t), n)
		wantCode(t, err, KindForbidden, contract.CodePermissionDenied, "outside your branch")
		if len(st.writes) != 0 {
			t.Fatal("written")
		}
		if _, err := svc.Update(ctx, session(everything), loaded(t), n); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("stale", func(t *testing.T) {
		svc, st := newService(t)
		st.persons[10].FirstName = Some("Kenny")
		n := loaded(t)
		n.FirstName = Some("Kenneth")
		_, err := svc.Update(ctx, session(everything), loaded(t), n)
		wantCode(t, err, KindConflict, contract.CodeConcurrencyConflict, "reload")
	})
	t.Run("masked number kept, other field edited", func(t *testing.T) {
		svc, st := newService(t)
		n := loaded(t)
		n.PersonCardLink[0].Card.ExpirationDate = Some(Date{2030, 1, 31})
		if _, err := svc.Update(ctx, session(everything), loaded(t), n); err != nil {
			t.Fatal(err)
		}
		c := st.writes[0].Changes.Cards[0]
		if c.Op != OpUpdate || !slices.Equal(c.Fields, []string{"expirationDate"}) || c.New.Sealed != nil {
			t.Fatalf("%+v", c)
		}
	})
	t.Run("changed number sealed with a new token", func(t *testing.T) {
		svc, st := newService(t)
		n := loaded(t)
		n.PersonCardLink[0].Card.CardNumber = Some(testMastercard)
		if _, err := svc.Update(ctx, session(everything), loaded(t), n); err != nil {
			t.Fatal(err)
		}
		c := st.writes[0].Changes.Cards[0]
		if c.New.CardNumber.Value != "CA 55-XXXX-4444" || c.New.CardNumberToken.Value == "tok_aaaa" || c.New.Sealed == nil ||
			!slices.Equal(c.Fields, []string{"cardNumber", "cardNumberToken"}) {
			t.Fatalf("%+v %+v", c, c.New)
		}
		if n.PersonCardLink[0].Card.CardNumber.Value != testMastercard {
			t.Fatal("caller's record changed")
		}
	})
	t.Run("old side loaded with decrypt", func(t *testing.T) {
		svc, st := newService(t)
		o := loaded(t)
		o.PersonCardLink[0].Card.CardNumber = Some(testVisa)
		n := loaded(t)
		n.PersonCardLink[0].Card.CardNumber = Some(testVisa)
		n.PersonCardLink[0].Card.NameOnCard = Some("K ABLER")
		if _, err := svc.Update(ctx, session(everything), o, n); err != nil {
			t.Fatal(err)
		}
		c := st.writes[0].Changes.Cards[0]
		if !slices.Equal(c.Fields, []string{"nameOnCard"}) {
			t.Fatalf("%+v", c)
		}
		// A clear old number that is not the stored one is stale.
		o.PersonCardLink[0].Card.CardNumber = Some(testVisa2)
		n.PersonCardLink[0].Card.CardNumber = Some(testVisa2)
		_, err := svc.Update(ctx, session(everything), o, n)
		wantCode(t, err, KindConflict, contract.CodeConcurrencyConflict, "")
	})
	t.Run("type omitted from old side", func(t *testing.T) {
		svc, st := newService(t)
		o := loaded(t)
		o.PersonCardLink[0].Card.Type = Opt[int]{}
		n := loaded(t)
		n.PersonCardLink[0].Card.Type = Opt[int]{}
		n.PersonCardLink[0].Card.CardNumber = Some(testAmex)
		if _, err := svc.Update(ctx, session(everything), o, n); err != nil {
			t.Fatal(err)
		}
		if c := st.writes[0].Changes.Cards[0]; c.New.Sealed == nil || c.New.CardNumber.Value != "AX 37-XXXX-0005" {
			t.Fatalf("%+v", c.New)
		}
	})
	t.Run("refresh needs read before writing", func(t *testing.T) {
		svc, st := newService(t)
		_, err := svc.SaveAndLoad(ctx, session(PermInsert|PermAllUsers|PermAllBranches), nil, mustPerson(t, `{"activeStatus":1}`))
		wantCode(t, err, KindForbidden, contract.CodePermissionDenied, "read")
		if len(st.writes) != 0 {
			t.Fatal("written")
		}
	})
}

// actionWrite returns the one action item change of the last write.
func actionWrite(t *testing.T, st *fakeStore) RowChange[PersonActionItem] {
	t.Helper()
	if len(st.writes) == 0 {
		t.Fatal("nothing written")
	}
	w := st.writes[len(st.writes)-1]
	if len(w.Changes.ActionItems) != 1 {
		t.Fatalf("action item changes: %s", writtenJSON(t, w))
	}
	return w.Changes.ActionItems[0]
}

// TestServiceCompletedBy: completedBy_appUserRecNo is the saving user's when
// a save marks an action item completed, cleared with completed, and never
// taken from the client.
// TestServiceAsksForRowSave: the conditional write is asked for exactly the
// saves of the person's own fields (not a child row, branch or advisor),
// with the fields the stale check compares and the If-Match versions of
// this person; when it writes nothing the save runs the whole way.
func TestServiceAsksForRowSave(t *testing.T) {
	ctx := context.Background()
	svc, st := newService(t)
	n := loaded(t)
	n.Remarks = Some("window seat")
	if _, err := svc.Update(ctx, session(everything), loaded(t), n); err != nil {
		t.Fatal(err)
	}
	if len(st.rowAsks) != 1 || !slices.Equal(st.rowAsks[0].Fields, []string{"remarks"}) || st.rowAsks[0].Versions != nil || len(st.writes) != 1 {
		t.Fatalf("asks %+v, writes %d (the whole way after a refusal)", st.rowAsks, len(st.writes))
	}
	st.rowAsks, st.writes, st.rowTake = nil, nil, true
	pre := &Precondition{VersionTags: []string{"11-4", "10-x", "10-07", "10-3"}}
	if _, err := svc.SaveIf(ctx, session(everything), loaded(t), n, pre); err != nil {
		t.Fatal(err)
	}
	if len(st.rowAsks) != 1 || !slices.Equal(st.rowAsks[0].Versions, []int64{3}) || len(st.writes) != 1 {
		t.Fatalf("asks %+v, writes %d", st.rowAsks, len(st.writes))
	}
	for name, edit := range map[string]func(p *Person){
		"a communication": func(p *Person) { p.PersonCommunicationLink[0].Communication.Value = Some("+1 555 0199") },
		"the branch":      func(p *Person) { p.BranchRecNo = Null[int64]() },
		"the advisor":     func(p *Person) { p.AdvisorProfileRecNo = Null[int64]() },
		"nothing":         func(p *Person) {},
	} {
		st.rowAsks = nil
		n := loaded(t)
		edit(n)
		if _, err := svc.Update(ctx, session(everything), loaded(t), n); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(st.rowAsks) != 0 {
			t.Errorf("%s: the conditional write was asked", name)
		}
	}
}

func TestServiceCompletedBy(t *testing.T) {
	ctx := context.Background()
	done := Some(TimestampOf(mustTime("2024-06-15T10:00:00Z")))
	later := Some(TimestampOf(mustTime("2024-06-16T10:00:00Z")))
	const me, other, bogus = 9, 7, 55 // session(...).UserID is 9

	t.Run("create", func(t *testing.T) {
		svc, st := newService(t)
		p := mustPerson(t, `{"activeStatus":1,"personActionItemLink":[
			{"personActionItem":{"description":"done","completed":"2024-06-15T10:00:00Z","completedBy_appUserRecNo":55}},
			{"personActionItem":{"description":"open","completed":null,"completedBy_appUserRecNo":55}},
			{"personActionItem":{"description":"open too","completedBy_appUserRecNo":55}}]}`)
		if _, err := svc.Create(ctx, session(everything), p); err != nil {
			t.Fatal(err)
		}
		items := st.writes[0].Changes.ActionItems
		if len(items) != 3 {
			t.Fatalf("%+v", items)
		}
		if a := items[0]; !a.New.CompletedByAppUserRecNo.Equal(Some[int64](me)) || !hasField(a.Fields, completedByField) {
			t.Fatalf("completed on create: %v %v", a.New.CompletedByAppUserRecNo, a.Fields)
		}
		for _, a := range items[1:] {
			if a.New.CompletedByAppUserRecNo.Present || hasField(a.Fields, completedByField) {
				t.Fatalf("open item: %v %v", a.New.CompletedByAppUserRecNo, a.Fields)
			}
		}
		if p.PersonActionItemLink[0].PersonActionItem.CompletedByAppUserRecNo.Value != bogus {
			t.Fatal("caller's record changed")
		}
	})

	t.Run("marked completed", func(t *testing.T) {
		// As loaded, completed and completedBy null; a client sending its
		// own completedBy (here another user) is ignored.
		for _, oldSide := range []string{"null", "absent"} {
			svc, st := newService(t)
			o := loaded(t)
			if oldSide == "null" {
				o.PersonActionItemLink[0].PersonActionItem.Completed = Null[Timestamp]()
				o.PersonActionItemLink[0].PersonActionItem.CompletedByAppUserRecNo = Null[int64]()
			}
			n := loaded(t)
			n.PersonActionItemLink[0].PersonActionItem.Completed = done
			n.PersonActionItemLink[0].PersonActionItem.CompletedByAppUserRecNo = Some[int64](bogus)
			if _, err := svc.Update(ctx, session(everything), o, n); err != nil {
				t.Fatal(oldSide, err)
			}
			a := actionWrite(t, st)
			if a.Op != OpUpdate || !slices.Equal(a.Fields, []string{"completed", completedByField}) ||
				!a.New.CompletedByAppUserRecNo.Equal(Some[int64](me)) {
				t.Fatalf("%s: %+v %+v", oldSide, a, a.New)
			}
		}
	})

	t.Run("client completedBy alone is ignored", func(t *testing.T) {
		svc, st := newService(t)
		st.persons[10].PersonActionItemLink[0].PersonActionItem.Completed = done
		st.persons[10].PersonActionItemLink[0].PersonActionItem.CompletedByAppUserRecNo = Some[int64](other)
		o := loaded(t)
		o.PersonActionItemLink[0].PersonActionItem.Completed = done
		o.PersonActionItemLink[0].PersonActionItem.CompletedByAppUserRecNo = Some[int64](bogus) // not what is stored: no 409
		n := clonePersonT(t, o)
		n.PersonActionItemLink[0].PersonActionItem.CompletedByAppUserRecNo = Some[int64](me)
		if _, err := svc.Update(ctx, session(everything), o, n); err != nil {
			t.Fatal(err)
		}
		if ch := st.writes[0].Changes; !ch.Empty() {
			t.Fatalf("written: %s", writtenJSON(t, st.writes[0]))
		}
		// Deleting the item with a wrong completedBy on the old side is no conflict either.
		n.PersonActionItemLink = []ActionItemLink{}
		if _, err := svc.Update(ctx, session(everything), o, n); err != nil {
			t.Fatal(err)
		}
		if a := actionWrite(t, st); a.Op != OpDelete {
			t.Fatalf("%+v", a)
		}
	})

	t.Run("cleared, re-dated, untouched", func(t *testing.T) {
		stored := func(st *fakeStore) {
			st.persons[10].PersonActionItemLink[0].PersonActionItem.Completed = done
			st.persons[10].PersonActionItemLink[0].PersonActionItem.CompletedByAppUserRecNo = Some[int64](other)
		}
		oldSide := func() *Person {
			o := loaded(t)
			o.PersonActionItemLink[0].PersonActionItem.Completed = done
			o.PersonActionItemLink[0].PersonActionItem.CompletedByAppUserRecNo = Some[int64](other)
			return o
		}

		// Cleared: completedBy cleared with it, whatever the client says.
		svc, st := newService(t)
		stored(st)
		n := oldSide()
		n.PersonActionItemLink[0].PersonActionItem.Completed = Null[Timestamp]()
		if _, err := svc.Update(ctx, session(everything), oldSide(), n); err != nil {
			t.Fatal(err)
		}
		a := actionWrite(t, st)
		if !slices.Equal(a.Fields, []string{"completed", completedByField}) || !a.New.CompletedByAppUserRecNo.Equal(Null[int64]()) {
			t.Fatalf("cleared: %+v %+v", a, a.New)
		}

		// Re-dated: already completed, the recorded user stays (not written),
		// also when the old side does not say completed.
		for _, o := range []*Person{oldSide(), loaded(t)} {
			svc, st = newService(t)
			stored(st)
			n = oldSide()
			n.PersonActionItemLink[0].PersonActionItem.Completed = later
			n.PersonActionItemLink[0].PersonActionItem.CompletedByAppUserRecNo = Some[int64](bogus)
			if _, err := svc.Update(ctx, session(everything), o, n); err != nil {
				t.Fatal(err)
			}
			if a := actionWrite(t, st); !slices.Equal(a.Fields, []string{"completed"}) {
				t.Fatalf("re-dated: %+v", a)
			}
		}

		// Another field edited: completedBy is not written.
		svc, st = newService(t)
		stored(st)
		n = oldSide()
		n.PersonActionItemLink[0].PersonActionItem.Notes = Some("called back")
		if _, err := svc.Update(ctx, session(everything), oldSide(), n); err != nil {
			t.Fatal(err)
		}
		if a := actionWrite(t, st); !slices.Equal(a.Fields, []string{"notes"}) {
			t.Fatalf("notes: %+v", a)
		}
	})

	t.Run("stale completed", func(t *testing.T) {
		// Someone else completed the item since the load: marking it
		// completed again from the old load is a conflict, not a re-stamp.
		svc, st := newService(t)
		st.persons[10].PersonActionItemLink[0].PersonActionItem.Completed = done
		st.persons[10].PersonActionItemLink[0].PersonActionItem.CompletedByAppUserRecNo = Some[int64](other)
		o := loaded(t)
		o.PersonActionItemLink[0].PersonActionItem.Completed = Null[Timestamp]()
		n := loaded(t)
		n.PersonActionItemLink[0].PersonActionItem.Completed = later
		_, err := svc.Update(ctx, session(everything), o, n)
		wantCode(t, err, KindConflict, contract.CodeConcurrencyConflict, "reload")
	})
}

func clonePersonT(t *testing.T, p *Person) *Person {
	t.Helper()
	return clonePerson(p)
}

// TestStampCompletedBy covers the rule on its own, without the service.
func TestStampCompletedBy(t *testing.T) {
	done := Some(TimestampOf(mustTime("2024-06-15T10:00:00Z")))
	item := func(id int64, completed Opt[Timestamp]) ActionItemLink {
		return ActionItemLink{ActionItemRecNo: Some(id), PersonActionItem: &PersonActionItem{RecNo: Some(id), Completed: completed}}
	}
	current := &Person{PersonActionItemLink: []ActionItemLink{item(1, Null[Timestamp]()), item(2, done), item(3, done)}}
	ch := &PersonChanges{ActionItems: []RowChange[PersonActionItem]{
		{Op: OpInsert, New: &PersonActionItem{Completed: done}, Fields: []string{"completed"}},
		{Op: OpInsert, New: &PersonActionItem{Description: Some("open")}, Fields: []string{"description"}},
		// The old side claims open, the store says open: stamped.
		{Op: OpUpdate, RecNo: 1, Old: &PersonActionItem{}, New: &PersonActionItem{Completed: done}, Fields: []string{"completed"}},
		// Stored completed: a new value keeps the recorded user.
		{Op: OpUpdate, RecNo: 2, Old: &PersonActionItem{}, New: &PersonActionItem{Completed: Some(TimestampOf(mustTime("2024-07-01T00:00:00Z")))}, Fields: []string{"completed"}},
		// Cleared.
		{Op: OpUpdate, RecNo: 3, Old: &PersonActionItem{Completed: done}, New: &PersonActionItem{Completed: Null[Timestamp]()}, Fields: []string{"completed"}},
		{Op: OpDelete, RecNo: 4, Old: &PersonActionItem{Completed: done}},
	}}
	StampCompletedBy(ch, current, 9)
	want := []struct {
		by     Opt[int64]
		fields []string
	}{
		{Some[int64](9), []string{"completed", completedByField}},
		{Opt[int64]{}, []string{"description"}},
		{Some[int64](9), []string{"completed", completedByField}},
		{Opt[int64]{}, []string{"completed"}},
		{Null[int64](), []string{"completed", completedByField}},
	}
	for i, w := range want {
		c := ch.ActionItems[i]
		if c.New.CompletedByAppUserRecNo != w.by || !slices.Equal(c.Fields, w.fields) {
			t.Errorf("change %d: completedBy %+v fields %v, want %+v %v", i, c.New.CompletedByAppUserRecNo, c.Fields, w.by, w.fields)
		}
	}
	if d := ch.ActionItems[5]; d.New != nil || d.Fields != nil {
		t.Errorf("delete touched: %+v", d)
	}
}
