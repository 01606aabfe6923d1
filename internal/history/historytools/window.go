package historytools

import (
	"fmt"
	"time"

	"github.com/ragforge/ragforge/tools"
)

// What a relative period counts back from (relative_to): the clock, or
// the latest change recorded of the entities a call asks about, so that
// "the last 7 days" of a repository last committed to months ago are its
// last 7 days of work.
const (
	RelativeToNow          = "now"
	RelativeToLatestChange = "latest_change"
)

// RelativeTo lists relative_to's values, default first.
var RelativeTo = []string{RelativeToNow, RelativeToLatestChange}

// window is a call's time window: relative_period (counted back from
// relative_to), or since and until.
type window struct {
	RelativePeriod string `json:"relative_period"`
	RelativeTo     string `json:"relative_to"`
	Since          string `json:"since"`
	Until          string `json:"until"`
}

// windowProps are the window's arguments.
func windowProps() []tools.Prop {
	str := func(d string) *tools.Schema { return &tools.Schema{Type: "string", Description: d} }
	return []tools.Prop{
		{Name: "relative_period", Schema: str("today, yesterday, this_week, last_week, this_month, last_month, this_year, last_year, last_N_minutes|hours|days|weeks|months")},
		{Name: "relative_to", Schema: &tools.Schema{Type: "string", Enum: RelativeTo,
			Description: "what relative_period counts from: now (default), or the latest recorded change of the entities asked about (included)"}},
		{Name: "since", Schema: str("YYYY-MM-DD[THH:MM[:SS]][Z|±HH:MM], inclusive")},
		{Name: "until", Schema: str("exclusive")},
	}
}

// anchored reports whether the window counts from the latest change, or
// refuses a relative_to it cannot use.
func (w window) anchored(tool string) (bool, error) {
	switch w.RelativeTo {
	case "", RelativeToNow:
		return false, nil
	case RelativeToLatestChange:
		if w.RelativePeriod == "" {
			return false, tools.Fail(tool, "/relative_to", nil, "relative_to applies to relative_period; give one (e.g. last_7_days), or since/until without relative_to")
		}
		return true, nil
	}
	return false, tools.Fail(tool, "/relative_to", RelativeTo, "%s is not what a period counts from", w.RelativeTo)
}

// bounds returns the window [from, to) (zero times for open ends) as of
// now.
func (w window) bounds(tool string, now time.Time) (from, to time.Time, err error) {
	if w.RelativePeriod != "" {
		if w.Since != "" || w.Until != "" {
			return from, to, tools.Fail(tool, "/relative_period", nil, "give relative_period or since/until, not both")
		}
		from, to, err = tools.RelativePeriod(w.RelativePeriod, now)
		if err != nil {
			return from, to, tools.Fail(tool, "/relative_period", nil, "%v", err)
		}
		return from, to, nil
	}
	ok, err := parseTimes(tool, timeArg{w.Since, "/since", &from}, timeArg{w.Until, "/until", &to})
	if err != nil {
		return from, to, err
	}
	if ok && !from.IsZero() && !to.IsZero() && !from.Before(to) {
		return from, to, tools.Fail(tool, "/until", nil, "until %s is not after since %s", w.Until, w.Since)
	}
	return from, to, nil
}

// timeArg is an optional datetime argument of a call: its text, its
// path and where its parsed time goes.
type timeArg struct {
	s, path string
	t       *time.Time
}

// parseTimes parses each given argument (tools.ParseDatetime), failing
// at the first bad one's path; given says whether any was given.
func parseTimes(tool string, args ...timeArg) (given bool, err error) {
	for _, x := range args {
		if x.s == "" {
			continue
		}
		if *x.t, err = tools.ParseDatetime(x.s); err != nil {
			return false, tools.Fail(tool, x.path, nil, "%v", err)
		}
		given = true
	}
	return given, nil
}

// limitProp is a list's limit.
func limitProp() tools.Prop {
	return tools.Prop{Name: "limit", Schema: &tools.Schema{Type: "integer", Minimum: tools.Num(1), Maximum: tools.Num(MaxLimit), Description: fmt.Sprintf("default %d", DefaultLimit), Narrow: tools.LimitNarrows()}}
}

// limit clamps a call's limit.
func limit(n int) int {
	if n <= 0 {
		return DefaultLimit
	}
	return min(n, MaxLimit)
}
