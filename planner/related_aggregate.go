package planner

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// ColAggregates is the column of entity rows that holds the values of the
// call's related aggregates (tools.RelatedAggregate), by their key.
const ColAggregates = "aggregates"

// relatedAggregate is one aggregate of n's related entities a statement
// computes: the variable that holds it once ensure has written its
// clause, the clause, and the key the result shows it under.
type relatedAggregate struct {
	v, key string
	// count is the COUNT expression of a count of related entities, ""
	// for the others, whose clause is the CALL subquery call.
	count, call string
	f           *model.Field
	n           int
	// nullable: AVG, MIN and MAX of nothing are null.
	nullable bool
}

// aggregateOps maps the operations of a related aggregate to Cypher's
// functions; the text comes from this table, never from the call.
var aggregateOps = map[string]string{"COUNT": "count", "SUM": "sum", "AVG": "avg", "MIN": "min", "MAX": "max"}

// relatedAggregate resolves aggregate a of n, the aggregate test at
// pointer at, into the field reference that reads its value: the same
// aggregate tested twice is computed once. ensure writes its clause:
//
//	WITH n, …, COUNT { MATCH (n)-[r0:T]->(m0) WHERE <m0's label, tenant, conditions> RETURN DISTINCT m0 } AS `agg_0`
//	CALL (n) { MATCH (n)-[r0:T]->(m0)[-[r1:U]->(m1)] WHERE <each hop's label, tenant, conditions>
//	           WITH DISTINCT m1 | r1 RETURN fn(<field of m1 | property of r1>) AS `agg_0` }
//
// COUNT of related entities is the count test's expression
// (countRelated); the others aggregate in a subquery that returns one row
// per entity (0 or null when nothing is related), so the statement keeps
// one row per entity and collects no list. Each entity (or relationship)
// of the last hop counts once, however many paths lead to it.
func (b *builder) relatedAggregate(a *tools.RelatedAggregate, at string) (fieldRef, error) {
	spec, err := json.Marshal(a)
	if err != nil {
		return fieldRef{}, err
	}
	if b.aggs == nil {
		b.aggs = map[string]*relatedAggregate{}
	}
	if ra := b.aggs[string(spec)]; ra != nil {
		return fieldRef{f: ra.f, agg: ra}, nil
	}
	fn, ok := aggregateOps[a.Operation]
	if !ok {
		return fieldRef{}, tools.Fail(b.tool, at+"/operation", tools.AggregateOperations, "unknown operation %q", a.Operation)
	}
	hops := a.Hops()
	if max := b.p.limits.MaxDepth; len(hops) > max {
		return fieldRef{}, tools.Fail(b.tool, at+"/then", nil, "an aggregate follows at most %d hops", max)
	}
	path, err := b.path(b.mainScope(), hops, func(i int) string {
		if i == 0 {
			return at
		}
		return at + "/then/" + itoa(i-1)
	}, 1)
	if err != nil {
		return fieldRef{}, err
	}
	pattern := path[0].pattern
	var where []string
	for i, h := range path {
		if i > 0 {
			pattern += h.step + "(" + h.m + ")"
		}
		where = append(append(where, h.base...), h.conds...)
	}
	last := path[len(path)-1]
	ra := &relatedAggregate{v: "agg_" + itoa(len(b.aggs)), key: a.Key(), n: len(b.aggs), nullable: a.Operation != "COUNT" && a.Operation != "SUM"}
	ra.key = tools.UniqueKey(ra.key, func(k string) bool {
		return slices.ContainsFunc(slices.Collect(maps.Values(b.aggs)), func(x *relatedAggregate) bool { return x.key == k })
	})
	ra.f = &model.Field{Name: ra.key, Type: model.Number}
	if a.Operation == "COUNT" && a.Field == "" && a.RelationshipField == "" && !a.Relationships {
		ra.f.Type = model.Integer
		ra.count = countRelated(pattern, where, last.m)
	} else {
		each, arg := last.m, last.m
		var fs scope
		switch {
		case a.Relationships:
			each, arg = last.r, last.r
		case a.RelationshipField != "":
			each, fs = last.r, b.p.relScope(last.r, last.rel.Via)
		case last.entity != nil:
			fs = scope{v: last.m, e: last.entity, name: last.entity.Name}
		default:
			return fieldRef{}, tools.Fail(b.tool, at+"/entity", nil, "a field of related entities needs their entity type")
		}
		if name := a.Field + a.RelationshipField; name != "" {
			r, err := fs.field(b, name, at+"/aggregate")
			if err != nil {
				return fieldRef{}, err
			}
			if a.Operation != "COUNT" && r.f.Type.Kind() != model.Number {
				return fieldRef{}, unplannable(b.tool, "an aggregate of a field that is not a number", name)
			}
			arg = b.expr(r)
		}
		if a.Operation == "COUNT" {
			ra.f.Type = model.Integer
		}
		ra.call = "CALL (n) { MATCH " + pattern + " WHERE " + joinAnd(where) +
			" WITH DISTINCT " + each + " RETURN " + fn + "(" + arg + ") AS " + b.q(ra.v) + " }"
	}
	b.aggs[string(spec)] = ra
	return fieldRef{f: ra.f, agg: ra}, nil
}

