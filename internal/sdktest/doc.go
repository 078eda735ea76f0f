// Package sdktest runs the Go client (module
// github.com/wayfarerhq/wayfarer/client) against real servers. It lives in
// the server module because the client module may not import internal/.
package sdktest
