package planner

import "github.com/ragforge/ragforge/model"

// Statement is one tool call as Cypher: the text (identifiers from the model
// only), the parameters (every value the agent sent), which fields it used,
// and how the engine shapes its rows.
type Statement struct {
	// Cypher is the statement text; it never contains agent input.
	Cypher string `json:"cypher"`
	// Params holds the values, by parameter name (without the $).
	Params map[string]any `json:"params"`
	// Uses lists the fields the statement filters, orders, aggregates,
	// groups or returns, so usage can be counted per computed field.
	Uses []model.Use `json:"uses,omitempty"`
	// Shape says how the engine turns the rows into a result.
	Shape Shape `json:"shape"`
	// Filter, when set, is a match the engine applies in Go to each row
	// before counting it (regex and glob modes).
	Filter *Filter `json:"filter,omitempty"`
	// Fetch, when set, is the second step of a Filter statement, whose
	// rows then hold only the id and value columns: the engine runs Fetch
	// with Params[FetchIDs] set to the ids it kept, in row order, and
	// shapes Fetch's rows (the same order) into the result.
	Fetch *Statement `json:"fetch,omitempty"`
	// Next, when set, continues a Filter statement, whose one row holds
	// the ids and values of a chunk of candidates (lists, in unique-field
	// order, or in value order: Filter.ValueOrder): the next chunk is Next
	// run with Params, Params[ScanAfter] and Params[ScanAfterValue] set to
	// the last id and value read and Params[ScanChunk] to the chunk's size.
	Next *Statement `json:"next,omitempty"`
	// Embed, when set, asks the engine to embed a text and put the vector in
	// Params[Embed.Param] before running (semantic_search).
	Embed *Embed `json:"embed,omitempty"`
	// Total, when set, counts every match of a list call that asked for
	// its total, not only the page: the engine runs it in the call's read
	// transaction and reads its one row's ColTotal, which stops at
	// tools.MaxTotal+1 (more than tools.MaxTotal) when Params holds
	// ParamTotalCap (a grouped aggregate's counts every value).
	Total *Statement `json:"total,omitempty"`
	// Raw marks an agent-written statement (run_cypher): the engine must
	// check with EXPLAIN that it is a read before running it.
	Raw bool `json:"raw,omitempty"`
}

// FetchIDs is the parameter of a Fetch statement that the engine fills
// with the ids it kept.
const FetchIDs = "ids"

// ShapeKind names the form of a statement's rows.
type ShapeKind string

// The row forms the engine knows how to shape.
const (
	// ShapeEntities rows have the columns id, properties, computed and,
	// where the entity type varies (explore_relationships), labels; tools
	// may add score, distance_km, depth, from_id, relationship (the
	// properties of the relationship that reached the entity) and path.
	ShapeEntities ShapeKind = "entities"
	// ShapeRelationships rows are relationships (query_relationships):
	// the columns type, properties and the from_ and to_ ends' id, labels
	// and properties.
	ShapeRelationships ShapeKind = "relationships"
	// ShapeAggregate rows have the columns group (when Shape.Grouped),
	// value and ColCount (the values it aggregated).
	ShapeAggregate ShapeKind = "aggregate"
	// ShapeHistogram rows have the columns lower, upper and count.
	ShapeHistogram ShapeKind = "histogram"
	// ShapeRows rows are returned as they are (run_cypher).
	ShapeRows ShapeKind = "rows"
)

// The count columns of aggregate rows (ShapeAggregate): how many values
// (or entities) the value aggregated, and over every group.
const (
	ColCount = "count"
	ColTotal = "total"
	// ColDisplay holds the display fields of a group that is one entity
	// (grouped by its unique field).
	ColDisplay = "display"
)

