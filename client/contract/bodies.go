package contract

// LoginRequest is the body of POST /login.
type LoginRequest struct {
	Alias    string `json:"alias"`
	UserName string `json:"userName"`
	Password string `json:"password"`
}

// LoginResult is the answer of a successful login.
type LoginResult struct {
	IdentityToken     string `json:"identityToken"`
	ResultCode        int    `json:"resultCode"`
	ResultDescription string `json:"resultDescription"`
}

// Result is the body of every error answer, and of plain successes
// (logout): a result code, its description and the method that answered.
type Result struct {
	ResultCode        int    `json:"resultCode"`
	ResultDescription string `json:"resultDescription"`
	Method            string `json:"method,omitempty"`
}

// RefreshResult is the answer of GET /refreshIdentityToken.
type RefreshResult struct {
	ResultCode           int    `json:"resultCode"`
	ResultDescription    string `json:"resultDescription"`
	RefreshIdentityToken string `json:"refreshIdentityToken"`
}

// VersionResult is the answer of GET /version, exactly the reference's
// members. A Wayfarer server sends its own build in the
// WayfarerVersionHeader of every answer.
type VersionResult struct {
	Version           string `json:"version"`
	ResultCode        int    `json:"resultCode"`
	ResultDescription string `json:"resultDescription"`
}
