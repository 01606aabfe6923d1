package planner

import (
	"math"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// NumberRangeSearch compares number fields, with the statistical modes the
// rules give.
const NumberRangeSearch = "number_range_search"

// number_range_search's defaults, which its schema shows, its
// description quotes and Parse fills in.
const (
	// defaultPercentile is percentile's percentile.
	defaultPercentile = 90.0
	// defaultOutlierK is outlier's k (standard deviations).
	defaultOutlierK = 2.0
	// defaultRoundTo is rounded_equal's round_to (the bucket width).
	defaultRoundTo = 10.0
	// defaultBuckets is histogram's bucket count.
	defaultBuckets = 10
)

// orders are the order values.
var orders = []string{"asc", "desc"}

func init() {
	register(declaration[NumberRangeSearchArgs]{
		Kind:  tools.Kind{Name: NumberRangeSearch, Category: tools.CategorySearch, Rank: 80, Offered: withSpecialized, Generate: generateNumberRangeSearch},
		check: checkNumberRange,
		plan:  (*Planner).numberRangeSearch,
	})
}

// NumberRangeSearchArgs are number_range_search's arguments. After Parse,
// Tolerance is set for approximately (10% of |value| by default), RoundTo
// for rounded_equal, Percentile for percentile, K for outlier, and
// Buckets or BucketWidth for histogram.
type NumberRangeSearchArgs struct {
	EntityType  string   `json:"entity_type"`
	Field       string   `json:"field"`
	Operator    string   `json:"operator"`
	Value       *float64 `json:"value"`
	UpperValue  *float64 `json:"upper_value"`
	Tolerance   *float64 `json:"tolerance"`
	RoundTo     *float64 `json:"round_to"`
	Percentile  *float64 `json:"percentile"`
	K           *float64 `json:"k"`
	Buckets     int      `json:"buckets"`
	BucketWidth *float64 `json:"bucket_width"`
	// Order sorts entity results by the field: "asc" or "desc"; empty
	// keeps each operator's own order (see the tool description).
	Order string `json:"order"`
	Limit int    `json:"limit"`
}

// generateNumberRangeSearch writes the tool that compares number fields,
// including the statistical modes when the rules give them.
func generateNumberRangeSearch(g *tools.Generator) *tools.Generated {
	offers := g.SpecializedOffers(NumberRangeSearch, model.Number, nil)
	if len(offers) == 0 {
		return nil
	}
	ops := tools.UnionModes(offers)
	var b strings.Builder
	b.WriteString("Entities whose number field compares with value per operator.\nFields: ")
	b.WriteString(g.FieldList(offers, model.Number, true))
	b.WriteString(tools.ModeNotes(offers, ops, tools.NumberHelp) + numberOrderHelp)
	props := append(tools.SpecializedHead(offers),
		tools.Prop{Name: "operator", Schema: &tools.Schema{Type: "string", Enum: ops}},
		tools.Prop{Name: "value", Schema: &tools.Schema{Type: "number"}},
	)
	if slices.Contains(ops, "between") {
		props = append(props, tools.Prop{Name: "upper_value", Schema: &tools.Schema{Type: "number"}})
	}
	if slices.Contains(ops, "approximately") {
		props = append(props, tools.Prop{Name: "tolerance", Schema: &tools.Schema{Type: "number", Minimum: tools.Num(0)}})
	}
	if slices.Contains(ops, "rounded_equal") {
		props = append(props, tools.Prop{Name: "round_to", Schema: &tools.Schema{Type: "number", Default: defaultRoundTo, ExclusiveMinimum: tools.Num(0)}})
	}
	if slices.Contains(ops, "percentile") {
		props = append(props, tools.Prop{Name: "percentile", Schema: &tools.Schema{Type: "number", Default: defaultPercentile, Minimum: tools.Num(0), Maximum: tools.Num(100)}})
	}
	if slices.Contains(ops, "outlier") {
		props = append(props, tools.Prop{Name: "k", Schema: &tools.Schema{Type: "number", Default: defaultOutlierK, ExclusiveMinimum: tools.Num(0)}})
	}
	if slices.Contains(ops, "histogram") {
		props = append(props,
			tools.Prop{Name: "buckets", Schema: &tools.Schema{Type: "integer", Default: defaultBuckets, Maximum: tools.Num(float64(g.Limits().MaxBuckets)), Least: tools.Least(1)}},
			tools.Prop{Name: "bucket_width", Schema: &tools.Schema{Type: "number", ExclusiveMinimum: tools.Num(0)}})
	}
	props = append(props,
		tools.Prop{Name: "order", Schema: &tools.Schema{Type: "string", Enum: orders}},
		g.LimitProp())
	return &tools.Generated{Description: b.String(), Input: tools.Object(props...).Require("entity_type", "field", "operator"), Offers: offers}
}

// checkNumberRange checks decoded arguments and fills their defaults.
func checkNumberRange(ck *tools.Checker, a *NumberRangeSearchArgs) {
	a.Limit = ck.Limit(a.Limit)
	f := ck.Field(a.EntityType, a.Field, "/field")
	if f == nil || !ck.Mode(f, a.Operator, "/operator") {
		return
	}
	switch a.Operator {
	case "percentile":
		if a.Percentile == nil {
			a.Percentile = fptr(defaultPercentile)
		}
		return
	case "outlier":
		if a.K == nil {
			a.K = fptr(defaultOutlierK)
		}
		return
	case "histogram":
		if a.Order != "" {
			ck.Add("/order", "order sorts entities; histogram returns buckets, lowest first")
		}
		if a.Buckets > 0 && a.BucketWidth != nil {
			ck.Add("/bucket_width", "give buckets or bucket_width, not both")
		}
		if a.Buckets == 0 && a.BucketWidth == nil {
			a.Buckets = defaultBuckets
		}
		return
	}
	if a.Value == nil {
		ck.Add("/value", "operator %s needs a value", a.Operator)
		return
	}
	switch a.Operator {
	case "between":
		if a.UpperValue == nil {
			ck.Add("/upper_value", "between needs upper_value")
		} else if *a.UpperValue < *a.Value {
			ck.Add("/upper_value", "upper_value %g is below value %g", *a.UpperValue, *a.Value)
		}
	case "approximately":
		if a.Tolerance == nil {
			a.Tolerance = fptr(math.Abs(*a.Value) * (tools.DefaultTolerancePercent / 100))
		}
	case "rounded_equal":
		if a.RoundTo == nil {
			a.RoundTo = fptr(defaultRoundTo)
		}
	}
}

// numberRangeSearch plans number_range_search. Comparisons become range
// predicates on the bare field (approximately is value ± tolerance,
// rounded_equal is [floor(value/round_to)*round_to, +round_to)), computed in
// Go so a range index on the property applies. percentile and outlier
// compute their threshold in a first aggregation over the label, then
// match again; histogram returns buckets instead of entities.
func (p *Planner) numberRangeSearch(a *NumberRangeSearchArgs, state model.State) (*Statement, error) {
	const tool = NumberRangeSearch
	e, err := p.entity(tool, a.EntityType, "/entity_type")
	if err != nil {
		return nil, err
	}
	switch a.Operator {
	case "percentile", "outlier":
		return p.statSearch(a, e.Name, state)
	case "histogram":
		return p.histogram(a, state)
	}
	v := *a.Value
	s := search{tool: tool, entity: a.EntityType, field: a.Field, limit: a.Limit}
	key := &SortKey{Name: a.Field}
	s.orders = func(b *builder, x string) []order { return []order{{expr: x, key: key}} }
	rng := func(lo, hi float64, hiOp string) func(b *builder, r fieldRef, x string) ([]string, error) {
		return func(b *builder, r fieldRef, x string) ([]string, error) {
			return []string{x + " >= " + b.param(lo), x + " " + hiOp + " " + b.param(hi)}, nil
		}
	}
	cmp := func(op string) func(b *builder, r fieldRef, x string) ([]string, error) {
		return func(b *builder, r fieldRef, x string) ([]string, error) {
			return []string{x + " " + op + " " + b.param(v)}, nil
		}
	}
	switch a.Operator {
	case "equal":
		s.pred = cmp("=")
		// Every entity found has the value: the order ranks nothing.
		s.orders = func(b *builder, x string) []order { return []order{{expr: x}} }
	case "gt":
		s.pred = cmp(">")
	case "gte":
		s.pred = cmp(">=")
	case "lt":
		s.pred = cmp("<")
		s.orders = func(b *builder, x string) []order { return byValue(x, "desc", key) }
	case "lte":
		s.pred = cmp("<=")
		s.orders = func(b *builder, x string) []order { return byValue(x, "desc", key) }
	case "between":
		s.pred = rng(v, *a.UpperValue, "<=")
	case "approximately":
		tol := math.Abs(*a.Tolerance)
		s.pred = rng(v-tol, v+tol, "<=")
		// Nearest first; the range predicate still uses the index.
		s.orders = func(b *builder, x string) []order {
			return []order{{expr: "abs(" + x + " - " + b.named("target", v) + ")", key: &SortKey{Name: "|" + a.Field + " - value|"}}}
		}
	case "rounded_equal":
		step := *a.RoundTo
		lo := math.Floor(v/step) * step
		s.pred = rng(lo, lo+step, "<")
	default:
		return nil, unplannable(tool, "operator", a.Operator)
	}
	if a.Order != "" {
		s.orders = func(b *builder, x string) []order { return byValue(x, a.Order, key) }
	}
	st, err := p.search(s, state)
	return st, err
}

// numberOrderHelp describes number_range_search's order: with it, "the 10
// largest over 200 lines" is one call (gt 200, order desc, limit 10).
const numberOrderHelp = "order sorts by the field (gt, desc, limit 10: the 10 largest above value); default smallest first, largest for lt, lte, percentile, nearest for approximately, farthest for outlier."

func fptr(f float64) *float64 { return &f }
