package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/jsonout"
	"github.com/ragforge/ragforge/model"
)

// vetReport is `ragforge-plan vet --format json`: what the config declares,
// or every problem found in it.
type vetReport struct {
	OK             bool       `json:"ok"`
	Entities       int        `json:"entities"`
	Fields         int        `json:"fields"`
	ComputedFields int        `json:"computed_fields"`
	Relationships  int        `json:"relationships"`
	Tools          []string   `json:"tools"`
	Errors         []vetError `json:"errors"`
	// Warnings are what the graph lacks that does not fail vet (missing
	// indexes); only with a server.
	Warnings []vetError `json:"warnings"`
}

type vetError struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Path    string `json:"path"`
	Message string `json:"message"`
}

func runVet(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("vet", stderr,
		"usage: ragforge-plan vet [--format text|json] [--uri URI ...] [tool flags] CONFIG...",
		"The summary lists the tools serve offers with the same tool flags (--profile, --raw-cypher, --embedder, …).",
		"With a server configured (--uri or NEO4J_URI), raw cypher: computed fields are also checked with EXPLAIN, and the",
		"config against the graph: missing labels, properties, relationships and wrong stored types are errors, missing indexes warnings.",
	)
	format := formatFlag(fs)
	conn := addConnectionFlags(fs)
	ef := addEngineFlags(fs, "")
	cf := addCapabilityFlags(fs)
	configs, ok := parseConfigs(fs, args)
	if !ok {
		return 2
	}
	m, err := config.Load(configs...)
	report := vetReport{Errors: []vetError{}, Warnings: []vetError{}}
	if err == nil && conn.uri != "" {
		err = liveChecks(ctx, conn, m, stderr, &report.Warnings)
	}
	if err != nil {
		var ces config.ConfigErrors
		if !errors.As(err, &ces) {
			fmt.Fprintf(stderr, "ragforge-plan vet: %v\n", err)
			return 1
		}
		for _, e := range ces {
			report.Errors = append(report.Errors, vetError{File: e.Pos.File, Line: e.Pos.Line, Col: e.Pos.Col, Path: e.Path, Message: e.Msg})
		}
		if *format == "json" {
			writeJSON("vet", stdout, stderr, report)
		} else {
			fmt.Fprintln(stderr, ces.Error())
			fmt.Fprintf(stderr, "%d problem(s)\n", len(ces))
		}
		return 1
	}
	report.OK = true
	count(&report, m)
	// The tools serve offers with the same flags (on a server with the
	// flagged capabilities).
	opts, err := ef.options(m, engine.DefaultTimeout)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan vet: %v\n", err)
		return 2
	}
	e, err := offlineEngine(ctx, m, opts, cf)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan vet: generating tools: %v\n", err)
		return 1
	}
	catalog := e.Tools()
	report.Tools = catalog.Names()
	if *format == "json" {
		return writeJSON("vet", stdout, stderr, report)
	}
	fmt.Fprintf(stdout, "ok: %d entities, %d fields, %d computed fields, %d relationships; %d tools: %s\n",
		report.Entities, report.Fields, report.ComputedFields, report.Relationships, len(report.Tools), strings.Join(report.Tools, ", "))
	return 0
}

func count(r *vetReport, m *model.Model) {
	r.Entities = len(m.Entities)
	for _, e := range m.Entities {
		r.Fields += len(e.Fields)
		r.ComputedFields += len(e.Computed)
		r.Relationships += len(e.Relationships)
	}
}

// writeJSON prints v as indented JSON, the machine-readable form of every
// command's output, and returns the exit code: 0, or 1 when v cannot be
// encoded (then nothing is printed on stdout and stderr says what and
// where, e.g. a NaN) or stdout cannot be written. cmd names the command
// in the message.
func writeJSON(cmd string, stdout, stderr io.Writer, v any) int {
	b, err := jsonout.Indent(v)
	if err == nil {
		_, err = stdout.Write(b)
	}
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan %s: writing the output: %v\n", cmd, err)
		return 1
	}
	return 0
}
