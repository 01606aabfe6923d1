package retrieval

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	cueerrors "cuelang.org/go/cue/errors"
	cuejson "cuelang.org/go/encoding/json"

	"github.com/ragforge/ragforge/schema"
)

// toolDocSchemaFile is the schema file, inside schema.FS, that defines
// #ToolDoc. It is compiled alone, so a catalog can be checked even while the
// config schema beside it changes.
const toolDocSchemaFile = "tooldoc.cue"

// toolDocJSON mirrors a catalog file after it passed #ToolDoc, which is why
// decoding it cannot disagree with the schema.
type toolDocJSON struct {
	Name        string    `json:"name"`
	Category    string    `json:"category"`
	Description string    `json:"description"`
	WhenToUse   whenToUse `json:"whenToUse"`
	Keywords    []string  `json:"keywords"`
	Examples    []Example `json:"examples"`
	Gemini      struct {
		Parameters struct {
			Properties map[string]struct {
				Type        string `json:"type"`
				Description string `json:"description"`
				Enum        []any  `json:"enum"`
			} `json:"properties"`
			Required []string `json:"required"`
		} `json:"parameters"`
	} `json:"gemini"`
}

// whenToUse holds a catalog file's whenToUse, which #ToolDoc allows as one
// string or as a list of strings; either way retrieval indexes every
// situation it names.
type whenToUse []string

// UnmarshalJSON accepts a string or an array of strings.
func (w *whenToUse) UnmarshalJSON(data []byte) error {
	var one string
	if err := json.Unmarshal(data, &one); err == nil {
		*w = whenToUse{one}
		return nil
	}
	var list []string
	if err := json.Unmarshal(data, &list); err != nil {
		return fmt.Errorf("whenToUse: want a string or a list of strings: %w", err)
	}
	*w = list
	return nil
}

// toolDocChecker validates catalog files against #ToolDoc. A cue.Context is
// not safe for concurrent use, hence the mutex; compiling the schema once
// keeps loading a large catalog fast.
type toolDocChecker struct {
	mu  sync.Mutex
	ctx *cue.Context
	def cue.Value
}

var (
	checkerOnce sync.Once
	checker     *toolDocChecker
	checkerErr  error
)

func getChecker() (*toolDocChecker, error) {
	checkerOnce.Do(func() {
		src, err := fs.ReadFile(schema.FS, toolDocSchemaFile)
		if err != nil {
			checkerErr = fmt.Errorf("tool-doc schema: %w", err)
			return
		}
		ctx := cuecontext.New()
		v := ctx.CompileBytes(src, cue.Filename("schema/"+toolDocSchemaFile))
		def := v.LookupPath(cue.ParsePath("#ToolDoc"))
		if err := def.Err(); err != nil {
			checkerErr = fmt.Errorf("tool-doc schema: %w", err)
			return
		}
		checker = &toolDocChecker{ctx: ctx, def: def}
	})
	return checker, checkerErr
}

// ParseToolDoc validates one catalog file against the CUE definition #ToolDoc
// (schema/tooldoc.cue, the same file `cue vet -d '#ToolDoc'` uses) and turns
// it into a Document. Each problem is reported on its own line as
// "file:line:col: path: message", so a catalog author can jump to it.
func ParseToolDoc(filename string, data []byte) (Document, error) {
	c, err := getChecker()
	if err != nil {
		return Document{}, err
	}
	expr, err := cuejson.Extract(filename, data)
	if err != nil {
		return Document{}, positioned(filename, nil, err)
	}
	c.mu.Lock()
	dataVal := c.ctx.BuildExpr(expr)
	err = c.def.Unify(dataVal).Validate(cue.Concrete(true))
	if err != nil {
		err = positioned(filename, &dataVal, err)
	}
	c.mu.Unlock()
	if err != nil {
		return Document{}, err
	}
	var raw toolDocJSON
	if err := json.Unmarshal(data, &raw); err != nil {
		return Document{}, fmt.Errorf("%s: %w", filename, err)
	}
	return raw.document(), nil
}

