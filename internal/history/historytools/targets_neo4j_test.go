package historytools_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/history/gitimport"
	"github.com/ragforge/ragforge/internal/history/historytest"
	"github.com/ragforge/ragforge/internal/history/historytools"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// cond is one {field, operator, value} condition.
func cond(field, op string, v any) map[string]any {
	return map[string]any{"field": field, "operator": op, "value": v}
}

// conds is a list of conditions as a call sends them.
func conds(cs ...map[string]any) []any {
	out := make([]any, len(cs))
	for i, c := range cs {
		out[i] = c
	}
	return out
}

// callError runs a call that must fail with a CallError and returns it.
func callError(t *testing.T, e *engine.Engine, ctx context.Context, name string, args map[string]any) *tools.CallError {
	t.Helper()
	var out any
	err := call(t, e, ctx, name, args, &out)
	var ce *tools.CallError
	if !errors.As(err, &ce) {
		t.Fatalf("%s %v: %v (result %v), want a CallError", name, args, err, out)
	}
	return ce
}

// scopeUUID is the uuid of the repository's scope named name.
func (r *repo) scopeUUID(t *testing.T, name string) string {
	t.Helper()
	for _, s := range r.g.Scopes {
		if s.Name == name {
			return s.UUID
		}
	}
	t.Fatalf("no scope %s", name)
	return ""
}

// addVar adds to a.go a var V the repository does not declare, changed
// five times on 2026-02-02 with more churn than any function, the way a
// git import records a scope's changes.
func (r *repo) addVar(t *testing.T) {
	t.Helper()
	neo4jtest.Run(t, r.d, `MATCH (f:File {path: 'a.go'})
		CREATE (f)-[:CONTAINS]->(v:Scope {uuid: 'scope-v', name: 'V', type: 'var', file: 'a.go', startLine: 11, endLine: 11})
		WITH v UNWIND range(1, 5) AS i
		CREATE (v)-[:HAS_CHANGE]->(:Change {uuid: 'v' + i, entity_type: 'Scope', entity_key: 'scope-v', kind: 'updated',
			timestamp: datetime('2026-02-02T09:00:00Z') + duration({minutes: i}), lines_added: 100, lines_removed: 0, commit: 'c' + i, author: 'Ada', summary: 'grow V'})`, nil)
}

