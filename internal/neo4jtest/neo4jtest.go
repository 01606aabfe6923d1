// Package neo4jtest gives integration tests a real, empty Neo4j database.
//
// Every package that talks to Neo4j tests against the server that
// scripts/neo4j starts (Neo4j 5.26 Community on 127.0.0.1), never against a
// mock, so that the Cypher the project generates is proven on the engine that
// will run it.
//
// Open empties the database before each test, so it must never reach a
// database that holds anything worth keeping. Two rules make sure of it:
//
//   - Tests find the server only through variables meant for tests:
//     RAGFORGE_TEST_NEO4J_URI, RAGFORGE_TEST_NEO4J_USER,
//     RAGFORGE_TEST_NEO4J_PASSWORD and RAGFORGE_TEST_NEO4J_DATABASE, which
//     scripts/test exports, or, when RAGFORGE_TEST_NEO4J_URI is unset, the
//     same lines in the settings file scripts/neo4j writes (.neo4j/env at
//     the repository root, or $RAGFORGE_NEO4J_DIR/env), so that
//     `scripts/neo4j start` followed by a plain `go test ./...` works.
//     NEO4J_URI and the other NEO4J_* variables, which name the database
//     ragforge-plan works on, are never read.
//   - Open empties only a database that holds the mark scripts/neo4j puts on
//     the servers it starts, a (:_RagforgeTestServer {created_by:
//     'scripts/neo4j'}) node; any other database fails the test, untouched.
//     Emptying keeps the mark.
//
// `go test ./...` runs several packages' test binaries at once, and they all
// share one server. Open therefore takes an exclusive file lock, one per
// server address, that it holds until the test ends: while a test holds it,
// no other test in any process sees or changes the database. The lock is
// per test, not per package, so packages interleave test by test. A test
// calls Open once; its subtests use the parent's driver (a second Open in the
// same test would wait for the lock the test itself holds).
//
// Without a configured server a test is skipped with a message saying how to
// start one, except when CI=true: there the integration tests must run, so a
// missing server fails them.
package neo4jtest

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// MarkerLabel is the label of the node scripts/neo4j creates in the
// database of a server it owns; Open empties only a database that has one
// (created_by: 'scripts/neo4j'), and keeps it. Tests that count every node
// or label of the database leave it out.
const MarkerLabel = "_RagforgeTestServer"

// markerQuery counts the marks of a disposable test server.
const markerQuery = "MATCH (m:" + MarkerLabel + " {created_by: 'scripts/neo4j'}) RETURN count(m) AS n"

// Timeouts are generous: the server shares two cores with the compiler and
// with other test binaries.
const (
	connectTimeout = 60 * time.Second
	lockTimeout    = 20 * time.Minute
	cleanTimeout   = 10 * time.Minute
)

// config is where the test server is and how its settings were found.
type config struct {
	URI, User, Password, Database string
	// Source names where the settings came from, for messages.
	Source string
	// FromFile is true when the settings came from scripts/neo4j's file
	// rather than from the environment: such a file may be left over from a
	// server that has since stopped.
	FromFile bool
}

