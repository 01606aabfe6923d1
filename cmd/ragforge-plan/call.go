package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/internal/jsonout"
	"github.com/ragforge/ragforge/model"
)

// runCall runs one tool call on Neo4j and prints its result, the way an
// application's agent would get it.
func runCall(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("call", stderr,
		"usage: ragforge-plan call CONFIG... --tool NAME --args JSON [--format text|json] [--timeout D] [--verbose] [--raw-cypher] [--uri URI --user U --password-file F --database DB]",
	)
	conn := addConnectionFlags(fs)
	tool := fs.String("tool", "", "tool name, e.g. query_entities")
	argsJSON := fs.String("args", "{}", "the call's arguments as JSON")
	format := formatFlag(fs)
	timeout := fs.Duration("timeout", engine.DefaultTimeout, "time limit of the whole call: connecting, the server's capabilities, the query")
	verbose := fs.Bool("verbose", false, "return long strings whole")
	ef := addEngineFlags(fs, "the tenant the call runs under (needed when the config declares tenant)")
	sf := addStatsFlags(fs, false)
	contradicted := addContradictedFlag(fs)
	configs, ok := parseConfigs(fs, args)
	if !ok {
		return 2
	}
	if *tool == "" {
		fs.Usage()
		return 2
	}
	if *timeout <= 0 {
		fmt.Fprintln(stderr, "ragforge-plan call: --timeout must be positive")
		return 2
	}
	m, err := config.Load(configs...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	opts, err := ef.options(m, *timeout)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan call: %v\n", err)
		return 2
	}
	// One deadline for the whole call: connecting and detecting what the
	// server offers count against --timeout like the query does.
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	conn.timeout = *timeout
	e, closeEngine, err := openEngine(ctx, m, conn, sf, opts, *contradicted, stderr)
	if err != nil {
		return reportCallError("call", err, "", stdout, stderr)
	}
	defer closeEngine()
	start := time.Now()
	res, err := e.Execute(ctx, engine.Call{Name: *tool, Arguments: json.RawMessage(*argsJSON), Verbose: *verbose})
	if err != nil {
		return reportCallError("call", err, string(*format), stdout, stderr)
	}
	if code := writeJSON("call", stdout, stderr, res); code != 0 || *format == "json" {
		return code
	}
	b, _ := jsonout.Indent(res) // writeJSON has just encoded it
	fmt.Fprintf(stderr, "%s in %v\n", counted(b), time.Since(start).Round(time.Millisecond))
	return 0
}

// counted says how many results an answer holds: its "count", which
// every tool that returns a list of results (generated or not: traverse,
// explore, the tree tools) sets; an answer without one (a write, an
// aggregate's value) is "done".
func counted(answer []byte) string {
	var a struct {
		Count *int `json:"count"`
	}
	if json.Unmarshal(answer, &a) != nil || a.Count == nil {
		return "done"
	}
	return fmt.Sprintf("%d result(s)", *a.Count)
}

// openEngine connects to the server and builds the engine `call` and
// `serve` run tool calls with: the server's capabilities detected (the
// catalog offers only what works there), usage recorded into the stats
// store, and materialized fields read when ready. The computed fields are
// compiled once, for the state cache and the engine. The config is
// checked against the graph first (checkGraph): a contradiction is
// refused, or, with contradicted, said in the answers it touches.
// closeEngine records the usage and closes the connection.
//
// Starting is bounded by opts.Timeout like a call, and an unavailable
// database is the retryable error a call gets (engine.ErrUnavailable).
// Recording the usage at the end is bounded by opts.Timeout too.
func openEngine(ctx context.Context, m *model.Model, conn *connection, sf *statsFlags, opts engine.Options, contradicted bool, stderr io.Writer) (e *engine.Engine, closeEngine func(), err error) {
	cm, err := computed.CompileModel(m)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	d, err := conn.open(ctx)
	if err != nil {
		return nil, nil, err
	}
	if opts.GraphWarnings, err = checkGraph(ctx, d, conn.database, cm, contradicted, stderr); err != nil {
		d.Close(context.Background())
		if ces := config.ConfigErrors(nil); errors.As(err, &ces) {
			return nil, nil, err // the refusal, not a failure to read the graph
		}
		return nil, nil, neo4jtx.Classify(ctx, d, err, false)
	}
	flush, withUsage, err := usageHooks(ctx, sf, d, conn.database, cm, opts.Timeout, stderr)
	if err != nil {
		d.Close(context.Background())
		return nil, nil, neo4jtx.Classify(ctx, d, err, false)
	}
	opts.Driver, opts.Database, opts.Computed = d, conn.database, cm
	if opts.Tools.Capabilities == nil {
		// Detected here rather than in engine.New, under this deadline.
		caps, err := engine.DetectCapabilities(ctx, d, conn.database, m)
		if err != nil {
			flush()
			d.Close(context.Background())
			return nil, nil, neo4jtx.Classify(ctx, d, fmt.Errorf("detecting server capabilities: %w", err), false)
		}
		opts.Tools.Capabilities = &caps
	}
	if e, err = engine.New(ctx, m, withUsage(opts)); err != nil {
		flush()
		d.Close(context.Background())
		return nil, nil, err
	}
	return e, func() { flush(); d.Close(context.Background()) }, nil
}