// TestConditionsNameTheEntityAndNarrowTheLists: the history tools take
// query_entities' conditions, so an agent names a function by its name
// (or its file, or what contains it) and keeps vars and types out of
// "most modified functions"; every entity comes with its display fields.
func TestConditionsNameTheEntityAndNarrowTheLists(t *testing.T) {
	r := importRepo(t)
	r.addVar(t)
	e := r.engine(t, func() time.Time { return now })
	ctx := context.Background()

	// Without conditions the var churns most; with them it is left out.
	var most historytools.ModifiedResult
	mustCall(t, e, historytools.MostModified, map[string]any{"entity_type": "Scope", "order_by": "churn", "limit": 1}, &most)
	if len(most.Entities) != 1 || most.Entities[0].Key != "scope-v" || !cmp.Equal(most.Entities[0].Display, map[string]any{"name": "V", "type": "var", "file": "a.go"}) {
		t.Errorf("most churned scope %+v, want V with its display fields", most.Entities)
	}
	mustCall(t, e, historytools.MostModified, map[string]any{"entity_type": "Scope", "order_by": "churn", "limit": 1,
		"conditions": conds(cond("type", "IN", []any{"function", "method"}))}, &most)
	var best historytools.Modified
	for _, m := range modified(r.want, time.Time{}, now) {
		if churn, bestChurn := m.LinesAdded+m.LinesRemoved, best.LinesAdded+best.LinesRemoved; m.EntityType == "Scope" && (churn > bestChurn || churn == bestChurn && m.Changes > best.Changes) {
			best = m
		}
	}
	best.Display = r.display("Scope", best.Key)
	if len(most.Entities) != 1 || !cmp.Equal(most.Entities[0], best) {
		t.Errorf("most churned function %+v, want %+v", most.Entities, best)
	}

	// A path prefix keeps a.go's scopes: A and B changed in January.
	var recent historytools.ModifiedResult
	mustCall(t, e, historytools.RecentlyModified, map[string]any{"entity_type": "Scope", "relative_period": "last_month",
		"conditions": conds(cond("file", "STARTS WITH", "a."))}, &recent)
	var keys []string
	for _, m := range recent.Entities {
		keys = append(keys, m.Key)
		if !cmp.Equal(m.Display, r.display("Scope", m.Key)) {
			t.Errorf("display of %s: %v", m.Key, m.Display)
		}
	}
	slices.Sort(keys)
	want := []string{r.scopeUUID(t, "A"), r.scopeUUID(t, "B")}
	slices.Sort(want)
	if !slices.Equal(keys, want) {
		t.Errorf("a.go's scopes changed in January: %v, want A and B %v", keys, want)
	}

	// A name names one function: its history, no uuid needed.
	var hist historytools.EntityHistoryResult
	mustCall(t, e, historytools.EntityHistory, map[string]any{"entity_type": "Scope", "conditions": conds(cond("name", "=", "B"))}, &hist)
	if hist.Key != r.scopeUUID(t, "B") || hist.Total != 2 || !cmp.Equal(hist.Display, map[string]any{"name": "B", "type": "function", "file": "a.go"}) {
		t.Errorf("B's history %+v, want its two changes and display fields", hist)
	}
	// So does a relationship test: the scope b.go contains.
	mustCall(t, e, historytools.EntityHistory, map[string]any{"entity_type": "Scope", "conditions": []any{map[string]any{
		"via": "CONTAINS", "direction": "incoming", "entity": "File", "conditions": conds(cond("path", "=", "b.go"))}}}, &hist)
	if hist.Key != r.scopeUUID(t, "C") || hist.Total != 2 {
		t.Errorf("the history of b.go's scope %+v, want C's two changes", hist)
	}
	var cmpRes historytools.CompareResult
	mustCall(t, e, historytools.CompareVersions, map[string]any{"entity_type": "Scope", "conditions": conds(cond("name", "=", "A"))}, &cmpRes)
	if cmpRes.Key != r.scopeUUID(t, "A") || len(cmpRes.Changes) != 2 || cmpRes.Display["name"] != "A" {
		t.Errorf("A's versions %+v", cmpRes)
	}

	// Conditions several entities meet are listed to choose from.
	ce := callError(t, e, ctx, historytools.EntityHistory, map[string]any{"entity_type": "Scope", "conditions": conds(cond("file", "=", "a.go"))})
	if p := ce.Problems[0]; p.Path != "/conditions" || len(p.Valid) != 3 || !strings.Contains(strings.Join(p.Valid, " "), `"name":"V"`) {
		t.Errorf("several matches: %+v, want A, B and V listed with their display fields", ce.Problems)
	}
	for _, c := range []struct {
		name, path, says string
		args             map[string]any
	}{
		{"no match", "/conditions", "no Scope meets the conditions", map[string]any{"entity_type": "Scope", "conditions": conds(cond("name", "=", "Nope"))}},
		{"key and conditions", "/key", "not both", map[string]any{"entity_type": "Scope", "key": "x", "conditions": conds(cond("name", "=", "A"))}},
		{"neither", "/key", "name the entity", map[string]any{"entity_type": "Scope"}},
		{"unknown field", "/conditions/0/field", `"nope" is not a field of Scope`, map[string]any{"entity_type": "Scope", "conditions": conds(cond("nope", "=", "A"))}},
		{"wrong value", "/conditions/0/value", "not a value of enum field type", map[string]any{"entity_type": "Scope", "conditions": conds(cond("type", "=", "lambda"))}},
	} {
		ce := callError(t, e, ctx, historytools.EntityHistory, c.args)
		if p := ce.Problems[0]; p.Path != c.path || !strings.Contains(p.Message, c.says) {
			t.Errorf("%s: %+v, want %q at %s", c.name, ce.Problems, c.says, c.path)
		}
	}
	ce = callError(t, e, ctx, historytools.MostModified, map[string]any{"conditions": conds(cond("name", "=", "A"))})
	if p := ce.Problems[0]; p.Path != "/entity_type" || !slices.Equal(p.Valid, []string{"File", "Scope"}) {
		t.Errorf("conditions without entity_type: %+v", ce.Problems)
	}

	// The statistics of the var alone.
	var stats historytools.StatisticsResult
	mustCall(t, e, historytools.Statistics, map[string]any{"entity_type": "Scope", "conditions": conds(cond("type", "=", "var"))}, &stats)
	if stats.Total != (historytools.Tally{Changes: 5, LinesAdded: 500}) || stats.ByKind["updated"].Changes != 5 || len(stats.ByEntityType) != 1 {
		t.Errorf("the var's statistics %+v", stats)
	}
}

