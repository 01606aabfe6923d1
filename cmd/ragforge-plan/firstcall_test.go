package main

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// firstCallBound is how long Neo4j may take to plan the statement of a
// shape it has not seen (issue 34, item 4), on a machine with a core to
// spare.
const firstCallBound = 500 * time.Millisecond

// levelBound is the bound of a traversal shape of n levels: firstCallBound
// up to within levels, and 100 ms more for each level beyond, since each
// is a level of the statement. Deeper searches do not meet issue 34's
// bound yet: find_paths plans in 0.50–0.66 s at 4–6 hops (0.75–0.93 s
// before its statement was cut), explore_relationships in 0.49–0.53 s at
// depth 3 (docs/serving.md); the bound keeps them from growing back.
func levelBound(n, within int) time.Duration {
	return firstCallBound + time.Duration(max(0, n-within))*100*time.Millisecond
}

// TestTheFirstCallOfAShapeIsPlannedQuickly: the heaviest
// statement shapes, find_paths at each max_length and
// explore_relationships at each depth (every relationship type, both
// directions), each called first in a fresh `ragforge-plan call` process
// on a server whose plan cache was just cleared (db.clearQueryCaches, as
// after a restart), answer within firstCallBound of the same call repeated
// in another fresh process, whose statement Neo4j has planned: that
// difference is the planning, since the two run the same statement on the
// same small code graph. The time is the call's, as `call` reports it
// (connecting and the start-up statements excluded). The bound is
// firstCallBound, more for find_paths beyond 3 hops and
// explore_relationships beyond depth 2 (levelBound).
//
// The machine is shared: other processes only add time, so each shape
// takes the least of up to eight rounds (a round within the bound ends
// them; a burst of another process's work once outlasted five), and the
// bound, which is for a machine with a core to spare, grows with the load
// that other processes add beyond the cores (planning is one thread's
// work: with load L on N cores, about N/L of a core is left to it; the
// test itself keeps about one thread running, Neo4j's or a call's, which
// the bound must not count, or the old statements pass at a load of 2.6
// on 2 cores).
func TestTheFirstCallOfAShapeIsPlannedQuickly(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (root:Directory {path: 'src', name: 'src'}), (sub:Directory {path: 'src/sub', name: 'sub'}),
		(a:File {path: 'src/a.go', name: 'a.go', extension: 'go', language: 'go'}), (b:File {path: 'src/sub/b.go', name: 'b.go', extension: 'go', language: 'go'}),
		(s1:Scope {uuid: 's1', name: 'Serve', type: 'function', file: 'src/a.go', startLine: 1, endLine: 9}),
		(s2:Scope {uuid: 's2', name: 'Handle', type: 'function', file: 'src/sub/b.go', startLine: 1, endLine: 5}),
		(s3:Scope {uuid: 's3', name: 'Parse', type: 'method', file: 'src/sub/b.go', startLine: 6, endLine: 8}),
		(lib:ExternalLibrary {name: 'fmt'}), (c:Change {uuid: 'c1', kind: 'modified', summary: 'fix'}),
		(root)-[:CONTAINS]->(sub), (root)-[:CONTAINS]->(a), (sub)-[:CONTAINS]->(b), (a)-[:CONTAINS]->(s1), (b)-[:CONTAINS]->(s2), (s2)-[:CONTAINS]->(s3),
		(s1)-[:CALLS]->(s2), (s2)-[:CALLS]->(s3), (s3)-[:DEPENDS_ON]->(lib), (a)-[:IMPORTS]->(sub), (b)-[:IMPORTS]->(lib), (s1)-[:HAS_CHANGE]->(c)`, nil)
	bin := buildCommand(t)
	flags := serverFlags(t)
	types := `["CONTAINS","CALLS","DEPENDS_ON","HAS_CHANGE","IMPORTS"]`
	type shape struct {
		tool, args string
		bound      time.Duration
	}
	var shapes []shape
	for n := 1; n <= 6; n++ {
		shapes = append(shapes, shape{"find_paths", fmt.Sprintf(`{"from_entity_type":"Scope","from_id":"s3","to_entity_type":"File","to_id":"src/a.go","max_length":%d}`, n), levelBound(n, 3)})
	}
	for n := 1; n <= 3; n++ {
		shapes = append(shapes, shape{"explore_relationships", fmt.Sprintf(`{"start_entity_type":"Scope","start_conditions":[{"field":"uuid","operator":"=","value":"s1"}],"relationship_types":%s,"direction":"both","depth":%d}`, types, n), levelBound(n, 2)})
	}
	call := func(s shape) time.Duration {
		args := append([]string{"call", codeRAG, "--serve-contradicted", "--timeout", "60s", "--tool", s.tool, "--args", s.args}, flags...)
		cmd := exec.Command(bin, args...)
		var errOut strings.Builder
		cmd.Stderr = &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %s: %v\n%s", s.tool, s.args, err, errOut.String())
		}
		return callTime(t, errOut.String())
	}
	for _, s := range shapes {
		var planning []time.Duration
		var load string
		var bound time.Duration
		for len(planning) < 8 && (len(planning) == 0 || slices.Min(planning) > bound) {
			neo4jtest.Run(t, d, "CALL db.clearQueryCaches()", nil)
			first := call(s)
			planning = append(planning, first-call(s))
			var share float64
			load, share = contention()
			bound = time.Duration(float64(s.bound) * share)
		}
		least := slices.Min(planning)
		if least > bound {
			t.Errorf("%s %s: the first call took %v more than a repeat (least of %v), above %v (%v at load %s)",
				s.tool, s.args, least, planning, bound, s.bound, load)
		} else {
			t.Logf("%s %s: planning %v (least of %v; bound %v at load %s)", s.tool, s.args, least, planning, bound, load)
		}
	}
}

// callDone is the line `call` ends with on stderr: the results and the
// time of the call.
var callDone = regexp.MustCompile(`(?m)^(?:\d+ result\(s\)|done) in (\S+)$`)

// callTime reads the time of the call from `call`'s stderr.
func callTime(t *testing.T, stderr string) time.Duration {
	t.Helper()
	m := callDone.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no call time in call's stderr:\n%s", stderr)
	}
	d, err := time.ParseDuration(m[1])
	if err != nil {
		t.Fatalf("call time %q: %v", m[1], err)
	}
	return d
}

// contention returns the machine's 1-minute load average where Linux
// says it, and how many times longer a thread's work takes at that load
// besides the test's own thread: the load less one over the cores, at
// least 1 (1 where the load is unknown).
func contention() (load string, share float64) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown", 1
	}
	load = strings.Fields(string(b))[0]
	l, err := strconv.ParseFloat(load, 64)
	if err != nil {
		return load, 1
	}
	return load, max(1, (l-1)/float64(runtime.NumCPU()))
}
