package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/ragforge/ragforge/internal/graphschema/schemadraft"
)

// runInit drafts a config from the graph at --uri (`ragforge-plan init`),
// so that describing an existing graph starts from its real labels, types
// and relationships instead of a blank file.
func runInit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("init", stderr,
		"usage: ragforge-plan init [-o FILE] [--enum-max N] [--sample N] [--uri URI --user U --password-file F --database DB]",
		"Drafts a config (YAML) from the graph: labels → entities, properties → typed fields, relationship types with",
		"the labels they connect, indexes. The draft passes `ragforge-plan vet --uri` on the same graph; review it.",
	)
	conn := addConnectionFlags(fs)
	output := fs.String("o", "", "write the draft to this file instead of stdout (refuses to overwrite)")
	enumMax := fs.Int("enum-max", 20, "draft a string property as an enum when the sample holds at most this many distinct values")
	sample := fs.Int("sample", 10000, "nodes read per property to find enum values and ISO date-times")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) > 0 {
		fmt.Fprintf(stderr, "ragforge-plan init: unexpected argument %q\n", pos[0])
		fs.Usage()
		return 2
	}
	d, err := conn.open(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan init: %v\n", err)
		return 1
	}
	defer d.Close(ctx)
	draft, err := schemadraft.Draft(ctx, d, schemadraft.Options{Database: conn.database, EnumMax: *enumMax, Sample: *sample, Source: conn.uri})
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan init: %v\n", err)
		return 1
	}
	if *output == "" {
		_, _ = stdout.Write(draft)
		return 0
	}
	f, err := os.OpenFile(*output, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err == nil {
		_, err = f.Write(draft)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan init: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "wrote %s; check it with: ragforge-plan vet %s --uri %s\n", *output, *output, conn.uri)
	return 0
}
