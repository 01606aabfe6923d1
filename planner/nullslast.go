package planner

import "slices"

// nullsLastFromIndex emits the sorted page of query_entities when the sort
// reads a stored property x (a stored field or a ready materialized one).
// Sorting on `x IS NULL, x` would put entities without a value last but
// makes Neo4j sort every entity instead of reading the order from a range
// index, so the page is built in two parts: the entities with a value in
// index order (x IS NOT NULL lets the planner use a NodeIndexScan and stop
// after offset+limit), then, only when those are fewer than offset+limit,
// the entities without one, in unique-field order:
//
//	MATCH (n:L) WHERE <stored predicates> AND x IS NOT NULL
//	<computed predicates>
//	WITH n, x AS page_key, <unique field> AS page_id
//	ORDER BY page_key, page_id LIMIT $offset + $limit
//	WITH collect({n: n, key: page_key, id: page_id}) AS head
//	CALL (head) {
//	  WITH head WHERE size(head) < $offset + $limit
//	  WITH head LIMIT 1
//	  MATCH (n:L) WHERE <stored predicates> AND x IS NULL
//	  <computed predicates>
//	  WITH n, null AS page_key, <unique field> AS page_id
//	  ORDER BY page_id LIMIT $offset + $limit
//	  RETURN collect({n: n, key: page_key, id: page_id}) AS tail
//	}
//	UNWIND head + tail AS row
//	WITH row.n AS n, row.key AS page_key, row.id AS page_id
//	SKIP $offset LIMIT $limit
//
// The guard keeps the second MATCH from running at all when the first
// part fills the page (see guard). orders is the sort of the first part.
// A statement that starts from pinned relationship tests (builder.starts)
// gets no order from an index, and sorts once instead, on
// `page_key IS NULL, page_key, page_id` (from_to in bench/handwritten:
// 57,289 db hits in two parts, 52,077 so, as by hand).
// The page carries the sort key and the id it was sorted by, and the
// statement's later reads of them use these variables (builder.held):
// the nodes went through a list, which loses Neo4j's property cache, so
// reading them again from n would cost a db hit per row and key.
// When a condition already requires a value of x (preds.valued), there
// are no entities without one: the first part alone is the page, and the
// condition stands for x IS NOT NULL. When the first part may start from
// either end of a pinned relationship test, hubChoice picks one as the
// statement runs.
func (b *builder) nullsLastFromIndex(ps preds, x string, orders []order, offset, limit string) error {
	need := offset + " + " + limit
	id := b.idOrder().expr
	b.held = map[string]string{x: "page_key", id: "page_id"}
	part := func(match func([]string), pred []string, orders []order, page string) error {
		b.reset()
		match(append(slices.Clone(ps.stored), pred...))
		if err := b.ensure(ps.refs...); err != nil {
			return err
		}
		b.filterScope(ps.computed)
		key := x
		if slices.Contains(pred, x+" IS NULL") {
			key = "null"
		}
		orders = slices.Clone(orders)
		for i := range orders {
			orders[i].expr = b.read(orders[i].expr)
		}
		b.line("WITH n, %s AS page_key, %s AS page_id\nORDER BY %s\n%s", key, id, orderList(orders), page)
		b.reset("page_key", "page_id")
		return nil
	}
	const row = "{n: n, key: page_key, id: page_id}"
	const unwind = "UNWIND %s AS row\nWITH row.n AS n, row.key AS page_key, row.id AS page_id\nSKIP %s LIMIT %s"
	valued := slices.Contains(ps.valued, x)
	var pred []string
	if !valued {
		pred = []string{x + " IS NOT NULL"}
	}
	switch pinned, h := b.hubChoice(ps, x); {
	case h != nil:
		// The pinned entities and the far side's test get variables of
		// their own: with the near side's m0 reused in them, Neo4j 5.26
		// plans the far side's EXISTS as a scan of m0's index per entity.
		pin, _, err := b.conjunction(scope{v: "pinned", e: h.entity, name: h.entity.Name}, h.pin, "/conditions", 1)
		if err != nil {
			return err
		}
		fresh, err := b.related(b.mainScope(), h.rel, "/conditions", 0, false)
		if err != nil {
			return err
		}
		far := fresh.exists(append(slices.Clone(fresh.base), fresh.conds...))
		if len(h.rel.RelationshipConditions) == 0 {
			// The far side tests the hop against the pinned entities
			// themselves: with their conditions in the EXISTS again,
			// Neo4j may plan it as a scan of their index per entity.
			far = "EXISTS { MATCH " + fresh.pattern + " WHERE " + fresh.m + " IN pins }"
		}
		matchFar := func(preds []string) {
			preds = slices.Clone(preds)
			preds[slices.Index(preds, pinned)] = far
			b.matchLabel(preds)
		}
		b.line("CALL () {\nMATCH (pinned:%s)\nWHERE %s\nRETURN sum(COUNT { (pinned)%s() }) AS fanout, collect(pinned) AS pins\n}", b.q(h.entity.Name), joinAnd(pin), h.back)
		b.line("CALL () {\nMATCH (counted:%s)\nRETURN count(counted) AS total\n}", b.q(b.e.Name))
		b.line("WITH pins, fanout * fanout > (%s) * total AS wide", need)
		sides := []struct {
			name, when, vars string
			match            func([]string)
		}{{"near", "NOT wide", "wide", b.match}, {"far", "wide", "wide, pins", matchFar}}
		for _, side := range sides {
			b.line("CALL (%s) {", side.vars)
			b.guard(side.vars, side.when)
			if err := part(side.match, pred, orders, "LIMIT "+need); err != nil {
				return err
			}
			b.line("RETURN collect(%s) AS %s\n}", row, side.name)
		}
		b.line("WITH near + far AS head")
		if valued {
			b.line(unwind, "head", offset, limit)
			return nil
		}
	case valued:
		return part(b.match, nil, orders, "SKIP "+offset+" LIMIT "+limit)
	case b.startsPinned(ps):
		// The statement starts from the pinned entities, so no index
		// hands the page over in x's order: one sort, nulls last, reads x
		// once per entity that passed every test, where a first part would
		// test x IS NOT NULL on each before the other hops filter them
		// (Neo4j puts it first) and a second part look for those without.
		nullsLast := append([]order{{expr: "page_key IS NULL"}}, orders...)
		return part(b.match, nil, nullsLast, "SKIP "+offset+" LIMIT "+limit)
	default:
		if err := part(b.match, pred, orders, "LIMIT "+need); err != nil {
			return err
		}
		b.line("WITH collect(%s) AS head", row)
	}
	b.line("CALL (head) {")
	b.guard("head", "size(head) < "+need)
	if err := part(b.match, []string{x + " IS NULL"}, []order{b.idOrder()}, "LIMIT "+need); err != nil {
		return err
	}
	b.line("RETURN collect(%s) AS tail\n}", row)
	b.line(unwind, "head + tail", offset, limit)
	return nil
}

