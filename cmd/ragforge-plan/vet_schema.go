package main

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/graphschema/schemacheck"
	"github.com/ragforge/ragforge/model"
)

// liveChecks is what vet checks on the server: raw cypher: fields with
// EXPLAIN, and the config against the graph's labels, properties, types,
// relationships and indexes (package schemacheck). Errors of both come back
// together as config.ConfigErrors (vet exits 1); the graph's warnings
// (missing indexes, a database without nodes) are printed to stderr and
// appended to warnings (for --format json), and do not fail vet.
func liveChecks(ctx context.Context, conn *connection, m *model.Model, stderr io.Writer, warnings *[]vetError) error {
	d, err := conn.open(ctx)
	if err != nil {
		return err
	}
	defer d.Close(ctx)
	cm, err := computed.CompileModel(m)
	if err != nil {
		return err
	}
	ces, err := config.CheckCypherFields(ctx, d, conn.database, cm)
	if err != nil {
		return err
	}
	findings, err := schemacheck.Check(ctx, d, conn.database, cm)
	if err != nil {
		return err
	}
	for _, f := range findings {
		if f.Severity == schemacheck.Error {
			ces = append(ces, config.ConfigError{Pos: f.Pos, Path: f.Path, Msg: f.Msg})
		} else {
			fmt.Fprintln(stderr, f)
			*warnings = append(*warnings, vetError{File: f.Pos.File, Line: f.Pos.Line, Col: f.Pos.Col, Path: f.Path, Message: f.Msg})
		}
	}
	if len(ces) > 0 {
		slices.SortStableFunc(ces, func(a, b config.ConfigError) int { return a.Pos.Compare(b.Pos) })
		return ces
	}
	return nil
}
