// Package docs_test checks the examples of the documentation: every
// ```yaml block of config.md is a complete config that loads, or, marked
// "# invalid: MESSAGE", one that fails with MESSAGE.
package docs_test

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/config"
)

var yamlBlock = regexp.MustCompile("(?s)```yaml\n(.*?)```")

func TestEveryConfigExampleInTheReferenceLoadsOrFailsAsItSays(t *testing.T) {
	doc, err := os.ReadFile("config.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := yamlBlock.FindAllStringSubmatch(string(doc), -1)
	if len(blocks) < 8 {
		t.Fatalf("found %d yaml blocks in config.md", len(blocks))
	}
	for i, b := range blocks {
		src := b[1]
		name := fmt.Sprintf("config.md-block-%d.yaml", i+1)
		_, err := config.LoadSources(config.Source{Name: name, Data: []byte(src)})
		if want, ok := strings.CutPrefix(strings.SplitN(src, "\n", 2)[0], "# invalid: "); ok {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("block %d should fail with %q, got %v", i+1, want, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("block %d does not load:\n%v\n%s", i+1, err, src)
		}
	}
}
