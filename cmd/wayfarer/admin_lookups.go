package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// The admin commands of the look-ups persons point to: tag definitions,
// affiliations and their marketing elements.

func lookupCommands(alias cli.Flag) []*cli.Command {
	return []*cli.Command{
		{Name: "tag", Usage: "create and list tag definitions", Commands: []*cli.Command{
			{Name: "create", Usage: "create a tag definition (the rules of POST /tag apply)", Flags: []cli.Flag{alias,
				&cli.StringFlag{Name: "name", Required: true, Usage: "the tag's name (64 characters at most)"},
				&cli.StringFlag{Name: "requirement", Value: "optional", Usage: "optional, recommended or mandatory"},
				&cli.StringFlag{Name: "description", Usage: "64 characters at most"},
				&cli.StringSliceFlag{Name: "value", Usage: "an allowed value (repeat); kept in valueList, one per line"},
				&cli.StringFlag{Name: "default", Usage: "default value"},
				&cli.IntFlag{Name: "area-flags", Usage: "where the tag applies: a sum of Client 1, Traveler 2, Supplier 4, Advisor 8, ... (0: all)"},
				&cli.BoolFlag{Name: "value-required", Usage: "a person's tag must hold a value"},
				&cli.BoolFlag{Name: "fixed-values", Usage: "values come from the list only (valueFreeFlow false)"},
				&cli.BoolFlag{Name: "inactive", Usage: "create the tag inactive"}},
				Action: adminAction(createTag)},
			{Name: "list", Usage: "list an agency's tag definitions", Flags: []cli.Flag{alias},
				Action: adminAction(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
					ag, err := a.Admin.Agency(ctx, cmd.String("alias"))
					if err != nil {
						return err
					}
					tags, err := a.DB.ListTags(ctx, ag.ID)
					for _, t := range tags {
						state := "active"
						if !t.ActiveStatus {
							state = "inactive"
						}
						fmt.Fprintf(cmd.Root().Writer, "recNo %-6d %-32s %-8s %-11s areaFlags %d\n", t.RecNo, t.Name, state,
							requirementNames[t.Requirement], t.AreaFlags)
					}
					return err
				})},
		}},
		{Name: "affiliation", Usage: "create and list affiliations (consortia, networks)", Commands: []*cli.Command{
			{Name: "create", Usage: "create an affiliation (an existing one of that name is kept)", Flags: []cli.Flag{alias,
				&cli.StringFlag{Name: "name", Required: true, Usage: "64 characters at most"}},
				Action: adminAction(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
					ag, err := a.Admin.Agency(ctx, cmd.String("alias"))
					if err != nil {
						return err
					}
					name := strings.TrimSpace(cmd.String("name"))
					if err := wayfarer.ValidateLookupName("--name", name, 64, true); err != nil {
						return err
					}
					id, err := a.DB.CreateAffiliation(ctx, ag.ID, name)
					if err == nil {
						fmt.Fprintf(cmd.Root().Writer, "affiliation %q (recNo %d)\n", name, id)
					}
					return err
				})},
			{Name: "list", Usage: "list an agency's affiliations", Flags: []cli.Flag{alias},
				Action: adminAction(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
					ag, err := a.Admin.Agency(ctx, cmd.String("alias"))
					if err != nil {
						return err
					}
					list, err := a.DB.ListAffiliations(ctx, ag.ID)
					for _, s := range list {
						fmt.Fprintf(cmd.Root().Writer, "recNo %-6d %-32s %d marketing elements\n", s.RecNo, s.Name, s.Elements)
					}
					return err
				})},
		}},
		{Name: "marketing", Usage: "create and list an affiliation's marketing elements", Commands: []*cli.Command{
			{Name: "create", Usage: "create a marketing element in a category of an affiliation (the category is created when new)", Flags: []cli.Flag{alias,
				&cli.StringFlag{Name: "affiliation", Required: true, Usage: "the affiliation's name"},
				&cli.StringFlag{Name: "category", Required: true, Usage: "the category's name, e.g. Interests"},
				&cli.StringFlag{Name: "id", Required: true, Usage: "the element's id, e.g. 12575 (16 characters at most)"},
				&cli.StringFlag{Name: "name", Required: true, Usage: "the element's name, e.g. Golf"},
				&cli.IntFlag{Name: "sort", Usage: "its place in the category (0: none)"}},
				Action: adminAction(createMarketingElement)},
			{Name: "list", Usage: "list an agency's marketing elements", Flags: []cli.Flag{alias,
				&cli.StringFlag{Name: "affiliation", Usage: "only this affiliation's"}},
				Action: adminAction(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
					ag, err := a.Admin.Agency(ctx, cmd.String("alias"))
					if err != nil {
						return err
					}
					var affiliation int64
					if name := cmd.String("affiliation"); name != "" {
						if affiliation, err = affiliationID(ctx, a, ag.ID, name); err != nil {
							return err
						}
					}
					list, err := a.DB.ListMarketingElements(ctx, ag.ID, affiliation)
					for _, e := range list {
						where := "(no affiliation)"
						if e.Affiliation != "" {
							where = e.Affiliation + " / " + e.Category
						}
						fmt.Fprintf(cmd.Root().Writer, "recNo %-6d %-8s %-32s %s\n", e.RecNo, e.Code, e.Name, where)
					}
					return err
				})},
		}},
	}
}

