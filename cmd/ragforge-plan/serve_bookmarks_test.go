package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/mcpserver"
)

// bearerTransport adds a token to every request of the official client.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// goClient connects the official Go MCP client to url with token.
func goClient(t *testing.T, url, token string) (*mcp.ClientSession, error) {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearerTransport{token}}}
	return mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(), tr, nil)
}

// callAfter calls tool with args, sending bookmarks back in _meta when
// there are any, and returns the result and the bookmarks it carries.
func callAfter(ctx context.Context, cs *mcp.ClientSession, tool string, args map[string]any, bookmarks any) (*mcp.CallToolResult, []any, error) {
	p := &mcp.CallToolParams{Name: tool, Arguments: args}
	if bookmarks != nil {
		p.Meta = mcp.Meta{mcpserver.BookmarksMeta: bookmarks}
	}
	res, err := cs.CallTool(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	b, _ := res.Meta[mcpserver.BookmarksMeta].([]any)
	return res, b, nil
}

// bookmarkParts splits Neo4j 5's bookmark encoding (base64 of
// PackStream: a list header and the database's 16-byte id as 0x91 0xcc
// 0x10 and 16 bytes, then the transaction id as the smallest PackStream
// integer, a tiny int or 0xc8/0xc9/0xca/0xcb and 1/2/4/8 bytes, then the
// rest) into the bytes before the transaction id, the id's bytes and
// the rest. The test fails if the test server's form changed.
func bookmarkParts(t *testing.T, b string) (head, txID, tail []byte) {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(b, "FB:"))
	if err != nil || len(raw) < 20 || raw[0] != 0x91 || raw[1] != 0xcc || raw[2] != 0x10 {
		t.Fatalf("bookmark %q is not in the Neo4j 5 form this test edits (%v, %d bytes)", b, err, len(raw))
	}
	n := map[byte]int{0xc8: 2, 0xc9: 3, 0xca: 5, 0xcb: 9}[raw[19]]
	if n == 0 && raw[19] < 0x80 {
		n = 1
	}
	if n == 0 || len(raw) < 19+n {
		t.Fatalf("bookmark %q has no PackStream integer after its database id (marker %#x)", b, raw[19])
	}
	return raw[:19], raw[19 : 19+n], raw[19+n:]
}

// joinBookmark encodes the parts bookmarkParts split.
func joinBookmark(parts ...[]byte) string {
	var raw []byte
	for _, p := range parts {
		raw = append(raw, p...)
	}
	return "FB:" + base64.StdEncoding.EncodeToString(raw)
}

// futureBookmark is b with its transaction number raised past any the
// server has committed.
func futureBookmark(t *testing.T, b string) string {
	head, _, tail := bookmarkParts(t, b)
	return joinBookmark(head, []byte{0xca, 0x7f, 0xff, 0xff, 0xff}, tail)
}

// foreignBookmark is b as a bookmark of a database the server does not
// hold (another deployment's).
func foreignBookmark(t *testing.T, b string) string {
	head, txID, tail := bookmarkParts(t, b)
	foreign := append([]byte(nil), head...)
	for i := 3; i < 19; i++ {
		foreign[i] = byte(i)
	}
	return joinBookmark(foreign, txID, tail)
}