// Shape tells the engine how to read a statement's rows.
type Shape struct {
	Kind ShapeKind `json:"kind"`
	// Entity is the entity type of every row, or "" when rows carry labels.
	Entity string `json:"entity,omitempty"`
	// Grouped marks an aggregate with group_by: one row per group, with a
	// group column. The planner says so rather than leaving the engine to
	// guess from the Cypher text, where a field named group also appears.
	Grouped bool `json:"grouped,omitempty"`
	// Limit is the most entities (or groups) the call asked for; the
	// statement may fetch more rows when a Go-side Filter drops some.
	Limit int `json:"limit"`
	// PageParam is the parameter holding the statement's page size, ""
	// when it has none: when it holds Limit, Execute asks for one row more
	// to tell whether the page was cut.
	PageParam string `json:"-"`
	// Extra names extra per-row columns to copy into each result entity
	// (score, distance_km, depth, from_id, relationship, value).
	Extra []string `json:"extra,omitempty"`
	// Related lists the include lists of the related column (ColRelated),
	// each fetched with one entity beyond its limit: the engine keeps
	// limit of them and says which lists it cut.
	Related []RelatedList `json:"related,omitempty"`
	// Stats names columns that are the same on every row and describe the
	// call (threshold, mean, stdev); the engine reports them once.
	Stats []string `json:"stats,omitempty"`
	// SortKeys are what a ranked statement orders its rows by before the
	// tie-break (the unique field, the group label), most significant
	// first. The engine, which fetches one row beyond the limit, compares
	// that row's keys with the last returned row's: equal keys mean the
	// tie-break, not the ranking the agent asked for, chose the cut, and
	// the result says so.
	SortKeys []SortKey `json:"sort_keys,omitempty"`
	// Notes are said with every result of the statement (e.g. the zone of
	// datetime buckets).
	Notes []string `json:"notes,omitempty"`
	// Capped names a boolean column, the same on every row, that is true
	// when a traversal stopped at Limits.MaxExpanded (ColCapped): the
	// engine adds a note and leaves the column out. A row whose other
	// columns are all null only carries it (the statement returns one when
	// the answer is otherwise empty) and is no result.
	Capped string `json:"capped,omitempty"`
	// NotFound is the note of a result without the entity the call named
	// (get_entity_by_id's id, distance_search's from, an explored start):
	// `no Airport has code "XXX"`. The engine says it when the statement
	// returns no row, or, when Missing is set, when that column is true.
	NotFound string `json:"not_found,omitempty"`
	// Pins are the string values the call pins an entity by, with an
	// equality (get_entity_by_id's id, an explored start's id, a `some`
	// relationship test's field = value): when the answer is empty the
	// engine checks each one names an entity and says which does not,
	// with the closest values the graph holds (issue 30: companyName =
	// "Plutzer" for "Plutzer Lebensmittelgroßmärkte AG").
	Pins []Pin `json:"pins,omitempty"`
	// TextOrdered are the stored text fields the statement compares with
	// <, <=, >, >= or sorts by (TextOrder).
	TextOrdered []TextOrder `json:"text_ordered,omitempty"`
	// Missing names a boolean column, the same on every row, that is true
	// when the named entity does not exist, for a statement whose empty
	// answer can also mean the entity exists (nothing near it, nothing
	// reached from it). Like Capped's, a row whose other columns are all
	// null only carries it and is no result.
	Missing string `json:"missing,omitempty"`
	// Whole names the property of the entity rows that holds a page of a
	// text the call asked for (get_entity_by_id's field), which the
	// statement bounds: the engine does not shorten it.
	Whole string `json:"whole,omitempty"`
}

// Pin is one equality a call pins an entity by (Shape.Pins).
type Pin struct {
	Entity string `json:"entity"`
	Field  string `json:"field"`
	Value  string `json:"value"`
	// Note says that no entity has the value, in NotFound's words.
	Note string `json:"note"`
}

// SortKey is one key of a ranked statement.
type SortKey struct {
	// Name is the key in the note: a field, score, distance_km or value.
	Name string `json:"name"`
	// Column is the row column holding the key's value.
	Column string `json:"column"`
	// Epoch is "s" or "ms" when the value is an instant in epoch seconds
	// or milliseconds, so the note can show it as a datetime.
	Epoch string `json:"epoch,omitempty"`
}

// ColSortKey prefixes the columns a statement adds to return its sort
// keys (sort_key_0, sort_key_1, …) when no other column holds them.
const ColSortKey = "sort_key_"

// Filter is a Go-side match on each candidate's text (the value column),
// for the modes whose patterns must not reach Neo4j's regex engine.
type Filter struct {
	// Mode is regex or glob.
	Mode    string `json:"mode"`
	Pattern string `json:"pattern"`
	// Arg is the argument the pattern came from ("/pattern"), where a
	// pattern the engine cannot compile is the agent's to fix.
	Arg string `json:"-"`
	// CaseSensitive is false to match ignoring case.
	CaseSensitive bool `json:"case_sensitive"`
	// ValueOrder, when set, names the field whose value orders the
	// chunks (a literal prefix its range index seeks), not the result's
	// unique field: the engine then reads every candidate, keeps the ids
	// (elementIds) of every match, and Fetch orders them and cuts the page.
	ValueOrder string `json:"value_order,omitempty"`
}

// Embed asks the engine to embed Text with the named vector index's model.
type Embed struct {
	Param string `json:"param"`
	Text  string `json:"text"`
	// Index names the vector index; Model its embedding model ("" when the
	// config names none).
	Index string `json:"index"`
	Model string `json:"model,omitempty"`
	// Dimensions is the length the vector must have.
	Dimensions int `json:"dimensions"`
}
