package wayfarer

import (
	"context"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// Affiliations (devportal Affiliation): a consortium or network an agency
// belongs to, its marketing categories, and in each the marketing elements
// a person's personMarketing rows point to. Like tags they are agency-wide
// look-ups: no branch or advisor scope applies (docs/tags.md).

// Affiliation is an affiliation with its marketing categories, as GET
// /affiliation/{recNo} answers it.
type Affiliation struct {
	RecNo      Opt[int64]          `json:"recNo,omitzero" wf:"id"`
	Name       Opt[string]         `json:"name,omitzero" max:"64"`
	Categories []MarketingCategory `json:"affiliationMarketingCategory"`
}

// MarketingCategory is an affiliationMarketingCategory.
type MarketingCategory struct {
	AffiliationRecNo Opt[int64]         `json:"affiliation_recNo,omitzero" wf:"id"`
	RecNo            Opt[int64]         `json:"recNo,omitzero" wf:"id"`
	Name             Opt[string]        `json:"name,omitzero" max:"64"`
	ID               Opt[string]        `json:"id,omitzero" max:"16"`
	Elements         []MarketingElement `json:"affiliationMarketingElement"`
}

// MarketingElement is an affiliationMarketingElement.
type MarketingElement struct {
	RecNo         Opt[int64]  `json:"recNo,omitzero" wf:"id"`
	CategoryRecNo Opt[int64]  `json:"affiliationMarketingCategory_recNo,omitzero" wf:"id"`
	Name          Opt[string] `json:"name,omitzero" max:"64"`
	ID            Opt[string] `json:"id,omitzero" max:"16"`
	SortNo        Opt[int]    `json:"sortNo,omitzero"`
}

// AffiliationStore keeps affiliations within one agency; another agency's
// affiliation is ErrNotFound.
type AffiliationStore interface {
	LoadAffiliation(ctx context.Context, agencyID, recNo int64) (*Affiliation, error)
}

// AffiliationService loads affiliations under the Affiliation area's bits.
type AffiliationService struct {
	Store AffiliationStore
}

// AffiliationNotFoundError is the one answer for an affiliation that is
// missing or another agency's.
func AffiliationNotFoundError() *Error {
	return Errorf(KindNotFound, contract.CodeRecordNotFound, MethodAffiliation, "Affiliation not found")
}

// Load returns one affiliation with its categories and elements (Read).
func (s *AffiliationService) Load(ctx context.Context, sess *Session, recNo int64) (*Affiliation, error) {
	return loadLookup(ctx, sess, AreaAffiliation, MethodAffiliation, "affiliation", recNo, AffiliationNotFoundError, s.Store.LoadAffiliation)
}

// ValidateLookupName checks the name (or id) of an affiliation, category or
// element written by the administrator: required, within size, and no card
// number or control character. field names it in the message.
func ValidateLookupName(field, value string, size int, required bool) error {
	return withMethod(validateLookupName(field, value, size, required), MethodAffiliation)
}

func validateLookupName(field, value string, size int, required bool) error {
	rec := &struct {
		V Opt[string] `json:"v"`
	}{Some(value)}
	if required && value == "" {
		return invalidValue("%s is required", field)
	}
	for _, f := range stringFields(rec, "") {
		f.base, f.info.name, f.info.max = field, "", size
		if ContainsCardNumber(f.value) {
			return cardRuleError("card numbers must not be written into text fields (field %s)", field)
		}
		if err := validText(f); err != nil {
			return err
		}
		if len([]rune(f.value)) > size {
			return invalidValue("%s is longer than %d", field, size)
		}
	}
	return nil
}