// Open connects to the test server from the RAGFORGE_TEST_NEO4J_* variables (falling back to
// the repository's .neo4j/env file when RAGFORGE_TEST_NEO4J_URI is unset), takes an
// exclusive cross-process lock for the rest of the test (so packages tested in parallel by
// `go test ./...` never see each other's data), checks that the database carries
// scripts/neo4j's test-server mark (failing the test, with the database untouched, when it
// does not), empties the database but for the mark (nodes, relationships, user-created
// indexes and constraints), and closes everything in t.Cleanup. The driver it returns fails
// the test on any statement Neo4j reports deprecated (see checkDeprecations).
// With no server configured it calls t.Skip with a clear message, unless CI=true, where it fails.
func Open(t testing.TB) neo4j.DriverWithContext {
	t.Helper()
	cfg, ok, err := loadConfig()
	if err != nil {
		t.Fatalf("neo4jtest: %v", err)
		return nil
	}
	if !ok {
		skipOutsideCI(t, "neo4jtest: no Neo4j test server configured (RAGFORGE_TEST_NEO4J_URI is unset and no .neo4j/env; "+
			"NEO4J_URI is never used by tests): run `scripts/neo4j start` or `scripts/test`")
		return nil
	}

	unlock, err := lock(lockPath(cfg), lockTimeout)
	if err != nil {
		t.Fatalf("neo4jtest: %v", err)
		return nil
	}
	t.Cleanup(unlock)

	driver, err := neo4j.NewDriverWithContext(cfg.URI, neo4j.BasicAuth(cfg.User, cfg.Password, ""))
	if err != nil {
		t.Fatalf("neo4jtest: driver for %s (from %s): %v", cfg.URI, cfg.Source, err)
		return nil
	}
	t.Cleanup(func() { _ = driver.Close(context.Background()) })

	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	if err := driver.VerifyConnectivity(ctx); err != nil {
		msg := fmt.Sprintf("neo4jtest: cannot reach Neo4j at %s (from %s): %v", cfg.URI, cfg.Source, err)
		if cfg.FromFile {
			skipOutsideCI(t, msg+"; the server may have stopped: run `scripts/neo4j start`")
			return nil
		}
		t.Fatal(msg)
		return nil
	}

	cctx, ccancel := context.WithTimeout(context.Background(), cleanTimeout)
	defer ccancel()
	if err := prepare(cctx, driver, cfg); err != nil {
		t.Fatalf("neo4jtest: %v", err)
		return nil
	}
	return checkDeprecations(t, driver)
}

// prepare empties the database for a test after checking that it carries
// the test-server mark; without the mark it changes nothing.
func prepare(ctx context.Context, d neo4j.DriverWithContext, cfg config) error {
	if err := checkMarker(ctx, d, cfg); err != nil {
		return err
	}
	if err := empty(ctx, d, cfg.Database); err != nil {
		return fmt.Errorf("emptying database %q at %s: %w", cfg.Database, cfg.URI, err)
	}
	return nil
}

// Database returns the database name tests must pass to sessions ("" means the default).
// It exists so that a developer can point the tests at a database other than the
// server's default without editing any test.
func Database() string {
	cfg, ok, err := loadConfig()
	if err != nil || !ok {
		return ""
	}
	return cfg.Database
}

// Run executes one auto-commit write statement and fails the test on error (set-up helper).
// It keeps test set-up to one line per statement; the statement's result is consumed so
// that its effects are committed when Run returns.
func Run(t testing.TB, d neo4j.DriverWithContext, cypher string, params map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), cleanTimeout)
	defer cancel()
	session := d.NewSession(ctx, neo4j.SessionConfig{DatabaseName: Database(), AccessMode: neo4j.AccessModeWrite})
	defer session.Close(ctx)
	result, err := session.Run(ctx, cypher, params)
	if err == nil {
		_, err = result.Consume(ctx)
	}
	if err != nil {
		t.Fatalf("neo4jtest.Run: %v\ncypher: %s\nparams: %v", err, cypher, params)
	}
}

// HasAPOC reports whether the server has APOC core installed. Tests of
// features that use APOC when it is there and work without it call this to
// choose which behaviour to expect; a test that needs APOC calls
// [RequireAPOC] instead.
func HasAPOC(t testing.TB, d neo4j.DriverWithContext) bool {
	t.Helper()
	return hasFunction(t, d, "apoc.version")
}

// HasGDS reports whether the server has Graph Data Science installed
// (scripts/neo4j start --gds); a test that needs it calls [RequireGDS].
func HasGDS(t testing.TB, d neo4j.DriverWithContext) bool {
	t.Helper()
	return hasFunction(t, d, "gds.version")
}

// hasFunction reports whether the server offers the named function, the
// mark of an installed plugin.
func hasFunction(t testing.TB, d neo4j.DriverWithContext, name string) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	res, err := neo4j.ExecuteQuery(ctx, d,
		"SHOW FUNCTIONS YIELD name WHERE name = $name RETURN count(*) AS n",
		map[string]any{"name": name}, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(Database()))
	if err != nil {
		t.Fatalf("neo4jtest: looking for %s: %v", name, err)
		return false
	}
	n, _ := res.Records[0].Get("n")
	return n.(int64) > 0
}

