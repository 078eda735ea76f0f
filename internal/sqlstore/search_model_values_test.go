package sqlstore_test

// The model's values (search_model_test.go): what each column of a row
// holds, and how SQL orders values and nulls.

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

func (w *world) rowValue(col string, c *wayfarer.SearchCriteria, p *sqlstore.BulkPerson, k *sqlstore.BulkCard, t *sqlstore.BulkTag, a *sqlstore.BulkActionItem) any {
	s := func(v *string) any {
		if v == nil {
			return nil
		}
		return *v
	}
	n := func(v *int64) any {
		if v == nil {
			return nil
		}
		return *v
	}
	lookup := func(m map[int64]string, id *int64) any {
		if id == nil || c.SkipLookup {
			return nil
		}
		return m[*id]
	}
	switch col {
	case "recNo":
		return p.RecNo
	case "tagRecNo":
		if t == nil {
			return nil
		}
		return t.TagID
	case "tagName":
		if t == nil {
			return nil
		}
		return w.tags[t.TagID]
	case "tagValue":
		if t == nil {
			return nil
		}
		return s(t.Value)
	case "tags":
		ts := slices.Clone(p.Tags)
		slices.SortFunc(ts, func(x, y sqlstore.BulkTag) int {
			return cmp.Or(strings.Compare(wayfarer.FoldASCII(w.tags[x.TagID]), wayfarer.FoldASCII(w.tags[y.TagID])), cmp.Compare(x.RecNo, y.RecNo))
		})
		var parts []string
		for _, x := range ts {
			if x.Value == nil || *x.Value == "" {
				parts = append(parts, w.tags[x.TagID])
			} else {
				parts = append(parts, w.tags[x.TagID]+"="+*x.Value)
			}
		}
		if len(parts) == 0 {
			return nil
		}
		return strings.Join(parts, "; ")
	case "summaryCount":
		return nil // filled later
	case "createDateTime":
		return p.Created.UTC().Truncate(time.Microsecond)
	case "lastModifiedDateTime":
		return p.Modified.UTC().Truncate(time.Microsecond)
	case "name":
		last, first, mid := str(p.LastName), str(p.FirstName), str(p.MiddleName)
		if last == "" && first == "" && mid == "" {
			return nil
		}
		v := last + "/" + first
		switch {
		case mid == "":
		case first == "":
			v += mid
		default:
			v += " " + mid
		}
		return v
	case "uniqueId":
		return s(p.UniqueID)
	case "firstName":
		return s(p.FirstName)
	case "middleName":
		return s(p.MiddleName)
	case "lastName":
		return s(p.LastName)
	case "primaryPhone", "primaryEmail":
		typ := int64(1)
		if col == "primaryEmail" {
			typ = 2
		}
		if m := primaryComm(p, typ); m != nil {
			return s(m.Value)
		}
		return nil
	case "primaryPhoneMarketingPermission", "primaryEmailMarketingPermission":
		typ := int64(1)
		if col == "primaryEmailMarketingPermission" {
			typ = 2
		}
		if m := primaryComm(p, typ); m != nil {
			return m.PermitMarketing
		}
		return nil
	case "birthdayDay":
		return n(p.BirthdayDay)
	case "birthdayMonth":
		return n(p.BirthdayMonth)
	case "birthdayYear":
		return n(p.BirthdayYear)
	case "birthdayNote":
		return s(p.BirthdayNote)
	case "remarks":
		return s(p.Rem)
	case "branchRecNo":
		return n(p.BranchID)
	case "branchRecName":
		return lookup(w.branches, p.BranchID)
	case "advisorProfileRecNo":
		return n(p.AdvisorID)
	case "advisorProfileName":
		return lookup(w.profiles, p.AdvisorID)
	case "activeStatus":
		return p.ActiveStatus
	case "associatedProfileNames":
		ids := slices.Clone(p.Profiles)
		slices.SortFunc(ids, func(x, y int64) int {
			return cmp.Or(strings.Compare(wayfarer.FoldASCII(w.profiles[x]), wayfarer.FoldASCII(w.profiles[y])), cmp.Compare(x, y))
		})
		var names []string
		for _, id := range ids {
			names = append(names, w.profiles[id])
		}
		if len(names) == 0 {
			return nil
		}
		return strings.Join(names, "; ")
	}
	if strings.HasPrefix(col, "card") || col == "nameOnCard" {
		if k == nil {
			return nil
		}
		switch col {
		case "cardType":
			return k.Type
		case "cardSubType":
			return n(k.SubType)
		case "cardNumber":
			return k.Number
		case "cardExpDate":
			return s(k.Expiration)
		case "cardDescription":
			return s(k.Description)
		case "cardRecNo":
			return k.RecNo
		case "nameOnCard":
			return s(k.NameOnCard)
		}
	}
	if a == nil {
		return nil
	}
	switch col {
	case "actionRecNo":
		return a.RecNo
	case "actionItemTriggerIndex":
		return n(a.TriggerIndex)
	case "actionItemDate":
		return s(a.Date)
	case "actionItemTriggerFixedDate":
		return s(a.TriggerFixedDate)
	case "actionItemDescription":
		return s(a.Description)
	case "actionItemCompleted":
		if a.Completed == nil {
			return nil
		}
		return a.Completed.UTC().Truncate(time.Microsecond)
	case "actionItemAssignedToAppUserRecNo":
		return n(a.AppUserID)
	case "actionItemAssignedToAppUserId":
		return lookup(w.users, a.AppUserID)
	}
	panic("model: unknown column " + col)
}

// children returns the rows of a shown child group (nil entries stand for
// "none": the LEFT JOIN's row of nulls).
func shown[T any](show bool, all []T, pass func(T) bool) []*T {
	if !show {
		return []*T{nil}
	}
	var out []*T
	for i := range all {
		if pass == nil || pass(all[i]) {
			out = append(out, &all[i])
		}
	}
	if len(out) == 0 {
		return []*T{nil}
	}
	return out
}

// cmpNull orders nil first, then the values.
func cmpNull[T cmp.Ordered](a, b *T) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return cmp.Compare(*a, *b)
}

// cmpValue orders values as SQLite does: NULL first, then numbers, then
// text (timestamps and dates are stored as text, booleans as numbers).
func cmpValue(a, b any) int {
	rank := func(v any) int {
		switch v.(type) {
		case nil:
			return 0
		case int64, bool:
			return 1
		}
		return 2
	}
	if r := cmp.Compare(rank(a), rank(b)); r != 0 {
		return r
	}
	num := func(v any) int64 {
		switch x := v.(type) {
		case int64:
			return x
		case bool:
			if x {
				return 1
			}
		}
		return 0
	}
	text := func(v any) string {
		switch x := v.(type) {
		case string:
			return x
		case time.Time:
			return x.Format("2006-01-02 15:04:05.999999999-07:00")
		}
		return ""
	}
	switch rank(a) {
	case 1:
		return cmp.Compare(num(a), num(b))
	case 2:
		return strings.Compare(text(a), text(b))
	}
	return 0
}
