package contract

// Result codes: the resultCode of every answer. 0 and 100..108 are the
// contract's login codes, 300..305 the reference's identity-token codes,
// 404..406 its parameter codes. The rest are Wayfarer's own, documented in
// the server's docs/api.md.
const (
	CodeOK                     = 0
	CodeInvalidClientVersion   = 100
	CodeInvalidCredentials     = 101
	CodePasswordExpired        = 102
	CodeUserLocked             = 103
	CodeUserDisabled           = 104
	CodeInvalidAlias           = 105
	CodeAgencyNotInitialized   = 106
	CodeAgencyDisabled         = 107
	CodeAgencyCancelled        = 108
	CodeTooManyLogins          = 109 // Wayfarer's own: a login refused for now (429), docs/security.md
	CodeTokenInvalid           = 300
	CodeTokenExpired           = 301
	CodeTokenMissing           = 302
	CodeTokenSignatureMismatch = 303
	CodeTokenMissingSecret     = 304
	CodeTokenNotInStore        = 305
	CodeMissingParameter       = 404 // a required member is missing or blank
	CodeInvalidColumn          = 405
	CodeDeserialization        = 406 // the body cannot be read as the expected JSON
	CodeInvalidValue           = 407 // a field fails validation (too long, required, out of range)
	CodeNotSupported           = 408 // a field Wayfarer does not serve yet
	CodeQueryTimeout           = 420 // the database work ran past the query time limit (--query-timeout)
	CodeCardRule               = 410 // a card rule of contract §4.6 is broken
	CodeIdentifierMismatch     = 411 // identifiers in a save disagree
	CodePreconditionFailed     = 412 // the stored person is not the version If-Match names
	CodeRequestTooLarge        = 413
	CodePermissionDenied       = 600
	CodeRecordNotFound         = 601
	CodeConcurrencyConflict    = 602
	CodeInternal               = 900
	CodeCardVault              = 901 // a stored card number cannot be opened (missing or wrong key)
)
