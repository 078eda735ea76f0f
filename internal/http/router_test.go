package http

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// A route is served below the 1.8.1 base path without any code of its
// own, marked as contract 1.8.1; unprefixed it is 1.8.2.
func TestRouterServesEveryRouteUnder181(t *testing.T) {
	var rt router
	var got apiContract
	var recNo string
	rt.add("GET", "/activity/{recNo}", func(w http.ResponseWriter, r *http.Request) error {
		got, recNo = contractOf(r), r.PathValue("recNo")
		return nil
	})
	for path, want := range map[string]apiContract{
		"/activity/7":         contract182,
		"/v1.8.1/activity/7":  contract181,
		"/V1.8.1/Activity/7/": contract181,
	} {
		r := httptest.NewRequest("GET", path, nil)
		h, _ := rt.match(r)
		if h == nil {
			t.Fatalf("%s: not routed", path)
		}
		got, recNo = -1, ""
		if err := h.handle(httptest.NewRecorder(), r); err != nil || got != want || recNo != "7" {
			t.Errorf("%s: contract %v recNo %q, want %v", path, got, recNo, want)
		}
	}
	r := httptest.NewRequest("POST", "/v1.8.1/activity/7", nil)
	if h, allowed := rt.match(r); h != nil || len(allowed) != 1 || allowed[0] != "GET" {
		t.Errorf("wrong verb below the base path: %v %v", h != nil, allowed)
	}
	for _, path := range []string{"/v1.8.1", "/v1.8.1/v1.8.1/activity/7", "/v1.8.2/activity/7", "/activity/v1.8.1/7"} {
		if h, allowed := rt.match(httptest.NewRequest("GET", path, nil)); h != nil || allowed != nil {
			t.Errorf("%s: routed", path)
		}
	}
}
