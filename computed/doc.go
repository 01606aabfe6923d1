// Package computed gives every computed field of a config one meaning and
// two implementations: a Cypher fragment the planner puts in queries, and a
// Go evaluation (built on github.com/expr-lang/expr) that differential tests
// hold Neo4j to (docs/design.md, invariant 2).
//
// [Compile] parses each `expression` with expr's parser, checks it against
// the entity's fields and other computed fields (types from the config),
// rejects unknown names (with a did-you-mean), type errors and anything
// outside the supported set, orders dependencies and rejects cycles
// (`line_count → is_large → line_count`). [Field.Fragment] writes the Cypher
// (node variable n by default) and [Field.Eval] evaluates in Go. A raw
// `cypher:` field becomes a scoped subquery ([Field.Subquery]) checked on a
// server by [ExplainCheck].
//
// A relationship's computed fields ([Model.Relationship]) are expressions
// over its properties and its ends' stored fields, from.x and to.x (the
// nodes its stored arrow leaves and enters), written over startNode and
// endNode of the relationship variable ([Options.Node]); they have no
// cypher form and are never materialized.
//
// [CompileModel] compiles a whole model into a [Model]. Its owner compiles
// it once and hands it down (engine.New to its planners and write tools;
// materialize takes it), so no call compiles.
//
// # Supported expressions
//
// Everything is null-propagating: a null or missing input gives null (Cypher's
// rule; expr would error on nil, the Go side returns nil instead).
//
//	expr                         Cypher                                      meaning
//	a + b, a - b, a * b          (a + b) …                                   int op int is int; overflow is an error on both sides
//	a / b                        (toFloat(a) / nullIf(toFloat(b), 0.0))      float division (expr); zero divisor → null
//	a % b                        (a % nullIf(b, 0))                          truncated remainder; zero divisor → null
//	a ** b, a ^ b                (a ^ b)                                     float power
//	-a                           -(a)                                        -minInt64 is an overflow error
//	a == b, a != b               (a = b), (a <> b)                           null if either is null; an int and a float compare exactly
//	a < b, <=, >, >=             (a < b) …                                   numbers (exactly; -0.0 sorts below 0) and datetimes
//	a == nil, a != nil           (a IS NULL), (a IS NOT NULL)                never null
//	a and b, a or b, not a       (a AND b), (a OR b), (NOT a)                three-valued; false (AND) or true (OR) wins even over an error (Errors)
//	c ? a : b                    CASE c WHEN true THEN a WHEN false THEN b END  null condition → null
//	a ?? b                       coalesce(a, b)
//	s + t (strings)              (s + t)                                     string + number is a type error
//	s contains t                 (s CONTAINS t)
//	s startsWith t, endsWith     (s STARTS WITH t), (s ENDS WITH t)
//	s matches "^…"               (s =~ '<possessive Java pattern>')          constant, anchored, linear subset (below)
//	x in [c1, c2]                (x IN [c1, c2])                             constants of x's type only
//	len(s)                       size(s)                                     code points
//	abs(x)                       abs(x)                                      abs(minInt64) = minInt64, as in Java
//	ceil(x), floor(x)            ceil(x), floor(x)                           float result
//	round(x)                     round(x, 0, 'HALF_UP')                      half away from zero (Go's math.Round), float
//	lower(s), upper(s)           toLower(s), toUpper(s)                      full Unicode case mapping (ß → SS, İ → i̇)
//	trim(s)                      trim(s)                                     strips Java whitespace (not U+00A0)
//	min(a, b), max(a, b)         CASE WHEN a <= b THEN a WHEN a > b THEN b END  numbers; ties keep a
//	now()                        datetime({timezone: 'Z'})                   statement time, UTC
//	days_since(t)                ((now.epochMillis - t.epochMillis) / 86400000)   whole days, truncated toward zero
//	hours_since(t)               … / 3600000                                 whole hours
//	days_between(a, b)           ((b.epochMillis - a.epochMillis) / 86400000)
//	year(t), month(t), day(t)    (t).year, (t).month, (t).day                integers of t's UTC calendar (below)
//	hour(t)                      (t).hour                                    0 to 23, UTC
//	weekday(t)                   (t).dayOfWeek                               ISO: Monday 1 … Sunday 7, UTC
//	truncate(t, "month")         [v IN [t] WHERE v IS NOT NULL |             the UTC start of t's "hour", "day", "week"
//	                               datetime.truncate('month', v)][0]         (Monday), "month" or "year"; the unit is a constant
//	to_float(s), to_int(s)       CASE WHEN s =~ '<form>' THEN toFloat(s) END  text as a number (internal/textvalue's forms); other text → null, not an error
//	to_datetime(s)               CASE WHEN s =~ '<form>' THEN datetime(…) END  "1996-07-04", "1996-07-04 00:00:00.000", "…T10:11:12+02:00"; no zone is UTC; other text → null
//	parse_datetime(s, "02/01/2006")  CASE WHEN s =~ '<layout's form>' THEN datetime(<ISO from substrings>) END  a constant layout (textvalue.Layout), UTC
//	other_computed_field         inlined, or n.`cache_property` when materialized
//
// A stored number or integer field declared stored_as: text is read through
// to_float or to_int, and a datetime stored_as: text through to_datetime (or
// parse_datetime with its layout), so
// `quantity * unitPrice` works on Northwind's text-typed order lines. A
// non-numeric text (a "NULL" marker, " 12", "1e3", "12.7" for an integer) is
// null on both sides, never an error; a text in the datetime form that names
// no calendar day (1996-02-30) is an error on both sides.
//
// # Errors
//
// Integer overflow (and a stored datetime of the wrong type) is an error,
// not a value: Eval returns it and Neo4j raises it, except that the
// deciding operand of AND (false) or OR (true) absorbs an error from the
// other side, which is what Neo4j's runtime does for one AND or OR. A
// fragment must keep that meaning through Neo4j's own rewrites, which
// assume expressions cannot fail. Constant folding reorders products, and
// the conjunctive normal form distributes OR over AND: null OR (<overflow>
// AND false) is null, but (null OR <overflow>) AND (null OR false) is an
// error. So the Cypher fences an operand those rewrites would reach in
// coalesce(…), the identity of one argument, which they do not look into:
// a factor that is a product or computed field, and an operand of AND or
// OR that is a NOT or the other operator (a run of one operator stays
// bare).
//
// Strings are not ordered (< > on strings is rejected): Neo4j orders a
// string by code point or by UTF-16 unit depending on how the value is held
// (a stored property or a function's result), so no single meaning exists.
//
// Everything else — member access, lists outside `in`, maps, closures
// (all/any/filter/map), let, pipes, ranges, slices, other builtins — is
// rejected with a message that lists what is supported.
//
// # Datetimes
//
// Every datetime read is converted to one meaning, a UTC instant, whatever
// its storage (model.Field.StoredAs): a temporal DATETIME keeps its instant
// (time zones compare and subtract correctly, and a named zone's repeated
// hour keeps its offset), a LOCAL DATETIME is read as UTC, a DATE is
// midnight UTC; an ISO string is parsed only when it is strict RFC 3339
// (otherwise null); epoch seconds and milliseconds count from
// 1970-01-01T00:00Z. Datetimes compare (==, <, …), take ?? and ?:, feed
// days_since, hours_since and days_between, and give their parts (year,
// month, day, hour, weekday) and truncations (truncate); there is no other
// date arithmetic.
//
// Date parts and truncations are read in UTC, the zone a datetime without
// one is read in: 2024-03-01T00:30+02:00 is February 29, hour 22. A field
// has one value whoever asks, so it can be materialized, filtered and
// grouped; the zone an engine shows buckets and periods in
// (engine.Options.Location) does not change it. truncate gives a datetime
// (the start of the period), so a truncated field compares with datetimes
// and groups by period. A null datetime gives null; Cypher's
// datetime.truncate fails on null, so the fragment binds the value once and
// truncates it only when present.
//
// # matches
//
// A pattern must be a constant that starts with ^; after it come literal
// characters, classes, . and single-character quantifiers, where a repeated
// item shares no character with the item after it, and an optional final $.
// Such a pattern has at most one way to match, so Java's possessive
// quantifiers (used in the Cypher form) find the same answer as RE2 in one
// linear pass; see safePattern.
//
// # Literals and identifiers
//
// Fragments are self-contained text: the config's constants are written as
// escaped Cypher literals (strings single-quoted with \\ \' and \uXXXX for
// control characters), property names and aliases in backticks. Cypher's
// lexer decodes \uXXXX before tokenizing, so every backslash written is part
// of an escape chosen here, and names holding a backslash are refused. Agent
// input never reaches this package.
//
// # Raw cypher fields
//
// A `cypher:` body must return one column named like the field. The planner
// runs it as
//
//	MATCH (n:Label) CALL (n) { CALL (n) { <body> } WITH collect([`field`]) AS __rf_rows
//	    RETURN CASE size(__rf_rows) WHEN 1 THEN __rf_rows[0][0] END AS `__rf_n_field` }
//	RETURN `__rf_n_field`
//
// so the row is kept whatever the body returns, and exactly one row gives
// its value (zero or several give null). ExplainCheck verifies on a server
// that the body compiles, returns that column and is read-only.
package computed
