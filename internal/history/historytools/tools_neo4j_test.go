package historytools_test

import (
	"context"
	"encoding/json"
	"errors"
	"path"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/fixture"
	"github.com/ragforge/ragforge/internal/history/change"
	"github.com/ragforge/ragforge/internal/history/gitimport"
	"github.com/ragforge/ragforge/internal/history/historytest"
	"github.com/ragforge/ragforge/internal/history/historytools"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// now is the clock of the tests: a week after the last commit.
var now = time.Date(2026, 2, 10, 12, 0, 0, 0, time.UTC)

// repo is the test repository loaded as a code graph with its history
// imported.
type repo struct {
	d neo4j.DriverWithContext
	g *fixture.Graph
	// want are the Changes Go expects.
	want []historytest.Change
}

// imported loads the test repository's tree and history and returns an
// engine offering the history tools, with the Changes Go expects.
func imported(t *testing.T) (*engine.Engine, []historytest.Change) {
	t.Helper()
	r := importRepo(t)
	return r.engine(t, func() time.Time { return now }), r.want
}

func importRepo(t *testing.T) *repo {
	t.Helper()
	d := neo4jtest.Open(t)
	dir, commits := historytest.Build(t)
	g := historytest.Load(t, d, dir)
	if _, err := gitimport.Import(context.Background(), d, example(t, "code-rag"), dir, gitimport.Options{Database: neo4jtest.Database()}); err != nil {
		t.Fatal(err)
	}
	return &repo{d: d, g: g, want: historytest.Expected(g, commits, change.Unified)}
}

// example loads an example config (code-rag, memory-graph).
func example(t *testing.T, name string) *model.Model {
	t.Helper()
	m, err := config.Load("../../../testdata/configs/valid/" + name + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// historyEngine offers m's history (and write) tools on d, relative
// periods counting from clock.
func historyEngine(t *testing.T, d neo4j.DriverWithContext, m *model.Model, clock func() time.Time) *engine.Engine {
	t.Helper()
	e, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database(), Now: clock,
		Tools: tools.Options{History: true, Capabilities: &tools.Capabilities{FullText: true}}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// engine offers the history tools over the repository with the clock.
func (r *repo) engine(t *testing.T, clock func() time.Time) *engine.Engine {
	t.Helper()
	return historyEngine(t, r.d, example(t, "code-rag"), clock)
}

// display is what the tools show of an entity of the repository:
// code-rag's Scope shows the fields its analytics show (name, type,
// file), File its name.
func (r *repo) display(entity, key string) map[string]any {
	if entity == "File" {
		return map[string]any{"name": path.Base(key)}
	}
	for _, s := range r.g.Scopes {
		if s.UUID == key {
			return map[string]any{"name": s.Name, "type": s.Type, "file": s.File}
		}
	}
	return nil
}

// call runs a tool and returns its result as JSON-decoded into out,
// which it zeroes first (a reused result keeps nothing of an earlier one).
func call(t *testing.T, e *engine.Engine, ctx context.Context, name string, args map[string]any, out any) error {
	t.Helper()
	reflect.ValueOf(out).Elem().SetZero()
	raw, _ := json.Marshal(args)
	res, err := e.Execute(ctx, engine.Call{Name: name, Arguments: raw})
	if err != nil {
		return err
	}
	b, err := json.Marshal(res.Custom)
	if err != nil {
		t.Fatal(err)
	}
	return json.Unmarshal(b, out)
}

func mustCall(t *testing.T, e *engine.Engine, name string, args map[string]any, out any) {
	t.Helper()
	if err := call(t, e, context.Background(), name, args, out); err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
}

func TestEntityHistoryListsTheChangesOfOneEntityNewestFirst(t *testing.T) {
	e, want := imported(t)
	var got historytools.EntityHistoryResult
	mustCall(t, e, historytools.EntityHistory, map[string]any{"entity_type": "File", "key": "a.go", "limit": 2, "include_diff": true}, &got)
	var mine []historytest.Change
	for _, c := range want {
		if c.Entity == "File" && c.Key == "a.go" {
			mine = append(mine, c)
		}
	}
	sort.Slice(mine, func(i, j int) bool { return mine[i].Commit.Time.After(mine[j].Commit.Time) })
	if got.Total != int64(len(mine)) || len(got.Changes) != 2 || len(got.Notes) != 1 {
		t.Fatalf("history %+v, want 2 of %d changes and a note", got, len(mine))
	}
	for i, c := range got.Changes {
		w := mine[i]
		if c.Commit != w.Commit.Hash || c.Kind != w.Kind || c.LinesAdded != int64(w.Added) || c.LinesRemoved != int64(w.Removed) || c.Author != w.Commit.Author || c.Message != w.Commit.Subject || c.Diff == "" {
			t.Errorf("change %d: %+v, want %+v", i, c, w)
		}
	}
	err := call(t, e, context.Background(), historytools.EntityHistory, map[string]any{"entity_type": "File", "key": "nope.go"}, &got)
	var ce *tools.CallError
	if !errors.As(err, &ce) || !strings.Contains(ce.Error(), `no File has path "nope.go"`) {
		t.Errorf("unknown file: %v", err)
	}
}

// modified is what Go computes for the entities changed in [from, to).
func modified(want []historytest.Change, from, to time.Time) map[string]historytools.Modified {
	out := map[string]historytools.Modified{}
	for _, c := range want {
		if c.Commit.Time.Before(from) || !c.Commit.Time.Before(to) {
			continue
		}
		k := c.Entity + " " + c.Key
		m := out[k]
		m.EntityType, m.Key = c.Entity, c.Key
		m.Changes++
		m.LinesAdded += int64(c.Added)
		m.LinesRemoved += int64(c.Removed)
		if last := c.Commit.Time.Format(time.RFC3339Nano); last > m.LastModified {
			m.LastModified = last
		}
		out[k] = m
	}
	return out
}

func TestRecentlyAndMostModifiedAgreeWithTheCommits(t *testing.T) {
	r := importRepo(t)
	e, want := r.engine(t, func() time.Time { return now }), r.want
	// last_month is January 2026: commits 1 and 2.
	var recent historytools.ModifiedResult
	mustCall(t, e, historytools.RecentlyModified, map[string]any{"relative_period": "last_month"}, &recent)
	exp := modified(want, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC))
	var expList []historytools.Modified
	for _, m := range exp {
		m.Display = r.display(m.EntityType, m.Key)
		expList = append(expList, m)
	}
	sort.Slice(expList, func(i, j int) bool {
		a, b := expList[i], expList[j]
		if a.LastModified != b.LastModified {
			return a.LastModified > b.LastModified
		}
		return a.EntityType+" "+a.Key < b.EntityType+" "+b.Key
	})
	if diff := cmp.Diff(expList, recent.Entities); diff != "" {
		t.Errorf("recently modified in last_month (-go +tool):\n%s", diff)
	}
	var most historytools.ModifiedResult
	mustCall(t, e, historytools.MostModified, map[string]any{"order_by": "churn", "limit": 1, "entity_type": "Scope"}, &most)
	all := modified(want, time.Time{}, now)
	var best historytools.Modified
	for _, m := range all {
		if m.EntityType == "Scope" && (m.LinesAdded+m.LinesRemoved > best.LinesAdded+best.LinesRemoved ||
			m.LinesAdded+m.LinesRemoved == best.LinesAdded+best.LinesRemoved && m.Changes > best.Changes) {
			best = m
		}
	}
	best.Display = r.display("Scope", best.Key)
	if len(most.Entities) != 1 || !cmp.Equal(most.Entities[0], best) || len(most.Notes) == 0 {
		t.Errorf("most churned scope %+v, want %+v and a note of the cut", most, best)
	}
}

func TestStatisticsTallyByKindTypeAndMonth(t *testing.T) {
	e, want := imported(t)
	var got historytools.StatisticsResult
	mustCall(t, e, historytools.Statistics, map[string]any{"bucket": "month", "since": "2026-01-01"}, &got)
	exp := historytools.StatisticsResult{From: "2026-01-01T00:00:00Z", ByKind: map[string]historytools.Tally{}, ByEntityType: map[string]historytools.Tally{}}
	buckets := map[string]historytools.Tally{}
	add := func(m map[string]historytools.Tally, k string, c historytest.Change) {
		t := m[k]
		t.Changes++
		t.LinesAdded += int64(c.Added)
		t.LinesRemoved += int64(c.Removed)
		m[k] = t
	}
	for _, c := range want {
		exp.Total.Changes++
		exp.Total.LinesAdded += int64(c.Added)
		exp.Total.LinesRemoved += int64(c.Removed)
		add(exp.ByKind, c.Kind, c)
		add(exp.ByEntityType, c.Entity, c)
		add(buckets, c.Commit.Time.Format("2006-01"), c)
	}
	for b, tl := range buckets {
		exp.Buckets = append(exp.Buckets, historytools.BucketTally{Bucket: b, Tally: tl})
	}
	sort.Slice(exp.Buckets, func(i, j int) bool { return exp.Buckets[i].Bucket < exp.Buckets[j].Bucket })
	if diff := cmp.Diff(exp, got); diff != "" {
		t.Errorf("statistics (-go +tool):\n%s", diff)
	}
}

func TestCompareVersionsJoinsTheDiffsBetweenTwoChanges(t *testing.T) {
	e, want := imported(t)
	var hist historytools.EntityHistoryResult
	mustCall(t, e, historytools.EntityHistory, map[string]any{"entity_type": "File", "key": "a.go"}, &hist)
	oldest, newest := hist.Changes[len(hist.Changes)-1], hist.Changes[0]
	var got historytools.CompareResult
	mustCall(t, e, historytools.CompareVersions, map[string]any{"entity_type": "File", "key": "a.go", "from_change": oldest.ID, "to_change": newest.ID}, &got)
	added, removed := 0, 0
	for _, c := range want {
		if c.Entity == "File" && c.Key == "a.go" && c.Commit.Hash != oldest.Commit {
			added, removed = added+c.Added, removed+c.Removed
		}
	}
	if len(got.Changes) != len(hist.Changes)-1 || got.LinesAdded != added || got.LinesRemoved != removed ||
		!strings.Contains(got.Diff, "+\treturn 22") || !strings.Contains(got.Diff, "+\treturn 11") {
		t.Errorf("compare %+v, want %d changes +%d -%d with both diffs", got, len(hist.Changes)-1, added, removed)
	}
}

// TestWrittenVersionsCompareFieldByFieldInTheTenant: memory-graph's
// writes record Changes; compare_entity_versions folds them into each
// field's first and last value with a diff, and bob sees none of alice's.
func TestWrittenVersionsCompareFieldByFieldInTheTenant(t *testing.T) {
	d := neo4jtest.Open(t)
	clock := now
	e := historyEngine(t, d, example(t, "memory-graph"), func() time.Time { return clock })
	alice := tenant.With(context.Background(), "alice")
	var w struct {
		EntityKey string `json:"entity_key"`
	}
	write := func(tool string, args map[string]any) {
		t.Helper()
		args["source"], args["confidence"] = "chat", 1
		if err := call(t, e, alice, tool, args, &w); err != nil {
			t.Fatal(err)
		}
	}
	write("create_concept", map[string]any{"name": "chess", "notes": "a\nb\n"})
	chess := w.EntityKey
	clock = now.Add(time.Hour)
	write("update_concept", map[string]any{"entity_key": chess, "notes": "a\nc\n"})
	var got historytools.CompareResult
	if err := call(t, e, alice, historytools.CompareVersions, map[string]any{"entity_type": "Concept", "key": chess}, &got); err != nil {
		t.Fatal(err)
	}
	wantDiff, a, r := change.Unified("notes", "", "a\nc\n")
	if len(got.Changes) != 2 || got.Fields["notes"].Before != nil || got.Fields["notes"].After != "a\nc\n" || got.Fields["notes"].Diff != wantDiff {
		t.Errorf("compare %+v", got)
	}
	if got.LinesAdded < a || got.LinesRemoved != r {
		t.Errorf("lines +%d -%d, want at least +%d -%d", got.LinesAdded, got.LinesRemoved, a, r)
	}

	// A relationship write is a change of each tracked end: the history
	// lists it with the relationship, the statistics count it by kind,
	// and a comparison keeps its properties apart from the fields.
	write("create_concept", map[string]any{"name": "go"})
	goKey := w.EntityKey
	clock = now.Add(2 * time.Hour)
	write("create_relationship", map[string]any{"from_entity_key": chess, "to_entity_key": goKey, "relationship_type": "relates_to", "properties": map[string]any{"relevance": 4}})
	clock = now.Add(3 * time.Hour)
	write("update_relationship", map[string]any{"from_entity_key": chess, "to_entity_key": goKey, "relationship_type": "relates_to", "properties": map[string]any{"relevance": 7}})
	var hist historytools.EntityHistoryResult
	if err := call(t, e, alice, historytools.EntityHistory, map[string]any{"entity_type": "Concept", "key": goKey}, &hist); err != nil {
		t.Fatal(err)
	}
	in := &historytools.Relationship{Type: "relates_to", Direction: "incoming", EntityType: "Concept", Key: chess}
	if hist.Total != 3 || len(hist.Changes) != 3 {
		t.Fatalf("go's history %+v, want its creation and the relationship's two changes", hist)
	}
	if c := hist.Changes[0]; c.Kind != change.Updated || !cmp.Equal(c.Relationship, in) || !cmp.Equal(c.OldValues, map[string]any{"relevance": 4.0}) || !cmp.Equal(c.NewValues, map[string]any{"relevance": 7.0}) {
		t.Errorf("newest change of go %+v", c)
	}
	if c := hist.Changes[1]; c.Kind != change.Created || !cmp.Equal(c.Relationship, in) || !cmp.Equal(c.ChangedFields, []string{"relevance"}) {
		t.Errorf("relationship's creation on go %+v", c)
	}
	if c := hist.Changes[2]; c.Kind != change.Created || c.Relationship != nil {
		t.Errorf("go's creation %+v", c)
	}
	var stats historytools.StatisticsResult
	if err := call(t, e, alice, historytools.Statistics, map[string]any{}, &stats); err != nil {
		t.Fatal(err)
	}
	// chess and go made, then the relationship made and changed, each on both ends.
	if stats.ByKind[change.Created].Changes != 4 || stats.ByKind[change.Updated].Changes != 3 || stats.Total.Changes != 7 {
		t.Errorf("alice's statistics %+v", stats)
	}
	if err := call(t, e, alice, historytools.CompareVersions, map[string]any{"entity_type": "Concept", "key": chess}, &got); err != nil {
		t.Fatal(err)
	}
	if rel := got.Fields["relates_to->"+goKey+".relevance"]; len(got.Changes) != 4 || rel.Before != nil || rel.After != 7.0 || got.Fields["notes"].After != "a\nc\n" {
		t.Errorf("compare with the relationship %+v", got)
	}
	if err := call(t, e, tenant.With(context.Background(), "bob"), historytools.Statistics, map[string]any{}, &stats); err != nil {
		t.Fatal(err)
	}
	if stats.Total.Changes != 0 {
		t.Errorf("bob sees %d of alice's changes", stats.Total.Changes)
	}
	err := call(t, e, tenant.With(context.Background(), "bob"), historytools.EntityHistory, map[string]any{"entity_type": "Concept", "key": w.EntityKey}, &got)
	var ce *tools.CallError
	if !errors.As(err, &ce) {
		t.Errorf("bob reading alice's concept: %v, want not found", err)
	}
}