var requirementNames = map[int]string{wayfarer.TagOptional: "optional", wayfarer.TagRecommended: "recommended", wayfarer.TagMandatory: "mandatory"}

func createTag(ctx context.Context, cmd *cli.Command, a *app.App) error {
	ag, err := a.Admin.Agency(ctx, cmd.String("alias"))
	if err != nil {
		return err
	}
	req := 0
	for n, name := range requirementNames {
		if strings.EqualFold(cmd.String("requirement"), name) {
			req = n
		}
	}
	if req == 0 {
		return fmt.Errorf("--requirement must be optional, recommended or mandatory")
	}
	t := &wayfarer.Tag{Name: wayfarer.Some(cmd.String("name")), Requirement: wayfarer.Some(req),
		ActiveStatus: wayfarer.Some(!cmd.Bool("inactive")), ValueFreeFlow: wayfarer.Some(!cmd.Bool("fixed-values")),
		ValueRequired: wayfarer.Some(cmd.Bool("value-required")), AreaFlags: wayfarer.Some(int(cmd.Int("area-flags")))}
	if d := cmd.String("description"); d != "" {
		t.Description = wayfarer.Some(d)
	}
	if vs := cmd.StringSlice("value"); len(vs) > 0 {
		t.ValueList = wayfarer.Some(strings.Join(vs, "\n"))
	}
	if d := cmd.String("default"); d != "" {
		t.DefaultValue = wayfarer.Some(d)
	}
	// The command is the agency's administrator: every Tag permission.
	sess := &wayfarer.Session{AgencyID: ag.ID, AgencyAlias: ag.Alias, Perms: wayfarer.AllPermissions()}
	svc := &wayfarer.TagService{Store: a.DB, Clock: a.Clock}
	id, err := svc.Save(ctx, sess, nil, t)
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.Root().Writer, "created tag %q (recNo %d)\n", t.Name.Value, id)
	return nil
}

func createMarketingElement(ctx context.Context, cmd *cli.Command, a *app.App) error {
	ag, err := a.Admin.Agency(ctx, cmd.String("alias"))
	if err != nil {
		return err
	}
	affiliation, err := affiliationID(ctx, a, ag.ID, cmd.String("affiliation"))
	if err != nil {
		return err
	}
	e := sqlstore.NewMarketingElement{AffiliationID: affiliation, Category: strings.TrimSpace(cmd.String("category")),
		Code: strings.TrimSpace(cmd.String("id")), Name: strings.TrimSpace(cmd.String("name"))}
	for _, c := range []struct {
		flag, value string
		size        int
	}{{"--category", e.Category, 64}, {"--id", e.Code, 16}, {"--name", e.Name, 64}} {
		if err := wayfarer.ValidateLookupName(c.flag, c.value, c.size, true); err != nil {
			return err
		}
	}
	if n := int(cmd.Int("sort")); n != 0 {
		if n < 0 || n > 32767 {
			return fmt.Errorf("--sort must be 1 to 32767")
		}
		e.SortNo = &n
	}
	id, cat, err := a.DB.CreateMarketingElement(ctx, ag.ID, e)
	if err == nil {
		fmt.Fprintf(cmd.Root().Writer, "marketing element %s %q (recNo %d) in category %q (recNo %d)\n", e.Code, e.Name, id, e.Category, cat)
	}
	return err
}

// affiliationID finds an affiliation of the agency by name.
func affiliationID(ctx context.Context, a *app.App, agencyID int64, name string) (int64, error) {
	list, err := a.DB.ListAffiliations(ctx, agencyID)
	if err != nil {
		return 0, err
	}
	for _, s := range list {
		if s.Name == name {
			return s.RecNo, nil
		}
	}
	return 0, errors.New("no affiliation " + fmt.Sprintf("%q", name) + " (create it with `wayfarer admin affiliation create`)")
}
