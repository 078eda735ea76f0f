// Package contract holds what a Wayfarer server and its Go client share,
// written once: the result codes, the contract version and how versions
// compare, the masked card number rule, the client version header, and the
// request and response bodies both sides read or write.
//
// It uses the standard library only, so that the client module needs no
// other dependency; the server decodes these same types with its own codec.
package contract
