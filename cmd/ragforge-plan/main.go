// Command ragforge-plan checks ragforge configs, prints the tools they
// generate, explains and runs tool calls, and plans and applies the
// materialization of computed fields. It is thin: flags become library calls
// and results become text or JSON.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
)

// command is one subcommand: it reads its own flags from args and returns the
// process exit code.
type command struct {
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
	summary string
}

// commands is the table of subcommands, by name.
var commands = map[string]command{
	"select":         {runSelect, "choose the tools for a message from a tool catalog"},
	"eval-retrieval": {runEvalRetrieval, "measure tool retrieval on the public MetaTool and BFCL data"},
	"vet":            {runVet, "check configs against the schema and report every problem"},
	"explain":        {runExplain, "print the Cypher and parameters a tool call becomes (no database)"},
	"call":           {runCall, "run a tool call on Neo4j and print its result"},
	"tools":          {runTools, "print the tools a config generates (listing, or MCP/OpenAI/Anthropic/Gemini JSON)"},
	"fixture":        {runFixture, "load a Go source tree into Neo4j as a code graph"},
	"plan":           {runPlan, "print how each computed field is evaluated, and whether usage says to materialize it, with the reason"},
	"materialize":    {runMaterialize, "plan, apply, check and drop stored (materialized) computed fields on Neo4j"},
	"history":        {runHistory, "load a git repository's history into the graph as Changes of its files and scopes"},
	"stats":          {runStats, "export or import the usage counts that drive materialization, as JSON"},
	"diagram":        {runDiagram, "draw a saved tree diagram (create_diagram) as SVG or an HTML page"},
	"embed":          {runEmbed, "compute the vectors of the vector indexes for nodes without one or whose text changed (resumable)"},
	"schema":         {runSchema, "create the indexes and constraints a config declares, idempotently, and wait until they are online"},
	"init":           {runInit, "draft a config from a live graph's labels, property types, relationships and indexes"},
	"serve":          {runServe, "serve a config's tools to MCP clients (stdio or streamable HTTP)"},
	"demo":           {runDemo, "ask a running code-RAG server four sample questions as an MCP client (scripts/quickstart)"},
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "ragforge-plan: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	return cmd.run(ctx, args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: ragforge-plan COMMAND [flags] ...")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %-15s %s\n", name, commands[name].summary)
	}
}
