// Package tree runs the tree tools a config gets when it declares a
// containment tree (`trees:`): create_diagram, query_file_tree and
// update_diagram_filters.
//
// A tree is read from Neo4j in one read statement (the node entities'
// nodes under the narrowest directory the path globs allow, each with its
// container), then filtered in Go — globs with doublestar, never as Cypher
// text or regex —, cut at a depth, summarized and laid out as a
// left-to-right hierarchical diagram in React Flow's node and edge form.
//
// The one write: a diagram is saved as a preset node (label
// _RagforgeDiagram: id, tree, name, description, filters as JSON, created
// and updated times) in its own write transaction, so a person's UI can
// reopen it and update_diagram_filters can change it. The graph the tree
// is made of is only ever read.
//
// Tenants: when the config declares a tenant, every statement compares the
// tenant field of each node it reads (tree nodes and containers alike)
// with the tenant engine.Execute bound to the call's context, and a preset
// carries that tenant and is found only by calls of it, so one tenant can
// neither see another's files nor open, redraw or change its diagrams by
// id. A call with no tenant bound is tenant.ErrUnbound and touches nothing.
package tree
