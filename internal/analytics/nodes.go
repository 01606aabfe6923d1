package analytics

import (
	"fmt"
	"strings"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
)

// Node is an entity of a result: its unique field's value and the fields
// the config shows.
type Node struct {
	Key    any            `json:"key"`
	Fields map[string]any `json:"fields,omitempty"`
}

// nodeReader reads the nodes a statement returns.
type nodeReader struct {
	// where keeps the node in the bound tenant ("" without a tenant).
	where string
	// columns return the unique field, then each shown field.
	columns string
	show    []string
}

// readNodes writes how a statement returns node v: its tenant check and
// its columns, from the model only.
func (gr *graph) readNodes(v string) (*nodeReader, error) {
	where, err := gr.scope(v)
	if err != nil {
		return nil, err
	}
	r := &nodeReader{where: where, show: gr.g.Show}
	cols := make([]string, 0, 1+len(gr.g.Show))
	for _, f := range append([]string{gr.e.UniqueField}, gr.g.Show...) {
		q, err := ident.Quote(f)
		if err != nil {
			return nil, err
		}
		cols = append(cols, fmt.Sprintf("%s.%s", v, q))
	}
	r.columns = strings.Join(cols, ", ")
	return r, nil
}

// node reads a row's node from its first columns.
func (r *nodeReader) node(values []any) Node {
	n := Node{Key: neo4jvalue.Value(values[0])}
	for i, f := range r.show {
		if v := values[1+i]; v != nil {
			if n.Fields == nil {
				n.Fields = map[string]any{}
			}
			n.Fields[f] = neo4jvalue.Value(v)
		}
	}
	return n
}
