// Package wayfarer is the domain core: agencies, users, permissions, persons
// and their cards, the old/new diff and search criteria. It holds the rules
// and the services that apply them, and knows nothing of HTTP or SQL; storage,
// hashing, signing and encryption reach it through the interfaces it declares.
package wayfarer
