package tools

import (
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// datetimeLayouts are the forms an agent may write a datetime in: a date,
// a date and time to the minute or second (fractions allowed), with or
// without a zone; without one the time is UTC.
var datetimeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04",
	"2006-01-02",
}

// ParseDatetime reads a datetime argument (YYYY-MM-DD, YYYY-MM-DDTHH:MM,
// …:SS[.fff], optionally with Z or ±HH:MM; UTC when no zone is given). The
// planner uses it to turn an agent's string into the parameter it compares
// with, whatever the field's storage.
func ParseDatetime(s string) (time.Time, error) {
	for _, layout := range datetimeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a datetime (use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS, optionally with Z or +HH:MM)", s)
}

// relativePeriodPattern accepts the named periods and last_N_<unit>.
const relativePeriodPattern = `^(today|yesterday|this_week|last_week|this_month|last_month|this_year|last_year|last_minute|last_hour|last_day|last_([1-9][0-9]{0,3})_(minutes|hours|days|weeks|months))$`

var relativePeriodRE = regexp.MustCompile(relativePeriodPattern)

// RelativePeriod returns the window [from, to) that a relative_period names,
// as of now (in now's location): named periods are calendar periods (weeks
// start on Monday), last_N_<unit> is the N units up to now, and a month is a
// calendar month.
func RelativePeriod(period string, now time.Time) (from, to time.Time, err error) {
	m := relativePeriodRE.FindStringSubmatch(period)
	if m == nil {
		return time.Time{}, time.Time{}, fmt.Errorf("%q is not a relative period (e.g. today, last_week, last_7_days, last_3_months)", period)
	}
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	week := day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, now.Location())
	year := time.Date(now.Year(), 1, 1, 0, 0, 0, 0, now.Location())
	switch period {
	case "today":
		return day, day.AddDate(0, 0, 1), nil
	case "yesterday":
		return day.AddDate(0, 0, -1), day, nil
	case "this_week":
		return week, week.AddDate(0, 0, 7), nil
	case "last_week":
		return week.AddDate(0, 0, -7), week, nil
	case "this_month":
		return month, month.AddDate(0, 1, 0), nil
	case "last_month":
		return month.AddDate(0, -1, 0), month, nil
	case "this_year":
		return year, year.AddDate(1, 0, 0), nil
	case "last_year":
		return year.AddDate(-1, 0, 0), year, nil
	case "last_minute":
		return now.Add(-time.Minute), now, nil
	case "last_hour":
		return now.Add(-time.Hour), now, nil
	case "last_day":
		return now.AddDate(0, 0, -1), now, nil
	}
	n, _ := strconv.Atoi(m[2]) // the pattern allows 1..9999
	switch m[3] {
	case "minutes":
		return now.Add(-time.Duration(n) * time.Minute), now, nil
	case "hours":
		return now.Add(-time.Duration(n) * time.Hour), now, nil
	case "days":
		return now.AddDate(0, 0, -n), now, nil
	case "weeks":
		return now.AddDate(0, 0, -7*n), now, nil
	default: // months
		return now.AddDate(0, -n, 0), now, nil
	}
}