// RequireAPOC is how a test says it needs APOC: it skips the test, saying
// how to add APOC, when the server lacks it, and fails it under CI=true,
// where scripts/test starts the server with APOC and a missing APOC means
// the set-up is broken.
func RequireAPOC(t testing.TB, d neo4j.DriverWithContext) {
	t.Helper()
	if !HasAPOC(t, d) {
		skipOutsideCI(t, "neo4jtest: this test needs APOC and the server has none: run `scripts/neo4j stop && scripts/neo4j start --apoc`")
	}
}

// RequireGDS is how a test says it needs Graph Data Science: like
// [RequireAPOC], a skip outside CI and a failure under CI=true, where
// scripts/test starts the server with --gds.
func RequireGDS(t testing.TB, d neo4j.DriverWithContext) {
	t.Helper()
	if !HasGDS(t, d) {
		skipOutsideCI(t, "neo4jtest: this test needs Graph Data Science and the server has none: run `scripts/neo4j stop && scripts/neo4j start --apoc --gds`")
	}
}

// RequireTransactionMemoryLimit is how a test says it needs the server to
// limit one transaction's memory (db.memory.transaction.max, which
// scripts/neo4j sets): it returns the limit, or skips the test when the
// server sets none, failing it under CI=true.
func RequireTransactionMemoryLimit(t testing.TB, d neo4j.DriverWithContext) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	res, err := neo4j.ExecuteQuery(ctx, d,
		"SHOW SETTINGS YIELD name, value WHERE name = 'db.memory.transaction.max' RETURN value",
		nil, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(Database()))
	if err != nil || len(res.Records) != 1 {
		t.Fatalf("neo4jtest.RequireTransactionMemoryLimit: reading the setting: %v", err)
	}
	v, _ := res.Records[0].Get("value")
	limit, _ := v.(string)
	if limit == "" || strings.Trim(limit, "0B") == "" {
		skipOutsideCI(t, "neo4jtest: this test needs a per-transaction memory limit and the server sets none: restart it with scripts/neo4j (it sets db.memory.transaction.max)")
	}
	return limit
}

// skipOutsideCI skips a test whose prerequisite is missing, or fails it
// under CI=true, where a skip would hide that the test never ran.
func skipOutsideCI(t testing.TB, msg string) {
	t.Helper()
	if inCI() {
		t.Fatal(msg + " (CI=true: integration tests must run, not skip)")
		return
	}
	t.Skip(msg)
}

// inCI reports whether the tests run in CI, where skipping integration tests
// would hide that they never ran.
func inCI() bool {
	return os.Getenv("CI") == "true"
}

// loadConfig reads the test server's settings from the RAGFORGE_TEST_NEO4J_*
// variables or, when RAGFORGE_TEST_NEO4J_URI is unset or empty, from the
// same lines of scripts/neo4j's env file. NEO4J_* variables are never read:
// they name the database a user works on. ok is false when neither names a
// server.
func loadConfig() (cfg config, ok bool, err error) {
	if uri := os.Getenv("RAGFORGE_TEST_NEO4J_URI"); uri != "" {
		return config{
			URI:      uri,
			User:     envOr("RAGFORGE_TEST_NEO4J_USER", "neo4j"),
			Password: os.Getenv("RAGFORGE_TEST_NEO4J_PASSWORD"),
			Database: os.Getenv("RAGFORGE_TEST_NEO4J_DATABASE"),
			Source:   "RAGFORGE_TEST_NEO4J_* environment variables",
		}, true, nil
	}
	path := envFile()
	if path == "" {
		return config{}, false, nil
	}
	vars, err := readEnvFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return config{}, false, nil
	}
	if err != nil {
		return config{}, false, err
	}
	if vars["RAGFORGE_TEST_NEO4J_URI"] == "" {
		return config{}, false, fmt.Errorf("%s has no RAGFORGE_TEST_NEO4J_URI line (an older scripts/neo4j wrote it): "+
			"run `scripts/neo4j start --apoc` again", path)
	}
	db := vars["RAGFORGE_TEST_NEO4J_DATABASE"]
	if v, set := os.LookupEnv("RAGFORGE_TEST_NEO4J_DATABASE"); set {
		db = v
	}
	user := vars["RAGFORGE_TEST_NEO4J_USER"]
	if user == "" {
		user = "neo4j"
	}
	return config{
		URI:      vars["RAGFORGE_TEST_NEO4J_URI"],
		User:     user,
		Password: vars["RAGFORGE_TEST_NEO4J_PASSWORD"],
		Database: db,
		Source:   path,
		FromFile: true,
	}, true, nil
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

