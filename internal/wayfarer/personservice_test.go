package wayfarer

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
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
	c, _ := clonePerson(p)
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

func (s *fakeStore) UpdatePerson(ctx context.Context, scope Scope, recNo int64, fn func(*Person) (*PersonWrite, error)) error {
	cur, err := s.get(scope, recNo)
	if err != nil {
		return err
	}
	w, err := fn(cur)
	if err != nil {
		return err
	}
	s.writes = append(s.writes, w)
	return nil
}

func (s *fakeStore) RecordCardDecrypts(ctx context.Context, a CardDecryptAudit) error {
	s.audits = append(s.audits, a)
	return nil
}

type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time { return c.t }

func session(perm Permission) *Session {
	main := int64(1)
	return &Session{AgencyID: 1, UserID: 9, Person: perm, BranchID: &main, AdvisorIDs: []int64{2}}
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
	wantCode(t, err, KindForbidden, CodePermissionDenied, "read")
	_, err = svc.Load(ctx, session(PermRead|PermAllUsers|PermAllBranches), 10, true)
	wantCode(t, err, KindForbidden, CodePermissionDenied, "decrypt")

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
		wantCode(t, err, KindNotFound, CodeRecordNotFound, "Person not found")
		b, _ := json.Marshal(AsError(err))
		msgs = append(msgs, string(b))
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
	b, _ := json.Marshal(p)
	if strings.Contains(string(b), testVisa) || strings.Contains(string(b), "k1") {
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

func writtenJSON(t *testing.T, w *PersonWrite) string {
	b, err := json.Marshal(w.Changes)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestServiceCreate(t *testing.T) {
	svc, st := newService(t)
	ctx := context.Background()
	body := `{"firstName":"Sue","lastName":"Abler","activeStatus":1,
		"personCardLink":[{"card":{"type":1,"cardNumber":"4111 1111 1111 1111","nameOnCard":"SUE"}}]}`

	_, err := svc.Create(ctx, session(PermRead), mustPerson(t, body))
	wantCode(t, err, KindForbidden, CodePermissionDenied, "insert")

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
		wantCode(t, err, KindForbidden, CodePermissionDenied, "outside your branch")
	}
	// A user with AllUsers+AllBranches creates anywhere.
	if _, err := svc.Create(ctx, session(everything), mustPerson(t, `{"activeStatus":1,"branch_recNo":5}`)); err != nil {
		t.Fatal(err)
	}
	// Validation runs first.
	_, err = svc.Create(ctx, session(everything), mustPerson(t, `{"activeStatus":1,"remarks":"card 4111111111111111"}`))
	wantCode(t, err, KindInvalid, CodeCardRule, "field remarks")
}

func TestServiceUpdate(t *testing.T) {
	ctx := context.Background()
	t.Run("permission", func(t *testing.T) {
		svc, _ := newService(t)
		_, err := svc.Update(ctx, session(PermRead|PermInsert|PermAllUsers|PermAllBranches), loaded(t), loaded(t))
		wantCode(t, err, KindForbidden, CodePermissionDenied, "update")
	})
	t.Run("not found and out of scope", func(t *testing.T) {
		svc, _ := newService(t)
		o := loaded(t)
		o.RecNo = Some[int64](11)
		_, err := svc.Update(ctx, session(everything), o, mustPerson(t, `{"firstName":"X"}`))
		wantCode(t, err, KindNotFound, CodeRecordNotFound, "Person not found")
		s := session(agentPerms)
		s.BranchID = nil
		_, err = svc.Update(ctx, s, loaded(t), mustPerson(t, `{"firstName":"X"}`))
		wantCode(t, err, KindNotFound, CodeRecordNotFound, "Person not found")
	})
	t.Run("moving out of scope", func(t *testing.T) {
		svc, st := newService(t)
		n := loaded(t)
		n.BranchRecNo = Some[int64](2)
		_, err := svc.Update(ctx, session(agentPerms), loaded(t), n)
		wantCode(t, err, KindForbidden, CodePermissionDenied, "outside your branch")
		n = loaded(t)
		n.AdvisorProfileRecNo = Null[int64]()
		_, err = svc.Update(ctx, session(agentPerms), loaded(t), n)
		wantCode(t, err, KindForbidden, CodePermissionDenied, "outside your branch")
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
		wantCode(t, err, KindConflict, CodeConcurrencyConflict, "reload")
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
		wantCode(t, err, KindConflict, CodeConcurrencyConflict, "")
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
		wantCode(t, err, KindForbidden, CodePermissionDenied, "read")
		if len(st.writes) != 0 {
			t.Fatal("written")
		}
	})
}
