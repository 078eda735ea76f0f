package sqlstore

// The columns of the person search: their SQL and their wire values.

import (
	"fmt"
	"strconv"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Table aliases of the search query: p person, pcl/c card link and card,
// pt/t person tag and tag, ai/au action item and its user, b branch, adv
// advisor profile. Correlated subqueries use their own aliases.

// searchColumnSQL is the SQL expression of each column. summaryCount has
// none: it is counted separately and filled in.
func searchColumnSQL(d Dialect, name string) string {
	switch name {
	case "recNo":
		return "p.rec_no"
	case "tagRecNo":
		return "t.rec_no"
	case "tagName":
		return "t.name"
	case "tagValue":
		return "pt.value"
	case "tags":
		return "(SELECT string_agg(t2.name || CASE WHEN pt2.value IS NULL OR pt2.value = '' THEN '' ELSE '=' || pt2.value END, '; ' ORDER BY " +
			d.Fold("t2.name") + ", pt2.rec_no) FROM person_tag pt2 JOIN tag t2 ON t2.agency_id = pt2.agency_id AND t2.rec_no = pt2.tag_id" +
			" WHERE pt2.agency_id = p.agency_id AND pt2.person_id = p.rec_no)"
	case "createDateTime":
		return "p.create_date_time"
	case "lastModifiedDateTime":
		return "p.last_modified_date_time"
	case "name":
		return "CASE WHEN COALESCE(p.last_name, '') = '' AND COALESCE(p.first_name, '') = '' AND COALESCE(p.middle_name, '') = '' THEN NULL" +
			" ELSE COALESCE(p.last_name, '') || '/' || COALESCE(p.first_name, '') ||" +
			" CASE WHEN COALESCE(p.middle_name, '') = '' THEN '' WHEN COALESCE(p.first_name, '') = '' THEN p.middle_name ELSE ' ' || p.middle_name END END"
	case "uniqueId":
		return "p.unique_id"
	case "firstName":
		return "p.first_name"
	case "middleName":
		return "p.middle_name"
	case "lastName":
		return "p.last_name"
	case "primaryPhone":
		return primaryCommSQL(d, "value", 1)
	case "primaryPhoneMarketingPermission":
		return primaryCommSQL(d, "permit_marketing", 1)
	case "primaryEmail":
		return primaryCommSQL(d, "value", 2)
	case "primaryEmailMarketingPermission":
		return primaryCommSQL(d, "permit_marketing", 2)
	case "birthdayDay":
		return "p.birthday_day"
	case "birthdayMonth":
		return "p.birthday_month"
	case "birthdayYear":
		return "p.birthday_year"
	case "birthdayNote":
		return "p.birthday_note"
	case "remarks":
		return "p.remarks"
	case "cardType":
		return "c.type"
	case "cardSubType":
		return "c.sub_type"
	case "cardNumber":
		return "c.card_number"
	case "cardExpDate":
		return "c.expiration_date"
	case "cardDescription":
		return "c.description"
	case "cardRecNo":
		return "c.rec_no"
	case "nameOnCard":
		return "c.name_on_card"
	case "branchRecNo":
		return "p.branch_id"
	case "branchRecName":
		return "b.name"
	case "advisorProfileRecNo":
		return "p.advisor_profile_id"
	case "advisorProfileName":
		return "adv.name"
	case "activeStatus":
		return "p.active_status"
	case "actionRecNo":
		return "ai.rec_no"
	case "actionItemTriggerIndex":
		return "ai.trigger_index"
	case "actionItemDate":
		return "ai.action_date"
	case "actionItemTriggerFixedDate":
		return "ai.trigger_fixed_date"
	case "actionItemDescription":
		return "ai.description"
	case "actionItemCompleted":
		return "ai.completed"
	case "actionItemAssignedToAppUserRecNo":
		return "ai.app_user_id"
	case "actionItemAssignedToAppUserId":
		return "au.user_name"
	case "associatedProfileNames":
		return "(SELECT string_agg(pr.name, '; ' ORDER BY " + d.Fold("pr.name") + ", pr.rec_no) FROM profile_person pp" +
			" JOIN profile pr ON pr.agency_id = pp.agency_id AND pr.rec_no = pp.profile_id" +
			" WHERE pp.agency_id = p.agency_id AND pp.person_id = p.rec_no)"
	}
	return ""
}

// primaryCommSQL reads a field of the person's primary communication of a
// type: the first (lowest recNo) one marked primary.
func primaryCommSQL(d Dialect, field string, typ int) string {
	return "(SELECT cm." + field + " FROM communication cm WHERE cm.agency_id = p.agency_id AND cm.person_id = p.rec_no" +
		" AND cm.type = " + strconv.Itoa(typ) + " AND cm.is_primary = " + d.BoolLit(true) + " ORDER BY cm.rec_no LIMIT 1)"
}

// searchValue converts a scanned value to the column's wire type.
func searchValue(col wayfarer.SearchColumn, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	if b, ok := v.([]byte); ok {
		v = string(b)
	}
	switch col.Type {
	case wayfarer.ColLong, wayfarer.ColInt, wayfarer.ColShort:
		switch x := v.(type) {
		case int64:
			return v, nil // already boxed: returning x would box it again
		case int32:
			return int64(x), nil
		case string:
			return strconv.ParseInt(x, 10, 64)
		}
	case wayfarer.ColBool:
		switch x := v.(type) {
		case bool:
			return x, nil
		case int64:
			return x != 0, nil
		}
	case wayfarer.ColString:
		if _, ok := v.(string); ok {
			return v, nil
		}
		return fmt.Sprint(v), nil
	case wayfarer.ColDate:
		switch x := v.(type) {
		case time.Time:
			return x.Format(time.DateOnly), nil
		case string:
			if len(x) >= 10 {
				return x[:10], nil
			}
			return x, nil
		}
	case wayfarer.ColDateTimeOffset:
		switch x := v.(type) {
		case time.Time:
			return x.UTC(), nil
		case string:
			for _, l := range []string{"2006-01-02 15:04:05.999999999-07:00", time.RFC3339Nano, "2006-01-02 15:04:05.999999999"} {
				if t, err := time.Parse(l, x); err == nil {
					return t.UTC(), nil
				}
			}
		}
	}
	return nil, fmt.Errorf("unexpected %T", v)
}
