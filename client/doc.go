// Package client is the Go client of a Wayfarer server (contract 1.8.2 of the
// travel agency person and login service).
//
// It is built so that the rules of the contract are the easy path:
//
//   - UpdatePerson loads a person, hands the caller a deep copy to edit and
//     sends the loaded person as oldData and the copy as newData.
//   - The identifiers of a card (the link's person_recNo and card_recNo and
//     the card's recNo) are unexported: editing a loaded card keeps them, and
//     a new card is made with NewCard and AddCard or NewCardLink.
//   - Card has no cvvCode field, and a masked number ("VI 41-XXXX-1111") is
//     refused as the number of a new card or as a changed number.
//   - Saves are refused before anything is sent to a server whose contract
//     is older than 1.8.2 (no personCardLink); loads from such a server read
//     its flat card array into the same types.
//
// A minimal program:
//
//	c := client.New("https://wayfarer.example.com", client.WithCredentials("DEMO", "agent", pw))
//	p, err := c.UpdatePerson(ctx, 42, func(p *client.Person) error {
//		remarks := "prefers aisle seats"
//		p.Remarks = &remarks
//		return nil
//	})
//
// A Client is safe for concurrent use.
package client
