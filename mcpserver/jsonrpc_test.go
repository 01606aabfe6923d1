package mcpserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// TestBodiesThatAreNotJSONRPCGetTheSpecsErrors: over HTTP, a body that
// is not one JSON value in UTF-8 (trailing garbage, a second object,
// invalid UTF-8, not JSON) gets 400 and a parse error (-32700); a message
// without a method that is not a response (an id alone), a wrong jsonrpc
// version and an empty batch get 400 and an invalid request (-32600),
// with the message's id when it has one — never 202, and none of the
// body runs. A request, a notification and a response still pass.
func TestBodiesThatAreNotJSONRPCGetTheSpecsErrors(t *testing.T) {
	var calls atomic.Int64
	s, err := New(newEngine(t, helloTool(&calls)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := serveHTTPOnLoopback(t, s, HTTPOptions{Tokens: []Token{{Token: "s3cret"}}})
	r := &rawSession{t: t, url: url, version: "2025-03-26"}
	if res := r.initialize(); res.StatusCode != http.StatusOK {
		t.Fatalf("initialize: %s", res.Status)
	}
	const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hello","arguments":{}}}`
	for _, c := range []struct {
		name, body string
		code       int
		id         string
	}{
		{"trailing garbage", call + " garbage", codeParseError, "null"},
		{"a second object", call + call, codeParseError, "null"},
		{"invalid UTF-8", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hello","arguments":{"x":"` + "\xff\xfe" + `"}}}`, codeParseError, "null"},
		{"not JSON", `{"jsonrpc":"2.0","id":1,"method":`, codeParseError, "null"},
		{"an id without a method", `{"jsonrpc":"2.0","id":7}`, codeInvalidRequest, "7"},
		{"an id and params without a method", `{"jsonrpc":"2.0","id":"x","params":{}}`, codeInvalidRequest, `"x"`},
		{"a response with both result and error", `{"jsonrpc":"2.0","id":3,"result":{},"error":{"code":1,"message":"m"}}`, codeInvalidRequest, "3"},
		{"another jsonrpc version", `{"jsonrpc":"1.0","id":4,"method":"tools/list"}`, codeInvalidRequest, "4"},
		{"an id that is an object", `{"jsonrpc":"2.0","id":{},"method":"tools/list"}`, codeInvalidRequest, "null"},
		{"an empty batch", `[]`, codeInvalidRequest, "null"},
		{"a batch with a message without a method", `[` + call + `,{"jsonrpc":"2.0","id":8}]`, codeInvalidRequest, "8"},
		{"a number", `42`, codeInvalidRequest, "null"},
	} {
		res, msgs := r.post(c.body)
		var e struct {
			ID    json.RawMessage `json:"id"`
			Error struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if len(msgs) != 1 || json.Unmarshal(msgs[0], &e) != nil {
			t.Errorf("%s: %s, %s; want one JSON-RPC error", c.name, res.Status, msgs)
			continue
		}
		if res.StatusCode != http.StatusBadRequest || e.Error.Code != c.code || string(e.ID) != c.id || e.Error.Message == "" {
			t.Errorf("%s: %s, id %s, code %d %q; want 400, id %s, code %d", c.name, res.Status, e.ID, e.Error.Code, e.Error.Message, c.id, c.code)
		}
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d calls ran from refused bodies", n)
	}
	if res, msgs := r.post(" \n" + call + "\n "); res.StatusCode != http.StatusOK || len(msgs) != 1 || !strings.Contains(string(msgs[0]), `"result"`) {
		t.Errorf("a call with white space around it: %s, %s", res.Status, msgs)
	}
	if res, _ := r.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`); res.StatusCode != http.StatusAccepted {
		t.Errorf("a notification: %s, want 202", res.Status)
	}
	if res, _ := r.post(`{"jsonrpc":"2.0","id":5,"result":{}}`); res.StatusCode != http.StatusAccepted {
		t.Errorf("a response: %s, want 202", res.Status)
	}
	// A malformed first message starts no session and holds no slot.
	fresh := &rawSession{t: t, url: url, version: "2025-06-18"}
	if res, _ := fresh.post(`{"jsonrpc":"2.0","id":0,"method":"initialize"} x`); res.StatusCode != http.StatusBadRequest || res.Header.Get("Mcp-Session-Id") != "" {
		t.Errorf("a malformed initialize: %s, session %q", res.Status, res.Header.Get("Mcp-Session-Id"))
	}
}
