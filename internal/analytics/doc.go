// Package analytics runs the graph analytics tools of a config's
// `analytics:` block on Neo4j Graph Data Science (GDS, Community
// edition): find_important_<entity>, PageRank over declared relationships
// between an entity's nodes, and find_<entity>_clusters, their
// communities by Louvain or Leiden with sizes, top members and the
// partition's modularity.
//
// The engine offers these tools only when the server has GDS
// (tools.Capabilities.GDS). Each call:
//
//   - counts the entity's nodes (the bound tenant's only) and refuses a
//     graph of more than the config's max_nodes;
//   - projects them and the configured relationships between them into
//     GDS's memory with a Cypher projection (gds.graph.project as an
//     aggregation function), so the tenant predicate applies to both ends
//     of every relationship and labels, types and properties come from the
//     model only (docs/design.md, invariants 1 and 8);
//   - refuses, with a CallError saying what to load, a graph the
//     algorithm would answer with noise (no nodes, no relationships of
//     the call's types between them, weights all 0) or weights GDS cannot
//     use (NaN, infinite), rather than scores all alike or a NaN
//     modularity; a modularity GDS still cannot give is null with a note,
//     so no result holds a float JSON cannot write;
//   - names the projection itself, uniquely per call (never from the
//     agent), and drops it when the call ends, also when it fails or runs
//     out of time (in a fresh, short context);
//   - runs the algorithm in mutate mode, which changes only the projection
//     and reports what a stream cannot (PageRank's iterations and
//     convergence, the partition's modularity), then streams the top of
//     the result and reads each returned node (again compared with the
//     tenant).
//
// Everything runs in one read transaction under the call's timeout;
// Neo4j's transaction timeout also stops a running GDS algorithm. Scores
// are not stored in the graph.
package analytics
