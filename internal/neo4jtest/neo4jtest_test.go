package neo4jtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// recorder stands in for a test so that the helper's own failures and skips
// can be observed instead of ending the real test.
type recorder struct {
	testing.TB
	failed, skipped bool
	msg             string
}

func (r *recorder) Fatal(args ...any) { r.failed, r.msg = true, fmt.Sprint(args...) }
func (r *recorder) Fatalf(f string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(f, args...)
}
func (r *recorder) Skip(args ...any) { r.skipped, r.msg = true, fmt.Sprint(args...) }
func (r *recorder) Skipf(f string, args ...any) {
	r.skipped, r.msg = true, fmt.Sprintf(f, args...)
}

// noServer makes the helper see no configured server: no
// RAGFORGE_TEST_NEO4J_URI and a settings folder without an env file.
func noServer(t *testing.T) {
	t.Setenv("RAGFORGE_TEST_NEO4J_URI", "")
	t.Setenv("RAGFORGE_NEO4J_DIR", t.TempDir())
}

func TestOpenFailsWithoutServerUnderCI(t *testing.T) {
	noServer(t)
	t.Setenv("CI", "true")
	r := &recorder{TB: t}
	if d := Open(r); d != nil {
		t.Fatal("Open returned a driver with no server configured")
	}
	if !r.failed || r.skipped {
		t.Fatalf("failed=%v skipped=%v, want a failure under CI=true", r.failed, r.skipped)
	}
	if !strings.Contains(r.msg, "scripts/neo4j start") {
		t.Errorf("message %q does not say how to start a server", r.msg)
	}
}

func TestOpenSkipsWithoutServerOutsideCI(t *testing.T) {
	noServer(t)
	t.Setenv("CI", "")
	r := &recorder{TB: t}
	Open(r)
	if !r.skipped || r.failed {
		t.Fatalf("failed=%v skipped=%v, want a skip outside CI", r.failed, r.skipped)
	}
}

// TestAMissingPrerequisiteSkipsOutsideCIAndFailsUnderCI: the one rule
// for a missing server and a missing APOC (RequireAPOC).
func TestAMissingPrerequisiteSkipsOutsideCIAndFailsUnderCI(t *testing.T) {
	for _, ci := range []string{"", "false", "true"} {
		t.Setenv("CI", ci)
		r := &recorder{TB: t}
		skipOutsideCI(r, "needs APOC")
		if r.failed != (ci == "true") || r.skipped == r.failed || !strings.HasPrefix(r.msg, "needs APOC") {
			t.Errorf("CI=%q: failed=%v skipped=%v msg %q", ci, r.failed, r.skipped, r.msg)
		}
	}
}

func TestNEO4JURIAloneIsNeverUsedByTests(t *testing.T) {
	// Even the address and password of a reachable server in NEO4J_* do
	// not make Open connect: those variables name a user's own database.
	real, ok, err := loadConfig()
	if err != nil || !ok {
		real = config{URI: "bolt://127.0.0.1:7687", User: "neo4j", Password: "secret"}
	}
	noServer(t)
	t.Setenv("NEO4J_URI", real.URI)
	t.Setenv("NEO4J_USER", real.User)
	t.Setenv("NEO4J_PASSWORD", real.Password)
	t.Setenv("CI", "")
	if _, ok, err := loadConfig(); ok || err != nil {
		t.Fatalf("loadConfig with only NEO4J_* set: ok=%v err=%v, want no server", ok, err)
	}
	r := &recorder{TB: t}
	if d := Open(r); d != nil || !r.skipped {
		t.Fatalf("Open with only NEO4J_URI set: driver=%v skipped=%v (%s), want a skip", d != nil, r.skipped, r.msg)
	}
	if !strings.Contains(r.msg, "RAGFORGE_TEST_NEO4J_URI") {
		t.Errorf("skip message %q does not name the variable tests read", r.msg)
	}
}

