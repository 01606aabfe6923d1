package retrieval

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

const exampleCatalog = "../testdata/catalog"

func TestExampleCatalogPassesToolDocSchema(t *testing.T) {
	docs, err := LoadCatalog(exampleCatalog)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 3 || len(docs) > 5 {
		t.Fatalf("want 3–5 example tools, got %d", len(docs))
	}
	for _, d := range docs {
		if d.Description == "" || len(d.Keywords) == 0 || len(d.Examples) == 0 || len(d.Parameters) == 0 {
			t.Errorf("%s: incomplete document %+v", d.Name, d)
		}
	}
}

func TestBrokenToolDocIsRejectedWithPositions(t *testing.T) {
	cases := []struct {
		name, data string
		want       []string // substrings of the error, each with a position
	}{
		{"missing name", `{"description": "x"}`, []string{"bad.json:1:1: name: field is required but not present"}},
		{"wrong types", "{\n  \"name\": \"t\",\n  \"description\": \"x\",\n  \"keywords\": \"oops\",\n  \"examples\": [{\"user\": 3}]\n}",
			[]string{"bad.json:4:15: keywords:", "bad.json:5:25: examples.0.user:"}},
		{"bad parameter type", `{"name": "t", "description": "x", "gemini": {"parameters": {"type": "object", "properties": {"a": {"type": "strng"}}}}}`,
			[]string{"bad.json:1:108: gemini.parameters.properties.a.type: invalid value \"strng\""}},
		{"syntax error", `{"name": "t",`, []string{"bad.json:1:"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseToolDoc("bad.json", []byte(c.data))
			if err == nil {
				t.Fatal("accepted a broken document")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			var ce *CatalogError
			if errors.As(err, &ce) {
				pos := regexp.MustCompile(`^bad\.json:\d+:\d+: `)
				for _, p := range ce.Problems {
					if !pos.MatchString(p) {
						t.Errorf("problem without a position: %q", p)
					}
				}
			}
		})
	}
}

func TestCheckHandlersReportsBothDirections(t *testing.T) {
	docs := []Document{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	r := CheckHandlers(docs, []string{"c", "b", "z"})
	if strings.Join(r.WithoutHandler, ",") != "a" || strings.Join(r.WithoutDocument, ",") != "z" {
		t.Fatalf("got %+v", r)
	}
	if r.Err() == nil || !strings.Contains(r.Err().Error(), "a") {
		t.Fatalf("want an error naming a and z, got %v", r.Err())
	}
	if err := CheckHandlers(docs, []string{"a", "b", "c"}).Err(); err != nil {
		t.Fatal(err)
	}
}

func TestLoadCatalogReportsDuplicateNamesAcrossFolders(t *testing.T) {
	_, err := LoadCatalog(exampleCatalog, exampleCatalog)
	if err == nil || !strings.Contains(err.Error(), "is already defined in") {
		t.Fatalf("want duplicate-name errors, got %v", err)
	}
}

func TestCatalogWhenToUseIsAStringOrAListAndBothAreIndexed(t *testing.T) {
	const head = `{"name": %q, "description": "Does a thing.", "whenToUse": `
	docs := []Document{}
	for name, when := range map[string]string{
		"as_string": `"Use for zanzibar questions."`,
		"as_list":   `["Use for quokka questions.", "Use when the user mentions a wombat."]`,
	} {
		d, err := ParseToolDoc(name+".json", []byte(fmt.Sprintf(head, name)+when+"}"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		docs = append(docs, d)
	}
	ix, err := NewIndex(docs)
	if err != nil {
		t.Fatal(err)
	}
	for msg, want := range map[string]string{"zanzibar": "as_string", "quokka": "as_list", "wombat": "as_list"} {
		if got := ix.Rank(msg, 1); len(got) != 1 || got[0].Name != want {
			t.Errorf("%q: want %s first, got %v", msg, want, got)
		}
	}
	for _, bad := range []string{`3`, `[1]`, `{"a": "b"}`} {
		if _, err := ParseToolDoc("bad.json", []byte(`{"name": "t", "description": "x", "whenToUse": `+bad+`}`)); err == nil || !strings.Contains(err.Error(), "bad.json:1:") {
			t.Errorf("whenToUse %s: want a positioned error, got %v", bad, err)
		}
	}
}
