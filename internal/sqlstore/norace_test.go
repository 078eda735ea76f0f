//go:build !race

package sqlstore_test

// raceDetector: the tests run under the race detector (go test -race).
const raceDetector = false