// startsPinned reports whether a stored predicate is a pinned
// relationship test (builder.starts), which the MATCH starts from.
func (b *builder) startsPinned(ps preds) bool {
	return slices.ContainsFunc(ps.stored, func(p string) bool { return b.starts[p] != nil })
}

// guard opens a subquery's body, which imports vars, with cond, a test
// of them: the rest of the body runs only when cond holds. The LIMIT 1 after
// the WHERE keeps Neo4j from moving the test above a scan of the body
// (which would then read every node to drop each), and tells it the body
// runs at most once, so an index order inside it still ends the scan at
// the body's LIMIT (an UNWIND guard loses that order: Neo4j sorts all).
func (b *builder) guard(vars, cond string) {
	b.line("WITH %s WHERE %s\nWITH %s LIMIT 1", vars, cond, vars)
}

// hubChoice returns the one pinned relationship test among the stored
// predicates, and its hop, when the page could be read from either end, so the
// statement decides as it runs. Starting from the pinned entity (match)
// reads every entity related to it, about 4 db hits each, and sorts them;
// starting from the range index on x in order (matchLabel, the test an
// EXISTS) reads about (offset+limit) × total ÷ fanout entities of the
// label before the page is full, when the fanout entities related to the
// pinned ones are spread over the order. The second wins exactly when
// fanout² > (offset+limit) × total: a hub (a busy airport, a popular
// tag) pages from the index, any other entity from itself, where Neo4j's
// planner, which estimates every node's degree as the average, would
// always start from the pinned side. fanout is summed from the degree
// store and total read from the count store, a few db hits. Without an
// index on x, or with a tenant (whose nodes the count store cannot
// count), or with two pinned tests, or a pin nested in the test (no one
// hop to count), the pinned side is kept.
func (b *builder) hubChoice(ps preds, x string) (string, *hop) {
	if b.p.m.Tenant != nil || !b.indexedProp(x) {
		return "", nil
	}
	var pred string
	var h *hop
	for _, p := range ps.stored {
		if s := b.starts[p]; s != nil {
			// A nested pin has no one hop to count the fanout of.
			if h != nil || s.next != nil {
				return "", nil
			}
			pred, h = p, s
		}
	}
	return pred, h
}

// indexedProp reports whether x reads a stored field of the entity that
// a range index or the unique constraint orders.
func (b *builder) indexedProp(x string) bool {
	for _, f := range b.e.Fields {
		if b.prop("n", f.Name) == x {
			return f.Indexed || f.Name == b.e.UniqueField
		}
	}
	return false
}
