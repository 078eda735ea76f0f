package client

import (
	"slices"
	"strconv"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// Extended columns of the person search (includeColsExtended, Wayfarer's
// design): a tag's value or a marketing flag per person, as a column named
// TagColumn(recNo) or MarketingColumn(recNo). They add no rows.

// TagColumn is the column a TagValue adds: "tag:<recNo>".
func TagColumn(tagRecNo int64) Column { return Column("tag:" + strconv.FormatInt(tagRecNo, 10)) }

// MarketingColumn is the column a MarketingFlag adds: "marketing:<recNo>".
func MarketingColumn(elementRecNo int64) Column {
	return Column("marketing:" + strconv.FormatInt(elementRecNo, 10))
}

// TagValue adds a column holding the person's value of tag definition
// tagRecNo (Row.String; "" for the tag without a value, absent when the
// person lacks the tag).
func (q *Query) TagValue(tagRecNo int64) *Query {
	return q.extended(contract.NewExtendedColumn("tag", tagRecNo))
}

// MarketingFlag adds a column telling whether the person is marked for
// marketing element elementRecNo (Row.Bool).
func (q *Query) MarketingFlag(elementRecNo int64) *Query {
	return q.extended(contract.NewExtendedColumn("marketing", elementRecNo))
}

func (q *Query) extended(e *contract.ExtendedColumn) *Query {
	if *e.RecNo <= 0 {
		return q.fail("an extended column needs a record number (1 or more)")
	}
	for _, x := range q.req.IncludeColsExtended {
		if *x.Type == *e.Type && *x.RecNo == *e.RecNo {
			return q
		}
	}
	q.req.IncludeColsExtended = append(slices.Clone(q.req.IncludeColsExtended), e)
	return q
}
