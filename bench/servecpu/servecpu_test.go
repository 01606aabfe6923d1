// Package servecpu measures the CPU one cheap tools/call costs serve, and
// the CPU it costs Neo4j, side by side (issue 32: at most 0.5 ms of
// serve's CPU per call).
//
// BenchmarkGetEntityByIDOverHTTP serves the code-RAG config's tools with
// mcpserver's real HTTP handler (stateless, no token, the info log line
// of every call written to io.Discard) on a loopback listener in this
// process, and a keep-alive HTTP client posts get_entity_by_id for one
// File as a JSON-RPC tools/call, each answered by Neo4j. Each call goes
// through everything serve does: net/http, the JSON-RPC checks, the MCP
// SDK, validation, planning, the driver, the read transaction, shaping,
// the log line. It reports, per call:
//
//   - serve-cpu-ms/call: this process's CPU (getrusage, user + system)
//     during the timed loop, less the CPU the same client spends on the
//     same number of calls to a handler that answers the same bytes at
//     once (the client-baseline sub-benchmark): what serving costs;
//   - neo4j-cpu-ms/call: the Neo4j server process's CPU (utime + stime of
//     /proc/PID/stat, found by its org.neo4j command line) during the
//     timed loop — everything the server did meanwhile, so other clients
//     of a shared server add to it (omitted when no such process is
//     visible);
//   - ns/op: the wall time of one call, client to client.
//
// The serve sub-benchmark is stateless (the default), with the garbage
// collector at serve's default (mcpserver.DefaultGCPercent); serve-gogc100
// is the same at Go's default; serve-sessions calls in one MCP session of
// a server kept with --sessions.
//
// Run it with: RAGFORGE_TEST_NEO4J_* set, go test ./bench/servecpu
// -run '^$' -bench . -benchtime 3000x (add -cpuprofile cpu.out to see
// where serve's CPU goes).
package servecpu

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/mcpserver"
	"github.com/ragforge/ragforge/tools"
)

// call is the cheap call measured: one File by its unique path.
const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_entity_by_id","arguments":{"entity_type":"File","id_value":"net/http/server.go"}}}`

