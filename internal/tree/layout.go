package tree

// Layout geometry of a hierarchical (left-to-right) diagram, in pixels.
const (
	// NodeWidth and NodeHeight are every node's box.
	NodeWidth  = 220
	NodeHeight = 36
	// ColumnStep is the horizontal distance between depths (box and gap).
	ColumnStep = NodeWidth + 80
	// RowStep is the vertical distance between leaves (box and gap).
	RowStep = NodeHeight + 12
)

// Point is a position in React Flow's coordinates: the top-left corner of
// a node's box, y growing downwards.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// layout places the view left to right: depth d in column d, every leaf in
// a row of its own in depth-first order, and every container centred on
// the rows of its first and last child. A node's subtree occupies a run of
// rows no other subtree at its depth uses, and a node lies within its
// run, so no two boxes overlap. Linear in the number of nodes.
func (v *view) layout() []Point {
	pos := make([]Point, len(v.nodes))
	row := 0
	// A post-order walk places the children before their parent.
	var place func(i int)
	place = func(i int) {
		n := v.nodes[i]
		pos[i].X = float64(n.Depth * ColumnStep)
		if len(n.Children) == 0 {
			pos[i].Y = float64(row * RowStep)
			row++
			return
		}
		for _, c := range n.Children {
			place(c)
		}
		first, last := pos[n.Children[0]].Y, pos[n.Children[len(n.Children)-1]].Y
		pos[i].Y = snap((first + last) / 2)
	}
	for i, n := range v.nodes {
		if n.Parent < 0 {
			place(i)
		}
	}
	return pos
}

// snap rounds a coordinate to a whole pixel, so positions stay exact in
// JSON and SVG.
func snap(f float64) float64 { return float64(int64(f + 0.5)) }
