package wayfarer

import (
	"fmt"
	"strings"
	"time"
)

// Date is a civil date without time zone. On the wire it is "YYYY-MM-DD";
// "MM/DD/YYYY" (the reference's DateSearchParam form) and timestamps
// ("2001-12-31T00:00:00", RFC 3339 with offset) are accepted too, keeping the
// date as written.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// DateOf returns the date of t in t's location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{y, m, d}
}

// ParseDate reads one of the accepted date forms.
func ParseDate(s string) (Date, error) {
	s = strings.TrimSpace(s)
	layouts := []string{"2006-01-02", "01/02/2006", "1/2/2006", time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05"}
	for _, l := range layouts {
		if t, err := time.Parse(l, s); err == nil {
			return DateOf(t), nil
		}
	}
	return Date{}, fmt.Errorf("invalid date %q: want YYYY-MM-DD", s)
}

// IsZero reports the zero Date (no date).
func (d Date) IsZero() bool { return d == Date{} }

// Time is midnight UTC of the date.
func (d Date) Time() time.Time { return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC) }

// AddDays returns the date n days later (earlier for negative n).
func (d Date) AddDays(n int) Date { return DateOf(d.Time().AddDate(0, 0, n)) }

func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day) }

// Timestamp is an instant, always held in UTC with microsecond precision
// (what PostgreSQL keeps) so that == compares stored and sent values
// reliably. On the wire it is RFC 3339 in UTC (String).
type Timestamp struct{ t time.Time }

// TimestampOf normalizes t.
func TimestampOf(t time.Time) Timestamp { return Timestamp{t.UTC().Truncate(time.Microsecond)} }

// Time returns the instant.
func (ts Timestamp) Time() time.Time { return ts.t }

// IsZero reports the zero instant.
func (ts Timestamp) IsZero() bool { return ts.t.IsZero() }

func (ts Timestamp) String() string { return ts.t.Format(time.RFC3339Nano) }

// ParseTimestamp reads an RFC 3339 timestamp (ParseInstant).
func ParseTimestamp(s string) (Timestamp, error) {
	t, err := ParseInstant(s)
	return TimestampOf(t), err
}

// ParseInstant reads an RFC 3339 instant, to the nanosecond, in UTC. A
// space for the T is accepted; without an offset the time is UTC, which is
// what Wayfarer sends.
func ParseInstant(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, l := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("invalid timestamp: want RFC 3339")
}

// AgeOn is the age in whole years on day `on` of someone born on the given
// birthday; false when year, month or day is unknown or the birthday is
// after `on`.
func AgeOn(year, month, day Opt[int], on Date) (int, bool) {
	if !year.Valid || !month.Valid || !day.Valid {
		return 0, false
	}
	age := on.Year - year.Value
	if int(on.Month) < month.Value || (int(on.Month) == month.Value && on.Day < day.Value) {
		age--
	}
	if age < 0 {
		return 0, false
	}
	return age, true
}

// validBirthday checks day/month/year as far as they are known. Feb 29 is
// fine without a year.
func validBirthday(day, month, year Opt[int]) (field string, msg string) {
	if year.Valid && (year.Value < 1 || year.Value > 9999) {
		return "birthdayYear", "must be 1 to 9999"
	}
	if month.Valid && (month.Value < 1 || month.Value > 12) {
		return "birthdayMonth", "must be 1 to 12"
	}
	if day.Valid {
		maxDay := 31
		if month.Valid {
			y := 2000 // a leap year
			if year.Valid {
				y = year.Value
			}
			maxDay = time.Date(y, time.Month(month.Value)+1, 0, 0, 0, 0, 0, time.UTC).Day()
		}
		if day.Value < 1 || day.Value > maxDay {
			return "birthdayDay", fmt.Sprintf("must be 1 to %d", maxDay)
		}
	}
	return "", ""
}
