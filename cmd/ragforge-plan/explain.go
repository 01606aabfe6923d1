package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// explainOutput is `explain --format json`: the statement a call becomes,
// and the Go-side pattern filter or the text to embed when it has one.
type explainOutput struct {
	Cypher string          `json:"cypher"`
	Params map[string]any  `json:"params"`
	Filter *planner.Filter `json:"filter,omitempty"`
	// Fetch is the scan's second step (the kept entities' properties).
	Fetch *planner.Statement `json:"fetch,omitempty"`
	// Next is the scan's statement for the chunks after the first.
	Next  *planner.Statement `json:"next,omitempty"`
	Embed *planner.Embed     `json:"embed,omitempty"`
	Uses  []model.Use        `json:"uses,omitempty"`
	Error *tools.CallError   `json:"error,omitempty"`
	Shape *planner.Shape     `json:"-"`
}

// runExplain prints the Cypher and parameters of a tool call without a
// database, so an operator can read (and run by hand) what an agent's call
// does.
func runExplain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("explain", stderr,
		"usage: ragforge-plan explain CONFIG... --tool NAME --args JSON [--format text|json] [--apoc] [--no-fulltext] [--materialized Entity.field]...",
	)
	tool := fs.String("tool", "", "tool name, e.g. query_entities")
	argsJSON := fs.String("args", "{}", "the call's arguments as JSON")
	format := formatFlag(fs)
	apoc := fs.Bool("apoc", false, "plan as for a server with APOC (fuzzy matching on any string field)")
	noFullText := fs.Bool("no-fulltext", false, "plan as for a server without the config's full-text indexes")
	var materialized stringList
	fs.Var(&materialized, "materialized", "Entity.field of a computed field to plan as materialized and ready (repeatable)")
	configs, ok := parseConfigs(fs, args)
	if !ok {
		return 2
	}
	if *tool == "" {
		fs.Usage()
		return 2
	}
	m, err := config.Load(configs...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	state := model.State{}
	for _, ref := range materialized {
		ent, field, ok := strings.Cut(ref, ".")
		if !ok || m.Entity(ent) == nil || m.Entity(ent).ComputedField(field) == nil {
			fmt.Fprintf(stderr, "ragforge-plan explain: --materialized %q is not Entity.field of a computed field\n", ref)
			return 2
		}
		state[model.FieldRef{Entity: ent, Field: field}] = true
	}
	caps := tools.Capabilities{FullText: !*noFullText, APOC: *apoc}
	// Every tool is explainable, including those off by default, but for
	// run_cypher on a tenant config: the engine never offers it there.
	e, err := engine.New(ctx, m, engine.Options{
		Tools:    tools.Options{Aggregations: true, RawCypher: m.Tenant == nil, Capabilities: &caps},
		Embedder: engine.EmbedderFunc(nil),
		State:    func(context.Context) (model.State, error) { return state, nil },
	})
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan explain: %v\n", err)
		return 1
	}
	st, err := e.Plan(ctx, engine.Call{Name: *tool, Arguments: json.RawMessage(*argsJSON)})
	if err != nil {
		return reportCallError("explain", err, string(*format), stdout, stderr)
	}
	if *format == "json" {
		return writeJSON("explain", stdout, stderr, explainOutput{Cypher: st.Cypher, Params: st.Params, Filter: st.Filter, Fetch: st.Fetch, Next: st.Next, Embed: st.Embed, Uses: st.Uses})
	}
	fmt.Fprintln(stdout, st.Cypher)
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "params:")
	if code := writeJSON("explain", stdout, stderr, st.Params); code != 0 {
		return code
	}
	if st.Filter != nil {
		fmt.Fprintf(stdout, "\nthen matched in Go: %s %q (case-sensitive: %v) on the value column, over every candidate until the limit or the deadline\n",
			st.Filter.Mode, st.Filter.Pattern, st.Filter.CaseSensitive)
	}
	if st.Next != nil {
		fmt.Fprintf(stdout, "\nthe chunks after the first ($%s, the last id read):\n%s\n", planner.ScanAfter, st.Next.Cypher)
	}
	if st.Fetch != nil {
		fmt.Fprintf(stdout, "\nthen the kept entities ($%s, their ids in order):\n%s\n", planner.FetchIDs, st.Fetch.Cypher)
	}
	if st.Embed != nil {
		fmt.Fprintf(stdout, "\n$%s is the embedding of %q by the model of index %s (%d dimensions)\n", st.Embed.Param, st.Embed.Text, st.Embed.Index, st.Embed.Dimensions)
	}
	if st.Raw {
		fmt.Fprintln(stdout, "\n(run_cypher: the agent's own statement; call checks it with EXPLAIN before running it)")
	}
	return 0
}

// reportCallError prints a bad call's problems (as JSON with --format
// json) and returns exit code 1; other errors are printed as they are,
// and an unavailable database or a write whose commit went unanswered
// exits exitUnavailable (retry the call: a write applies once).
func reportCallError(cmd string, err error, format string, stdout, stderr io.Writer) int {
	var ce *tools.CallError
	if errors.As(err, &ce) {
		if format == "json" {
			writeJSON(cmd, stdout, stderr, map[string]any{"error": ce})
		} else {
			fmt.Fprintln(stderr, ce.Error())
		}
		return 1
	}
	fmt.Fprintf(stderr, "ragforge-plan %s: %v\n", cmd, err)
	if errors.Is(err, engine.ErrUnavailable) || errors.Is(err, engine.ErrCommitUnknown) {
		return exitUnavailable
	}
	return 1
}
