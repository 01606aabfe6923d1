package tree

import (
	"strings"
	"testing"

	"github.com/ragforge/ragforge/model"
)

func TestAgentPathsReachTheStatementOnlyAsParameters(t *testing.T) {
	m := fileTree()
	st, err := compile(m, m.Trees[0])
	if err != nil {
		t.Fatal(err)
	}
	hostile := "net/http' OR 1=1 //`) DETACH DELETE n //"
	a, pa := st.query(m.Trees[0], hostile)
	b, _ := st.query(m.Trees[0], "x")
	if a != b || strings.Contains(a, "DELETE") || pa["root"] != hostile || pa["below"] != hostile+"/" {
		t.Errorf("the statement depends on the root path:\n%s\nparams %v", a, pa)
	}
	all, pall := st.query(m.Trees[0], "")
	if all == a || pall["root"] != nil || pall["e0"] != "Directory" || pall["e1"] != "File" {
		t.Errorf("the whole-tree statement %s with %v", all, pall)
	}
	for _, want := range []string{"MATCH (n:`Directory`)", "MATCH (n:`File`)", "n.`size` AS size", "null AS size", "(p)-[:`CONTAINS`]->(n) WHERE p:`Directory`"} {
		if !strings.Contains(a, want) {
			t.Errorf("statement lacks %q:\n%s", want, a)
		}
	}
}

// fileTree is the tree part of the file-tree example as a model (package
// engine, which loads configs, imports this package).
func fileTree() *model.Model {
	path := &model.Field{Name: "path", Type: model.String}
	return &model.Model{
		Entities: []*model.Entity{
			{Name: "Directory", UniqueField: "path", Fields: []*model.Field{path},
				Relationships: []*model.Relationship{{Type: "CONTAINS", Targets: []string{"Directory", "File"}, Direction: model.Outgoing}}},
			{Name: "File", UniqueField: "path", Fields: []*model.Field{path, {Name: "size", Type: model.Integer}, {Name: "language", Type: model.Enum}},
				Relationships: []*model.Relationship{{Type: "CONTAINS", Targets: []string{"Directory"}, Direction: model.Incoming}}},
		},
		Trees: []*model.Tree{{Name: "files", Nodes: []string{"Directory", "File"}, Contains: "CONTAINS", Path: "path", Size: "size", Language: "language"}},
	}
}
