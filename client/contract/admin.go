package contract

// The operators' admin domain (GET /login/: then /admin/...): agency and
// user administration of the host over the API. Wayfarer's own routes;
// the reference publishes none for this.

// AdminAgency is one agency in GET /admin/agencies.
type AdminAgency struct {
	RecNo  int64  `json:"recNo"`
	Alias  string `json:"alias"`
	Name   string `json:"name"`
	Status string `json:"status"` // active, disabled, cancelled, uninitialized
}

// AdminUser is one app user in GET /admin/agency/{alias}/users.
type AdminUser struct {
	RecNo     int64  `json:"recNo"`
	UserName  string `json:"userName"`
	Type      int    `json:"type"` // User 1, Manager 2, Admin 3
	Enabled   bool   `json:"enabled"`
	Locked    bool   `json:"locked"`    // an administrator's lock
	LockedOut bool   `json:"lockedOut"` // failed logins lock the name now
	// Permissions: the user's bits per area, by the devportal's area name
	// ("Person", "Activity", ...); areas without a bit are left out.
	Permissions map[string]uint32 `json:"permissions"`
}

// AdminUserCreateRequest is the body of POST /admin/agency/{alias}/user.
type AdminUserCreateRequest struct {
	UserName string `json:"userName"`
	// Password may be empty: no login succeeds until one is set. It is
	// never logged nor recorded.
	Password            string            `json:"password,omitempty"`
	Type                int               `json:"type,omitempty"` // User 1 (default), Manager 2, Admin 3
	Branch              string            `json:"branch,omitempty"`
	Disabled            bool              `json:"disabled,omitempty"`
	NonExpiringPassword bool              `json:"nonExpiringPassword,omitempty"`
	Permissions         map[string]uint32 `json:"permissions,omitempty"` // bits by area name, as AdminUser's
}

// AdminUserCreateResult is the answer of a user created by an operator.
type AdminUserCreateResult struct {
	RecNo             int64  `json:"recNo"`
	ResultCode        int    `json:"resultCode"`
	ResultDescription string `json:"resultDescription"`
}
