package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The pages whose relative links are checked: the README a newcomer reads
// first and every page under docs/ it sends them to.
func checkedPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append(pages, filepath.Join("..", "README.md"))
}

var (
	fence      = regexp.MustCompile("(?ms)^ *```.*?^ *```")
	codeSpan   = regexp.MustCompile("`[^`\n]*`")
	mdLink     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	headingRow = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *#* *$`)
)

// prose is a page without its code blocks and code spans, where a `](`
// is code, not a link, and a `#` line is a comment, not a heading.
func prose(page string) string {
	return codeSpan.ReplaceAllString(fence.ReplaceAllString(page, ""), "")
}

// anchors are the ids GitHub gives a page's headings: lower case, letters,
// digits, '-' and '_' kept, spaces turned into '-', the rest dropped, and a
// repeated id suffixed -1, -2, ….
func anchors(page string) map[string]bool {
	ids := map[string]bool{}
	seen := map[string]int{}
	for _, m := range headingRow.FindAllStringSubmatch(fence.ReplaceAllString(page, ""), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		id := b.String()
		if n := seen[id]; n > 0 {
			seen[id]++
			id += "-" + strconv.Itoa(n)
		} else {
			seen[id] = 1
		}
		ids[id] = true
	}
	return ids
}

// TestEveryRelativeLinkOfTheDocsReachesAFileAndHeading fails on each link of
// README.md or docs/*.md whose file does not exist or whose #anchor names no
// heading of its page, so a section moved between pages cannot leave a dead
// link behind.
func TestEveryRelativeLinkOfTheDocsReachesAFileAndHeading(t *testing.T) {
	cache := map[string]map[string]bool{}
	headingsOf := func(path string) map[string]bool {
		if ids, ok := cache[path]; ok {
			return ids
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		cache[path] = anchors(string(data))
		return cache[path]
	}
	links := 0
	for _, page := range checkedPages(t) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(prose(string(data)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s: link %s: no file %s", page, target, path)
					continue
				}
			}
			if anchor != "" && strings.HasSuffix(path, ".md") && !headingsOf(path)[anchor] {
				t.Errorf("%s: link %s: %s has no heading with the anchor #%s", page, target, path, anchor)
			}
		}
	}
	if links < 20 {
		t.Fatalf("found only %d relative links in README.md and docs/*.md; is the link pattern still right?", links)
	}
}

func TestAnchorsAreGitHubs(t *testing.T) {
	page := "# ragforge\n## HTTP server (`serve --transport http`)\n```sh\n# a comment\n```\n## Limits and operations\n## Limits and operations\n"
	want := []string{"ragforge", "http-server-serve---transport-http", "limits-and-operations", "limits-and-operations-1"}
	got := anchors(page)
	for _, id := range want {
		if !got[id] {
			t.Errorf("anchors lack %q: %v", id, got)
		}
	}
	if got["a-comment"] || len(got) != len(want) {
		t.Errorf("anchors = %v, want exactly %v", got, want)
	}
}
