package peers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// Conn is where both sides connect: the same server, user and database.
type Conn struct {
	URI, User, Password, Database string
}

// GraphQL is @neo4j/graphql's side: a Node process running
// graphql/runner.mjs, which executes each query with graphql-js's graphql()
// in-process (no HTTP server) and times it there, so the timings hold no
// inter-process cost.
type GraphQL struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *json.Decoder
	stderr *tailBuffer
	// Versions are the runner's package versions (Node, @neo4j/graphql,
	// graphql, neo4j-driver), for the report.
	Versions map[string]string
}

// RunnerMissing returns why the runner cannot start (no node command, or
// its packages not installed), or "" when it can.
func RunnerMissing(dir string) string {
	if _, err := exec.LookPath("node"); err != nil {
		return "node is not installed (bench/peers runs @neo4j/graphql with Node 20 or later)"
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@neo4j", "graphql", "package.json")); err != nil {
		return "the runner's packages are not installed: run `npm ci --prefix bench/peers/graphql` (scripts/test does)"
	}
	return ""
}

// StartGraphQL starts the runner in dir connected through c; extraEnv
// (KEY=VALUE) is added to its environment, e.g. DEBUG=@neo4j/graphql:* to
// print the Cypher it runs on stderr (which goes to debug when not nil).
func StartGraphQL(dir string, c Conn, debug io.Writer, extraEnv ...string) (*GraphQL, error) {
	cmd := exec.Command("node", "runner.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"PEERS_NEO4J_URI="+c.URI, "PEERS_NEO4J_USER="+c.User,
		"PEERS_NEO4J_PASSWORD="+c.Password, "PEERS_NEO4J_DATABASE="+c.Database)
	cmd.Env = append(cmd.Env, extraEnv...)
	g := &GraphQL{cmd: cmd, stderr: &tailBuffer{max: 64 << 10}}
	cmd.Stderr = g.stderr
	if debug != nil {
		cmd.Stderr = io.MultiWriter(g.stderr, debug)
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the @neo4j/graphql runner: %w", err)
	}
	g.in, g.out = in, json.NewDecoder(bufio.NewReaderSize(out, 1<<20))
	var ready struct {
		Ready    bool              `json:"ready"`
		Versions map[string]string `json:"versions"`
	}
	if err := g.out.Decode(&ready); err != nil || !ready.Ready {
		g.Close()
		return nil, fmt.Errorf("the @neo4j/graphql runner did not start (%v): %s", err, g.stderr)
	}
	g.Versions = ready.Versions
	return g, nil
}

// answer is one line the runner writes.
type answer struct {
	Data   json.RawMessage `json:"data"`
	NS     []int64         `json:"ns"`
	Cypher string          `json:"cypher"`
	Params map[string]any  `json:"params"`
	Error  string          `json:"error"`
}

func (g *GraphQL) request(req map[string]any) (*answer, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	if _, err := g.in.Write(append(b, '\n')); err != nil {
		return nil, fmt.Errorf("@neo4j/graphql runner: %w: %s", err, g.stderr)
	}
	var a answer
	if err := g.out.Decode(&a); err != nil {
		return nil, fmt.Errorf("@neo4j/graphql runner: reading its answer: %w: %s", err, g.stderr)
	}
	if a.Error != "" {
		return nil, fmt.Errorf("@neo4j/graphql: %s", a.Error)
	}
	return &a, nil
}

// Query runs w's GraphQL query once and returns its data.
func (g *GraphQL) Query(w Workload) (json.RawMessage, error) {
	a, err := g.request(map[string]any{"op": "query", "query": w.Query, "variables": w.Variables})
	if err != nil {
		return nil, err
	}
	return a.Data, nil
}

// Time runs w's GraphQL query n times and returns each run's duration,
// measured in Node around graphql() (parse, validate, translate to Cypher,
// run on Neo4j, resolve the result).
func (g *GraphQL) Time(w Workload, n int) ([]time.Duration, error) {
	a, err := g.request(map[string]any{"op": "time", "query": w.Query, "variables": w.Variables, "n": n})
	if err != nil {
		return nil, err
	}
	if len(a.NS) != n {
		return nil, fmt.Errorf("@neo4j/graphql runner: %d timings for %d runs", len(a.NS), n)
	}
	out := make([]time.Duration, n)
	for i, ns := range a.NS {
		out[i] = time.Duration(ns)
	}
	return out, nil
}

// Cypher returns the statement and parameters @neo4j/graphql sends for
// w's query (run once, in a transaction that is rolled back). Whole
// numbers come back as int64, as the runner's driver sent them.
func (g *GraphQL) Cypher(w Workload) (string, map[string]any, error) {
	a, err := g.request(map[string]any{"op": "cypher", "query": w.Query, "variables": w.Variables})
	if err != nil {
		return "", nil, err
	}
	for k, v := range a.Params {
		if f, ok := v.(float64); ok && f == math.Trunc(f) {
			a.Params[k] = int64(f)
		}
	}
	return a.Cypher, a.Params, nil
}

// Close ends the runner (closing its input ends its loop) and waits for it.
func (g *GraphQL) Close() error {
	_ = g.in.Close()
	done := make(chan error, 1)
	go func() { done <- g.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		_ = g.cmd.Process.Kill()
		return errors.Join(errors.New("@neo4j/graphql runner did not stop; killed"), <-done)
	}
}

// tailBuffer keeps the last max bytes written to it: the runner's stderr,
// quoted in errors.
type tailBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
