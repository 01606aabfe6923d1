package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/materialize"
	"github.com/ragforge/ragforge/model"
)

// fieldList is a repeatable --field Entity.field flag.
type fieldList []model.FieldRef

func (l *fieldList) String() string {
	parts := make([]string, len(*l))
	for i, r := range *l {
		parts[i] = r.Entity + "." + r.Field
	}
	return strings.Join(parts, ",")
}

func (l *fieldList) Set(v string) error {
	ent, fld, ok := strings.Cut(v, ".")
	if !ok || ent == "" || fld == "" {
		return fmt.Errorf("want Entity.field, got %q", v)
	}
	*l = append(*l, model.FieldRef{Entity: ent, Field: fld})
	return nil
}

// materializePlanLine is one field of `materialize plan --format json`:
// the decision, and what apply would do about it.
type materializePlanLine struct {
	Entity   string `json:"entity"`
	Name     string `json:"name"`
	Decision string `json:"decision"`
	// Action is write, resume, rewrite (new expression hash), drop, keep
	// (ready for this hash) or none.
	Action string            `json:"action"`
	State  string            `json:"state"`
	Reason string            `json:"reason"`
	Uses   materialize.Usage `json:"uses"`
	Nodes  int64             `json:"nodes"`
}

// runMaterialize plans and applies the materialization of computed fields:
// plan | apply | status | verify | refresh | drop.
func runMaterialize(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("materialize", stderr,
		"usage: ragforge-plan materialize plan|apply|status|verify|refresh|drop CONFIG... [--field Entity.field]... [--format text|json]",
		"       [--stats FILE | --stats-store FILE|neo4j] [--batch-size N] [--uri URI --user U --password-file F --database DB]",
		"  plan     what apply would do, with each decision's reason",
		"  apply    write decided fields (resumable), index them, mark them ready; drop fields decided runtime",
		"  status   each field's state: none, building, ready, stale, dropping",
		"  verify   count nodes whose stored value differs from the runtime value (exit 1 on any drift)",
		"  refresh  recompute the stored values of materialized fields",
		"  drop     remove stored values, indexes and state",
	)
	conn := addConnectionFlags(fs)
	sf := addStatsFlags(fs, true)
	format := formatFlag(fs)
	var only fieldList
	fs.Var(&only, "field", "restrict to this computed field, as Entity.field (repeatable)")
	batch := fs.Int("batch-size", materialize.DefaultBatchSize, "nodes per write transaction")
	method := fs.String("method", string(materialize.WriteInTransactions), "how apply writes: in-transactions (CALL … IN TRANSACTIONS, only differing values; the faster) or unwind (batches of node ids with a resume cursor)")
	staleAfter := fs.Duration("lock-stale-after", materialize.DefaultLockStaleAfter, "take over a lock whose holder's heartbeat is older than this")
	grace := fs.Duration("grace", materialize.DefaultStateRefresh, "before rewriting or dropping ready values, wait this long so running engines (state refreshed every 30s) stop reading them; 0 when none runs")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	subs := []string{"plan", "apply", "status", "verify", "refresh", "drop"}
	if len(pos) < 2 || !contains(subs, pos[0]) {
		fs.Usage()
		return 2
	}
	sub, configs := pos[0], pos[1:]
	r := &materializeRun{ctx: ctx, sub: sub, only: only, format: *format, stdout: stdout, stderr: stderr}
	m, err := config.Load(configs...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	cm, err := computed.CompileModel(m)
	if err != nil {
		return r.fail(err)
	}
	d, err := conn.open(ctx)
	if err != nil {
		return r.fail(err)
	}
	defer d.Close(context.Background())
	x, err := materialize.New(cm, d, materialize.Options{
		Database: conn.database, BatchSize: *batch, Method: materialize.WriteMethod(*method),
		Progress: stderr, LockStaleAfter: *staleAfter, Grace: graceOption(*grace),
	})
	if err != nil {
		return r.fail(err)
	}
	r.x = x
	r.counts = func() ([]materialize.Count, error) { return sf.counts(ctx, d, conn.database) }
	switch sub {
	case "plan":
		return r.plan()
	case "apply", "refresh", "drop":
		return r.write()
	case "status":
		return r.status()
	case "verify":
		return r.verify()
	}
	return 2
}

// materializeRun is one materialize subcommand on a connected
// Materializer: each method runs one and returns the exit code.
type materializeRun struct {
	ctx            context.Context
	sub            string
	x              *materialize.Materializer
	only           fieldList
	format         outputFormat
	stdout, stderr io.Writer
	// counts reads the usage counts the policy decides by.
	counts func() ([]materialize.Count, error)
}

// fail reports err and exits 1.
func (r *materializeRun) fail(err error) int {
	fmt.Fprintf(r.stderr, "ragforge-plan materialize %s: %v\n", r.sub, err)
	return 1
}

// plan prints what apply would do, with each decision's reason.
func (r *materializeRun) plan() int {
	c, err := r.counts()
	if err != nil {
		return r.fail(err)
	}
	plans, err := r.x.Plan(r.ctx, c)
	if err != nil {
		return r.fail(err)
	}
	var lines []materializePlanLine
	for _, p := range plans {
		if len(r.only) > 0 && !contains(r.only, p.Ref()) {
			continue
		}
		lines = append(lines, materializePlanLine{Entity: p.Entity, Name: p.Name, Decision: string(p.Decision), Action: planAction(p),
			State: p.StateLabel(), Reason: p.Reason, Uses: p.Usage, Nodes: p.Nodes})
	}
	if r.format == "json" {
		return writeJSON("materialize", r.stdout, r.stderr, map[string]any{"fields": nonNilSlice(lines)})
	}
	tw := tabwriter.NewWriter(r.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ENTITY\tFIELD\tSTATE\tDECISION\tAPPLY WOULD")
	for _, l := range lines {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", l.Entity, l.Name, l.State, l.Decision, l.Action)
	}
	tw.Flush()
	for _, l := range lines {
		fmt.Fprintf(r.stdout, "%s\n", l.Reason)
	}
	return 0
}

// write runs apply, refresh or drop and prints their actions; an
// interrupted or locked run says how to go on.
func (r *materializeRun) write() int {
	var as []materialize.Action
	var err error
	switch r.sub {
	case "apply":
		c, cerr := r.counts()
		if cerr != nil {
			return r.fail(cerr)
		}
		as, err = r.x.Apply(r.ctx, c, r.only)
	case "refresh":
		as, err = r.x.Refresh(r.ctx, r.only)
	case "drop":
		as, err = r.x.Drop(r.ctx, r.only)
	}
	code := printActions(as, string(r.format), r.stdout, r.stderr)
	if err != nil {
		var le *materialize.LockedError
		if errors.As(err, &le) || r.ctx.Err() != nil {
			fmt.Fprintf(r.stderr, "ragforge-plan materialize %s: %v\n", r.sub, err)
			if r.ctx.Err() != nil {
				fmt.Fprintln(r.stderr, "interrupted: re-run the same command to resume")
			}
			return 1
		}
		return r.fail(err)
	}
	return code
}

// status prints each field's state.
func (r *materializeRun) status() int {
	st, err := r.x.Status(r.ctx)
	if err != nil {
		return r.fail(err)
	}
	if len(r.only) > 0 {
		var kept []materialize.FieldStatus
		for _, s := range st {
			if contains(r.only, model.FieldRef{Entity: s.Entity, Field: s.Name}) {
				kept = append(kept, s)
			}
		}
		st = kept
	}
	if r.format == "json" {
		return writeJSON("materialize", r.stdout, r.stderr, map[string]any{"fields": nonNilSlice(st)})
	}
	tw := tabwriter.NewWriter(r.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ENTITY\tFIELD\tPROPERTY\tSTATUS\tREADABLE\tROWS\tINDEX\tUPDATED")
	for _, s := range st {
		upd := "-"
		if !s.UpdatedAt.IsZero() {
			upd = s.UpdatedAt.Format(time.RFC3339)
		}
		idx := s.Index
		if idx == "" {
			idx = "-"
		}
		name := s.Name
		if !s.InConfig {
			name += " (not in config)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%v\t%d\t%s\t%s\n", s.Entity, name, s.Property, s.Status, s.Readable, s.Rows, idx, upd)
	}
	tw.Flush()
	return 0
}

// verify counts the nodes whose stored value differs from the runtime
// value, and exits 1 on any drift.
func (r *materializeRun) verify() int {
	drift, err := r.x.Verify(r.ctx, r.only)
	if err != nil {
		return r.fail(err)
	}
	code := 0
	if r.format == "json" {
		code = writeJSON("materialize", r.stdout, r.stderr, map[string]any{"fields": nonNilSlice(drift)})
	} else {
		tw := tabwriter.NewWriter(r.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ENTITY\tFIELD\tSTATUS\tNODES\tDRIFT")
		for _, d := range drift {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\n", d.Entity, d.Name, d.Status, d.Nodes, d.Drift)
		}
		tw.Flush()
		if len(drift) == 0 {
			fmt.Fprintln(r.stdout, "no materialized fields to verify")
		}
	}
	for _, d := range drift {
		if d.Drift > 0 {
			fmt.Fprintf(r.stderr, "%s.%s: %d nodes hold a stored value that differs from the runtime value: run `ragforge-plan materialize refresh`\n", d.Entity, d.Name, d.Drift)
		}
	}
	for _, d := range drift {
		if d.Drift > 0 {
			return 1
		}
	}
	return code
}

// graceOption maps the --grace flag (0: no wait) to Options.Grace (0:
// the default, negative: no wait).
func graceOption(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}

// planAction is what apply would do with one field.
func planAction(p *materialize.FieldPlan) string {
	s := p.State
	switch {
	case p.Decision == materialize.Materialize && s == nil:
		return "write"
	case p.Decision == materialize.Materialize && p.Current:
		return "keep"
	case p.Decision == materialize.Materialize && s.Hash != p.Hash:
		return "rewrite"
	case p.Decision == materialize.Materialize:
		return "resume"
	case s != nil:
		return "drop"
	}
	return "none"
}

// printActions prints what apply, refresh or drop did and returns the
// exit code of printing it.
func printActions(as []materialize.Action, format string, w, stderr io.Writer) int {
	if format == "json" {
		return writeJSON("materialize", w, stderr, map[string]any{"fields": nonNilSlice(as)})
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ENTITY\tFIELD\tACTION\tROWS\tNODES/S")
	for _, a := range as {
		rate := "-"
		if a.NodesPerSecond > 0 {
			rate = fmt.Sprintf("%.0f", a.NodesPerSecond)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", a.Entity, a.Name, a.Did, a.Rows, rate)
	}
	tw.Flush()
	return 0
}

func contains[T comparable](list []T, v T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// nonNilSlice makes an empty list encode as [] rather than null.
func nonNilSlice[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