// TestThreeReplicasOnARoutingURIReadTheirWritesWithBookmarksAndAKillCostsOnlyItsInFlightCalls
// runs three `serve --transport http` processes (stateless) on a
// neo4j:// (routing) URI behind a round-robin balancer, with the
// official Go MCP client:
//   - a write on replica 1 is read on replica 2 with the bookmarks its
//     result carried (and replica 1's --metrics-addr counts the write); replica 2's read waits for the bookmarks it is
//     sent (one Neo4j has not reached holds it until the deadline, then
//     a retryable error saying why; one of a database the server does
//     not hold is ignored), and a string that is no bookmark is refused,
//     naming the fix, before anything is read;
//   - four clients write and read their writes back (with the write's
//     bookmarks) through the balancer while replica 3 is killed
//     (SIGKILL): every call succeeds but those replica 3 was running,
//     each of which succeeds when retried.
func TestThreeReplicasOnARoutingURIReadTheirWritesWithBookmarksAndAKillCostsOnlyItsInFlightCalls(t *testing.T) {
	bin := buildCommand(t)
	neo4jtest.Open(t)
	tokens := filepath.Join(t.TempDir(), "tokens.yaml")
	if err := os.WriteFile(tokens, []byte("- {token: alice-s3cret, tenant: alice}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	flags := neo4jtest.Flags(t)
	for i, f := range flags {
		if f == "--uri" {
			flags[i+1] = "neo4j://" + flags[i+1][strings.Index(flags[i+1], "://")+3:]
		}
	}
	// --timeout is what a read waits for a bookmark Neo4j has not reached
	// (below), and long enough that a busy machine times no call out.
	// Replica 1 also serves its metrics.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	metricsAddr := ln.Addr().String()
	ln.Close()
	var replicas []*server
	var urls []string
	for i := range 3 {
		args := append([]string{"--tokens", tokens, "--timeout", "10s"}, flags...)
		if i == 0 {
			args = append(args, "--metrics-addr", metricsAddr)
		}
		s := startHTTPServerFor(t, bin, memoryGraph, args...)
		replicas = append(replicas, s)
		urls = append(urls, s.url)
	}
	ctx := t.Context()
	connect := func(url string) *mcp.ClientSession {
		cs, err := goClient(t, url, "alice-s3cret")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	person := func(name string) map[string]any {
		return map[string]any{"name": name, "canonical_name": strings.ToLower(name), "source": "mcp", "confidence": 1}
	}
	read := func(name string) map[string]any {
		return map[string]any{"entity_type": "Person", "conditions": []any{map[string]any{"field": "name", "operator": "=", "value": name}}}
	}

	one, two := connect(replicas[0].url), connect(replicas[1].url)
	res, bookmarks, err := callAfter(ctx, one, "create_person", person("Ada"), nil)
	if err != nil || res.IsError || len(bookmarks) == 0 {
		t.Fatalf("create_person on replica 1: %v %+v, bookmarks %v", err, res, bookmarks)
	}
	res, after, err := callAfter(ctx, two, "query_entities", read("Ada"), bookmarks)
	if err != nil || res.IsError || !strings.Contains(errorText(res).Error(), `"Ada"`) || len(after) == 0 {
		t.Fatalf("query_entities on replica 2 after replica 1's bookmarks %v: %v %+v, bookmarks %v", bookmarks, err, res, after)
	}
	t.Logf("written on replica 1 (bookmarks %v), read on replica 2 (bookmarks %v)", bookmarks, after)
	res2, err := http.Get("http://" + metricsAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	scraped, _ := io.ReadAll(res2.Body)
	res2.Body.Close()
	for _, want := range []string{`ragforge_tool_calls_total{outcome="ok",tool="create_person"} 1`, `ragforge_tool_call_duration_seconds_count{tool="create_person"} 1`, "ragforge_neo4j_pool_waits_total 0"} {
		if !strings.Contains(string(scraped), want) {
			t.Errorf("replica 1's --metrics-addr lacks %q:\n%s", want, scraped)
		}
	}

	future := []any{futureBookmark(t, bookmarks[0].(string))}
	res, _, err = callAfter(ctx, two, "query_entities", read("Ada"), future)
	if err != nil || !res.IsError || !strings.Contains(errorText(res).Error(), "did not answer by the deadline") || !retryable(res) {
		t.Errorf("a bookmark Neo4j has not reached: %v %+v, want a retryable error after the deadline", err, res)
	}
	// Neo4j 5 ignores a bookmark of a database it does not hold: the
	// read runs at once, without an error (and so without a guarantee).
	start := time.Now()
	res, _, err = callAfter(ctx, two, "query_entities", read("Ada"), []any{foreignBookmark(t, bookmarks[0].(string))})
	if err != nil || res.IsError || time.Since(start) > 2*time.Second {
		t.Errorf("another database's bookmark: %v %+v after %v, want the read at once", err, res, time.Since(start))
	}
	for _, bad := range []any{[]any{"not-a-bookmark"}, "FB:one", []any{""}} {
		res, _, err = callAfter(ctx, two, "query_entities", read("Ada"), bad)
		if err != nil || !res.IsError || retryable(res) || !strings.Contains(errorText(res).Error(), "unchanged") {
			t.Errorf("bookmarks %v: %v %+v, want an error saying to send a result's bookmarks unchanged", bad, err, res)
		}
	}

	b := newBalancer(t, urls...)
	const workers, rounds = 4, 12
	var failed atomic.Int64
	var wg sync.WaitGroup
	killed := make(chan struct{})
	for w := range workers {
		wg.Go(func() {
			cs, err := goClient(t, b.url, "alice-s3cret")
			if err != nil {
				t.Errorf("worker %d: %v", w, err)
				return
			}
			defer func() { cs.Close() }()
			// do makes a call, and once more after a failure on a new
			// connection: a failed call must be retryable.
			do := func(tool string, args map[string]any, bookmarks any) (*mcp.CallToolResult, []any) {
				for attempt := 1; ; attempt++ {
					res, after, err := callAfter(ctx, cs, tool, args, bookmarks)
					if err == nil && !res.IsError {
						return res, after
					}
					if err == nil && !retryable(res) || attempt == 2 {
						if err == nil {
							err = errorText(res)
						}
						t.Errorf("worker %d: %s attempt %d: %v", w, tool, attempt, err)
						return nil, nil
					}
					failed.Add(1)
					t.Logf("worker %d: %s failed, retrying: %v", w, tool, err)
					cs.Close()
					if cs, err = goClient(t, b.url, "alice-s3cret"); err != nil {
						t.Errorf("worker %d: reconnecting: %v", w, err)
						return nil, nil
					}
				}
			}
			for r := range rounds {
				if w == 0 && r == rounds/3 {
					replicas[2].cmd.Process.Kill()
					close(killed)
				}
				name := fmt.Sprintf("P%d_%d", w, r)
				if _, bm := do("create_person", person(name), nil); bm != nil {
					if res, _ := do("query_entities", read(name), bm); res != nil && !strings.Contains(errorText(res).Error(), `"`+name+`"`) {
						t.Errorf("worker %d: the read after writing %s on another replica: %s", w, name, errorText(res))
					}
				}
			}
		})
	}
	wg.Wait()
	<-killed
	lost := b.lost[2].Load()
	t.Logf("replica 3 killed: %d call(s) failed and succeeded when retried; the balancer lost %d request(s) on replica 3, %d on 1, %d on 2",
		failed.Load(), lost, b.lost[0].Load(), b.lost[1].Load())
	if failed.Load() > lost || b.lost[0].Load()+b.lost[1].Load() > 0 {
		t.Errorf("%d calls failed, but only %d requests were running on the killed replica (lost on the others: %d, %d)", failed.Load(), lost, b.lost[0].Load(), b.lost[1].Load())
	}
}

// retryable reports whether an isError result says the call may be made
// again ({"retryable": true}).
func retryable(res *mcp.CallToolResult) bool {
	m, _ := res.StructuredContent.(map[string]any)
	return m["retryable"] == true
}

// TestBookmarkEditsTakeEveryTransactionIDWidth is the regression test
// for CI's fresh database, whose transaction ids fit in 2 bytes (the
// test once assumed 4): both forms, as the test server wrote them, are
// edited into a future and a foreign bookmark of the same form.
func TestBookmarkEditsTakeEveryTransactionIDWidth(t *testing.T) {
	for _, b := range []string{"FB:kcwQi8P3UxuKS12Oqy4w/o4zKskDEZA=", "FB:kcwQOEz3fx6qRPWpFRBQ/HcXS8oAAWv2kA=="} {
		head, _, tail := bookmarkParts(t, futureBookmark(t, b))
		if _, _, origTail := bookmarkParts(t, b); string(tail) != string(origTail) {
			t.Errorf("%s: the future bookmark's tail is %x, want %x", b, tail, origTail)
		}
		if fh, fid, _ := bookmarkParts(t, foreignBookmark(t, b)); string(fh[3:]) == string(head[3:]) || len(fid) == 0 {
			t.Errorf("%s: the foreign bookmark kept its database id", b)
		}
	}
}
