package model

// Tree is a containment tree declared in the config (directories holding
// files, folders holding documents, …): the tree tools read it from Neo4j,
// filter it with globs and lay it out as a diagram. Every name in it was
// validated against the entities, so it may appear (escaped) in Cypher.
type Tree struct {
	Name        string
	Description string
	// Nodes are the entities whose nodes belong to the tree, in config order.
	Nodes []string
	// Contains is the relationship type from a container to its children.
	Contains string
	// Path is the string field locating a node; every node entity has it.
	Path string
	// Size is the number field summed in statistics ("" when not declared);
	// an entity without it contributes no size.
	Size string
	// Language is the string or enum field language filters match ("" when
	// not declared).
	Language string
	Pos      Pos
}

// Tree returns the declared tree with the given name, or nil.
func (m *Model) Tree(name string) *Tree {
	for _, t := range m.Trees {
		if t.Name == name {
			return t
		}
	}
	return nil
}
