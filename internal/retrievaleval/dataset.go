package retrievaleval

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ragforge/ragforge/retrieval"
)

// Case is one labelled message: it is found when every tool in Want is in the
// selection.
type Case struct {
	Message string
	Want    []string
	Split   string
}

// DataSet is a catalog and the messages to rank against it.
type DataSet struct {
	Name     string
	Language string
	Docs     []retrieval.Document
	Cases    []Case
}

// DataPath is where the evaluation data is vendored, relative to the
// repository root: the tests and `ragforge-plan eval-retrieval` need nothing
// outside the repository.
const DataPath = "testdata/eval/tool-retrieval"

// DefaultDataDir returns DataPath under the root of the repository that
// contains the working directory (the nearest directory above it with a
// go.mod), so the tests (run in their package folder) and the command (run
// anywhere in a clone) find the same vendored copy.
func DefaultDataDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			data := filepath.Join(dir, filepath.FromSlash(DataPath))
			if _, err := os.Stat(data); err != nil {
				return "", fmt.Errorf("evaluation data: %s is not in the repository at %s; run from a ragforge clone or pass --data", DataPath, dir)
			}
			return data, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("evaluation data: no go.mod above the working directory; run from a ragforge clone or pass --data")
		}
		dir = parent
	}
}

// LoadAll loads every data set under dir: BFCL live_multiple and multiple
// (pooled), MetaTool single-tool and MetaTool multi-tool.
func LoadAll(dir string) ([]DataSet, error) {
	var sets []DataSet
	for _, f := range []string{"BFCL_v4_live_multiple.json", "BFCL_v4_multiple.json"} {
		ds, err := LoadBFCLPooled(filepath.Join(dir, "bfcl"), f)
		if err != nil {
			return nil, err
		}
		sets = append(sets, ds)
	}
	mt, err := LoadMetaTool(filepath.Join(dir, "metatool"))
	if err != nil {
		return nil, err
	}
	return append(sets, mt...), nil
}
