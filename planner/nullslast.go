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
//	WITH n ORDER BY x, <unique field> LIMIT $offset + $limit
//	WITH collect(n) AS head
//	CALL (head) {
//	  UNWIND CASE WHEN size(head) < $offset + $limit THEN [1] ELSE [] END AS more
//	  MATCH (n:L) WHERE <stored predicates> AND x IS NULL
//	  <computed predicates>
//	  WITH n ORDER BY <unique field> LIMIT $offset + $limit
//	  RETURN collect(n) AS tail
//	}
//	UNWIND head + tail AS n
//	WITH n SKIP $offset LIMIT $limit
//
// The UNWIND guard (rather than a WHERE, which Neo4j moves below the label
// scan) keeps the second MATCH from running at all when the first part
// fills the page. orders is the sort of the first part.
func (b *builder) nullsLastFromIndex(ps preds, x string, orders []order, offset, limit string) error {
	need := offset + " + " + limit
	part := func(pred string, orders []order) error {
		b.match(append(slices.Clone(ps.stored), pred))
		if err := b.ensure(ps.refs...); err != nil {
			return err
		}
		b.filterScope(ps.computed)
		b.line("WITH n\nORDER BY %s\nLIMIT %s", orderList(orders), need)
		b.reset()
		return nil
	}
	if err := part(x+" IS NOT NULL", orders); err != nil {
		return err
	}
	b.line("WITH collect(n) AS head")
	b.line("CALL (head) {\nUNWIND CASE WHEN size(head) < %s THEN [1] ELSE [] END AS more", need)
	if err := part(x+" IS NULL", []order{b.idOrder()}); err != nil {
		return err
	}
	b.line("RETURN collect(n) AS tail\n}")
	b.line("UNWIND head + tail AS n\nWITH n\nSKIP %s LIMIT %s", offset, limit)
	return nil
}
