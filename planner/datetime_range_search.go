package planner

import (
	"slices"
	"strings"
	"time"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// DatetimeRangeSearch compares datetime fields with absolute or relative times.
const DatetimeRangeSearch = "datetime_range_search"

// precisions are the precisions, finest first; the first is the default.
var precisions = []string{"second", "minute", "hour", "day"}

func init() {
	register(declaration[DatetimeRangeSearchArgs]{
		Kind:  tools.Kind{Name: DatetimeRangeSearch, Category: tools.CategorySearch, Rank: 90, Offered: withSpecialized, Generate: generateDatetimeRangeSearch},
		check: checkDatetimeRange,
		plan:  (*Planner).datetimeRangeSearch,
	})
}

// DatetimeRangeSearchArgs are datetime_range_search's arguments. Mode is
// filled when the agent left it out (relative with a relative_period,
// between with start/end, else after).
type DatetimeRangeSearchArgs struct {
	EntityType     string `json:"entity_type"`
	Field          string `json:"field"`
	Mode           string `json:"mode"`
	Datetime       string `json:"datetime"`
	StartDatetime  string `json:"start_datetime"`
	EndDatetime    string `json:"end_datetime"`
	RelativePeriod string `json:"relative_period"`
	// Precision is second, minute, hour or day.
	Precision string `json:"precision"`
	Limit     int    `json:"limit"`
}

// generateDatetimeRangeSearch writes the tool that compares datetime fields
// with absolute or relative times.
func generateDatetimeRangeSearch(g *tools.Generator) *tools.Generated {
	offers := g.SpecializedOffers(DatetimeRangeSearch, model.Datetime, nil)
	if len(offers) == 0 {
		return nil
	}
	modes := tools.UnionModes(offers)
	var b strings.Builder
	b.WriteString("Entities by a datetime field, newest first, per mode: before/after datetime, between start_datetime and end_datetime, relative: within relative_period up to now.\nFields: ")
	b.WriteString(g.FieldList(offers, model.Datetime, true))
	b.WriteString(tools.ModeNotes(offers, modes, nil))
	b.WriteString("Datetimes: ISO 8601 date or datetime, default UTC; precision truncates both sides.")
	if slices.Contains(modes, "relative") {
		b.WriteString(" relative_period: today, yesterday, this_ or last_ + week|month|year (calendar; weeks from Monday), last_minute|hour|day, last_N_minutes|hours|days|weeks|months.")
	}
	def := modes[0]
	if slices.Contains(modes, "after") {
		def = "after"
	}
	// Parse reads every datetime it uses and refuses one it does not, so
	// their length needs no bound of its own.
	dt := func() *tools.Schema { return &tools.Schema{Type: "string"} }
	props := append(tools.SpecializedHead(offers),
		tools.Prop{Name: "mode", Schema: &tools.Schema{Type: "string", Enum: modes, Default: def}},
		tools.Prop{Name: "datetime", Schema: dt()},
		tools.Prop{Name: "start_datetime", Schema: dt()},
		tools.Prop{Name: "end_datetime", Schema: dt()},
	)
	if slices.Contains(modes, "relative") {
		props = append(props, tools.Prop{Name: "relative_period", Schema: dt()})
	}
	props = append(props,
		tools.Prop{Name: "precision", Schema: &tools.Schema{Type: "string", Enum: precisions, Default: precisions[0]}},
		g.LimitProp(),
	)
	return &tools.Generated{Description: b.String(), Input: tools.Object(props...).Require("entity_type", "field"), Offers: offers}
}

// checkDatetimeRange checks decoded arguments and fills their defaults.
func checkDatetimeRange(ck *tools.Checker, a *DatetimeRangeSearchArgs) {
	a.Limit = ck.Limit(a.Limit)
	if a.Precision == "" {
		a.Precision = precisions[0]
	}
	f := ck.Field(a.EntityType, a.Field, "/field")
	if f == nil {
		return
	}
	if a.Mode == "" {
		switch {
		case a.RelativePeriod != "":
			a.Mode = f.ModeOr("relative")
		case a.StartDatetime != "" || a.EndDatetime != "":
			a.Mode = f.ModeOr("between")
		default:
			a.Mode = f.ModeOr("after")
		}
	}
	if !ck.Mode(f, a.Mode, "/mode") {
		return
	}
	need := func(name, v string) {
		if v == "" {
			ck.Add(tools.Pointer(name), "mode %s needs %s", a.Mode, name)
			return
		}
		if _, err := tools.ParseDatetime(v); err != nil {
			ck.Add(tools.Pointer(name), "%v", err)
		}
	}
	unused := func(name, v string) {
		if v != "" {
			ck.Add(tools.Pointer(name), "%s is not used by mode %s", name, a.Mode)
		}
	}
	switch a.Mode {
	case "before", "after":
		need("datetime", a.Datetime)
		unused("start_datetime", a.StartDatetime)
		unused("end_datetime", a.EndDatetime)
		unused("relative_period", a.RelativePeriod)
	case "between":
		need("start_datetime", a.StartDatetime)
		need("end_datetime", a.EndDatetime)
		unused("datetime", a.Datetime)
		unused("relative_period", a.RelativePeriod)
		s, err1 := tools.ParseDatetime(a.StartDatetime)
		e, err2 := tools.ParseDatetime(a.EndDatetime)
		if err1 == nil && err2 == nil && e.Before(s) {
			ck.Add("/end_datetime", "end_datetime is before start_datetime")
		}
	case "relative":
		if a.RelativePeriod == "" {
			ck.Add("/relative_period", "mode relative needs relative_period")
		} else if _, _, err := tools.RelativePeriod(a.RelativePeriod, time.Time{}); err != nil {
			ck.Add("/relative_period", "%v", err)
		}
		unused("datetime", a.Datetime)
		unused("start_datetime", a.StartDatetime)
		unused("end_datetime", a.EndDatetime)
	}
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
func (p *Planner) datetimeRangeSearch(a *DatetimeRangeSearchArgs, state model.State) (*Statement, error) {
	const tool = DatetimeRangeSearch
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
	bounds := func(r fieldRef) (l, h *int64) {
		if lo != nil {
			v := timeParam(r.f, *lo)
			l = &v
		}
		if hi != nil {
			v := timeParam(r.f, *hi)
			h = &v
		}
		return l, h
	}
	s.pred = func(b *builder, r fieldRef, x string) ([]string, error) {
		l, h := bounds(r)
		return b.instantSpan(r, l, h), nil
	}
	s.alts = func(b *builder, r fieldRef) []string {
		l, h := bounds(r)
		return b.spanTypes(r, l, h)
	}
	s.orders = func(b *builder, x string) []order {
		k := fieldKey(f)
		if textTime(f) {
			x, k.Epoch = stringInstant(f, x), "ms"
		}
		return []order{{expr: x, desc: true, key: k}}
	}
	st, err := p.search(s, state)
	return st, err
}
