package model

// Analytics configures the graph analytics tools, run by Neo4j Graph Data
// Science when the server has it.
type Analytics struct {
	// MaxNodes bounds the nodes one call projects into GDS's memory.
	MaxNodes int
	// Importance adds find_important_<entity> (PageRank), one per graph.
	Importance []*AnalyticsGraph
	// Clusters adds find_<entity>_clusters (Louvain or Leiden), one per
	// graph.
	Clusters []*AnalyticsClusters
	Pos      Pos
}

// AnalyticsGraph is what one analytics tool projects: the entity's nodes
// and the listed relationship types between them.
type AnalyticsGraph struct {
	Entity string
	// Relationships are types Entity declares to itself.
	Relationships []string
	// Weight is a number property of every listed type ("" weighs every
	// relationship 1).
	Weight string
	// Show are the fields each returned node shows beside its unique field.
	Show []string
	Pos  Pos
}

// Clustering algorithms of find_<entity>_clusters.
const (
	Louvain = "louvain"
	Leiden  = "leiden"
)

// AnalyticsClusters is a find_<entity>_clusters tool.
type AnalyticsClusters struct {
	AnalyticsGraph
	// Algorithm is Louvain or Leiden.
	Algorithm string
	// MinSize is the least members a returned cluster has.
	MinSize int
}