// envFile returns the path of scripts/neo4j's settings file: under
// RAGFORGE_NEO4J_DIR when set (as scripts/neo4j honours it), else .neo4j/env
// in the nearest directory upwards from the working directory (a package
// directory under go test) that has a go.mod. It returns "" when there is
// no such directory.
func envFile() string {
	if dir := os.Getenv("RAGFORGE_NEO4J_DIR"); dir != "" {
		return filepath.Join(dir, "env")
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, ".neo4j", "env")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// readEnvFile parses KEY=VALUE lines; blank lines and # comments are skipped.
func readEnvFile(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	vars := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, found := strings.Cut(line, "=")
		if !found {
			return nil, fmt.Errorf("%s: malformed line %q (want KEY=VALUE)", path, line)
		}
		vars[strings.TrimSpace(strings.TrimPrefix(k, "export "))] = strings.Trim(strings.TrimSpace(v), `"'`)
	}
	return vars, sc.Err()
}

// lockPath names the lock file of one server and database, in the system's
// temporary directory so that every checkout and every process on the
// machine that uses the same server agrees on it.
func lockPath(cfg config) string {
	sum := sha256.Sum256([]byte(cfg.URI + "\x00" + cfg.Database))
	return filepath.Join(os.TempDir(), "ragforge-neo4jtest-"+hex.EncodeToString(sum[:8])+".lock")
}

// lock takes an exclusive flock on path, waiting at most timeout, and
// returns the function that releases it. Each call opens the file anew, so
// two calls conflict even within one process (flock locks belong to open
// file descriptions), which serializes parallel tests of one package too.
func lock(path string, timeout time.Duration) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("lock file: %w", err)
	}
	deadline := time.Now().Add(timeout)
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("lock %s: still held by another test after %v", path, timeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		_ = f.Close()
	}, nil
}

// checkMarker returns an error, saying how to get a disposable server, when
// the database lacks scripts/neo4j's test-server mark: such a database may
// hold someone's data, and Open must not empty it.
func checkMarker(ctx context.Context, d neo4j.DriverWithContext, cfg config) error {
	res, err := neo4j.ExecuteQuery(ctx, d, markerQuery, nil, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(cfg.Database), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		return fmt.Errorf("looking for the test-server mark in database %q at %s (from %s): %w", cfg.Database, cfg.URI, cfg.Source, err)
	}
	if n, _ := res.Records[0].Get("n"); n.(int64) > 0 {
		return nil
	}
	return fmt.Errorf("refusing to empty database %q at %s (from %s): it has no (:%s {created_by: 'scripts/neo4j'}) node, "+
		"so nothing says it is a disposable test server; tests empty their database. Start one with `scripts/neo4j start --apoc` "+
		"(it marks its own server, also one already running) or run `scripts/test`; only if this database is really disposable, "+
		"mark it yourself with CREATE (:%s {created_by: 'scripts/neo4j'})",
		cfg.Database, cfg.URI, cfg.Source, MarkerLabel, MarkerLabel)
}

