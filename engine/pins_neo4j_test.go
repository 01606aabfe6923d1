package engine_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/tenant"
)

// notesOf runs a call and returns its answer's count and notes.
func notesOf(t *testing.T, ctx context.Context, e *engine.Engine, tool, args string) (int, []string) {
	t.Helper()
	res, err := e.Execute(ctx, engine.Call{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s %s: %v", tool, args, err)
	}
	return res.Count, res.Notes
}

// TestAnEmptyAnswerSaysWhichPinnedValueNoEntityHas: a relationship test,
// an explored start or an id that pins an entity by a value no entity
// has says so, with the closest values (case-insensitive prefix first,
// then edit distance); a pin that names an entity adds nothing.
func TestAnEmptyAnswerSaysWhichPinnedValueNoEntityHas(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (k:Person {name: 'Keanu Reeves'}), (c:Person {name: 'Carrie-Anne Moss'}),
		(m1:Movie {title: 'The Matrix Reloaded'}), (m2:Movie {title: 'The Matrix Revolutions'}), (m3:Movie {title: 'Speed'}),
		(k)-[:ACTED_IN]->(m1), (k)-[:ACTED_IN]->(m2), (c)-[:ACTED_IN]->(m1)`, nil)
	e := newEngine(t, d, "../testdata/configs/valid/movies.yaml", engine.Options{})
	ctx := context.Background()
	cases := []struct {
		tool, args, want string
	}{
		{"query_entities", `{"entity_type":"Person","conditions":[{"via":"ACTED_IN","conditions":[{"field":"title","operator":"=","value":"the matrix"}]}]}`,
			`no Movie has title "the matrix"; closest values: "The Matrix Reloaded", "The Matrix Revolutions"`},
		{"query_entities", `{"entity_type":"Person","conditions":[{"via":"ACTED_IN","conditions":[{"field":"title","operator":"=","value":"Sped"}]}]}`,
			`no Movie has title "Sped"; closest values: "Speed"`},
		{"query_entities", `{"entity_type":"Person","conditions":[{"via":"ACTED_IN","conditions":[{"field":"title","operator":"=","value":"Casablanca"}]}]}`,
			`no Movie has title "Casablanca"; no value is close`},
		{"get_entity_by_id", `{"entity_type":"Person","id_value":"Keanu"}`,
			`no Person has name "Keanu"; closest values: "Keanu Reeves"`},
		{"explore_relationships", `{"start_entity_type":"Person","start_conditions":[{"field":"name","operator":"=","value":"Carrie Anne Moss"}],"relationship_types":["ACTED_IN"]}`,
			`no Person has name "Carrie Anne Moss"; closest values: "Carrie-Anne Moss"`},
	}
	for _, c := range cases {
		n, notes := notesOf(t, ctx, e, c.tool, c.args)
		if n != 0 || !slices.Contains(notes, c.want) {
			t.Errorf("%s %s: count %d, notes %q; want the note %q", c.tool, c.args, n, notes, c.want)
		}
		if len(notes) != 1 {
			t.Errorf("%s %s: notes %q, want the one note", c.tool, c.args, notes)
		}
	}
	// Speed exists; nobody acted in it: the empty answer is true, no note.
	if n, notes := notesOf(t, ctx, e, "query_entities", `{"entity_type":"Person","conditions":[{"via":"ACTED_IN","conditions":[{"field":"title","operator":"=","value":"Speed"}]}]}`); n != 0 || len(notes) != 0 {
		t.Errorf("an existing pin: count %d, notes %q", n, notes)
	}
}

// TestPinnedValuesSuggestOnlyTheTenantsOwn: the closest values are read
// under the call's tenant; another tenant's value is never named.
func TestPinnedValuesSuggestOnlyTheTenantsOwn(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (:Folder {node_id: 'a:/specs-old', workspace_id: 'alice', path: '/specs-old', name: 'specs-old'})-[:CONTAINS]->(:Document {node_id: 'a:/specs-old/x.md', workspace_id: 'alice', path: '/specs-old/x.md', name: 'x.md'}),
		(:Folder {node_id: 'b:/specs', workspace_id: 'bob', path: '/specs', name: 'specs'})-[:CONTAINS]->(:Document {node_id: 'b:/specs/y.md', workspace_id: 'bob', path: '/specs/y.md', name: 'y.md'})`, nil)
	e := newEngine(t, d, "../testdata/configs/valid/team-drive.yaml", engine.Options{})
	args := `{"entity_type":"Document","conditions":[{"via":"CONTAINS","conditions":[{"field":"path","operator":"=","value":"/spec"}]}]}`
	_, notes := notesOf(t, tenant.With(context.Background(), "alice"), e, "query_entities", args)
	if want := `no Folder has path "/spec"; closest values: "/specs-old"`; !slices.Equal(notes, []string{want}) {
		t.Errorf("alice: notes %q, want %q", notes, want)
	}
	_, notes = notesOf(t, tenant.With(context.Background(), "bob"), e, "query_entities", args)
	if want := `no Folder has path "/spec"; closest values: "/specs"`; !slices.Equal(notes, []string{want}) {
		t.Errorf("bob: notes %q, want %q", notes, want)
	}
}

// TestAPinsClosestValuesSayWhenTheBoundCutTheSearch: over a label with
// more entities than the search reads, the note says the closest values
// are among the first ones read, not the closest the graph holds; whether
// the pinned value exists is still read exactly.
func TestAPinsClosestValuesSayWhenTheBoundCutTheSearch(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `UNWIND ['Speed', 'Speed 2', 'Sphere', 'Heat'] AS title CREATE (:Movie {title: title})`, nil)
	engine.LowerPinScan(t, 2)
	e := newEngine(t, d, "../testdata/configs/valid/movies.yaml", engine.Options{})
	ctx := context.Background()
	_, notes := notesOf(t, ctx, e, "query_entities", `{"entity_type":"Person","conditions":[{"via":"ACTED_IN","conditions":[{"field":"title","operator":"=","value":"Sped"}]}]}`)
	if len(notes) != 1 || !strings.HasPrefix(notes[0], `no Movie has title "Sped"; closest values among the first 2 read: `) {
		t.Errorf("notes %q, want the closest values among the first 2 read", notes)
	}
	// A bound of exactly the label's four entities cut nothing.
	engine.LowerPinScan(t, 4)
	if _, notes := notesOf(t, ctx, e, "query_entities", `{"entity_type":"Person","conditions":[{"via":"ACTED_IN","conditions":[{"field":"title","operator":"=","value":"Sped"}]}]}`); len(notes) != 1 || !strings.HasPrefix(notes[0], `no Movie has title "Sped"; closest values: `) {
		t.Errorf("a bound the label meets exactly: notes %q, want the closest values without a bound", notes)
	}
	// Heat is beyond the bound's first two, yet found: no pin note.
	if _, notes := notesOf(t, ctx, e, "query_entities", `{"entity_type":"Person","conditions":[{"via":"ACTED_IN","conditions":[{"field":"title","operator":"=","value":"Heat"}]}]}`); len(notes) != 0 {
		t.Errorf("an existing pin beyond the bound: notes %q", notes)
	}
}