func BenchmarkGetEntityByIDOverHTTP(b *testing.B) {
	d := neo4jtest.Open(b)
	neo4jtest.Run(b, d, `CREATE (:File {path: 'net/http/server.go', name: 'server.go', package: 'http', lines: 4000})`, nil)
	set := neo4jtest.ServerSettings(b)
	// The driver serve opens, not the test helper's (which checks every
	// statement's notifications).
	drv, err := neo4j.NewDriverWithContext(set.URI, neo4j.BasicAuth(set.User, set.Password, ""))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { drv.Close(context.Background()) })
	m, err := config.Load(filepath.Join("..", "..", "testdata", "configs", "valid", "code-rag.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	e, err := engine.New(b.Context(), m, engine.Options{Driver: drv, Database: set.Database, Tools: tools.Options{Capabilities: &tools.Capabilities{}}})
	if err != nil {
		b.Fatal(err)
	}
	s, err := mcpserver.New(e, mcpserver.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	stateless := endpoint{url: serve(b, s.HTTPHandler(mcpserver.HTTPOptions{}))}
	// The same engine behind a server that keeps sessions (--sessions),
	// with one session open.
	ss, err := mcpserver.New(e, mcpserver.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	session := endpoint{url: serve(b, ss.HTTPHandler(mcpserver.HTTPOptions{Sessions: true}))}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	h, _ := post(b, client, session, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	session.id = h.Get("Mcp-Session-Id")
	post(b, client, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	_, answer := post(b, client, stateless, call)
	if !bytes.Contains(answer, []byte("server.go")) || bytes.Contains(answer, []byte(`"isError":true`)) {
		b.Fatalf("get_entity_by_id answered %s", answer)
	}
	for range 200 { // warm Neo4j's query cache and the connections
		post(b, client, stateless, call)
		post(b, client, session, call)
	}

	// clientCPU is what the client spends per call, measured on a handler
	// that answers the same bytes at once, under the garbage collector
	// setting of the variant it is subtracted from (the client's own
	// garbage is collected more often at a lower GOGC).
	clientCPU := map[int]time.Duration{}
	canned := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(answer)
	}))
	defer canned.Close()
	for _, gc := range []int{mcpserver.DefaultGCPercent, 100} {
		b.Run("client-baseline-gogc"+strconv.Itoa(gc), func(b *testing.B) {
			defer debug.SetGCPercent(debug.SetGCPercent(gc))
			cpu := processCPU(b)
			for b.Loop() {
				post(b, client, endpoint{url: canned.URL}, call)
			}
			clientCPU[gc] = (processCPU(b) - cpu) / time.Duration(b.N)
			b.ReportMetric(ms(clientCPU[gc]), "client-cpu-ms/call")
		})
	}
	// serve runs stateless with the garbage collector at serve's default
	// (mcpserver.DefaultGCPercent); serve-gogc100 is the same at Go's
	// default, GOGC=100; serve-sessions calls in one MCP session of a
	// server with --sessions.
	for _, v := range []struct {
		name      string
		to        endpoint
		gcPercent int
	}{{"serve", stateless, mcpserver.DefaultGCPercent}, {"serve-gogc100", stateless, 100}, {"serve-sessions", session, mcpserver.DefaultGCPercent}} {
		b.Run(v.name, func(b *testing.B) {
			defer debug.SetGCPercent(debug.SetGCPercent(v.gcPercent))
			pid := neo4jPID()
			n4j := pidCPU(pid)
			cpu := processCPU(b)
			for b.Loop() {
				post(b, client, v.to, call)
			}
			perCall := (processCPU(b)-cpu)/time.Duration(b.N) - clientCPU[v.gcPercent]
			b.ReportMetric(ms(perCall), "serve-cpu-ms/call")
			if pid != "" {
				b.ReportMetric(ms((pidCPU(pid)-n4j)/time.Duration(b.N)), "neo4j-cpu-ms/call")
			}
		})
	}
}

// serve serves h on a loopback port until the benchmark ends and
// returns its base URL.
func serve(b *testing.B, h http.Handler) string {
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	return srv.URL
}

// endpoint is a server's base URL and, with sessions, the session's id.
type endpoint struct{ url, id string }

// post sends body to the MCP endpoint of to and returns the response's
// headers and body; anything but 200 or 202 fails the benchmark.
func post(b *testing.B, c *http.Client, to endpoint, body string) (http.Header, []byte) {
	req, err := http.NewRequest(http.MethodPost, to.url+mcpserver.Path, strings.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	if to.id != "" {
		req.Header.Set("Mcp-Session-Id", to.id)
	}
	res, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK && res.StatusCode != http.StatusAccepted {
		b.Fatalf("%s: %v %s", res.Status, err, out)
	}
	return res.Header, out
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// processCPU is this process's CPU time so far, user and system.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// neo4jPID is the pid of the Neo4j server process this machine runs (its
// command line names org.neo4j), or "" when none is visible.
func neo4jPID() string {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range dirs {
		if cmd, err := os.ReadFile(filepath.Join(dir, "cmdline")); err == nil && bytes.Contains(cmd, []byte("org.neo4j")) {
			return filepath.Base(dir)
		}
	}
	return ""
}

// clockTicks is the unit of /proc/PID/stat's times (USER_HZ, 100 on
// Linux everywhere).
const clockTicks = 100

// pidCPU is the CPU time (utime + stime) of process pid so far; 0 when
// it cannot be read.
func pidCPU(pid string) time.Duration {
	if pid == "" {
		return 0
	}
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0
	}
	// The fields after the command (which may hold spaces) start at its
	// closing parenthesis: utime and stime are the 14th and 15th fields.
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / clockTicks
}
