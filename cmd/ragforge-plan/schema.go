package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/graphschema/schemaapply"
)

// schemaApplyReport is `ragforge-plan schema apply --format json`.
type schemaApplyReport struct {
	OK        bool                  `json:"ok"`
	Created   int                   `json:"created"`
	Existing  int                   `json:"existing"`
	Conflicts int                   `json:"conflicts"`
	Items     []schemaapply.Outcome `json:"items"`
	Error     string                `json:"error,omitempty"`
}

// runSchema creates the indexes and constraints a config declares
// (`ragforge-plan schema apply`), so that a fresh database serves the
// generated tools at full speed without hand-written DDL.
func runSchema(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("schema", stderr,
		"usage: ragforge-plan schema apply CONFIG... [--wait DURATION] [--format text|json] [--uri URI --user U --password-file F --database DB]",
		"  apply  create the declared range/point, full-text and vector indexes and unique_field constraints",
		"         (idempotent: what exists, under any name where the name does not matter, is kept), then wait until online",
	)
	conn := addConnectionFlags(fs)
	format := formatFlag(fs)
	wait := fs.Duration("wait", schemaapply.DefaultWait, "how long to wait for the indexes to come online")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) < 2 || pos[0] != "apply" {
		fs.Usage()
		return 2
	}
	m, err := config.Load(pos[1:]...)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan schema apply: %v\n", err)
		return 1
	}
	d, err := conn.open(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan schema apply: %v\n", err)
		return 1
	}
	defer d.Close(ctx)
	out, err := schemaapply.Apply(ctx, d, schemaapply.Declared(m), schemaapply.Options{Database: conn.database, Wait: *wait, Progress: stderr})
	report := schemaApplyReport{OK: err == nil, Items: out}
	for _, o := range out {
		switch o.Action {
		case schemaapply.Created:
			report.Created++
		case schemaapply.Exists:
			report.Existing++
		case schemaapply.Conflict:
			report.Conflicts++
		}
	}
	if err != nil {
		report.Error = err.Error()
	}
	code := 0
	if *format == "json" {
		code = writeJSON("schema apply", stdout, stderr, report)
	} else {
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		for _, o := range out {
			detail := o.State
			switch {
			case o.Action == schemaapply.Conflict:
				detail = o.Problem
			case o.Existing != o.Name:
				detail = "as " + o.Existing + ", " + o.State
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", o.Action, o.Item, detail)
		}
		tw.Flush()
		fmt.Fprintf(stdout, "%d created, %d already there, %d conflicts\n", report.Created, report.Existing, report.Conflicts)
	}
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan schema apply: %v\n", err)
		return 1
	}
	return code
}
