package materialize

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/ragforge/ragforge/model"
)

// DayLayout is how a usage bucket's day is written (a UTC date), so that
// counts from machines in different zones add up in the same buckets.
const DayLayout = "2006-01-02"

// Count is how many times, on one UTC day, calls used one field of one
// entity in one way. Counts are the unit every store keeps and every
// export holds: small, additive, and mergeable across processes.
type Count struct {
	Day    string        `json:"day"`
	Entity string        `json:"entity"`
	Field  string        `json:"field"`
	Kind   model.UseKind `json:"kind"`
	N      int64         `json:"n"`
}

// key identifies a Count's bucket.
type key struct {
	Day, Entity, Field string
	Kind               model.UseKind
}

func (c Count) key() key { return key{c.Day, c.Entity, c.Field, c.Kind} }

// Day returns the bucket of instant t.
func Day(t time.Time) string { return t.UTC().Format(DayLayout) }

// merge adds counts into m, bucket by bucket.
func merge(m map[key]int64, counts []Count) {
	for _, c := range counts {
		if c.N != 0 {
			m[c.key()] += c.N
		}
	}
}

// flatten returns m's buckets as sorted Counts, so files and exports are
// stable and diffable.
func flatten(m map[key]int64) []Count {
	out := make([]Count, 0, len(m))
	for k, n := range m {
		out = append(out, Count{Day: k.Day, Entity: k.Entity, Field: k.Field, Kind: k.Kind, N: n})
	}
	sortCounts(out)
	return out
}

func sortCounts(cs []Count) {
	sort.Slice(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.Day != b.Day {
			return a.Day < b.Day
		}
		if a.Entity != b.Entity {
			return a.Entity < b.Entity
		}
		if a.Field != b.Field {
			return a.Field < b.Field
		}
		return a.Kind < b.Kind
	})
}

// validate rejects counts a store must not take: a malformed day or kind
// would silently never count, a negative N would undo real uses.
func validate(counts []Count) error {
	for _, c := range counts {
		if _, err := time.Parse(DayLayout, c.Day); err != nil {
			return fmt.Errorf("materialize: usage count has day %q (want YYYY-MM-DD)", c.Day)
		}
		if c.Entity == "" || c.Field == "" {
			return fmt.Errorf("materialize: usage count on %s has no entity or field", c.Day)
		}
		switch c.Kind {
		case model.UseFilter, model.UseOrder, model.UseAggregate, model.UseGroup, model.UseProject:
		default:
			return fmt.Errorf("materialize: usage count %s.%s has kind %q (allowed: filter, order, aggregate, group, project)", c.Entity, c.Field, c.Kind)
		}
		if c.N < 0 {
			return fmt.Errorf("materialize: usage count %s.%s %s on %s is negative (%d)", c.Entity, c.Field, c.Kind, c.Day, c.N)
		}
	}
	return nil
}

// Usage is one field's uses as the policy sees them: per kind within the
// window, and the last day it was filtered or ordered on at all (for
// hysteresis).
type Usage struct {
	Filter    int64 `json:"filter"`
	Order     int64 `json:"order"`
	Aggregate int64 `json:"aggregate"`
	Group     int64 `json:"group"`
	Project   int64 `json:"project"`
	// WindowDays is how many UTC days (today included) the counts cover.
	WindowDays int `json:"window_days"`
	// LastUsed is the last day with a filter or order use, "" if none was
	// ever recorded.
	LastUsed string `json:"last_used,omitempty"`
}

// Selective is the number of uses a stored, indexed property speeds up:
// filters and sorts.
func (u Usage) Selective() int64 { return u.Filter + u.Order }

// days is how many whole UTC days (today included) a duration covers:
// counts are kept per day, so a window of 7d is today and the six days
// before, and a window of 12h is today.
func days(d time.Duration) int {
	n := int(math.Ceil(d.Hours() / 24))
	if n < 1 {
		n = 1
	}
	return n
}

// Summarize folds counts into each field's Usage for a window ending on
// now's day, keyed by model.FieldRef.
func Summarize(counts []Count, window time.Duration, now time.Time) map[model.FieldRef]Usage {
	n := days(window)
	today := now.UTC().Truncate(24 * time.Hour)
	first := Day(today.AddDate(0, 0, -(n - 1)))
	last := Day(today)
	out := map[model.FieldRef]Usage{}
	for _, c := range counts {
		ref := model.FieldRef{Entity: c.Entity, Field: c.Field}
		u := out[ref]
		u.WindowDays = n
		if c.Day >= first && c.Day <= last {
			switch c.Kind {
			case model.UseFilter:
				u.Filter += c.N
			case model.UseOrder:
				u.Order += c.N
			case model.UseAggregate:
				u.Aggregate += c.N
			case model.UseGroup:
				u.Group += c.N
			case model.UseProject:
				u.Project += c.N
			}
		}
		if (c.Kind == model.UseFilter || c.Kind == model.UseOrder) && c.N > 0 && c.Day <= last && c.Day > u.LastUsed {
			u.LastUsed = c.Day
		}
		out[ref] = u
	}
	return out
}
