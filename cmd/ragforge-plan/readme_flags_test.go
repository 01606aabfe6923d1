package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// flagLine is a flag as FlagSet.PrintDefaults lists it.
var flagLine = regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`)

// TestEveryFlagOfEveryCommandIsInTheDocs asks every command (and each
// subcommand with flags of its own) for its flags, as -h prints them, and
// fails naming each flag neither README.md nor a page of docs/ mentions, so
// a new flag cannot ship undocumented (the command's flags table is in
// docs/serving.md, a topic's flags on the topic's page).
func TestEveryFlagOfEveryCommandIsInTheDocs(t *testing.T) {
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var docs []byte
	for _, page := range append(pages, "../../README.md") {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, data...)
	}
	invocations := [][]string{
		{"materialize", "apply"}, {"materialize", "status"}, {"stats", "export"}, {"fixture", "load"},
		{"schema", "apply"}, {"diagram", "render"},
	}
	for name := range commands {
		invocations = append(invocations, []string{name})
	}
	seen := 0
	for _, inv := range invocations {
		_, _, help := execute(t, append(slices.Clone(inv), "-h")...)
		for _, m := range flagLine.FindAllStringSubmatch(help, -1) {
			seen++
			flag := "--" + m[1]
			if len(m[1]) == 1 {
				flag = "-" + m[1]
			}
			if !regexp.MustCompile(regexp.QuoteMeta(flag) + `\b`).Match(docs) {
				t.Errorf("ragforge-plan %s: neither README.md nor docs/*.md mentions %s", strings.Join(inv, " "), flag)
			}
		}
	}
	if seen < 40 {
		t.Fatalf("found only %d flags in the commands' help; is -h still printing them?", seen)
	}
}
