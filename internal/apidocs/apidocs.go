// Package apidocs is the API documentation page (GET /docs/): Swagger UI,
// vendored from the npm package swagger-ui-dist (version and license in
// docs/decisions.md, "The /docs page") and embedded, so the page fetches
// nothing from outside the server; it shows the server's /openapi.json.
package apidocs

import (
	"embed"
	"io/fs"
)

//go:embed swagger-ui
var files embed.FS

// SwaggerUI is the page's files: index.html, init.js, the bundle and its
// stylesheet, and the bundle's license texts.
func SwaggerUI() fs.FS {
	sub, err := fs.Sub(files, "swagger-ui")
	if err != nil {
		panic(err) // the directory is embedded above
	}
	return sub
}
