package main

import (
	"flag"
	"io"
	"slices"
	"testing"
)

func TestParseInterleavedTakesFlagsAnywhereAndEverythingAfterTheTerminator(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "text", "")
	got, err := parseInterleaved(fs, []string{"a.yaml", "--format", "json", "b.yaml", "--", "--format", "c.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.yaml", "b.yaml", "--format", "c.yaml"}; !slices.Equal(got, want) || *format != "json" {
		t.Errorf("positional %v format %q, want %v and json", got, *format, want)
	}
	if _, err := parseInterleaved(fs, []string{"--nope"}); err == nil {
		t.Error("an unknown flag was accepted")
	}
}
