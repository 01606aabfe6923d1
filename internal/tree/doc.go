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
package tree
