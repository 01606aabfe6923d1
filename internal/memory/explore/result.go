package explore

// Result is what explore returns.
type Result struct {
	// Hits are the top hits of each entity, in salience order.
	Hits []Hit `json:"hits"`
	// Edges join two hits.
	Edges []Edge `json:"edges"`
	// Owner is the user's own node, when the config names one and it
	// exists; OwnerEdges join it to hits.
	Owner      *Node  `json:"owner,omitempty"`
	OwnerEdges []Edge `json:"owner_edges,omitempty"`
	// Neighbours are nodes one edge away from a hit (neither a hit nor
	// the owner), NeighboursPerHit per hit at most, joined to their hits
	// by NeighbourEdges.
	Neighbours     []Node `json:"neighbours"`
	NeighbourEdges []Edge `json:"neighbour_edges"`
	// TopEdges are the TopEdges most relevant of the edges above: by the
	// relevance property, then the most recent.
	TopEdges     []Edge        `json:"top_edges"`
	Explanations *Explanations `json:"explanations,omitempty"`
}

// Node is a node of the result: its entity, its unique field's value (the
// key update and relationship tools take) and its display fields.
type Node struct {
	Entity string         `json:"entity"`
	Key    any            `json:"key"`
	Fields map[string]any `json:"fields,omitempty"`
}

// Hit is a node found by a search, with its score (best normalized source
// score, 0..1) and salience (score × degree weight × recency weight).
type Hit struct {
	Node
	Score    float64 `json:"score"`
	Salience float64 `json:"salience"`
	// Why holds the score's parts when explanations were asked.
	Why *Why `json:"why,omitempty"`
}

// Why explains one hit's salience.
type Why struct {
	// Sources are the searches that found it, each with its normalized
	// score.
	Sources       []string `json:"sources"`
	Degree        int64    `json:"degree"`
	DegreeWeight  float64  `json:"degree_weight"`
	RecencyWeight float64  `json:"recency_weight"`
}

// Ref names a node in an edge.
type Ref struct {
	Entity string `json:"entity"`
	Key    any    `json:"key"`
}

// Edge is a relationship of a declared type with its declared properties.
type Edge struct {
	Type       string         `json:"type"`
	From       Ref            `json:"from"`
	To         Ref            `json:"to"`
	Properties map[string]any `json:"properties,omitempty"`
}

// Explanations count what the call found and dropped.
type Explanations struct {
	Sources  []SourceCount `json:"sources"`
	Entities []EntityCount `json:"entities"`
	// NotSearched names entities no search of the call could reach.
	NotSearched []string `json:"not_searched,omitempty"`
	// NeighbourEdgesRead is how many edges to neighbours were read,
	// before NeighboursPerHit and MaxNeighbours cut them.
	NeighbourEdgesRead int    `json:"neighbour_edges_read"`
	Salience           string `json:"salience"`
}

// SourceCount is one search's count of nodes found in the tenant.
type SourceCount struct {
	Source string `json:"source"`
	Entity string `json:"entity"`
	Hits   int    `json:"hits"`
	// DroppedByThreshold counts vector candidates under the threshold.
	DroppedByThreshold int `json:"dropped_by_threshold,omitempty"`
}

// EntityCount is one entity's count of distinct candidates, and how many
// top kept.
type EntityCount struct {
	Entity       string `json:"entity"`
	Candidates   int    `json:"candidates"`
	Kept         int    `json:"kept"`
	DroppedByTop int    `json:"dropped_by_top"`
	Top          int    `json:"top"`
}