// empty deletes every node and relationship and drops every constraint and
// every index that a user created, all but the test-server mark (the
// built-in token lookup indexes stay too: they are the server's, and
// recreating them would be slow and pointless).
func empty(ctx context.Context, d neo4j.DriverWithContext, db string) error {
	session := d.NewSession(ctx, neo4j.SessionConfig{DatabaseName: db, AccessMode: neo4j.AccessModeWrite})
	defer session.Close(ctx)

	run := func(cypher string) error {
		res, err := session.Run(ctx, cypher, nil)
		if err == nil {
			_, err = res.Consume(ctx)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", cypher, err)
		}
		return nil
	}
	names := func(cypher string) ([]string, error) {
		res, err := session.Run(ctx, cypher, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cypher, err)
		}
		recs, err := res.Collect(ctx)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cypher, err)
		}
		out := make([]string, 0, len(recs))
		for _, r := range recs {
			v, _ := r.Get("name")
			out = append(out, v.(string))
		}
		return out, nil
	}

	constraints, err := names("SHOW CONSTRAINTS YIELD name, labelsOrTypes " +
		"WHERE NOT '" + MarkerLabel + "' IN labelsOrTypes RETURN name")
	if err != nil {
		return err
	}
	for _, name := range constraints {
		if err := run("DROP CONSTRAINT " + quote(name) + " IF EXISTS"); err != nil {
			return err
		}
	}
	indexes, err := names("SHOW INDEXES YIELD name, type, owningConstraint, labelsOrTypes " +
		"WHERE type <> 'LOOKUP' AND owningConstraint IS NULL AND NOT '" + MarkerLabel + "' IN labelsOrTypes RETURN name")
	if err != nil {
		return err
	}
	for _, name := range indexes {
		if err := run("DROP INDEX " + quote(name) + " IF EXISTS"); err != nil {
			return err
		}
	}
	// One transaction per batch, so that a large benchmark graph never needs
	// one huge transaction, and relationships before nodes, so that a batch
	// is bounded in rows whatever the nodes' degrees (DETACH DELETE of 5,000
	// File nodes with thousands of relationships each overflowed the
	// server's transaction memory pool). Separate statements rather than
	// CALL { } IN TRANSACTIONS, which overflowed it too on a 1 GiB heap.
	for _, step := range []struct{ cypher, what string }{
		{"MATCH ()-[r]->() WITH r LIMIT 10000 DELETE r RETURN count(*) AS deleted", "relationships"},
		{"MATCH (n) WHERE NOT n:" + MarkerLabel + " WITH n LIMIT 10000 DELETE n RETURN count(*) AS deleted", "nodes"},
	} {
		for {
			res, err := session.Run(ctx, step.cypher, nil)
			if err != nil {
				return fmt.Errorf("deleting %s: %w", step.what, err)
			}
			rec, err := res.Single(ctx)
			if err != nil {
				return fmt.Errorf("deleting %s: %w", step.what, err)
			}
			if n, _ := rec.Get("deleted"); n == int64(0) {
				break
			}
		}
	}
	return nil
}

// quote escapes a schema name the way Cypher requires: in backticks, inner
// backticks doubled.
func quote(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// Flags returns the connection flags (--uri, --user, --password-file, --database) of the
// server Open uses, for tests of commands that connect on their own, such as
// `ragforge-plan call` and `ragforge-plan vet`: the command under test then reaches
// the same marked test server, never one that NEO4J_URI names. The password goes
// through a file in the test's temporary directory, never on the command line.
// Call it after Open, which has already skipped or failed when no server is configured.
func Flags(t testing.TB) []string {
	t.Helper()
	cfg, ok, err := loadConfig()
	if err != nil || !ok {
		t.Fatalf("neo4jtest: no server settings (call Open first): %v", err)
		return nil
	}
	pw := filepath.Join(t.TempDir(), "neo4j-password")
	if err := os.WriteFile(pw, []byte(cfg.Password+"\n"), 0o600); err != nil {
		t.Fatalf("neo4jtest: %v", err)
		return nil
	}
	return []string{"--uri", cfg.URI, "--user", cfg.User, "--password-file", pw, "--database", cfg.Database}
}