func (raw toolDocJSON) document() Document {
	d := Document{
		Name:        raw.Name,
		Category:    raw.Category,
		Description: raw.Description,
		WhenToUse:   strings.Join(raw.WhenToUse, "\n"),
		Keywords:    raw.Keywords,
		Examples:    raw.Examples,
	}
	required := map[string]bool{}
	for _, r := range raw.Gemini.Parameters.Required {
		required[r] = true
	}
	for name, p := range raw.Gemini.Parameters.Properties {
		param := Parameter{Name: name, Type: strings.ToLower(p.Type), Description: p.Description, Required: required[name]}
		for _, e := range p.Enum {
			param.Enum = append(param.Enum, fmt.Sprint(e))
		}
		d.Parameters = append(d.Parameters, param)
	}
	slices.SortFunc(d.Parameters, func(a, b Parameter) int { return strings.Compare(a.Name, b.Name) })
	return d
}

// positioned turns CUE errors into one "file:line:col: path: message" line
// per problem. A problem such as a missing field has no position in the data
// file; it is then reported at the object that lacks the field.
func positioned(filename string, data *cue.Value, err error) error {
	var lines []string
	seen := map[string]bool{}
	for _, e := range cueerrors.Errors(err) {
		format, args := e.Msg()
		msg := fmt.Sprintf(format, args...)
		elems := e.Path()
		if len(elems) > 0 && elems[0] == "#ToolDoc" {
			elems = elems[1:]
		}
		path := strings.Join(elems, ".")
		line, col := 0, 0
		for _, p := range cueerrors.Positions(e) {
			if p.Filename() == filename && p.Line() > 0 {
				line, col = p.Line(), p.Column()
				break
			}
		}
		if line == 0 && data != nil {
			parent := elems
			if len(parent) > 0 {
				parent = parent[:len(parent)-1]
			}
			if p := data.LookupPath(cue.MakePath(selectors(parent)...)).Pos(); p.IsValid() && p.Line() > 0 {
				line, col = p.Line(), p.Column()
			}
		}
		if line == 0 {
			line, col = 1, 1
		}
		s := fmt.Sprintf("%s:%d:%d: ", filename, line, col)
		if path != "" {
			s += path + ": "
		}
		s += msg
		if !seen[s] {
			seen[s] = true
			lines = append(lines, s)
		}
	}
	if len(lines) == 0 {
		return fmt.Errorf("%s: %v", filename, err)
	}
	return &CatalogError{Problems: lines}
}

func selectors(path []string) []cue.Selector {
	sels := make([]cue.Selector, 0, len(path))
	for _, p := range path {
		sels = append(sels, cue.ParsePath(p).Selectors()...)
	}
	return sels
}

// CatalogError lists every problem found in catalog files, one positioned
// line each, so that a single run shows everything to fix.
type CatalogError struct {
	Problems []string
}

// Error joins the problems with newlines.
func (e *CatalogError) Error() string { return strings.Join(e.Problems, "\n") }

// LoadCatalog reads every *.json file in each directory (in name order, not
// recursively) as one #ToolDoc and returns the Documents. All invalid files
// and duplicate tool names are reported together in a *CatalogError rather
// than stopping at the first one.
func LoadCatalog(dirs ...string) ([]Document, error) {
	var docs []Document
	var problems []string
	where := map[string]string{}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("catalog: %w", err)
		}
		slices.Sort(files)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, fmt.Errorf("catalog: %w", err)
			}
			d, err := ParseToolDoc(f, data)
			if err != nil {
				var ce *CatalogError
				if errors.As(err, &ce) {
					problems = append(problems, ce.Problems...)
				} else {
					problems = append(problems, err.Error())
				}
				continue
			}
			if prev, dup := where[d.Name]; dup {
				problems = append(problems, fmt.Sprintf("%s:1:1: name: tool %q is already defined in %s", f, d.Name, prev))
				continue
			}
			where[d.Name] = f
			docs = append(docs, d)
		}
	}
	if len(problems) > 0 {
		return nil, &CatalogError{Problems: problems}
	}
	return docs, nil
}
