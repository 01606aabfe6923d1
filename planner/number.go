package planner

import "github.com/ragforge/ragforge/model"

// byValue is the sort an explicit order asks for: the field's value,
// ascending or descending, ranked by key.
func byValue(x, dir string, key *SortKey) []order {
	return []order{{expr: x, desc: dir == "desc", key: key}}
}

// statSearch plans percentile (entities at or above the p-th percentile,
// percentileCont over the non-null values, highest first) and outlier
// (entities more than k population standard deviations from the mean,
// farthest first).
func (p *Planner) statSearch(a *NumberRangeSearchArgs, entity string, state model.State) (*Statement, error) {
	const tool = NumberRangeSearch
	e := p.m.Entity(entity)
	b, r, err := p.fieldBuilder(tool, e, a.Field, state)
	if err != nil {
		return nil, err
	}
	b.use(r, model.UseAggregate)
	b.use(r, model.UseFilter)
	x := b.expr(r)
	limit := clamp(a.Limit, p.limits.DefaultLimit, p.limits.MaxLimit)
	// Pass 1: the statistic.
	b.passOver(r)
	var stats []string
	var pred string
	var orders []order
	switch a.Operator {
	case "percentile":
		pct := *a.Percentile
		b.line("WITH percentileCont(%s, %s) AS threshold", x, b.named("fraction", pct/100))
		stats = []string{"threshold"}
		pred = x + " >= threshold"
		orders = byValue(x, "desc", &SortKey{Name: a.Field})
	case "outlier":
		k := *a.K
		b.line("WITH avg(%s) AS mean, stDevP(%s) AS stdev", x, x)
		stats = []string{"mean", "stdev"}
		pred = "abs(" + x + " - mean) > " + b.named("k", k) + " * stdev"
		orders = []order{{expr: "abs(" + x + " - mean)", desc: true, key: &SortKey{Name: "|" + a.Field + " - mean|"}}}
	}
	if a.Order != "" {
		orders = byValue(x, a.Order, &SortKey{Name: a.Field})
	}
	// Pass 2: the entities beyond it.
	b.reset(stats...)
	b.passOver(r)
	b.filterScope([]string{pred})
	orders = append(orders, b.idOrder())
	b.line("WITH %s\nORDER BY %s\nLIMIT %s", b.carried(), orderList(orders), b.pageSize(limit))
	var computed []fieldRef
	if r.c != nil {
		computed = append(computed, r)
	}
	if err := b.returnEntities(b.defaultStored(), computed, stats, orders); err != nil {
		return nil, err
	}
	return b.statement(Shape{Kind: ShapeEntities, Entity: e.Name, Limit: limit, Stats: stats})
}

// passOver matches the entity's nodes whose field is not null, computing
// the field first when it is a runtime computed field.
func (b *builder) passOver(r fieldRef) {
	x := b.expr(r)
	if b.runtime(r) {
		b.match(nil)
		if err := b.ensure(r); err != nil {
			b.fail(err) // statement returns it
		}
		b.filterScope([]string{x + " IS NOT NULL"})
		return
	}
	b.match([]string{x + " IS NOT NULL"})
}

// reset forgets computed variables after an aggregation, keeping the given
// variables in scope.
func (b *builder) reset(keep ...string) {
	b.scope = append([]string(nil), keep...)
	b.have = map[string]bool{}
	b.haveAlias = map[string]bool{}
}

// histogram plans number_range_search's histogram: with buckets, the range
// [min, max] cut into equal buckets (the maximum falls in the last); with
// bucket_width, buckets aligned on multiples of the width. With buckets
// every bucket is returned (empty ones count 0); with bucket_width only the
// non-empty ones, lowest first, at most MaxBuckets.
func (p *Planner) histogram(a *NumberRangeSearchArgs, state model.State) (*Statement, error) {
	const tool = NumberRangeSearch
	e := p.m.Entity(a.EntityType)
	b, r, err := p.fieldBuilder(tool, e, a.Field, state)
	if err != nil {
		return nil, err
	}
	b.use(r, model.UseAggregate)
	b.use(r, model.UseGroup)
	x := b.expr(r)
	maxB := p.limits.MaxBuckets
	if a.BucketWidth != nil {
		w := *a.BucketWidth
		b.passOver(r)
		wp := b.named("width", w)
		b.line("WITH toInteger(floor(%s / %s)) AS bucket, count(*) AS `count`", x, wp)
		b.line("RETURN bucket * %s AS lower, (bucket + 1) * %s AS upper, `count`\nORDER BY lower\nLIMIT %s", wp, wp, b.pageSize(maxB))
		return b.statement(Shape{Kind: ShapeHistogram, Entity: e.Name, Limit: maxB})
	}
	n := min(a.Buckets, maxB)
	b.passOver(r)
	b.line("WITH min(%s) AS lo, max(%s) AS hi", x, x)
	b.reset("lo", "hi")
	b.passOver(r)
	np := b.named("buckets", int64(n))
	b.line("WITH lo, hi, CASE WHEN hi = lo THEN 0 ELSE toInteger(floor(toFloat(%s - lo) * %s / (hi - lo))) END AS i", x, np)
	// The counted bucket has its own name, apart from the UNWIND's: one
	// name for two variables would keep the plan from being proven scoped.
	b.line("WITH lo, hi, CASE WHEN i >= %s THEN %s - 1 ELSE i END AS filled, count(*) AS c", np, np)
	// Every bucket is returned, empty ones with count 0, so the agent
	// reads the distribution's shape directly.
	b.line("WITH lo, hi, collect([filled, c]) AS counts\nUNWIND range(0, %s - 1) AS bucket", np)
	b.line("RETURN lo + bucket * toFloat(hi - lo) / %s AS lower, lo + (bucket + 1) * toFloat(hi - lo) / %s AS upper, coalesce([x IN counts WHERE x[0] = bucket][0][1], 0) AS `count`\nORDER BY lower\nLIMIT %s", np, np, b.pageSize(maxB))
	return b.statement(Shape{Kind: ShapeHistogram, Entity: e.Name, Limit: maxB})
}
