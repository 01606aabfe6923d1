package main

import (
	"context"
	"fmt"
	"io"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/history/gitimport"
)

// runHistory loads a git repository's history into the graph as Changes
// (package gitimport): history import --git DIR CONFIG.
func runHistory(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("history", stderr,
		"usage: ragforge-plan history import --git DIR CONFIG... [--tenant T] [--batch-size N] [--uri URI --user U --password-file F --database DB]",
		"  import  record every commit of the work tree DIR as Changes of the File nodes whose path it",
		"          touches and of the Scope nodes whose lines it touches (the config's change_tracking.git);",
		"          paths are relative to DIR, so a subdirectory imports its own part; a rerun changes nothing",
	)
	conn := addConnectionFlags(fs)
	dir := fs.String("git", "", "the git work tree (or a directory in one) whose history to import")
	tenantID := fs.String("tenant", "", "the tenant the history belongs to (a tenant-scoped config needs one)")
	batch := fs.Int("batch-size", gitimport.DefaultBatchSize, "file changes per write transaction")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) < 2 || pos[0] != "import" || *dir == "" {
		fs.Usage()
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "ragforge-plan history import: %v\n", err)
		return 1
	}
	m, err := config.Load(pos[1:]...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	d, err := conn.open(ctx)
	if err != nil {
		return fail(err)
	}
	defer d.Close(context.Background())
	stats, err := gitimport.Import(ctx, d, m, *dir, gitimport.Options{Database: conn.database, Tenant: *tenantID, BatchSize: *batch, Progress: stderr})
	if err != nil {
		return fail(err)
	}
	fmt.Fprintln(stdout, stats)
	return 0
}
