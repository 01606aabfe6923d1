package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	yamlv4 "go.yaml.in/yaml/v4"

	"github.com/ragforge/ragforge/model"
)

// yamlSyntaxError positions a YAML syntax error at the line and column
// where the parser met it. CUE's YAML decoder (go.yaml.in/yaml/v3) only
// says a line, and for errors inside a construct the line where the
// construct starts; its successor v4, the same parser, reports both marks.
// The construct's start is kept in the message. ok is false when v4 finds
// nothing wrong (the caller keeps CUE's own line).
func yamlSyntaxError(name string, data []byte) (ce ConfigError, ok bool) {
	dec := yamlv4.NewDecoder(bytes.NewReader(data))
	for {
		var n yamlv4.Node
		err := dec.Decode(&n)
		if err == io.EOF {
			return ConfigError{}, false
		}
		var le *yamlv4.LoadError
		if errors.As(err, &le) && le.Mark.Line > 0 {
			msg := le.Message
			if le.ContextMsg != "" && le.ContextMark.Line > 0 && le.ContextMark != le.Mark {
				msg = fmt.Sprintf("%s (%s that starts at line %d, column %d)", msg, le.ContextMsg, le.ContextMark.Line, le.ContextMark.Column)
			}
			return ConfigError{Pos: model.Pos{File: name, Line: le.Mark.Line, Col: le.Mark.Column}, Msg: msg}, true
		}
		if err != nil {
			return ConfigError{}, false
		}
	}
}

// yamlValueColumn is the column of the last YAML node that starts on line
// (the value of a `key: value` line): CUE's decoding errors, such as a
// value that does not match its explicit tag, name only a line. 1 when no
// node starts there.
func yamlValueColumn(data []byte, line int) int {
	col := 1
	var walk func(n *yamlv4.Node)
	walk = func(n *yamlv4.Node) {
		if n.Line == line && n.Column > col {
			col = n.Column
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	dec := yamlv4.NewDecoder(bytes.NewReader(data))
	for {
		var n yamlv4.Node
		if dec.Decode(&n) != nil {
			return col
		}
		walk(&n)
	}
}
