package sdktest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/client"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

func seedSearch(t *testing.T, c *client.Client, names ...string) {
	t.Helper()
	for _, n := range names {
		last, first, _ := strings.Cut(n, "/")
		p := &client.Person{LastName: &last, FirstName: &first, ActiveStatus: new(client.StatusActive)}
		p.Communications = append(p.Communications, client.NewEmail(strings.ToLower(first+"."+last)+"@example.com", true))
		if _, err := c.CreatePerson(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSearchPagesAndIterator(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		tr := &countingTransport{}
		c := newClient(t, s, client.WithCredentials(alias, admin, adminPW), client.WithHTTPClient(&http.Client{Transport: tr}))
		seedSearch(t, c, "Zyblerk/Ken", "Zyblerk/Hale", "Zyblett/Ann", "Zyblon/Bo", "Zyxx/Other")

		q := client.Search().LastName(client.StartingWith, "zybl").Columns(client.ColRecNo, client.ColName).WithCount().Page(0, 2)
		page, err := c.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != 4 || len(page.Rows) != 2 {
			t.Fatalf("page: total %d rows %d", page.Total, len(page.Rows))
		}
		if name, _ := page.Rows[0].String(client.ColName); name != "Zyblerk/Hale" || page.Rows[0].RecNo() == 0 {
			t.Fatalf("first row %v", page.Rows[0])
		}
		if page.Rows[0].Has(client.ColPrimaryEmail) {
			t.Fatal("a column that was not asked for")
		}

		before := tr.count("/personSearch")
		var names []string
		for row, err := range c.SearchAll(ctx, q) {
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, row.Text(client.ColName))
		}
		if strings.Join(names, ",") != "Zyblerk/Hale,Zyblerk/Ken,Zyblett/Ann,Zyblon/Bo" {
			t.Fatalf("all rows: %v", names)
		}
		if n := tr.count("/personSearch") - before; n != 3 {
			t.Fatalf("pages fetched: %d", n)
		}
		// Breaking out stops paging.
		before = tr.count("/personSearch")
		for range c.SearchAll(ctx, q) {
			break
		}
		if n := tr.count("/personSearch") - before; n != 1 {
			t.Fatalf("pages fetched after break: %d", n)
		}
		// The query itself is not changed by the iterator.
		if b, _ := json.Marshal(q); !strings.Contains(string(b), `"startingRow":0`) {
			t.Fatalf("query changed: %s", b)
		}

		page, err = c.Search(ctx, client.Search().Email(client.Equal, "ann.zyblett@example.com").
			Columns(client.ColFirstName, client.ColPrimaryEmail, client.ColActiveStatus, client.ColCreateDateTime))
		if err != nil || len(page.Rows) != 1 || page.Total != -1 {
			t.Fatalf("email search: %v %v", page, err)
		}
		r := page.Rows[0]
		st, _ := r.Int(client.ColActiveStatus)
		if r.Text(client.ColFirstName) != "Ann" || st != int64(client.StatusActive) {
			t.Fatalf("row %v", r)
		}
		if ts, ok := r.Time(client.ColCreateDateTime); !ok || ts.IsZero() {
			t.Fatalf("createDateTime %v", r[client.ColCreateDateTime])
		}

		page, err = c.Search(ctx, client.Search().LastName(client.In, "Zyblon,Zyxx").FirstName(client.NotEqual, "Other").Columns(client.ColName))
		if err != nil || len(page.Rows) != 1 || page.Rows[0].Text(client.ColName) != "Zyblon/Bo" {
			t.Fatalf("In/NotEqual: %v %v", page, err)
		}
		page, err = c.Search(ctx, client.Search().LastName(client.StartingWith, "Zy").Top(3).Columns(client.ColName))
		if err != nil || len(page.Rows) != 3 {
			t.Fatalf("top: %v %v", page, err)
		}
	})
}

func TestSearchMistakes(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		c := loggedIn(t, s)

		for name, q := range map[string]*client.Query{
			"number condition":    client.Search().RecNo(client.StartingWith, 1),
			"missing value":       client.Search().LastName(client.Equal),
			"unknown column":      client.Search().Columns("bogus"),
			"email and phone":     client.Search().Email(client.Contains, "a").Phone(client.Contains, "1"),
			"negative page":       client.Search().Page(-1, 10),
			"unknown condition 0": client.Search().FirstName(0, "x"),
			"tag condition":       client.Search().Tag(1, 42, "x"),
		} {
			if q.Err() == nil {
				t.Errorf("%s: no error", name)
			}
			if _, err := c.Search(ctx, q); err == nil || client.ResultCode(err) != -1 {
				t.Errorf("%s: sent anyway: %v", name, err)
			}
		}
		// a tags filter goes out in the reference's shape, {"recNo":...}: the
		// server takes it (an entry without recNo would be 404)
		if page, err := c.Search(ctx, client.Search().Tag(424242, client.Equal, "gold").Tag(424243, 0)); err != nil || len(page.Rows) != 0 {
			t.Fatalf("tag search: %v %v", page, err)
		}
		_, err := c.Search(ctx, client.Search().Param("includeCols", []string{"BOGUS"}))
		if !client.IsInvalid(err) || client.ResultCode(err) != client.CodeInvalidColumn {
			t.Fatalf("server-side column check: %v", err)
		}
		if _, err := newClient(t, s, client.WithCredentials(alias, viewer, viewerPW)).Search(ctx, client.Search()); !client.IsForbidden(err) {
			t.Fatalf("viewer search: %v", err)
		}
		if c, err := client.ParseColumn("PRIMARYEMAIL"); err != nil || c != client.ColPrimaryEmail {
			t.Fatal("ParseColumn")
		}
		if cond, err := client.ParseCondition("starts"); err != nil || cond != client.StartingWith {
			t.Fatal("ParseCondition")
		}
	})
}

// TestNoContentAnswers: the server's 204s (a person out of reach, a search
// matching nothing) are a typed not-found and an empty page, not errors
// about reading JSON; the server's build comes from its header.
func TestNoContentAnswers(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		c := loggedIn(t, s)
		if _, err := c.LoadPerson(ctx, 424242); !errors.Is(err, client.ErrNotFound) || !client.IsNotFound(err) {
			t.Fatalf("missing person: %v", err)
		}
		q := client.Search().LastName(client.Equal, "Nobody-Here").Columns(client.ColRecNo, client.ColName).WithCount()
		page, err := c.Search(ctx, q)
		if err != nil || page.Rows == nil || len(page.Rows) != 0 || page.Total != 0 {
			t.Fatalf("search matching nothing: %+v %v", page, err)
		}
		for row, err := range c.SearchAll(ctx, q) {
			t.Fatalf("SearchAll yielded %v %v", row, err)
		}
		seedSearch(t, c, "Onlyone/Pat")
		page, err = c.Search(ctx, client.Search().LastName(client.Equal, "Onlyone").Page(5, 10))
		if err != nil || len(page.Rows) != 0 {
			t.Fatalf("a page past the end: %+v %v", page, err)
		}
		v, err := c.Version(ctx)
		if err != nil || v.Wayfarer != "test" || v.Contract != "1.8.2.6" {
			t.Fatalf("version %+v %v", v, err)
		}
	})
}