func TestSettingsFileIsUsedWhenTheTestURIIsUnset(t *testing.T) {
	dir := t.TempDir()
	env := "# written by scripts/neo4j\nNEO4J_URI=bolt://127.0.0.1:1\nNEO4J_USER=neo4j\nNEO4J_PASSWORD=s3cret\nNEO4J_VERSION=5.26.30\n" +
		"RAGFORGE_TEST_NEO4J_URI=bolt://127.0.0.1:2\nRAGFORGE_TEST_NEO4J_USER=tester\nRAGFORGE_TEST_NEO4J_PASSWORD=t3st\nRAGFORGE_TEST_NEO4J_DATABASE=\n"
	if err := os.WriteFile(filepath.Join(dir, "env"), []byte(env), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RAGFORGE_TEST_NEO4J_URI", "")
	t.Setenv("RAGFORGE_NEO4J_DIR", dir)
	t.Setenv("NEO4J_DATABASE", "mine")
	t.Setenv("RAGFORGE_TEST_NEO4J_DATABASE", "other")
	cfg, ok, err := loadConfig()
	if err != nil || !ok {
		t.Fatalf("loadConfig: ok=%v err=%v", ok, err)
	}
	want := config{URI: "bolt://127.0.0.1:2", User: "tester", Password: "t3st", Database: "other",
		Source: filepath.Join(dir, "env"), FromFile: true}
	if cfg != want {
		t.Fatalf("config = %+v, want %+v", cfg, want)
	}
	if Database() != "other" {
		t.Errorf("Database() = %q, want the RAGFORGE_TEST_NEO4J_DATABASE override", Database())
	}
}

func TestSettingsFileWithoutTestVariablesSaysToRestartScriptsNeo4j(t *testing.T) {
	dir := t.TempDir()
	env := "NEO4J_URI=bolt://127.0.0.1:1\nNEO4J_USER=neo4j\nNEO4J_PASSWORD=s3cret\n"
	if err := os.WriteFile(filepath.Join(dir, "env"), []byte(env), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RAGFORGE_TEST_NEO4J_URI", "")
	t.Setenv("RAGFORGE_NEO4J_DIR", dir)
	_, ok, err := loadConfig()
	if ok || err == nil || !strings.Contains(err.Error(), "scripts/neo4j start") {
		t.Fatalf("loadConfig of an env file with only NEO4J_*: ok=%v err=%v, want an error saying to rerun scripts/neo4j start", ok, err)
	}
}

func TestLockExcludesASecondHolderUntilReleased(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	unlock, err := lock(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock(path, 200*time.Millisecond); err == nil {
		t.Fatal("a second lock was granted while the first was held")
	}
	unlock()
	unlock2, err := lock(path, time.Second)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	unlock2()
}

func count(t *testing.T, d neo4j.DriverWithContext, cypher string) int64 {
	t.Helper()
	res, err := neo4j.ExecuteQuery(context.Background(), d, cypher, nil,
		neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(Database()))
	if err != nil {
		t.Fatalf("%s: %v", cypher, err)
	}
	n, _ := res.Records[0].Get("n")
	return n.(int64)
}

func TestOpenEmptiesWhatAnEarlierTestLeftButTheTestServerMark(t *testing.T) {
	t.Cleanup(func() {
		// The mark's constraint is made here only to prove it would be
		// kept; other packages' tests count constraints.
		d := Open(t)
		Run(t, d, "DROP CONSTRAINT neo4jtest_mark_unique IF EXISTS", nil)
	})
	t.Run("leave data and schema behind", func(t *testing.T) {
		d := Open(t)
		Run(t, d, "CREATE CONSTRAINT neo4jtest_mark_unique IF NOT EXISTS FOR (m:"+MarkerLabel+") REQUIRE m.created_by IS UNIQUE", nil)
		Run(t, d, "CREATE CONSTRAINT leftover_uuid FOR (s:Leftover) REQUIRE s.uuid IS UNIQUE", nil)
		Run(t, d, "CREATE INDEX `odd ``name` FOR (s:Leftover) ON (s.name)", nil)
		Run(t, d, "CREATE FULLTEXT INDEX leftover_text FOR (s:Leftover) ON EACH [s.name]", nil)
		Run(t, d, "UNWIND range(1, $n) AS i CREATE (:Leftover {uuid: i, name: 'n' + i})-[:NEXT]->(:Other)",
			map[string]any{"n": 5000})
		if got := count(t, d, "MATCH (n) WHERE NOT n:"+MarkerLabel+" RETURN count(n) AS n"); got != 10000 {
			t.Fatalf("set-up made %d nodes, want 10000", got)
		}
	})
	t.Run("find an empty database", func(t *testing.T) {
		d := Open(t)
		if got := count(t, d, "MATCH (n) WHERE NOT n:"+MarkerLabel+" RETURN count(n) AS n"); got != 0 {
			t.Errorf("%d nodes left", got)
		}
		if got := count(t, d, markerQuery); got != 1 {
			t.Errorf("%d test-server marks, want the one scripts/neo4j made, kept", got)
		}
		if got := count(t, d, "SHOW CONSTRAINTS YIELD name WHERE name <> 'neo4jtest_mark_unique' RETURN count(*) AS n"); got != 0 {
			t.Errorf("%d constraints left", got)
		}
		if got := count(t, d, "SHOW CONSTRAINTS YIELD name WHERE name = 'neo4jtest_mark_unique' RETURN count(*) AS n"); got != 1 {
			t.Errorf("the constraint on the test-server mark was dropped")
		}
		if got := count(t, d, "SHOW INDEXES YIELD type, owningConstraint WHERE type <> 'LOOKUP' AND owningConstraint IS NULL RETURN count(*) AS n"); got != 0 {
			t.Errorf("%d user indexes left", got)
		}
		if got := count(t, d, "SHOW INDEXES YIELD type WHERE type = 'LOOKUP' RETURN count(*) AS n"); got != 2 {
			t.Errorf("%d token lookup indexes, want the server's 2 kept", got)
		}
	})
}

func TestRunFailsTheTestOnACypherError(t *testing.T) {
	d := Open(t)
	r := &recorder{TB: t}
	Run(r, d, "CREATE (n:Broken {x: })", nil)
	if !r.failed {
		t.Fatal("Run accepted invalid Cypher")
	}
	if !strings.Contains(r.msg, "CREATE (n:Broken {x: })") {
		t.Errorf("failure %q does not quote the statement", r.msg)
	}
}

func TestAPOCPresenceMatchesWhatScriptsNeo4jInstalled(t *testing.T) {
	d := Open(t)
	has := HasAPOC(t, d)
	t.Logf("APOC installed: %v", has)
	want := os.Getenv("NEO4J_APOC")
	if want == "" {
		if cfg, ok, _ := loadConfig(); ok && cfg.FromFile {
			vars, _ := readEnvFile(cfg.Source)
			want = vars["NEO4J_APOC"]
		}
	}
	if want != "" && (want == "true") != has {
		t.Errorf("server reports APOC=%v, scripts/neo4j says NEO4J_APOC=%s", has, want)
	}
	if has {
		res, err := neo4j.ExecuteQuery(context.Background(), d, "RETURN apoc.text.join(['a', 'b'], '-') AS s", nil,
			neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(Database()))
		if err != nil {
			t.Fatalf("calling APOC: %v", err)
		}
		if s, _ := res.Records[0].Get("s"); s != "a-b" {
			t.Errorf("apoc.text.join = %v", s)
		}
	}
}

func TestOpenRefusesADatabaseWithoutTheTestServerMarkAndLeavesItsNodes(t *testing.T) {
	d := Open(t)
	cfg, _, _ := loadConfig()
	// Under this test's lock no other test runs; the mark is put back even
	// when the test fails, as scripts/neo4j would.
	t.Cleanup(func() {
		Run(t, d, "MERGE (m:"+MarkerLabel+" {created_by: 'scripts/neo4j'}) ON CREATE SET m.created_at = datetime()", nil)
	})
	Run(t, d, "MATCH (m:"+MarkerLabel+") DELETE m", nil)
	Run(t, d, "CREATE INDEX precious_name FOR (p:Precious) ON (p.name)", nil)
	Run(t, d, "UNWIND range(1, 3) AS i CREATE (:Precious {name: 'p' + i})", nil)

	err := prepare(context.Background(), d, cfg)
	if err == nil {
		t.Fatal("a database without the test-server mark was emptied")
	}
	for _, want := range []string{"refusing to empty", MarkerLabel, "scripts/neo4j start"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if got := count(t, d, "MATCH (p:Precious) RETURN count(p) AS n"); got != 3 {
		t.Errorf("%d of 3 nodes survived the refusal", got)
	}
	if got := count(t, d, "SHOW INDEXES YIELD name WHERE name = 'precious_name' RETURN count(*) AS n"); got != 1 {
		t.Error("the index did not survive the refusal")
	}
}
