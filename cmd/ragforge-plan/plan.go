package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/engine"
)

// planReport is `ragforge-plan plan --format json`: how every computed
// field is evaluated.
type planReport struct {
	ComputedFields []planField `json:"computed_fields"`
}

// planField is one computed field in the plan. RuntimeCypher is usable as
// `MATCH (n:Label) <runtime_subqueries…> RETURN <runtime_cypher>`; for a raw
// cypher field (and any field reading one) RuntimeSubqueries holds the CALL
// clauses that bind the internal aliases the expression reads.
type planField struct {
	Entity               string   `json:"entity"`
	Name                 string   `json:"name"`
	Type                 string   `json:"type"`
	Expression           string   `json:"expression,omitempty"`
	Cypher               string   `json:"cypher,omitempty"`
	DependsOn            []string `json:"depends_on"`
	RuntimeCypher        string   `json:"runtime_cypher"`
	RuntimeSubqueries    []string `json:"runtime_subqueries"`
	Materialized         string   `json:"materialized"`
	MaterializedProperty string   `json:"materialized_property"`
	Mode                 string   `json:"mode"`
	Reason               string   `json:"reason"`
}

func runPlan(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text or json")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: ragforge-plan plan [--format text|json] CONFIG...")
		fs.PrintDefaults()
	}
	var configs []string
	for {
		if err := fs.Parse(args); err != nil {
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		configs = append(configs, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "ragforge-plan plan: unknown --format %q (allowed: text, json)\n", *format)
		return 2
	}
	if len(configs) == 0 {
		fs.Usage()
		return 2
	}
	m, err := engine.Load(configs...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	compiled, err := computed.CompileModel(m)
	if err != nil {
		var ce computed.Errors
		if errors.As(err, &ce) {
			fmt.Fprintln(stderr, err)
			return 1
		}
		fmt.Fprintf(stderr, "ragforge-plan plan: %v\n", err)
		return 1
	}
	report := planReport{ComputedFields: []planField{}}
	for _, e := range m.Entities {
		for _, f := range compiled[e.Name].Fields {
			frag, err := f.Fragment(computed.Options{})
			if err != nil {
				fmt.Fprintf(stderr, "ragforge-plan plan: %s.%s: %v\n", e.Name, f.Config.Name, err)
				return 1
			}
			deps := f.DependsOn
			if deps == nil {
				deps = []string{}
			}
			subs := frag.Subqueries
			if subs == nil {
				subs = []string{}
			}
			report.ComputedFields = append(report.ComputedFields, planField{
				Entity:               e.Name,
				Name:                 f.Config.Name,
				Type:                 string(f.Config.Type),
				Expression:           f.Config.Expression,
				Cypher:               strings.TrimSpace(f.Config.Cypher),
				DependsOn:            deps,
				RuntimeCypher:        frag.Cypher,
				RuntimeSubqueries:    subs,
				Materialized:         string(f.Config.Materialized),
				MaterializedProperty: f.CacheProperty(),
				Mode:                 "runtime",
				Reason:               "no materialization state yet: every field is computed per query",
			})
		}
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(report); err != nil {
			fmt.Fprintf(stderr, "ragforge-plan plan: %v\n", err)
			return 1
		}
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ENTITY\tFIELD\tTYPE\tMODE\tDEPENDS ON\tMATERIALIZED\tPROPERTY\tSOURCE")
	for _, f := range report.ComputedFields {
		src := f.Expression
		if f.Cypher != "" {
			src = "cypher: " + strings.Join(strings.Fields(f.Cypher), " ")
		}
		deps := strings.Join(f.DependsOn, ", ")
		if deps == "" {
			deps = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", f.Entity, f.Name, f.Type, f.Mode, deps, f.Materialized, f.MaterializedProperty, src)
	}
	tw.Flush()
	for _, f := range report.ComputedFields {
		fmt.Fprintf(stdout, "\n%s.%s runtime Cypher:\n", f.Entity, f.Name)
		for _, s := range f.RuntimeSubqueries {
			fmt.Fprintf(stdout, "  %s\n", strings.ReplaceAll(s, "\n", "\n  "))
		}
		fmt.Fprintf(stdout, "  RETURN %s\n", f.RuntimeCypher)
	}
	return 0
}
