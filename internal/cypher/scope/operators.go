package scope

import "strings"

// kind is how an operator moves rows and whether it reads nodes from the
// store.
type kind int

const (
	// unknown operators are refused: what they read cannot be proven.
	unknown kind = iota
	// nodeLeaf reads nodes from the store (a scan or seek) and binds the
	// variable of its details.
	nodeLeaf
	// relLeaf reads relationships from the store and binds both end nodes.
	relLeaf
	// expandAll follows relationships from a bound node to a new one.
	expandAll
	// optionalExpandAll is expandAll that keeps its input row (with
	// nulls) when no relationship matches its predicate.
	optionalExpandAll
	// endpoints binds the end nodes of a bound relationship.
	endpoints
	// procedure calls a procedure once per input row.
	procedure
	// filter keeps the rows its predicate holds for.
	filter
	// rowwise operators pass each row up on its own: whether a row comes
	// out never depends on other rows, so a filter above still decides
	// every row that came from below. Two-input ones pass both inputs'
	// rows up.
	rowwise
	// barrier operators decide rows by looking at others (LIMIT, SKIP,
	// DISTINCT, aggregation, OPTIONAL's null row): a filter above them
	// comes too late, the decision already saw the other tenant's rows.
	barrier
	// semi operators pass up their left input's rows and use their right
	// input only to decide (EXISTS, pattern comprehension, COLLECT,
	// triadic checks): a filter above never sees the right input's rows.
	semi
	// refused operators read nodes the check cannot see one by one
	// (variable-length patterns, shortest paths) or count every tenant's
	// nodes at once (count store).
	refused
)

// kinds classifies the operators of Neo4j 5.26's plans by name (without
// the "@database" suffix).
var kinds = map[string]kind{
	"AllNodesScan": nodeLeaf, "NodeByLabelScan": nodeLeaf, "UnionNodeByLabelsScan": nodeLeaf,
	"IntersectionNodeByLabelsScan": nodeLeaf, "SubtractionNodeByLabelsScan": nodeLeaf,
	"NodeByIdSeek": nodeLeaf, "NodeByElementIdSeek": nodeLeaf,
	"NodeIndexSeek": nodeLeaf, "NodeUniqueIndexSeek": nodeLeaf, "NodeIndexSeekByRange": nodeLeaf,
	"NodeUniqueIndexSeekByRange": nodeLeaf, "NodeIndexScan": nodeLeaf,
	"NodeIndexContainsScan": nodeLeaf, "NodeIndexEndsWithScan": nodeLeaf,

	"Expand(All)": expandAll, "OptionalExpand(All)": optionalExpandAll,
	"Expand(Into)": rowwise, "OptionalExpand(Into)": rowwise,
	"ProjectEndpoints": endpoints,
	"ProcedureCall":    procedure,
	"Filter":           filter,

	"ProduceResults": rowwise, "Projection": rowwise, "Unwind": rowwise, "Sort": rowwise,
	"PartialSort": rowwise, "Eager": rowwise, "CacheProperties": rowwise, "EmptyResult": rowwise,
	"Apply": rowwise, "CartesianProduct": rowwise, "NodeHashJoin": rowwise, "ValueHashJoin": rowwise,
	"Union": rowwise, "OrderedUnion": rowwise, "Argument": rowwise,

	"Limit": barrier, "ExhaustiveLimit": barrier, "Skip": barrier, "Top": barrier, "Top1WithTies": barrier,
	"PartialTop": barrier, "Distinct": barrier, "OrderedDistinct": barrier, "EagerAggregation": barrier,
	"OrderedAggregation": barrier, "Optional": barrier, "Anti": barrier,
	"NodeLeftOuterHashJoin": barrier, "NodeRightOuterHashJoin": barrier,

	"SemiApply": semi, "AntiSemiApply": semi, "LetSemiApply": semi, "LetAntiSemiApply": semi,
	"SelectOrSemiApply": semi, "SelectOrAntiSemiApply": semi, "LetSelectOrSemiApply": semi,
	"LetSelectOrAntiSemiApply": semi, "RollUpApply": semi, "TriadicSelection": semi,

	"NodeCountFromCountStore": refused, "RelationshipCountFromCountStore": refused,
	"ShortestPath": refused, "BFSPruningVarExpand": refused,
}

// kindOf classifies an operator; relationship scans and seeks are named
// Directed… and Undirected…, variable-length expansions and shortest
// paths come in several variants.
func kindOf(op string) kind {
	if k, ok := kinds[op]; ok {
		return k
	}
	switch {
	case strings.HasPrefix(op, "Directed") || strings.HasPrefix(op, "Undirected"):
		return relLeaf
	case strings.HasPrefix(op, "VarLengthExpand"), strings.HasPrefix(op, "StatefulShortestPath"),
		strings.HasPrefix(op, "Repeat"), strings.HasPrefix(op, "ShortestPath"), strings.Contains(op, "PruningVarExpand"):
		return refused
	}
	return unknown
}

// nodeSearches are procedures that return nodes from an index: each must
// yield its node, and the node must be scoped like any other.
var nodeSearches = map[string]bool{"db.index.fulltext.queryNodes": true, "db.index.vector.queryNodes": true}

// relSearches return relationships from an index; their end nodes never
// appear in the plan, so they are refused.
var relSearches = map[string]bool{"db.index.fulltext.queryRelationships": true, "db.index.vector.queryRelationships": true}
