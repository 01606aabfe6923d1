package main

import (
	"flag"
	"slices"
)

// parseInterleaved parses flags that may come before, between or after the
// positional arguments (`vet a.yaml --format json b.yaml`), which the
// standard flag package stops at; everything after `--` is positional.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, rest = args[:i], args[i+1:]
	}
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return append(positional, rest...), nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}
