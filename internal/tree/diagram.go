package tree

import "time"

// LayoutHierarchical is the one layout: left to right, one column per depth.
const LayoutHierarchical = "hierarchical"

// Diagram is a laid-out tree in React Flow's form, with the preset it was
// saved as.
type Diagram struct {
	ID          string    `json:"diagram_id"`
	Tree        string    `json:"tree"`
	Name        string    `json:"name"`
	Description string    `json:"description,omitempty"`
	Filters     Filters   `json:"filters"`
	Layout      string    `json:"layout"`
	Nodes       []Flow    `json:"nodes"`
	Edges       []Edge    `json:"edges"`
	Stats       Stats     `json:"stats"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// Flow is a React Flow node. Type is the node's kind ("directory" or
// "file"), so a UI can register a component per kind (React Flow draws an
// unregistered type as its default node). Handles are on the left (target)
// and right (source) sides, as the layout runs left to right.
type Flow struct {
	ID             string   `json:"id"`
	Type           string   `json:"type"`
	Position       Point    `json:"position"`
	Data           FlowData `json:"data"`
	Width          int      `json:"width"`
	Height         int      `json:"height"`
	SourcePosition string   `json:"sourcePosition"`
	TargetPosition string   `json:"targetPosition"`
}

// FlowData is what a node shows: its name, and its path, kind, size and
// language.
type FlowData struct {
	Label    string `json:"label"`
	Path     string `json:"path"`
	Kind     string `json:"kind"`
	Size     *int64 `json:"size,omitempty"`
	Language string `json:"language,omitempty"`
}

// Edge is a React Flow edge from a container to a child; node ids are paths.
type Edge struct {
	ID     string `json:"id"`
	Source string `json:"source"`
	Target string `json:"target"`
}

// draw turns a view into React Flow nodes and edges at their laid-out
// positions.
func (v *view) draw() ([]Flow, []Edge) {
	pos := v.layout()
	nodes := make([]Flow, len(v.nodes))
	edges := make([]Edge, 0, len(v.nodes))
	for i, n := range v.nodes {
		nodes[i] = Flow{
			ID: n.Path, Type: n.Kind, Position: pos[i],
			Data:  FlowData{Label: n.Name(), Path: n.Path, Kind: n.Kind, Size: n.Size, Language: n.Language},
			Width: NodeWidth, Height: NodeHeight, SourcePosition: "right", TargetPosition: "left",
		}
		if n.Parent >= 0 {
			p := v.nodes[n.Parent].Path
			edges = append(edges, Edge{ID: p + "->" + n.Path, Source: p, Target: n.Path})
		}
	}
	return nodes, edges
}
