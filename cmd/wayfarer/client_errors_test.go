package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/client"
)

func TestJSONPathsAndPlaces(t *testing.T) {
	text := []byte("{\n  \"firstName\": \"Ken\",\n  \"personCardLink\": [\n    {\"card\": {\"type\": 1}},\n    {\"card\": {\"type\": 2, \"x\": [1, {\"y\": 2}]}}\n  ]\n}")
	paths := jsonPaths(text)
	for path, want := range map[string]string{
		"firstName":                     "line 2, column 3",
		"personCardLink":                "line 3, column 3",
		"personCardLink[0].card":        "line 4, column 6",
		"personCardLink[1].card.type":   "line 5, column 15",
		"personCardLink[1].card.x[1].y": "line 5, column 36",
	} {
		off, ok := paths[path]
		if !ok {
			t.Errorf("no %s in %v", path, paths)
			continue
		}
		if got := lineCol(text, int64(off)); got != want {
			t.Errorf("%s at %s, want %s", path, got, want)
		}
	}
	err := saveEditError(text, &client.Error{Status: 400, ResultCode: 410, Method: "person",
		Description: "oldNewDataset.newData[0].personCardLink[1].card.type: a card's type cannot change"})
	if got := err.Error(); got != "line 5, column 15: the server refused the change (400, resultCode 410): oldNewDataset.newData[0].personCardLink[1].card.type: a card's type cannot change" {
		t.Errorf("server error: %s", got)
	}
	_, derr := client.DecodePerson([]byte("{\n  \"firstName\": 42\n}"))
	if got := jsonTextError([]byte("{\n  \"firstName\": 42\n}"), derr).Error(); strings.Contains(got, "Go ") || !strings.Contains(got, "line 2") {
		t.Errorf("type error: %s", got)
	}
	_, derr = client.DecodePerson([]byte("{\n  \"firstName\": \"x\",,\n}"))
	if got := jsonTextError([]byte("{\n  \"firstName\": \"x\",,\n}"), derr).Error(); !strings.HasPrefix(got, "line 2, column ") {
		t.Errorf("syntax error: %s", got)
	}
	if err := jsonTextError(text, errors.New("personCardLink[1].card.x: unknown field")); !strings.HasPrefix(err.Error(), "line 5, column 26: ") {
		t.Errorf("unknown field: %s", err)
	}
}

func TestClientURL(t *testing.T) {
	for in, want := range map[string]string{
		"127.0.0.1:8080":          "http://127.0.0.1:8080",
		"https://wf.example.com/": "https://wf.example.com",
		"http://localhost:8080":   "http://localhost:8080",
	} {
		if got, err := clientURL(in); err != nil || got != want {
			t.Errorf("%q: %q %v", in, got, err)
		}
	}
	for _, bad := range []string{"ftp://x.example.com", "http://", "://x"} {
		if _, err := clientURL(bad); err == nil || !strings.Contains(err.Error(), "is not a server address") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
