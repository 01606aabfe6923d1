package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// JSON-RPC 2.0's error codes for a body that is not a message.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	// codeServerError is the implementation-defined code of a request
	// the server refuses (a cap, a limit).
	codeServerError = -32000
)

// checkBody holds a POST's body to JSON-RPC 2.0 before the SDK sees it,
// which is lenient where the spec is not: a body that is not one valid
// JSON value in UTF-8 (malformed, or followed by anything but white
// space: a second object, garbage) is a parse error (-32700); a message
// that is not an object with "jsonrpc": "2.0", or that has no method and
// is no response (neither result nor error), is an invalid request
// (-32600), never taken for a response and answered 202; so is an empty
// batch; a batch longer than maxBatch is refused whole. Each answers 400
// with the JSON-RPC error, before any of the body runs. r.Body is left to
// read from the start; the number of tools/call requests the body holds
// is returned for the rate limit, which so reads no body itself (ok false
// when refused).
func checkBody(w http.ResponseWriter, r *http.Request, maxBatch int) (toolCalls int, ok bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, mcp.DefaultMaxRequestBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			http.Error(w, fmt.Sprintf("request body exceeds %d bytes", mbe.Limit), http.StatusRequestEntityTooLarge)
		} else {
			http.Error(w, "failed to read body", http.StatusBadRequest)
		}
		return 0, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	v := checkMessages(body, maxBatch)
	if v.code == 0 {
		return v.toolCalls, true
	}
	jsonrpcErrorCode(w, http.StatusBadRequest, v.code, v.id, v.msg)
	return 0, false
}

// verdict is what checkMessages found in a body: its JSON-RPC error
// (code 0 when it is a message or a batch of them, id the offending
// message's when it has a valid one), or how many tools/call requests it
// holds.
type verdict struct {
	code      int
	id        json.RawMessage
	msg       string
	toolCalls int
}

// checkMessages reads a body once, as checkBody describes.
func checkMessages(body []byte, maxBatch int) verdict {
	if !utf8.Valid(body) {
		return verdict{code: codeParseError, msg: "parse error: the body is not valid UTF-8"}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return verdict{code: codeParseError, msg: fmt.Sprintf("parse error: the body is not JSON: %v", err)}
	}
	if rest := bytes.TrimSpace(body[dec.InputOffset():]); len(rest) > 0 {
		return verdict{code: codeParseError, msg: fmt.Sprintf("parse error: the body holds more than one JSON value (%q follows the message); send one message, or a batch as one array", clip(rest))}
	}
	if !bytes.HasPrefix(v, []byte("[")) {
		return checkMessage(v)
	}
	var batch []json.RawMessage
	if err := json.Unmarshal(v, &batch); err != nil {
		return verdict{code: codeParseError, msg: fmt.Sprintf("parse error: %v", err)}
	}
	switch {
	case len(batch) == 0:
		return verdict{code: codeInvalidRequest, msg: "invalid request: an empty batch"}
	case len(batch) > maxBatch:
		return verdict{code: codeServerError, msg: fmt.Sprintf("a JSON-RPC batch may hold at most %d messages (--max-batch): none of this one ran; send it in smaller batches", maxBatch)}
	}
	var all verdict
	for _, m := range batch {
		v := checkMessage(m)
		if v.code != 0 {
			v.msg += " (in a batch: none of it ran)"
			return v
		}
		all.toolCalls += v.toolCalls
	}
	return all
}

// checkMessage checks one message of a body: a request or notification
// (method) or a response to the server's request (result or error).
func checkMessage(raw json.RawMessage) verdict {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return verdict{code: codeInvalidRequest, msg: "invalid request: a JSON-RPC message is an object"}
	}
	id := m["id"]
	if !validID(id) {
		return verdict{code: codeInvalidRequest, msg: "invalid request: an id is a string, a number or null"}
	}
	if string(m["jsonrpc"]) != `"2.0"` {
		return verdict{code: codeInvalidRequest, id: id, msg: `invalid request: "jsonrpc" must be "2.0"`}
	}
	if method, ok := m["method"]; ok {
		var s string
		if json.Unmarshal(method, &s) != nil || s == "" {
			return verdict{code: codeInvalidRequest, id: id, msg: "invalid request: method must be a non-empty string"}
		}
		if s == "tools/call" {
			return verdict{toolCalls: 1}
		}
		return verdict{}
	}
	_, result := m["result"]
	_, rpcErr := m["error"]
	if result == rpcErr || id == nil {
		return verdict{code: codeInvalidRequest, id: id, msg: "invalid request: a message without a method must be a response (an id and either result or error); a request needs a method"}
	}
	return verdict{}
}

// validID reports whether raw is absent or a string, a number or null.
func validID(raw json.RawMessage) bool {
	if raw == nil {
		return true
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch v.(type) {
	case nil, string, float64:
		return true
	}
	return false
}

// clip shortens b for a message.
func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

// jsonrpcError answers status with a JSON-RPC server error (no id: the
// request was not read as one), which MCP clients show as the call's
// error.
func jsonrpcError(w http.ResponseWriter, status int, msg string) {
	jsonrpcErrorCode(w, status, codeServerError, nil, msg)
}

// jsonrpcErrorCode answers status with a JSON-RPC error of code, for the
// message id (null when it has none or it could not be read).
func jsonrpcErrorCode(w http.ResponseWriter, status, code int, id json.RawMessage, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{
		"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": code, "message": msg},
	})
}
