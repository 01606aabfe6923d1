package planner

import (
	"time"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// precisionUnit truncates t to the precision in loc and returns the
// truncated time and a function adding one unit.
func truncate(t time.Time, precision string, loc *time.Location) (time.Time, func(time.Time) time.Time) {
	t = t.In(loc)
	switch precision {
	case "minute":
		return t.Truncate(time.Minute), func(x time.Time) time.Time { return x.Add(time.Minute) }
	case "hour":
		// Truncate on the wall clock, not on absolute hours, so zones with
		// half-hour offsets truncate to their own hours.
		return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), 0, 0, 0, loc), func(x time.Time) time.Time { return x.Add(time.Hour) }
	case "day":
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc), func(x time.Time) time.Time { return x.AddDate(0, 0, 1) }
	}
	return t.Truncate(time.Second), func(x time.Time) time.Time { return x.Add(time.Second) }
}

// ceil rounds t up to the precision (t itself when already on a unit).
func ceil(t time.Time, precision string, loc *time.Location) time.Time {
	tr, next := truncate(t, precision, loc)
	if tr.Equal(t) {
		return tr
	}
	return next(tr)
}

// datetimeRangeSearch plans datetime_range_search. The precision truncates
// both compared times; the planner moves that truncation onto the
// parameters so the field's side needs no truncation (and an epoch field
// is compared bare, where a range index applies):
//
//	before t:      trunc(x) <  trunc(t)   ⇔ x <  trunc(t)
//	after t:       trunc(x) >  trunc(t)   ⇔ x >= trunc(t) + 1 unit
//	between s, e:  trunc(s) <= trunc(x) <= trunc(e) ⇔ trunc(s) <= x < trunc(e) + 1 unit
//	relative:      the period [from, to) widened to whole units:
//	               trunc(from) <= x < ceil(to)
//
// Periods are computed at Options.Now in Options.Location (UTC by default);
// datetimes without a zone are UTC. Results are newest first.
func (p *Planner) datetimeRangeSearch(a *tools.DatetimeRangeSearchArgs, state State) (*Statement, error) {
	const tool = tools.DatetimeRangeSearch
	e, err := p.entity(tool, a.EntityType, "/entity_type")
	if err != nil {
		return nil, err
	}
	var f *model.Field
	if x := e.Field(a.Field); x != nil {
		f = x
	} else if c := e.ComputedField(a.Field); c != nil {
		f = &c.Field
	} else {
		return nil, tools.Fail(tool, "/field", e.FieldNames(), "%q is not a field of %s", a.Field, e.Name)
	}
	prec := a.Precision
	// Parse checked every datetime; one that fails here skipped it.
	parse := func(s, path string) (time.Time, error) {
		t, err := tools.ParseDatetime(s)
		if err != nil {
			return time.Time{}, unplannable(tool, path[1:], s)
		}
		return t, nil
	}
	var lo, hi *time.Time // lo inclusive, hi exclusive
	switch a.Mode {
	case "before":
		t, err := parse(a.Datetime, "/datetime")
		if err != nil {
			return nil, err
		}
		tr, _ := truncate(t, prec, p.loc)
		hi = &tr
	case "after":
		t, err := parse(a.Datetime, "/datetime")
		if err != nil {
			return nil, err
		}
		tr, next := truncate(t, prec, p.loc)
		n := next(tr)
		lo = &n
	case "between":
		s, err := parse(a.StartDatetime, "/start_datetime")
		if err != nil {
			return nil, err
		}
		en, err := parse(a.EndDatetime, "/end_datetime")
		if err != nil {
			return nil, err
		}
		st, _ := truncate(s, prec, p.loc)
		et, next := truncate(en, prec, p.loc)
		et = next(et)
		lo, hi = &st, &et
	case "relative":
		from, to, err := tools.RelativePeriod(a.RelativePeriod, p.opts.Now().In(p.loc))
		if err != nil {
			return nil, tools.Fail(tool, "/relative_period", nil, "%v", err)
		}
		ft, _ := truncate(from, prec, p.loc)
		tt := ceil(to, prec, p.loc)
		lo, hi = &ft, &tt
	default:
		return nil, unplannable(tool, "mode", a.Mode)
	}
	s := search{tool: tool, entity: a.EntityType, field: a.Field, limit: a.Limit}
	s.pred = func(b *builder, r fieldRef, x string) ([]string, error) {
		side := b.timeSide(r)
		var out []string
		if lo != nil {
			out = append(out, side+" >= "+b.param(timeParam(r.f, *lo)))
		}
		if hi != nil {
			out = append(out, side+" < "+b.param(timeParam(r.f, *hi)))
		}
		return out, nil
	}
	s.orders = func(b *builder, x string) []order {
		k := fieldKey(f)
		if f.StoredAs == model.ISOString {
			x, k.Epoch = isoInstant(x), "ms"
		}
		return []order{{expr: x, desc: true, key: k}}
	}
	st, err := p.search(s, state)
	return st, err
}