// TestAWindowCountsFromTheLatestChange: nine months after the last
// commit "the last 7 days" are empty and say when the latest change was;
// relative_to latest_change counts them back from it, for all entities
// or for those the conditions select.
func TestAWindowCountsFromTheLatestChange(t *testing.T) {
	r := importRepo(t)
	neo4jtest.Run(t, r.d, `CREATE (:Scope {uuid: 'scope-e', name: 'E', type: 'function', file: 'a.go', startLine: 20, endLine: 22})`, nil)
	later := time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC)
	e := r.engine(t, func() time.Time { return later })
	ctx := context.Background()
	// The latest change in the graph: commit 3 (commit 4 removed c.go,
	// which the graph does not hold).
	latest := historytest.Commits()[2].Time
	latestText := latest.Format(time.RFC3339Nano)

	var recent historytools.ModifiedResult
	mustCall(t, e, historytools.RecentlyModified, map[string]any{}, &recent)
	if len(recent.Entities) != 0 || recent.LatestChange != latestText || len(recent.Notes) != 1 ||
		!strings.Contains(recent.Notes[0], "the latest recorded change of any tracked entity was at "+latestText) || !strings.Contains(recent.Notes[0], "relative_to latest_change") {
		t.Errorf("an empty last_7_days %+v, want the latest change's time and how to count from it", recent)
	}

	mustCall(t, e, historytools.RecentlyModified, map[string]any{"relative_to": "latest_change"}, &recent)
	from, to := latest.Add(time.Nanosecond).AddDate(0, 0, -7), latest.Add(time.Nanosecond)
	exp := modified(r.want, from, to)
	var got []string
	for _, m := range recent.Entities {
		got = append(got, m.EntityType+" "+m.Key)
		if w := exp[m.EntityType+" "+m.Key]; m.Changes != w.Changes || m.LastModified != w.LastModified {
			t.Errorf("%s %s: %+v, want %+v", m.EntityType, m.Key, m, w)
		}
	}
	if len(got) != len(exp) || len(exp) == 0 || recent.LatestChange != latestText || recent.From != from.Format(time.RFC3339Nano) || recent.To != to.Format(time.RFC3339Nano) {
		t.Errorf("the 7 days up to the latest change: %v from %s to %s (latest %s), want the %d entities of commit 3", got, recent.From, recent.To, recent.LatestChange, len(exp))
	}

	// B last changed in commit 2: its 7 days end there and hold that
	// change, not its creation a week before to the second.
	mustCall(t, e, historytools.RecentlyModified, map[string]any{"entity_type": "Scope", "relative_to": "latest_change",
		"conditions": conds(cond("name", "=", "B"))}, &recent)
	bLatest := historytest.Commits()[1].Time.Format(time.RFC3339Nano)
	if len(recent.Entities) != 1 || recent.Entities[0].Changes != 1 || recent.Entities[0].LastModified != bLatest || recent.LatestChange != bLatest {
		t.Errorf("B's 7 days up to its latest change %+v, want its one change of %s", recent, bLatest)
	}

	// The statistics of the month before the latest change's month.
	var stats historytools.StatisticsResult
	mustCall(t, e, historytools.Statistics, map[string]any{"relative_period": "last_month", "relative_to": "latest_change"}, &stats)
	jan := int64(0)
	for _, m := range modified(r.want, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)) {
		jan += m.Changes
	}
	if stats.Total.Changes != jan || stats.From != "2026-01-01T00:00:00Z" || stats.LatestChange != latestText {
		t.Errorf("January's statistics %+v, want %d changes", stats, jan)
	}

	// Empty answers name the latest change of the entities asked about,
	// or, when they have none, of any.
	mustCall(t, e, historytools.Statistics, map[string]any{"entity_type": "Scope", "relative_period": "last_week", "conditions": conds(cond("name", "=", "B"))}, &stats)
	if stats.Total.Changes != 0 || stats.LatestChange != bLatest || !strings.Contains(strings.Join(stats.Notes, " "), "Scope meeting the conditions was at "+bLatest) {
		t.Errorf("B's empty last week %+v, want B's latest change %s", stats, bLatest)
	}
	mustCall(t, e, historytools.MostModified, map[string]any{"entity_type": "Scope", "conditions": conds(cond("name", "=", "E"))}, &recent)
	if len(recent.Entities) != 0 || recent.LatestChange != "" || len(recent.Notes) != 1 ||
		recent.Notes[0] != "there is no recorded change of any Scope meeting the conditions; the latest recorded change of any tracked entity was at "+latestText {
		t.Errorf("a scope never changed %+v", recent)
	}
	mustCall(t, e, historytools.RecentlyModified, map[string]any{"kind": "deleted"}, &recent)
	if len(recent.Entities) != 0 || !slices.Equal(recent.Notes, []string{"there is no recorded deleted change of any tracked entity; the latest recorded change of any tracked entity was at " + latestText}) {
		t.Errorf("no deletion recorded in the graph: %+v", recent)
	}

	ce := callError(t, e, ctx, historytools.MostModified, map[string]any{"relative_to": "latest_change"})
	if p := ce.Problems[0]; p.Path != "/relative_to" || !strings.Contains(p.Message, "relative_period") {
		t.Errorf("relative_to without a period: %+v", ce.Problems)
	}
	ce = callError(t, e, ctx, historytools.RecentlyModified, map[string]any{"relative_to": "then"})
	if p := ce.Problems[0]; p.Path != "/relative_to" || !slices.Equal(p.Valid, historytools.RelativeTo) {
		t.Errorf("an unknown relative_to: %+v", ce.Problems)
	}
}

