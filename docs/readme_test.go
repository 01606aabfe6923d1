package docs_test

import (
	"bytes"
	"os"
	"testing"
)

// readmeLines is the most README.md may hold: a newcomer's page (what
// ragforge is, the two commands, a first success, their own graph, where
// to go next) read in five minutes; every topic is a page under docs/.
const readmeLines = 250

func TestTheREADMEStaysANewcomersPage(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte("\n")); n > readmeLines {
		t.Errorf("README.md has %d lines, at most %d: move the detail to the topic's page under docs/ and link it", n, readmeLines)
	}
}
