package main

import (
	"flag"
	"fmt"
	"io"
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

// outputFormat is the --format flag of the commands that print text for
// people or JSON for machines; any other value is a usage error that the
// flag package reports with the command's usage.
type outputFormat string

func (f *outputFormat) String() string { return string(*f) }

func (f *outputFormat) Set(v string) error {
	if v != "text" && v != "json" {
		return fmt.Errorf("unknown format %q (allowed: text, json)", v)
	}
	*f = outputFormat(v)
	return nil
}

// formatFlag registers --format (default text).
func formatFlag(fs *flag.FlagSet) *outputFormat {
	f := outputFormat("text")
	fs.Var(&f, "format", "output format: text or json")
	return &f
}

// parseConfigs parses a command that takes CONFIG... arguments: ok is false
// (exit 2) on a bad flag or when no config is given, after the usage.
func parseConfigs(fs *flag.FlagSet, args []string) (configs []string, ok bool) {
	configs, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, false
	}
	if len(configs) == 0 {
		fs.Usage()
		return nil, false
	}
	return configs, true
}

// newFlagSet makes a command's flag set: errors and usage go to stderr, and
// the usage prints the given lines, then the flags.
func newFlagSet(name string, stderr io.Writer, usage ...string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		for _, line := range usage {
			fmt.Fprintln(stderr, line)
		}
		fs.PrintDefaults()
	}
	return fs
}

// flagGiven reports whether the named flag was set on the command line
// (not merely defaulted, e.g. from the environment).
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
