package materialize_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/materialize"
	"github.com/ragforge/ragforge/model"
)

// indexConfig has three stored computed fields: one materialized: true
// and one auto (stored because queries order by it), neither saying
// anything about an index, and one with index: false.
const indexConfig = `name: index-default
version: 1.0.0
description: Index defaults of materialized computed fields
entities:
  - name: Scope
    description: A declaration
    unique_field: uuid
    searchable_fields:
      - name: uuid
        type: string
        description: Identifier
      - name: startLine
        type: integer
        description: First line
      - name: endLine
        type: integer
        description: Last line
    computed_fields:
      - name: line_count
        type: integer
        description: Lines
        expression: endLine - startLine + 1
        materialized: true
      - name: span
        type: integer
        description: Lines minus one
        expression: endLine - startLine
        materialized: auto
      - name: double_end
        type: integer
        description: Twice the last line
        expression: endLine * 2
        materialized: true
        index: false
materialization:
  window: 7d
  min_uses: 5
  min_nodes: 1
  unused_after: 30d
`

func rangeIndexes(t *testing.T, d neo4j.DriverWithContext) map[string]string {
	t.Helper()
	res, err := neo4j.ExecuteQuery(context.Background(), d,
		"SHOW RANGE INDEXES YIELD name, labelsOrTypes, properties, state WHERE labelsOrTypes = ['Scope'] RETURN properties[0] AS prop, name",
		nil, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range res.Records {
		out[r.Values[0].(string)] = r.Values[1].(string)
	}
	return out
}

func statusIndex(t *testing.T, x *materialize.Materializer) map[string]string {
	t.Helper()
	st, err := x.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, s := range st {
		out[s.Name] = s.Index
	}
	return out
}

// TestMaterializedFieldsGetARangeIndexUnlessIndexFalse loads a config
// (the schema's default applies): a field stored because of order uses
// and a materialized: true field get a range index without asking, a
// field with index: false gets none, and status shows each index.
func TestMaterializedFieldsGetARangeIndexUnlessIndexFalse(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	neo4jtest.Run(t, d, "UNWIND range(1, 30) AS i CREATE (:Scope {uuid: 'u' + i, startLine: i, endLine: i * 3})", nil)
	path := filepath.Join(t.TempDir(), "ragforge.yaml")
	if err := os.WriteFile(path, []byte(indexConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	x, err := materialize.New(materialize.MustCompile(t, m), d, materialize.Options{Database: neo4jtest.Database(), Grace: -1})
	if err != nil {
		t.Fatal(err)
	}
	orderUses := []materialize.Count{{Day: materialize.Day(time.Now()), Entity: "Scope", Field: "span", Kind: model.UseOrder, N: 9}}
	as, err := x.Apply(ctx, orderUses, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range as {
		if a.Did != "materialized" {
			t.Errorf("%s: %s (%s), want materialized", a.Name, a.Did, a.Reason)
		}
	}
	ix := rangeIndexes(t, d)
	st := statusIndex(t, x)
	for _, f := range []string{"line_count", "span"} {
		want := materialize.IndexName("Scope", f)
		if ix[f] != want || st[f] != want {
			t.Errorf("%s: range index %q, status shows %q; want %s in both", f, ix[f], st[f], want)
		}
	}
	if ix["double_end"] != "" || st["double_end"] != "" {
		t.Errorf("double_end (index: false) got index %q (status %q)", ix["double_end"], st["double_end"])
	}
}

// TestStatusShowsAnIndexAddedOrDroppedByALaterApply: a field applied
// with index: false, then applied again after the config asks for an
// index, gets the index and status shows it; back to index: false, the
// index goes and status says so. The values are not rewritten.
func TestStatusShowsAnIndexAddedOrDroppedByALaterApply(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	neo4jtest.Run(t, d, "UNWIND range(1, 30) AS i CREATE (:Scope {uuid: 'u' + i, startLine: i, endLine: i * 3})", nil)
	path := filepath.Join(t.TempDir(), "ragforge.yaml")
	if err := os.WriteFile(path, []byte(indexConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	only := []model.FieldRef{{Entity: "Scope", Field: "double_end"}}
	apply := func(index bool) materialize.Action {
		t.Helper()
		m.Entity("Scope").ComputedField("double_end").Index = index
		x, err := materialize.New(materialize.MustCompile(t, m), d, materialize.Options{Database: neo4jtest.Database(), Grace: -1})
		if err != nil {
			t.Fatal(err)
		}
		as, err := x.Apply(ctx, nil, only)
		if err != nil || len(as) != 1 {
			t.Fatalf("apply (index %v): %+v, %v", index, as, err)
		}
		return as[0]
	}
	status := func() string {
		x, _ := materialize.New(materialize.MustCompile(t, m), d, materialize.Options{Database: neo4jtest.Database()})
		return statusIndex(t, x)["double_end"]
	}
	want := materialize.IndexName("Scope", "double_end")
	if a := apply(false); a.Did != "materialized" || status() != "" || rangeIndexes(t, d)["double_end"] != "" {
		t.Fatalf("first apply without index: %+v, status index %q", a, status())
	}
	if a := apply(true); a.Did != "indexed" || status() != want || rangeIndexes(t, d)["double_end"] != want {
		t.Errorf("second apply with index: %+v, status index %q, range index %q", a, status(), rangeIndexes(t, d)["double_end"])
	}
	if a := apply(true); a.Did != "up-to-date" {
		t.Errorf("third apply: %+v", a)
	}
	if a := apply(false); a.Did != "index dropped" || status() != "" || rangeIndexes(t, d)["double_end"] != "" {
		t.Errorf("apply back to index: false: %+v, status index %q, range index %q", a, status(), rangeIndexes(t, d)["double_end"])
	}
}
