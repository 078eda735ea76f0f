package demo

import (
	"math/rand/v2"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

var (
	taskSubjects = []string{"Final Payment Due", "Check for Documents", "Trip Inquiry Follow-Up", "Bi-Annual Touch Base",
		"Welcome Home", "Send cruise brochure", "Confirm hotel upgrade"}
	appointmentSubjects = []string{"Trip planning meeting", "Honeymoon consultation", "Group booking review"}
	noteSubjects        = []string{"New Trip Inquiry", "Called about the mailing", "Prefers morning flights"}
	noteRemarks         = []string{"Discussed Panama Canal Cruise", "Sent home with a Funjet Vacations brochure.",
		"Interested in June sailing", "Asking about Safari"}
)

// demoActivities are the activities about the i-th demo person: tasks,
// appointments and notes of the demo users, a few private. They draw from
// their own generator, so persons are the same with or without them; dates
// are relative to refs.Today, so that the agent has open tasks due this
// week whenever the demo was loaded (Abler/Ken and Abler/Hale Nicole always
// have one).
func demoActivities(seed uint64, i int, refs *PersonRefs) []sqlstore.BulkActivity {
	rng := rand.New(rand.NewPCG(seed^0xac71717e5, uint64(i)))
	pick := func(n int) int { return rng.IntN(n) }
	chance := func(pct int) bool { return rng.IntN(100) < pct }
	today := refs.Today.Time()
	day := func(offset int) *string { d := today.AddDate(0, 0, offset).Format(time.DateOnly); return &d }
	user := func() *int64 {
		if len(refs.Users) == 0 {
			return nil
		}
		return &refs.Users[pick(len(refs.Users))]
	}
	n := 0
	switch {
	case i == 0 || i == 2:
		n = 1
	case chance(40):
		n = 1 + pick(3)
	}
	var out []sqlstore.BulkActivity
	for k := range n {
		a := sqlstore.BulkActivity{Priority: int64(1 + pick(3)), AppUserID: user(),
			Created: today.AddDate(0, 0, -pick(60)).Add(9 * time.Hour)}
		switch r := pick(100); {
		case (i == 0 || i == 2) && k == 0, r < 50:
			a.Type, a.Subject = wayfarer.ActivityTask, ptr(taskSubjects[pick(len(taskSubjects))])
			a.TargetDate = day(pick(28) - 10)
			if chance(30) {
				done := today.AddDate(0, 0, -pick(10)).Add(15 * time.Hour)
				a.Completion = &done
			}
			if (i == 0 || i == 2) && k == 0 && len(refs.Users) > 0 {
				a.AppUserID, a.TargetDate, a.Completion = &refs.Users[0], day(1+i), nil // the agent's, due this week
			}
		case r < 75:
			a.Type, a.Subject = wayfarer.ActivityAppointment, ptr(appointmentSubjects[pick(len(appointmentSubjects))])
			at := today.AddDate(0, 0, pick(30)-5).Add(time.Duration(9+pick(8)) * time.Hour)
			a.TargetDateTime = &at
		default:
			a.Type, a.Subject = wayfarer.ActivityNote, ptr(noteSubjects[pick(len(noteSubjects))])
			at := today.AddDate(0, 0, -pick(90)).Add(time.Duration(9+pick(8)) * time.Hour)
			a.TargetDateTime, a.Remarks = &at, ptr(noteRemarks[pick(len(noteRemarks))])
		}
		a.Private = a.AppUserID != nil && chance(5)
		out = append(out, a)
	}
	return out
}