// countRelated is the number of distinct entities m the pattern reaches
// under where: a relationship test's count and a COUNT aggregate.
// Parallel relationships to one entity count it once.
func countRelated(pattern string, where []string, m string) string {
	return "COUNT { MATCH " + pattern + " WHERE " + joinAnd(where) + " RETURN DISTINCT " + m + " }"
}

// ensureAggregate writes the clause of aggregate ra once, after which its
// variable is in scope.
func (b *builder) ensureAggregate(ra *relatedAggregate) {
	if b.haveAlias[ra.v] {
		return
	}
	if ra.count != "" {
		b.line("WITH %s, %s AS %s", b.carried(), ra.count, b.q(ra.v))
	} else {
		b.line("%s", ra.call)
	}
	b.scope = append(b.scope, ra.v)
	b.haveAlias[ra.v] = true
}

// ensureAggregates writes, in the call's order, the clause of each
// aggregate not in scope: those only returned, and after a page that
// went through a list (nullsLastFromIndex), those it filtered or sorted
// by, now computed again for the page's entities only.
func (b *builder) ensureAggregates() {
	for _, ra := range b.aggregatesInOrder() {
		b.ensureAggregate(ra)
	}
}

// aggregatesInOrder lists the statement's aggregates in the call's order.
func (b *builder) aggregatesInOrder() []*relatedAggregate {
	all := slices.Collect(maps.Values(b.aggs))
	slices.SortFunc(all, func(x, y *relatedAggregate) int { return x.n - y.n })
	return all
}

// aggregateTest renders an aggregate test of n, a relationship test with
// aggregate: its value compared with a number, false where it is null
// (AVG, MIN, MAX of nothing); without an operator, at the top level, no
// predicate, only the value to compute (refs).
func (b *builder) aggregateTest(s scope, c tools.Condition, at string, depth int) (string, []fieldRef, error) {
	if s.v != "n" {
		return "", nil, tools.Fail(b.tool, at+"/aggregate", nil, "an aggregate test is about the entity itself: give it among the entity's conditions, not a related entity's")
	}
	a, err := c.RelatedAggregate()
	if err != nil {
		return "", nil, tools.Fail(b.tool, at+"/aggregate", nil, "%v", err)
	}
	r, err := b.relatedAggregate(a, at)
	if err != nil {
		return "", nil, err
	}
	if c.Operator == "" {
		if depth > 0 {
			return "", nil, unplannable(b.tool, at[1:]+"/operator", "none in a nested aggregate test")
		}
		return "", []fieldRef{r}, nil
	}
	op, ok := condOps[c.Operator]
	if !ok || !slices.Contains(tools.HavingOperators, c.Operator) {
		return "", nil, unplannable(b.tool, "aggregate operator", c.Operator)
	}
	v, ok := c.Value.(float64)
	if !ok {
		return "", nil, unplannable(b.tool, at[1:]+"/value", c.Value)
	}
	return b.nullSafe(b.expr(r) + " " + op + " " + b.param(v)), []fieldRef{r}, nil
}

// aggregatesColumn is the RETURN item of the aggregates the statement
// computed, by key, and whether there is one.
func (b *builder) aggregatesColumn() (string, bool) {
	if len(b.aggs) == 0 {
		return "", false
	}
	all := b.aggregatesInOrder()
	items := make([]string, len(all))
	for i, ra := range all {
		items[i] = b.q(ra.key) + ": " + b.read(b.q(ra.v))
	}
	return "{" + strings.Join(items, ", ") + "} AS " + ColAggregates, true
}

// nullAggregateNotes says, for each sort key that is an AVG, MIN or MAX
// of related entities, that the entities with nothing to aggregate have
// no value there and come last, so an agent does not read them as the
// lowest.
func (b *builder) nullAggregateNotes(keys tools.OrderByList) []string {
	var notes []string
	for _, k := range keys {
		for _, ra := range b.aggs {
			if ra.key == k.Field && ra.nullable {
				notes = append(notes, ra.key+" is null for entities with nothing related to aggregate; they come last")
			}
		}
	}
	return notes
}
