// Package planner turns one validated tool call into one parameterized
// Cypher statement, so that everything an agent asks for runs as a single
// read query whose text never contains the agent's words.
//
// Three rules shape every statement:
//
//   - Identifiers (labels, relationship types, property names) come only
//     from the model and are written through ident.Quote, which refuses a
//     name outside the identifier rules (Plan returns that error); every
//     value the agent sent is a parameter in [Statement.Params].
//   - Cheap filters run first: predicates on stored properties sit in the
//     WHERE of the first MATCH, where Neo4j can use indexes, and computed
//     fields are computed afterwards, only for the rows that survive (and
//     fields that are only returned are computed after ORDER BY … LIMIT).
//     A sort puts entities without a value last in both directions; on a
//     stored or materialized property the values are read with
//     `IS NOT NULL` (so Neo4j takes the order from a range index) and the
//     entities without one are appended only when the page is short.
//   - With [Options.MaxString], strings in returned properties and
//     computed values are cut in the statement (left()), so long texts
//     cross the network only as far as the result shows them.
//   - A computed field is read from its cache property only when the
//     [model.State] says that property is materialized and ready; otherwise its
//     runtime Cypher (an expression, or a `CALL (n) { … }` subquery for a
//     raw-Cypher field) is used.
//
// Relationship tests (a condition with via) become EXISTS { } (some),
// NOT EXISTS { } (none), "one exists and none fails" (all) or COUNT { }
// subqueries on the entity's variable; their related node and
// relationship variables (m0, r0, …) are numbered per statement, and the
// related node is kept inside the tenant like every node a statement
// introduces. A some-test among the call's own conditions whose related
// entity is pinned by an indexed or unique field (=, IN, STARTS WITH) is
// matched as a pattern instead, MATCH (n:L)-[r0]->(m0:R) … WITH DISTINCT
// n, because Neo4j never starts an EXISTS from its inner side and would
// test it on every node of the label (builder.match). So is a some-test
// whose conditions hold such a test, at any depth (customers who bought
// an order of a pinned product): each hop a MATCH of its own, from the
// entity to the pin (builder.walk). When such a test is
// the only one and the page is sorted on an indexed property, the
// statement first counts the pinned entities' relationships (the degree
// store) and pages from the pinned side, or, for a hub, from the sort's
// index with the test an EXISTS (nullsLastFromIndex, hubChoice). any_of
// is a parenthesized OR; not is NOT of its conditions with each field
// test inside written coalesce(…, false) (negate), so an entity without a
// value fails a test and passes its not, and its EXISTS subqueries stay
// steps of the plan that the tenant proof can check.
//
// Agent-supplied regular expressions and globs never reach Neo4j's `=~`
// (Java regex backtracks without bound and ignores transaction timeouts).
// The statement reads candidates with a cheap prefilter (a literal
// prefix, suffix or required substring), in unique-field order and in
// chunks ([Statement.Next] continues after the last id read), each
// candidate only its id and the matched text; [Statement.Filter] then
// matches them in Go with RE2 (linear time) or doublestar globs, stopping
// at the call's limit or its deadline, and [Statement.Fetch] reads the
// properties of the entities kept.
//
// Time-zone rules: datetimes an agent writes without a zone are UTC;
// relative periods ("today", "last_week", "last_7_days") and precision
// truncation are computed in [Options.Location] (UTC unless set) at
// [Options.Now]. Datetime fields are compared as instants, whatever their
// storage (model.Field.StoredAs), in forms a range index on the property
// seeks (instantSpan): epoch fields bare against an integer; temporal
// values per type, DATETIME against bounds at offset -18:00 (Neo4j orders
// two DATETIMEs of one instant by offset, west first, so a bound in UTC
// would be wrong at the boundary), LOCAL DATETIME as UTC, DATE as its
// midnight UTC; ISO strings, and datetimes stored_as: text (which start
// with their date too), by a string range a day or two wider than the
// span, then exactly by their epochMillis. A number or integer stored_as:
// text is parsed on every read (typedText), so it is never index-backed. The comparisons of one field
// in a list of ANDed conditions merge into one span. Parameters are
// truncated to the millisecond.
package planner
