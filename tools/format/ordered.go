package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// node is a JSON value that keeps its object keys in order, so a schema
// translated for a provider reads like the original (entity_type first) and
// golden files stay stable.
type node struct {
	keys  []string // object keys, in order (obj only)
	vals  []*node  // object values (obj only)
	items []*node  // array items (arr only)
	raw   json.RawMessage
	obj   bool
	arr   bool
}

// parseNode reads one JSON value.
func parseNode(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := readNode(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after JSON value")
	}
	return n, nil
}

func readNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := &node{obj: true}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := readNode(dec)
				if err != nil {
					return nil, err
				}
				n.set(k, v)
			}
			_, err := dec.Token()
			return n, err
		case '[':
			n := &node{arr: true}
			for dec.More() {
				v, err := readNode(dec)
				if err != nil {
					return nil, err
				}
				n.items = append(n.items, v)
			}
			_, err := dec.Token()
			return n, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	case json.Number:
		return &node{raw: json.RawMessage(t.String())}, nil
	default:
		return scalar(t), nil
	}
}

// scalar makes a node from a Go value.
func scalar(v any) *node { return &node{raw: marshal(v)} }

func (n *node) get(key string) *node {
	if n == nil || !n.obj {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

func (n *node) set(key string, v *node) {
	for i, k := range n.keys {
		if k == key {
			n.vals[i] = v
			return
		}
	}
	n.keys = append(n.keys, key)
	n.vals = append(n.vals, v)
}

// str returns a scalar string's value, or "".
func (n *node) str() string {
	var s string
	if n != nil && n.raw != nil {
		_ = json.Unmarshal(n.raw, &s)
	}
	return s
}

// value decodes a scalar to a Go value.
func (n *node) value() any {
	var v any
	if n != nil && n.raw != nil {
		_ = json.Unmarshal(n.raw, &v)
	}
	return v
}

func (n *node) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	switch {
	case n.obj:
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(marshal(k))
			b.WriteByte(':')
			v, err := n.vals[i].MarshalJSON()
			if err != nil {
				return nil, err
			}
			b.Write(v)
		}
		b.WriteByte('}')
	case n.arr:
		b.WriteByte('[')
		for i, it := range n.items {
			if i > 0 {
				b.WriteByte(',')
			}
			v, err := it.MarshalJSON()
			if err != nil {
				return nil, err
			}
			b.Write(v)
		}
		b.WriteByte(']')
	default:
		b.Write(n.raw)
	}
	return b.Bytes(), nil
}

// marshal encodes v without HTML escaping ("<=" stays "<=").
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte("null")
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}
