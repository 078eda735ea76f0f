package demo

import (
	"context"
	"strings"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// The demo agency's look-ups beyond their names: tag settings, and an
// affiliation with marketing categories and elements as the devportal's
// Affiliation example shows them (a few of Virtuoso's).

// demoTagSettings are the settings of DemoTags, in its order; the value
// lists are the values generated persons get (tagValues).
var demoTagSettings = []struct {
	description  string
	requirement  int
	areaFlags    int
	freeFlow     bool
	defaultValue string
}{
	{"Loyalty level with the agency", wayfarer.TagRecommended, 3, false, "silver"},
	{"Meal requirements", wayfarer.TagOptional, 2, true, ""},
	{"How often the traveler flies", wayfarer.TagOptional, 2, false, ""},
	{"Preferred seat on flights", wayfarer.TagOptional, 2, false, "aisle"},
}

// demoTagDefinition is DemoTags[i] with its settings.
func demoTagDefinition(i int) *wayfarer.Tag {
	s := demoTagSettings[i]
	t := &wayfarer.Tag{
		Name: wayfarer.Some(DemoTags[i]), ActiveStatus: wayfarer.Some(true), ValueFreeFlow: wayfarer.Some(s.freeFlow),
		ValueRequired: wayfarer.Some(false), ValueList: wayfarer.Some(strings.Join(tagValues[i], "\n")),
		Description: wayfarer.Some(s.description), AreaFlags: wayfarer.Some(s.areaFlags), Requirement: wayfarer.Some(s.requirement),
	}
	if s.defaultValue != "" {
		t.DefaultValue = wayfarer.Some(s.defaultValue)
	}
	return t
}

// DemoAffiliation is the demo agency's consortium affiliation with its
// marketing categories and elements (ids as the devportal's example).
var DemoAffiliation = struct {
	Name       string
	Categories []DemoMarketingCategory
}{
	Name: "Virtuoso",
	Categories: []DemoMarketingCategory{
		{"Total Trip Budget", [][2]string{{"12521", "Up to $3,000"}, {"12522", "$3,000 - $8,000"}, {"12523", "$8,000 - $15,000"}, {"12524", "$15,000+"}}},
		{"Trip Duration", [][2]string{{"V2526", "1-4 days"}, {"12526", "5-10 days"}, {"12527", "11-20 days"}, {"12528", "21 days +"}}},
		{"Client Status", [][2]string{{"12515", "Client"}, {"12513", "Prospect"}, {"12514", "Referral"}, {"12516", "VIP"}}},
		{"Interests", [][2]string{{"12575", "Golf"}, {"12576", "Hiking"}, {"12583", "Hotels"}, {"12592", "Safari"}, {"12586", "Spas"}}},
		{"Destinations", [][2]string{{"12604", "Alaska"}, {"12609", "Caribbean"}, {"12614", "Europe"}, {"12615", "Hawaii"}}},
	},
}

// DemoMarketingCategory is a category and its elements (id, name).
type DemoMarketingCategory struct {
	Name     string
	Elements [][2]string
}

// seedAffiliation creates what of DemoAffiliation is missing.
func seedAffiliation(ctx context.Context, db *sqlstore.DB, agencyID int64) error {
	id, err := db.CreateAffiliation(ctx, agencyID, DemoAffiliation.Name)
	if err != nil {
		return err
	}
	for _, c := range DemoAffiliation.Categories {
		for i, e := range c.Elements {
			sortNo := i + 1
			if _, _, err := db.CreateMarketingElement(ctx, agencyID, sqlstore.NewMarketingElement{
				AffiliationID: id, Category: c.Name, Code: e[0], Name: e[1], SortNo: &sortNo,
			}); err != nil {
				return err
			}
		}
	}
	return nil
}
