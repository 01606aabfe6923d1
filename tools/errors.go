package tools

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with a tool call, phrased so an agent can fix
// it: where (a JSON Pointer into the arguments), what was wrong, and, when
// the argument has a fixed set of choices, the valid ones.
type Problem struct {
	// Path points at the offending argument, e.g. "/conditions/0/field";
	// "" is the call as a whole.
	Path string `json:"path"`
	// Message says what was wrong.
	Message string `json:"message"`
	// Valid lists the valid choices for the argument at Path, if any.
	Valid []string `json:"valid,omitempty"`
}

// CallError is the error of a bad call: what [Catalog.Parse] returns,
// and what the planner and the handlers return through [Fail] for what
// only they can check. It is structured (and marshals to JSON) so the
// engine can hand it back to the agent as the tool result and the agent
// can correct its call.
type CallError struct {
	Tool     string    `json:"tool"`
	Problems []Problem `json:"problems"`
}

// Error renders every problem on one line: tool: path: message (valid: …).
func (e *CallError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		var b strings.Builder
		if p.Path != "" {
			b.WriteString(p.Path + ": ")
		}
		b.WriteString(p.Message)
		if len(p.Valid) > 0 {
			fmt.Fprintf(&b, " (valid: %s)", strings.Join(p.Valid, ", "))
		}
		parts[i] = b.String()
	}
	return fmt.Sprintf("invalid call to %s: %s", e.Tool, strings.Join(parts, "; "))
}

// Fail returns the CallError of a call with one problem: the argument at
// path (a JSON Pointer; "" for the call as a whole) is wrong as format
// says, and valid, when not nil, lists its valid choices. The planner and
// every handler (engine, tree, write, traverse, explore, the MCP server)
// build their one-problem errors with it, so they all read alike. A
// message that is not a constant goes in as Fail(tool, path, nil, "%s",
// msg): Neo4j's messages and the agent's own text may hold a %.
func Fail(tool, path string, valid []string, format string, args ...any) *CallError {
	return &CallError{Tool: tool, Problems: []Problem{{Path: path, Message: fmt.Sprintf(format, args...), Valid: valid}}}
}

// problems collects the problems of one call.
type problems []Problem

func (p *problems) add(path, format string, args ...any) {
	*p = append(*p, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (p *problems) choose(path string, valid []string, format string, args ...any) {
	*p = append(*p, Problem{Path: path, Message: fmt.Sprintf(format, args...), Valid: valid})
}

// Pointer builds a JSON Pointer from path segments, escaping ~ and /.
func Pointer(segs ...any) string {
	var b strings.Builder
	for _, s := range segs {
		seg := fmt.Sprint(s)
		seg = strings.ReplaceAll(seg, "~", "~0")
		seg = strings.ReplaceAll(seg, "/", "~1")
		b.WriteString("/" + seg)
	}
	return b.String()
}
