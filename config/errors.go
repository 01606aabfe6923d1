package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ragforge/ragforge/model"
)

// ConfigError is one problem in a config, at the position of the value that
// causes it. Its text is one line: `file:line:col: path: what is wrong (what
// is allowed)`.
type ConfigError struct {
	Pos model.Pos
	// Path is the dotted path of the offending value in the config, such as
	// entities.0.searchable_fields.2.tool_modes.1; "" for file-level problems.
	Path string
	Msg  string
}

func (e ConfigError) Error() string {
	var b strings.Builder
	if s := e.Pos.String(); s != "" {
		b.WriteString(s)
		b.WriteString(": ")
	}
	// Without a position (a model built in Go) the whole path says where.
	key := e.Path
	if e.Pos.Line != 0 {
		key = e.key()
	}
	if key != "" {
		b.WriteString(key)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// key is the last named element of Path: the position already says where,
// the key says which setting.
func (e ConfigError) key() string {
	parts := strings.Split(e.Path, ".")
	for i := len(parts) - 1; i >= 0; i-- {
		if _, err := strconv.Atoi(parts[i]); err != nil {
			return parts[i]
		}
	}
	return ""
}

// ConfigErrors is every problem found in a set of config files, sorted by
// position, so a user fixes them all in one pass.
type ConfigErrors []ConfigError

func (es ConfigErrors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// sorted orders errors by file, line and column and drops exact repeats
// (CUE reports a conflict once per contributing value).
func (es ConfigErrors) sorted() ConfigErrors {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i].Pos, es[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	out := es[:0]
	seen := map[string]bool{}
	for _, e := range es {
		key := e.Error()
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, e)
	}
	return out
}

func errorf(pos model.Pos, path, format string, args ...any) ConfigError {
	return ConfigError{Pos: pos, Path: path, Msg: fmt.Sprintf(format, args...)}
}
