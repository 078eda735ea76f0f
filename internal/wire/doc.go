// Package wire holds the reference's JSON shapes at the server's edge: it
// turns request bodies into the typed values the core takes (through
// internal/jsoncodec, which reads them) and the core's answers into
// bodies. It holds no rule: the core's constructors check the values.
//
// A resource's decoding is its body type (a contract type where the client
// shares it, plus the members the reference knows that Wayfarer does not
// serve yet, tagged wf:"unsupported") and a converter that calls the core's
// constructors with each member's path; see docs/architecture.md.
package wire
