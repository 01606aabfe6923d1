package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/materialize"
)

// envStatsStore names the usage store when --stats-store is not given.
const envStatsStore = "RAGFORGE_STATS_STORE"

// statsStoreNeo4j is the --stats-store value that keeps counts in Neo4j.
const statsStoreNeo4j = "neo4j"

// statsFlags are the flags that say where usage counts live: `call`
// records into the store, `plan` and `materialize` read it (or a JSON
// export given with --stats).
type statsFlags struct {
	store string
	file  string
	// flushEvery is how often a long-running command (serve) adds the
	// counts it buffered to the store; zero adds them only at exit.
	flushEvery time.Duration
}

// addStatsFlags registers --stats-store and, when withFile, --stats.
func addStatsFlags(fs *flag.FlagSet, withFile bool) *statsFlags {
	s := &statsFlags{}
	def := os.Getenv(envStatsStore)
	if def == "" {
		def = materialize.DefaultStorePath
	}
	fs.StringVar(&s.store, "stats-store", def, "usage counts: a JSON file path, or neo4j to keep them in the database (default $"+envStatsStore+", else "+materialize.DefaultStorePath+")")
	if withFile {
		fs.StringVar(&s.file, "stats", "", "read usage counts from this JSON export instead of the store")
	}
	return s
}

// DefaultStatsFlush is how often serve adds its buffered usage counts to
// the store: a replica killed without a chance to flush (SIGKILL, a lost
// machine) loses at most this much of its counts.
const DefaultStatsFlush = 30 * time.Second

// addFlushFlag registers --stats-flush, for a command that runs until
// stopped.
func (s *statsFlags) addFlushFlag(fs *flag.FlagSet) {
	fs.DurationVar(&s.flushEvery, "stats-flush", DefaultStatsFlush, "how often usage counts are added to --stats-store (and at exit); a killed process loses at most this much (several replicas: --stats-store neo4j)")
}

// needsServer reports whether the store is in Neo4j.
func (s *statsFlags) needsServer() bool { return s.file == "" && s.store == statsStoreNeo4j }

// open returns the store; driver is needed only for the neo4j store.
func (s *statsFlags) open(ctx context.Context, driver neo4j.DriverWithContext, db string) (materialize.Store, error) {
	if s.store == statsStoreNeo4j {
		if driver == nil {
			return nil, errors.New("--stats-store neo4j needs a server: give --uri or set NEO4J_URI")
		}
		return materialize.NewNeo4jStore(ctx, driver, db)
	}
	if s.store == "" {
		return nil, errors.New("--stats-store is empty")
	}
	return materialize.NewFileStore(s.store), nil
}

// counts reads the counts the policy uses: the --stats export, else the
// store.
func (s *statsFlags) counts(ctx context.Context, driver neo4j.DriverWithContext, db string) ([]materialize.Count, error) {
	if s.file != "" {
		f, err := os.Open(s.file)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		c, err := materialize.ReadStats(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.file, err)
		}
		return c, nil
	}
	st, err := s.open(ctx, driver, db)
	if err != nil {
		return nil, err
	}
	return st.Counts(ctx)
}

// runStats exports a store's counts as JSON, or imports an export into a
// store: how counts move between machines, or from the file store into a
// shared Neo4j store.
func runStats(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("stats", stderr,
		"usage: ragforge-plan stats export [--stats-store FILE|neo4j] > usage.json",
		"       ragforge-plan stats import FILE [--stats-store FILE|neo4j]   (counts add up)",
	)
	conn := addConnectionFlags(fs)
	sf := addStatsFlags(fs, false)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) == 0 || (pos[0] == "export" && len(pos) != 1) || (pos[0] == "import" && len(pos) != 2) || (pos[0] != "export" && pos[0] != "import") {
		fs.Usage()
		return 2
	}
	var driver neo4j.DriverWithContext
	if sf.needsServer() {
		d, err := conn.open(ctx)
		if err != nil {
			fmt.Fprintf(stderr, "ragforge-plan stats: %v\n", err)
			return 1
		}
		defer d.Close(context.Background())
		driver = d
	}
	store, err := sf.open(ctx, driver, conn.database)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan stats: %v\n", err)
		return 1
	}
	if pos[0] == "export" {
		if err := materialize.Export(ctx, store, stdout); err != nil {
			fmt.Fprintf(stderr, "ragforge-plan stats: %v\n", err)
			return 1
		}
		return 0
	}
	f, err := os.Open(pos[1])
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan stats: %v\n", err)
		return 1
	}
	defer f.Close()
	n, err := materialize.Import(ctx, store, f)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan stats: %s: %v\n", pos[1], err)
		return 1
	}
	fmt.Fprintf(stderr, "imported %d counts into %s\n", n, sf.store)
	return 0
}

// usageHooks opens the usage store and the state cache that `call` wires
// into the engine: the call's uses are counted (flush records them) and
// the planner reads stored properties that are ready.
func usageHooks(ctx context.Context, sf *statsFlags, d neo4j.DriverWithContext, db string, cm *computed.Model, timeout time.Duration, stderr io.Writer) (flush func(), opts func(engine.Options) engine.Options, err error) {
	store, err := sf.open(ctx, d, db)
	if err != nil {
		return nil, nil, err
	}
	cache, err := materialize.NewStateCache(cm, d, db, materialize.StateCacheOptions{
		OnError: func(err error) {
			fmt.Fprintf(stderr, "warning: materialization state unreadable, computing every field at runtime: %v\n", err)
		},
	})
	if err != nil {
		return nil, nil, err
	}
	rec := materialize.NewRecorder(store, materialize.RecorderOptions{
		FlushEvery: sf.flushEvery,
		OnError: func(err error) {
			fmt.Fprintf(stderr, "warning: usage counts not yet recorded in %s (kept for the next flush): %v\n", sf.store, err)
		},
	})
	flush = func() {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		if err := rec.Close(ctx); err != nil {
			fmt.Fprintf(stderr, "warning: usage counts not recorded in %s: %v\n", sf.store, err)
		}
	}
	return flush, func(o engine.Options) engine.Options { return engine.WithMaterialization(o, rec, cache) }, nil
}
