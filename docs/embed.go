// Package docs holds Wayfarer's documentation; its Go part only embeds
// openapi.json, which the server serves at GET /openapi.json (go:embed
// cannot reach a parent directory, so the embed lives beside the file).
package docs

import _ "embed"

// OpenAPI is docs/openapi.json as built into the binary.
//
//go:embed openapi.json
var OpenAPI []byte
