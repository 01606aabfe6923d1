package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/materialize"
)

// planReport is `ragforge-plan plan --format json`: how every computed
// field is evaluated.
type planReport struct {
	ComputedFields []planField `json:"computed_fields"`
}

// planField is one computed field in the plan. RuntimeCypher is usable as
// `MATCH (n:Label) <runtime_subqueries…> RETURN <runtime_cypher>`; for a raw
// cypher field (and any field reading one) RuntimeSubqueries holds the CALL
// clauses that bind the internal aliases the expression reads. Mode is how
// the planner evaluates the field now (materialized only when its state is
// ready for this expression); Decision is what the policy wants, Reason
// why, from Uses (the window's counts), Nodes (-1: unknown) and State
// (unknown without a server, none, building, ready, stale or dropping).
type planField struct {
	Entity               string            `json:"entity"`
	Name                 string            `json:"name"`
	Type                 string            `json:"type"`
	Expression           string            `json:"expression,omitempty"`
	Cypher               string            `json:"cypher,omitempty"`
	DependsOn            []string          `json:"depends_on"`
	RuntimeCypher        string            `json:"runtime_cypher"`
	RuntimeSubqueries    []string          `json:"runtime_subqueries"`
	Materialized         string            `json:"materialized"`
	MaterializedProperty string            `json:"materialized_property"`
	Mode                 string            `json:"mode"`
	Decision             string            `json:"decision"`
	Reason               string            `json:"reason"`
	Uses                 materialize.Usage `json:"uses"`
	Nodes                int64             `json:"nodes"`
	State                string            `json:"state"`
}

func runPlan(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("plan", stderr,
		"usage: ragforge-plan plan CONFIG... [--format text|json] [--stats FILE | --stats-store FILE|neo4j] [--uri URI ...]",
		"With a server (--uri or NEO4J_URI) the plan shows each field's state and node count; without, state is unknown.",
	)
	format := formatFlag(fs)
	conn := addConnectionFlags(fs)
	sf := addStatsFlags(fs, true)
	configs, ok := parseConfigs(fs, args)
	if !ok {
		return 2
	}
	m, err := config.Load(configs...)
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
	var driver neo4j.DriverWithContext
	if conn.uri != "" {
		d, err := conn.open(ctx)
		if err != nil {
			fmt.Fprintf(stderr, "ragforge-plan plan: %v\n", err)
			return 1
		}
		defer d.Close(context.Background())
		driver = d
	} else if sf.needsServer() {
		fmt.Fprintln(stderr, "ragforge-plan plan: --stats-store neo4j needs a server: give --uri or set NEO4J_URI")
		return 1
	}
	counts, err := sf.counts(ctx, driver, conn.database)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan plan: usage counts: %v\n", err)
		return 1
	}
	var facts *materialize.Facts
	if driver != nil {
		if facts, err = materialize.ReadFacts(ctx, driver, conn.database, m); err != nil {
			fmt.Fprintf(stderr, "ragforge-plan plan: %v\n", err)
			return 1
		}
	}
	plans, err := materialize.Plan(compiled, counts, facts, time.Now())
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan plan: %v\n", err)
		return 1
	}
	report := planReport{ComputedFields: []planField{}}
	for _, p := range plans {
		f := compiled.Entity(p.Entity).Field(p.Name)
		frag := p.Fragment
		deps := f.DependsOn
		if deps == nil {
			deps = []string{}
		}
		subs := frag.Subqueries
		if subs == nil {
			subs = []string{}
		}
		mode := "runtime"
		if p.Current {
			mode = "materialized"
		}
		report.ComputedFields = append(report.ComputedFields, planField{
			Entity:               p.Entity,
			Name:                 f.Config.Name,
			Type:                 string(f.Config.Type),
			Expression:           f.Config.Expression,
			Cypher:               strings.TrimSpace(f.Config.Cypher),
			DependsOn:            deps,
			RuntimeCypher:        frag.Cypher,
			RuntimeSubqueries:    subs,
			Materialized:         string(f.Config.Materialized),
			MaterializedProperty: f.CacheProperty(),
			Mode:                 mode,
			Decision:             string(p.Decision),
			Reason:               p.Reason,
			Uses:                 p.Usage,
			Nodes:                p.Nodes,
			State:                p.StateLabel(),
		})
	}
	if *format == "json" {
		return writeJSON("plan", stdout, stderr, report)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	win := 0
	if len(report.ComputedFields) > 0 {
		win = report.ComputedFields[0].Uses.WindowDays
	}
	fmt.Fprintf(tw, "ENTITY\tFIELD\tTYPE\tMATERIALIZED\tFILTER\tORDER\tOTHER USES\tNODES\tSTATE\tMODE\tDECISION\tSOURCE\n")
	for _, f := range report.ComputedFields {
		src := f.Expression
		if f.Cypher != "" {
			src = "cypher: " + strings.Join(strings.Fields(f.Cypher), " ")
		}
		nodes := "?"
		if f.Nodes >= 0 {
			nodes = strconv.FormatInt(f.Nodes, 10)
		}
		u := f.Uses
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", f.Entity, f.Name, f.Type, f.Materialized,
			u.Filter, u.Order, u.Aggregate+u.Group+u.Project, nodes, f.State, f.Mode, f.Decision, src)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "(uses counted over the last %d days, today included)\n", win)
	for _, f := range report.ComputedFields {
		fmt.Fprintf(stdout, "\n%s.%s\n", f.Entity, f.Name)
		if len(f.DependsOn) > 0 {
			fmt.Fprintf(stdout, "  depends on: %s\n", strings.Join(f.DependsOn, ", "))
		}
		fmt.Fprintf(stdout, "  runtime Cypher:\n")
		for _, s := range f.RuntimeSubqueries {
			fmt.Fprintf(stdout, "    %s\n", strings.ReplaceAll(s, "\n", "\n    "))
		}
		fmt.Fprintf(stdout, "    RETURN %s\n", f.RuntimeCypher)
		fmt.Fprintf(stdout, "  stored in: n.%s\n", f.MaterializedProperty)
		fmt.Fprintf(stdout, "  decision: %s\n", f.Reason)
	}
	return 0
}
