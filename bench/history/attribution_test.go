package history

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/internal/fixture"
	"github.com/ragforge/ragforge/internal/history/gitimport"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

var (
	repoFlag    = flag.String("repo", "", "git work tree to measure BenchmarkAttribution on (a clone of a public repository; its root is the fixture's source root)")
	workersFlag = flag.Int("workers", 2, "git log -L processes at a time")
	worstFlag   = flag.Int("worst", 0, "also print the N declarations whose recorded history is furthest from the adjusted truth")
)

// BenchmarkAttribution loads -repo's tree as a code graph, imports its
// history, and scores every function and method's recorded Changes
// against git log -L and against its adjusted truth (package doc). Run:
//
//	go test ./bench/history -run XXX -bench Attribution -benchtime 1x -timeout 60m -repo DIR
func BenchmarkAttribution(b *testing.B) {
	if *repoFlag == "" {
		b.Skip("-repo DIR names the git work tree to measure")
	}
	ctx := context.Background()
	d := neo4jtest.Open(b)
	g, err := fixture.Parse(*repoFlag)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := fixture.Load(ctx, d, g, fixture.LoadOptions{Database: neo4jtest.Database()}); err != nil {
		b.Fatal(err)
	}
	m, err := config.Load("../../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		b.Fatal(err)
	}
	var decls []Decl
	for _, s := range g.Scopes {
		if s.Type == fixture.TypeFunction || s.Type == fixture.TypeMethod {
			decls = append(decls, Decl{UUID: s.UUID, Name: s.Name, File: s.File, Start: s.StartLine, End: s.EndLine})
		}
	}
	start := time.Now()
	truth, err := GitLogL(ctx, *repoFlag, decls, *workersFlag)
	if err != nil {
		b.Fatal(err)
	}
	truthTime := time.Since(start)
	var stats gitimport.Stats
	for b.Loop() {
		stats, err = gitimport.Import(ctx, d, m, *repoFlag, gitimport.Options{Database: neo4jtest.Database()})
		if err != nil {
			b.Fatal(err)
		}
	}
	recorded := map[string][]Touch{}
	res, err := neo4jtx.Query(ctx, d, neo4jtest.Database(), neo4j.AccessModeRead, "MATCH (s:Scope)-[:HAS_CHANGE]->(c:Change) RETURN s.uuid AS id, c.commit AS h, c.timestamp AS at", nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, r := range res {
		id, _ := r.Get("id")
		h, _ := r.Get("h")
		at, _ := r.Get("at")
		t, _ := at.(time.Time)
		recorded[id.(string)] = append(recorded[id.(string)], Touch{Commit: h.(string), At: t.UTC()})
	}
	adjusted := Adjusted(truth)
	fmt.Fprintf(os.Stdout, "\n%s\n\n| | against git log -L | against its patches (adjusted) |\n|---|---:|---:|\n", *repoFlag)
	Print(os.Stdout, Compare(decls, truth, recorded), Compare(decls, adjusted, recorded))
	dropped := Dropped(truth, recorded)
	for _, why := range []string{Past, Outside} {
		fmt.Fprintf(os.Stdout, "| git log -L links dropped: %s (of them recorded) | %d (%d) | |\n", why, dropped[why][0], dropped[why][1])
	}
	fmt.Fprintf(os.Stdout, "| import | %d commits in %s (%.2f ms per commit) |\n| git log -L truth | %s |\n",
		stats.Commits, stats.Duration.Round(time.Millisecond), float64(stats.Duration.Microseconds())/1000/float64(max(stats.Commits, 1)), truthTime.Round(time.Second))
	fmt.Fprintf(os.Stdout, "import report: %s\n", stats)
	if *worstFlag > 0 {
		printWorst(decls, adjusted, recorded, *worstFlag)
	}
}

// printWorst lists the declarations whose recorded commits differ most
// from the truth, with the commits on either side only.
func printWorst(decls []Decl, truth, recorded map[string][]Touch, n int) {
	type row struct {
		d           Decl
		extra, lost []string
	}
	var rows []row
	for _, d := range decls {
		in, got := map[string]bool{}, map[string]bool{}
		for _, t := range truth[d.UUID] {
			in[t.Commit] = true
		}
		for _, t := range recorded[d.UUID] {
			got[t.Commit] = true
		}
		r := row{d: d}
		for h := range got {
			if !in[h] {
				r.extra = append(r.extra, h[:10])
			}
		}
		for h := range in {
			if !got[h] {
				r.lost = append(r.lost, h[:10])
			}
		}
		if len(r.extra)+len(r.lost) > 0 {
			rows = append(rows, r)
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		return len(rows[i].extra)+len(rows[i].lost) > len(rows[j].extra)+len(rows[j].lost)
	})
	for _, r := range rows[:min(n, len(rows))] {
		fmt.Printf("%s %s:%d-%d  extra %v  missing %v\n", r.d.Name, r.d.File, r.d.Start, r.d.End, r.extra, r.lost)
	}
}