// TestAHistoryRunsBackThroughRenames: Changes a git import recorded of a
// file renamed twice (older.go → old.go → new.go) and of a scope in it:
// the history shows renamed_from on the renaming changes and says where
// it runs through each rename, even past the page it lists; the lists
// count the file's changes under its one node.
func TestAHistoryRunsBackThroughRenames(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (f:File {path: 'pkg/new.go', name: 'new.go', extension: '.go', language: 'go'})
		CREATE (f)-[:CONTAINS]->(s:Scope {uuid: 'scope-n', name: 'N', type: 'function', file: 'pkg/new.go', startLine: 3, endLine: 5})
		WITH f, s
		UNWIND [
			{c: 'c1', key: 'pkg/older.go', kind: 'created', day: 1},
			{c: 'c2', key: 'pkg/old.go', kind: 'updated', day: 2, from: 'pkg/older.go'},
			{c: 'c3', key: 'pkg/old.go', kind: 'updated', day: 3},
			{c: 'c4', key: 'pkg/new.go', kind: 'updated', day: 4, from: 'pkg/old.go'},
			{c: 'c5', key: 'pkg/new.go', kind: 'updated', day: 5}] AS x
		CREATE (f)-[:HAS_CHANGE]->(:Change {uuid: x.c + ':file', entity_type: 'File', entity_key: x.key, kind: x.kind, commit: x.c, author: 'Ada', summary: 'commit ' + x.c,
			timestamp: datetime({year: 2026, month: 1, day: x.day, timezone: 'Z'}), lines_added: 1, lines_removed: 0, renamed_from: x.from})
		WITH s, x WHERE x.c = 'c4'
		CREATE (s)-[:HAS_CHANGE]->(:Change {uuid: 'c4:scope', entity_type: 'Scope', entity_key: 'scope-n', kind: 'updated', commit: 'c4',
			timestamp: datetime({year: 2026, month: 1, day: 4, timezone: 'Z'}), lines_added: 1, lines_removed: 1, renamed_from: 'pkg/old.go'})`, nil)
	e := historyEngine(t, d, example(t, "code-rag"), func() time.Time { return now })

	var hist historytools.EntityHistoryResult
	mustCall(t, e, historytools.EntityHistory, map[string]any{"entity_type": "File", "key": "pkg/new.go", "limit": 2}, &hist)
	if hist.Total != 5 || len(hist.Changes) != 2 || hist.Changes[0].Commit != "c5" || hist.Changes[1].RenamedFrom != "pkg/old.go" || hist.Changes[0].RenamedFrom != "" {
		t.Errorf("new.go's newest changes %+v, want c5 and c4 with renamed_from", hist.Changes)
	}
	wantRenames := []historytools.Rename{
		{From: "pkg/old.go", To: "pkg/new.go", Commit: "c4", Timestamp: "2026-01-04T00:00:00Z", Change: "c4:file"},
		{From: "pkg/older.go", To: "pkg/old.go", Commit: "c2", Timestamp: "2026-01-02T00:00:00Z", Change: "c2:file"},
	}
	if diff := cmp.Diff(wantRenames, hist.Renames); diff != "" {
		t.Errorf("renames (-want +got):\n%s", diff)
	}
	notes := strings.Join(hist.Notes, "\n")
	for _, s := range []string{"pkg/old.go → pkg/new.go in commit c4", "pkg/older.go → pkg/old.go in commit c2"} {
		if !strings.Contains(notes, s) {
			t.Errorf("notes %q do not say %q", notes, s)
		}
	}
	mustCall(t, e, historytools.EntityHistory, map[string]any{"entity_type": "Scope", "conditions": conds(cond("name", "=", "N"))}, &hist)
	if len(hist.Renames) != 1 || hist.Renames[0].From != "pkg/old.go" || hist.Renames[0].To != "pkg/new.go" {
		t.Errorf("the scope's renames %+v, want old.go → new.go (its file now)", hist.Renames)
	}

	var most historytools.ModifiedResult
	mustCall(t, e, historytools.MostModified, map[string]any{"entity_type": "File"}, &most)
	if len(most.Entities) != 1 || most.Entities[0].Key != "pkg/new.go" || most.Entities[0].Changes != 5 {
		t.Errorf("the renamed file's changes %+v, want all 5 under pkg/new.go", most.Entities)
	}

	var cmpRes historytools.CompareResult
	mustCall(t, e, historytools.CompareVersions, map[string]any{"entity_type": "File", "key": "pkg/new.go", "from_change": "c3:file"}, &cmpRes)
	if !strings.Contains(strings.Join(cmpRes.Notes, " "), "commit c4 in this range renamed the file from pkg/old.go") {
		t.Errorf("comparison across the rename %+v", cmpRes)
	}
}

// TestConditionsAndLatestChangesKeepToTheTenant: two tenants' concepts of
// one name; each names its own by name, sees only its own in the lists,
// and an empty answer or an anchored window counts only its own changes.
func TestConditionsAndLatestChangesKeepToTheTenant(t *testing.T) {
	d := neo4jtest.Open(t)
	clock := now
	e := historyEngine(t, d, example(t, "memory-graph"), func() time.Time { return clock })
	as := func(tn string) context.Context { return tenant.With(context.Background(), tn) }
	create := func(tn, name string, at time.Time) string {
		t.Helper()
		clock = at
		var w struct {
			EntityKey string `json:"entity_key"`
		}
		if err := call(t, e, as(tn), "create_concept", map[string]any{"name": name, "description": name + " of " + tn, "source": "chat", "confidence": 1}, &w); err != nil {
			t.Fatal(err)
		}
		return w.EntityKey
	}
	aliceChess := create("alice", "chess", now)
	bobChess := create("bob", "chess", now.Add(2*time.Hour))
	create("bob", "go", now.Add(3*time.Hour))
	clock = now.Add(30 * 24 * time.Hour)

	for tn, want := range map[string]string{"alice": aliceChess, "bob": bobChess} {
		var hist historytools.EntityHistoryResult
		if err := call(t, e, as(tn), historytools.EntityHistory, map[string]any{"entity_type": "Concept", "conditions": conds(cond("name", "=", "chess"))}, &hist); err != nil {
			t.Fatalf("%s naming chess: %v", tn, err)
		}
		if hist.Key != want || hist.Total != 1 || !cmp.Equal(hist.Display, map[string]any{"name": "chess", "description": "chess of " + tn}) {
			t.Errorf("%s's chess %+v, want %s with its display fields", tn, hist, want)
		}
	}
	var recent historytools.ModifiedResult
	if err := call(t, e, as("alice"), historytools.RecentlyModified, map[string]any{"entity_type": "Concept", "relative_to": "latest_change",
		"conditions": conds(cond("name", "IN", []any{"chess", "go"}))}, &recent); err != nil {
		t.Fatal(err)
	}
	aliceAt := now.Format(time.RFC3339Nano)
	if len(recent.Entities) != 1 || recent.Entities[0].Key != aliceChess || recent.LatestChange != aliceAt {
		t.Errorf("alice's recent concepts %+v, want her chess only, counted from her latest change %s", recent, aliceAt)
	}
	if err := call(t, e, as("alice"), historytools.RecentlyModified, map[string]any{}, &recent); err != nil {
		t.Fatal(err)
	}
	if len(recent.Entities) != 0 || recent.LatestChange != aliceAt {
		t.Errorf("alice's empty week %+v, want her own latest change %s, not bob's", recent, aliceAt)
	}
	var stats historytools.StatisticsResult
	if err := call(t, e, as("carol"), historytools.Statistics, map[string]any{"entity_type": "Concept", "conditions": conds(cond("name", "=", "chess"))}, &stats); err != nil {
		t.Fatal(err)
	}
	if stats.Total.Changes != 0 || stats.LatestChange != "" || len(stats.Notes) != 1 || !strings.HasPrefix(stats.Notes[0], "no change is recorded") {
		t.Errorf("carol's statistics %+v, want nothing recorded (alice's and bob's changes are not hers)", stats)
	}
	ce := callError(t, e, as("carol"), historytools.EntityHistory, map[string]any{"entity_type": "Concept", "conditions": conds(cond("name", "=", "chess"))})
	if !strings.Contains(ce.Problems[0].Message, "no Concept meets the conditions") {
		t.Errorf("carol naming chess: %+v", ce.Problems)
	}
}

// TestAnImportedRenameShowsInTheHistory: the git import of a repository
// whose third commit renames old.go to new.go and changes Q in it; the
// file's history and Q's say where they run back through the rename.
func TestAnImportedRenameShowsInTheHistory(t *testing.T) {
	d := neo4jtest.Open(t)
	day := func(n int) time.Time { return time.Date(2026, 1, n, 10, 0, 0, 0, time.UTC) }
	v1 := "package demo\n\n// P is one.\nfunc P() int {\n\treturn 1\n}\n\n// Q is two.\nfunc Q() int {\n\treturn 2\n}\n"
	v2 := strings.Replace(v1, "return 1", "return 11", 1)
	v3 := strings.Replace(v2, "return 2", "return 22", 1)
	dir, commits := historytest.BuildFrom(t, []historytest.Commit{
		{Subject: "add old.go", Author: "Ada", Time: day(5), Files: map[string]string{"go.mod": "module example.com/demo\n\ngo 1.22\n", "old.go": v1}},
		{Subject: "change P", Author: "Bo", Time: day(6), Files: map[string]string{"old.go": v2}},
		{Subject: "rename old.go to new.go, change Q", Author: "Ada", Time: day(7), Files: map[string]string{"old.go": "", "new.go": v3}},
	})
	historytest.Load(t, d, dir)
	m := example(t, "code-rag")
	if _, err := gitimport.Import(context.Background(), d, m, dir, gitimport.Options{Database: neo4jtest.Database()}); err != nil {
		t.Fatal(err)
	}
	e := historyEngine(t, d, m, func() time.Time { return now })
	want := []historytools.Rename{{From: "old.go", To: "new.go", Commit: commits[2].Hash, Timestamp: day(7).Format(time.RFC3339Nano)}}
	for _, c := range []struct {
		entity string
		args   map[string]any
		total  int64
	}{
		{"File", map[string]any{"entity_type": "File", "key": "new.go"}, 3},
		{"Scope", map[string]any{"entity_type": "Scope", "conditions": conds(cond("name", "=", "Q"))}, 2},
	} {
		var hist historytools.EntityHistoryResult
		mustCall(t, e, historytools.EntityHistory, c.args, &hist)
		for i := range hist.Renames {
			hist.Renames[i].Change = ""
		}
		if hist.Total != c.total || hist.Changes[0].RenamedFrom != "old.go" || !cmp.Equal(hist.Renames, want) {
			t.Errorf("%s's history %+v, want %d changes and the rename %+v", c.entity, hist, c.total, want)
		}
	}
}
