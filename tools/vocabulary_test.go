package tools

import (
	"slices"
	"testing"

	"github.com/ragforge/ragforge/config"
)

// The words tools shares with the config (directions, modes, operators)
// are the schema's: these lists and tables must name what
// schema/ragforge.cue names, so a change to one fails here until the other
// follows.
func TestToolVocabularyMatchesTheSchema(t *testing.T) {
	var directions []string
	if err := config.DecodeSchema("#Directions", &directions); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(Directions, directions) {
		t.Errorf("Directions = %v, the schema's #Directions = %v", Directions, directions)
	}

	var modes map[string][]string
	if err := config.DecodeSchema("#ModesByType", &modes); err != nil {
		t.Fatal(err)
	}
	for kind, ms := range modes {
		for _, m := range ms {
			_, pattern := PatternHelp[m]
			_, number := NumberHelp[m]
			if !pattern && !number && !slices.Contains(plainModes, m) {
				t.Errorf("mode %s of %s fields is neither explained (patternHelp, numberHelp) nor plain (plainModes)", m, kind)
			}
		}
	}

	var operators map[string][]string
	if err := config.DecodeSchema("#OperatorsByType", &operators); err != nil {
		t.Fatal(err)
	}
	for _, op := range IgnoreCaseOperators {
		if !slices.Contains(operators["string"], op) {
			t.Errorf("ignore_case operator %q is not a string operator of the schema %v", op, operators["string"])
		}
	}
	for _, op := range CountOperators {
		if !slices.Contains(operators["number"], op) {
			t.Errorf("count operator %q is not a number operator of the schema %v", op, operators["number"])
		}
	}

}
