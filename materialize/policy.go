package materialize

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/model"
)

// Decision is how a computed field should be evaluated.
type Decision string

// The decisions of the policy.
const (
	// Runtime computes the field in every query that needs it.
	Runtime Decision = "runtime"
	// Materialize stores the field as a node property (indexed when the
	// config says index: true) and reads it from there once ready.
	Materialize Decision = "materialize"
)

// Verdict is a decision with the reason a person can check against the
// numbers: `line_count: 1,204 order uses in 7 days ≥ 100; Scope has
// 812,330 nodes ≥ 10,000 → materialize`.
type Verdict struct {
	Decision Decision `json:"decision"`
	Reason   string   `json:"reason"`
}

// Input is what the policy knows about one computed field.
type Input struct {
	Field  *computed.Field
	Entity *computed.Entity
	// Usage is the field's uses (Summarize over the policy's window).
	Usage Usage
	// Nodes is the label's node count, or -1 when unknown (no server).
	Nodes int64
	// State is the field's state node, nil when there is none or it is
	// unknown.
	State *FieldState
}

// Decide applies the policy to one field:
//
//   - materialized: true → materialize; false → runtime.
//   - auto, not materialized now: materialize when the filter and order
//     uses within the window reach MinUses and the label holds at least
//     MinNodes nodes (when the count is unknown the node rule is reported
//     as not checked; apply always knows it).
//   - auto, materialized now (a state node that is not dropping):
//     hysteresis — stay materialized until the field has had no filter or
//     order use for UnusedAfter, so a quiet week does not rebuild a
//     million values twice.
//
// A materialize verdict for a field whose value depends on more than its
// own node's stored fields (a cypher field, a field reading one, or
// now()) says that the stored value goes stale and that refresh
// recomputes it.
func Decide(pol model.Materialization, in Input, now time.Time) Verdict {
	f := in.Field
	name := f.Config.Name
	v := func(d Decision, format string, args ...any) Verdict {
		reason := name + ": " + fmt.Sprintf(format, args...)
		if d == Materialize {
			if why := Staleness(f, in.Entity); why != "" {
				reason += "; the stored value goes stale when other nodes change or time passes (" + why + "): `materialize refresh` recomputes it"
			}
		}
		return Verdict{Decision: d, Reason: reason + " → " + string(d)}
	}
	switch f.Config.Materialized {
	case model.Always:
		return v(Materialize, "materialized: true")
	case model.Never, "":
		if in.State != nil {
			return v(Runtime, "materialized: false (apply drops the stored values)")
		}
		return v(Runtime, "materialized: false")
	}
	u := in.Usage
	win := days(pol.Window)
	uses := usesPhrase(u) + " in " + plural(int64(win), "day")
	if in.State != nil && in.State.Status != StatusDropping {
		idle := days(pol.UnusedAfter)
		if u.LastUsed == "" {
			return v(Runtime, "materialized, but no filter or order use recorded (unused_after %s)", plural(int64(idle), "day"))
		}
		last, _ := time.Parse(DayLayout, u.LastUsed)
		ago := int(now.UTC().Truncate(24*time.Hour).Sub(last).Hours() / 24)
		if ago >= idle {
			return v(Runtime, "materialized, but no filter or order use for %s (last %s) ≥ unused_after %s", plural(int64(ago), "day"), u.LastUsed, plural(int64(idle), "day"))
		}
		return v(Materialize, "materialized; %s; last filter or order use %s, within unused_after %s (keep)", uses, agoPhrase(ago), plural(int64(idle), "day"))
	}
	if u.Selective() < int64(pol.MinUses) {
		return v(Runtime, "%s < %s", uses, thousands(int64(pol.MinUses)))
	}
	switch {
	case in.Nodes < 0:
		return v(Materialize, "%s ≥ %s; %s node count unknown (no server), min_nodes %s not checked", uses, thousands(int64(pol.MinUses)), f.Entity(), thousands(int64(pol.MinNodes)))
	case in.Nodes < int64(pol.MinNodes):
		return v(Runtime, "%s ≥ %s; %s has %s < %s", uses, thousands(int64(pol.MinUses)), f.Entity(), plural(in.Nodes, "node"), thousands(int64(pol.MinNodes)))
	}
	return v(Materialize, "%s ≥ %s; %s has %s ≥ %s", uses, thousands(int64(pol.MinUses)), f.Entity(), plural(in.Nodes, "node"), thousands(int64(pol.MinNodes)))
}

// usesPhrase names the selective uses: "1,204 order uses", "3 filter and
// order uses (1 filter, 2 order)".
func usesPhrase(u Usage) string {
	switch {
	case u.Filter == 0 && u.Order == 0:
		return "0 filter or order uses"
	case u.Filter == 0:
		return thousands(u.Order) + " order " + noun(u.Order, "use")
	case u.Order == 0:
		return thousands(u.Filter) + " filter " + noun(u.Filter, "use")
	}
	return fmt.Sprintf("%s filter and order uses (%s filter, %s order)", thousands(u.Selective()), thousands(u.Filter), thousands(u.Order))
}

func agoPhrase(d int) string {
	switch d {
	case 0:
		return "today"
	case 1:
		return "yesterday"
	}
	return plural(int64(d), "day") + " ago"
}

func noun(n int64, s string) string {
	if n == 1 {
		return s
	}
	return s + "s"
}

func plural(n int64, s string) string { return thousands(n) + " " + noun(n, s) }

// thousands writes n with comma separators (1,204), as the reasons quote
// counts people compare at a glance.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
