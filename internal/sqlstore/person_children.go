package sqlstore

import (
	"database/sql"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// A person's children (communications, cards, marketing, attachments
// without their bytes, tags, action items) come in ONE statement: a UNION
// ALL of the six tables over shared, typed columns, told apart by kind.
// Reading them one table at a time cost six statements: on PostgreSQL six
// round trips, on SQLite six statements to prepare and run (BENCHMARKS.md,
// "Loading a person").
//
// The shared columns, by position:
//
//	kind, id, i1..i6 (integers), s1..s9 (text), f1..f3 (flags),
//	d1, d2 (dates), t1 (timestamp), x (bytes)
//
// The action items come first: SQLite gives a compound SELECT's columns the
// declared type of the first SELECT's, and its driver reads DATE and
// DATETIME values as times only when the column is declared so; the action
// items hold a DATE (d1, d2) and a DATETIME (t1). On PostgreSQL every NULL
// is typed, because the types of a UNION are resolved pair by pair.
const (
	childActionItem = iota + 1
	childCommunication
	childCard
	childMarketing
	childAttachment
	childTag
)

const personChildrenQuery = `
	SELECT 1 AS kind, a.rec_no AS id, a.type AS i1, a.trigger_index AS i2, a.trigger_days_offset AS i3,
		a.app_user_id AS i4, a.completed_by_app_user_id AS i5, a.document_template_id AS i6,
		a.description AS s1, u.user_name AS s2, cu.user_name AS s3, a.notes AS s4,
		CAST(NULL AS TEXT) AS s5, CAST(NULL AS TEXT) AS s6, CAST(NULL AS TEXT) AS s7, CAST(NULL AS TEXT) AS s8, CAST(NULL AS TEXT) AS s9,
		CAST(NULL AS BOOLEAN) AS f1, CAST(NULL AS BOOLEAN) AS f2, CAST(NULL AS BOOLEAN) AS f3,
		a.trigger_fixed_date AS d1, a.trigger_fixed_date AS d2, a.completed AS t1, CAST(NULL AS BYTEA) AS x
	FROM person_action_item a
	LEFT JOIN app_user u ON u.agency_id = a.agency_id AND u.rec_no = a.app_user_id
	LEFT JOIN app_user cu ON cu.agency_id = a.agency_id AND cu.rec_no = a.completed_by_app_user_id
	WHERE a.agency_id = ? AND a.person_id = ?
	UNION ALL
	SELECT 2, rec_no, type, contact_option, NULL, NULL, NULL, NULL,
		sub_type, value, country_domain, city_area, user_specific, description, NULL, NULL, NULL,
		is_primary, permit_marketing, is_billing_contact,
		NULL, NULL, NULL, NULL
	FROM communication WHERE agency_id = ? AND person_id = ?
	UNION ALL
	SELECT 3, c.rec_no, c.type, c.sub_type, NULL, NULL, NULL, NULL,
		c.card_number, c.number_key_id, c.card_number_token, c.issuing_city, c.issuing_country, c.issuing_country_name,
		c.description, c.code, c.name_on_card,
		NULL, NULL, NULL,
		c.issue_date, c.expiration_date, NULL, c.number_cipher
	FROM person_card_link l
	JOIN card c ON c.agency_id = l.agency_id AND c.rec_no = l.card_id
	WHERE l.agency_id = ? AND l.person_id = ?
	UNION ALL
	SELECT 4, marketing_element_id, affiliation_id, NULL, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL,
		NULL, NULL, NULL, NULL
	FROM person_marketing WHERE agency_id = ? AND person_id = ?
	UNION ALL
	SELECT 5, rec_no, type, size, store_external, visibility, sub_type, NULL,
		description, file_name_link_url, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
		compressed, NULL, NULL,
		NULL, NULL, create_date_time, NULL
	FROM attachment WHERE agency_id = ? AND person_id = ?
	UNION ALL
	SELECT 6, pt.rec_no, pt.tag_id, NULL, NULL, NULL, NULL, NULL,
		t.name, pt.value, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL,
		NULL, NULL, NULL, NULL
	FROM person_tag pt JOIN tag t ON t.agency_id = pt.agency_id AND t.rec_no = pt.tag_id
	WHERE pt.agency_id = ? AND pt.person_id = ?
	ORDER BY 1, 2, 3`

// personChild is one row of personChildrenQuery.
type personChild struct {
	kind, id int64
	i        [6]sql.NullInt64
	s        [9]sql.NullString
	f        [3]sql.NullBool
	d1, d2   sql.NullTime
	t1       sql.NullTime
	x        []byte
}

func (c *personChild) scan(rows RowScanner) error {
	c.x = nil
	return rows.Scan(&c.kind, &c.id,
		&c.i[0], &c.i[1], &c.i[2], &c.i[3], &c.i[4], &c.i[5],
		&c.s[0], &c.s[1], &c.s[2], &c.s[3], &c.s[4], &c.s[5], &c.s[6], &c.s[7], &c.s[8],
		&c.f[0], &c.f[1], &c.f[2], &c.d1, &c.d2, &c.t1, &c.x)
}

// addTo appends the row to its list in p.
func (c *personChild) addTo(p *wayfarer.Person) {
	pid := wayfarer.Some(p.RecNo.Value)
	id := wayfarer.Some(c.id)
	switch c.kind {
	case childActionItem:
		p.PersonActionItemLink = append(p.PersonActionItemLink, wayfarer.ActionItemLink{
			PersonRecNo: pid, ActionItemRecNo: id,
			PersonActionItem: &wayfarer.PersonActionItem{
				RecNo: id, Type: oint(c.i[0]), Description: ostr(c.s[0]), TriggerIndex: oint(c.i[1]),
				TriggerDaysOffset: oint(c.i[2]), TriggerFixedDate: odate(c.d1), AppUserRecNo: oid(c.i[3]), AppUserID: ostr(c.s[1]),
				Completed: otime(c.t1), CompletedByAppUserRecNo: oid(c.i[4]), CompletedByAppUserID: ostr(c.s[2]),
				Notes: ostr(c.s[3]), DocumentTemplate: oid(c.i[5]),
			},
		})
	case childCommunication:
		p.PersonCommunicationLink = append(p.PersonCommunicationLink, wayfarer.CommunicationLink{
			PersonRecNo: pid, CommunicationRecNo: id,
			Communication: &wayfarer.Communication{
				RecNo: id, Type: wayfarer.Some(int(c.i[0].Int64)), SubType: ostr(c.s[0]), Value: ostr(c.s[1]),
				CountryDomain: ostr(c.s[2]), CityArea: ostr(c.s[3]), UserSpecific: ostr(c.s[4]), Description: ostr(c.s[5]),
				IsPrimary: wayfarer.Some(c.f[0].Bool), PermitMarketing: wayfarer.Some(c.f[1].Bool), IsBillingContact: obool(c.f[2]),
				ContactOption: oint(c.i[1]),
			},
		})
	case childCard:
		card := &wayfarer.Card{
			RecNo: id, Type: wayfarer.Some(int(c.i[0].Int64)), SubType: oint(c.i[1]), CardNumber: wayfarer.Some(c.s[0].String),
			IssueDate: odate(c.d1), ExpirationDate: odate(c.d2), IssuingCity: ostr(c.s[3]), IssuingCountry: ostr(c.s[4]),
			IssuingCountryName: ostr(c.s[5]), Description: ostr(c.s[6]), CardNumberToken: ostr(c.s[2]),
			Code: ostr(c.s[7]), NameOnCard: ostr(c.s[8]),
		}
		if len(c.x) > 0 && c.s[1].Valid {
			card.Sealed = &wayfarer.SealedNumber{KeyID: c.s[1].String, Cipher: c.x}
		}
		p.PersonCardLink = append(p.PersonCardLink, wayfarer.CardLink{PersonRecNo: pid, CardRecNo: id, Card: card})
	case childMarketing:
		aff := wayfarer.Null[int64]()
		if a := c.i[0].Int64; a != 0 {
			aff = wayfarer.Some(a)
		}
		p.PersonMarketing = append(p.PersonMarketing, wayfarer.PersonMarketing{
			PersonRecNo: pid, MarketingElementRecNo: id, AffiliationRecNo: aff})
	case childAttachment:
		p.PersonAttachmentLink = append(p.PersonAttachmentLink, wayfarer.AttachmentLink{
			PersonRecNo: pid, AttachmentRecNo: id,
			Attachment: &wayfarer.Attachment{
				RecNo: id, Type: wayfarer.Some(int(c.i[0].Int64)), Description: ostr(c.s[0]),
				FileNameLinkURL: wayfarer.Some(c.s[1].String), FileData: wayfarer.Null[wayfarer.FileData](),
				Size: oint(c.i[1]), Compressed: obool(c.f[0]), StoreExternal: wayfarer.Some(int(c.i[2].Int64)),
				CreateDateTime: wayfarer.Some(wayfarer.TimestampOf(c.t1.Time)), Visibility: wayfarer.Some(int(c.i[3].Int64)),
				DirectURL: wayfarer.Null[string](), SubType: wayfarer.Some(int(c.i[4].Int64)),
			},
		})
	case childTag:
		p.PersonTag = append(p.PersonTag, wayfarer.PersonTag{
			RecNo: id, PersonRecNo: pid, TagRecNo: wayfarer.Some(c.i[0].Int64), Name: wayfarer.Some(c.s[0].String), Value: ostr(c.s[1])})
	}
}
