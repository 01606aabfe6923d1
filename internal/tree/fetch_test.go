package tree

import (
	"strings"
	"testing"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

func TestAgentPathsReachTheStatementOnlyAsParameters(t *testing.T) {
	m := fileTree()
	st, err := compile(m, m.Trees[0])
	if err != nil {
		t.Fatal(err)
	}
	hostile := "net/http' OR 1=1 //`) DETACH DELETE n //"
	a, pa := st.query(m.Trees[0], hostile, map[string]any{})
	b, _ := st.query(m.Trees[0], "x", map[string]any{})
	if a != b || strings.Contains(a, "DELETE") || pa["root"] != hostile || pa["below"] != hostile+"/" {
		t.Errorf("the statement depends on the root path:\n%s\nparams %v", a, pa)
	}
	all, pall := st.query(m.Trees[0], "", map[string]any{})
	if all == a || pall["root"] != nil || pall["e0"] != "Directory" || pall["e1"] != "File" {
		t.Errorf("the whole-tree statement %s with %v", all, pall)
	}
	for _, want := range []string{"MATCH (n:`Directory`)", "MATCH (n:`File`)", "n.`size` AS size", "null AS size", "(p)-[:`CONTAINS`]->(n) WHERE p:`Directory`"} {
		if !strings.Contains(a, want) {
			t.Errorf("statement lacks %q:\n%s", want, a)
		}
	}
}

func TestATenantConfigsTreeStatementsKeepEveryNodeToTheTenant(t *testing.T) {
	m := tenantFileTree()
	st, err := compile(m, m.Trees[0])
	if err != nil {
		t.Fatal(err)
	}
	for root, want := range map[string][]string{
		"": {"MATCH (n:`Directory`) WHERE n.`user_id` = $tenant\n", "MATCH (n:`File`) WHERE n.`user_id` = $tenant\n",
			"WHERE (p:`Directory`) AND p.`user_id` = $tenant\n"},
		"net": {"MATCH (n:`Directory`) WHERE n.`user_id` = $tenant AND (n.`path` = $root OR n.`path` STARTS WITH $below)\n",
			"MATCH (n:`File`) WHERE n.`user_id` = $tenant AND (n.`path` = $root OR", "WHERE (p:`Directory`) AND p.`user_id` = $tenant\n"},
	} {
		cypher, params := st.query(m.Trees[0], root, map[string]any{"tenant": "alice"})
		for _, w := range want {
			if !strings.Contains(cypher, w) {
				t.Errorf("root %q: statement lacks %q:\n%s", root, w, cypher)
			}
		}
		if params["tenant"] != "alice" {
			t.Errorf("root %q: params %v lost the tenant", root, params)
		}
	}
	r, err := New(m, tools.Env{})
	if err != nil {
		t.Fatal(err)
	}
	if r.presetKey != "id: $id, `user_id`: $tenant" {
		t.Errorf("presets are identified by %q, want the id and the tenant", r.presetKey)
	}
}

// tenantFileTree is fileTree scoped to a tenant field, user_id.
func tenantFileTree() *model.Model {
	m := fileTree()
	m.Tenant = &model.Tenant{Field: "user_id"}
	for _, e := range m.Entities {
		e.Fields = append(e.Fields, &model.Field{Name: "user_id", Type: model.String})
	}
	return m
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
