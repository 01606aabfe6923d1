package mcpserver

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	neo4jlog "github.com/neo4j/neo4j-go-driver/v5/neo4j/log"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/tools"
)

// Metrics are a server's Prometheus metrics, served in the text format
// by [Metrics.Handler] (`serve --metrics-addr`, on a listener of its
// own, so that scraping needs no MCP token and the MCP port exposes
// nothing more):
//
//   - ragforge_tool_calls_total{tool, outcome}: the tools/call requests
//     that ended, by outcome: ok, or the class of their error —
//     bad_call (the agent's to fix: a *tools.CallError), unavailable
//     (Neo4j unreachable or behind: retry), commit_unknown (a write whose
//     commit went unanswered: retry), timeout, busy (the token's
//     --calls-per-token), shutting_down, canceled (the client went away),
//     internal (anything else: a bug or the server's);
//   - ragforge_tool_call_duration_seconds{tool}: how long calls took;
//   - ragforge_tool_calls_in_flight: the calls running now;
//   - ragforge_neo4j_pool_waits_total and
//     ragforge_neo4j_pool_wait_timeouts_total: connection borrows that
//     found the driver's pool full and queued, and those that gave up
//     (counted from the driver's log, see [Metrics.DriverLogger]), which
//     say the pool (or Neo4j) is the bottleneck;
//   - the Go runtime's and the process's own (go_*, process_*).
//
// A tool label takes only the names of the catalog (an unknown tool is
// refused before it counts), so the series are bounded.
type Metrics struct {
	reg          *prometheus.Registry
	calls        *prometheus.CounterVec
	seconds      *prometheus.HistogramVec
	inFlight     prometheus.Gauge
	poolWaits    prometheus.Counter
	poolTimeouts prometheus.Counter
}

// NewMetrics returns the metrics of one server (pass them in
// [Options.Metrics]).
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ragforge_tool_calls_total",
			Help: "Tool calls that ended, by tool and outcome (ok or the error's class).",
		}, []string{"tool", "outcome"}),
		seconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "ragforge_tool_call_duration_seconds",
			Help: "How long tool calls took, by tool.",
			// 1 ms to 60 s: a cheap lookup to a call at a long --timeout.
			Buckets: prometheus.ExponentialBucketsRange(0.001, 60, 17),
		}, []string{"tool"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "ragforge_tool_calls_in_flight",
			Help: "Tool calls running now.",
		}),
		poolWaits: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "ragforge_neo4j_pool_waits_total",
			Help: "Connection borrows that found the Neo4j driver's pool full and waited.",
		}),
		poolTimeouts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "ragforge_neo4j_pool_wait_timeouts_total",
			Help: "Connection borrows that waited for the Neo4j driver's pool and gave up.",
		}),
	}
	m.reg.MustRegister(m.calls, m.seconds, m.inFlight, m.poolWaits, m.poolTimeouts,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// middleware counts and times tools/call; the outcome is what
// errorResult noted on the call's context, ok when it noted nothing.
func (m *Metrics) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok {
			return next(ctx, method, req)
		}
		m.inFlight.Inc()
		defer m.inFlight.Dec()
		start := time.Now()
		outcome := new(string)
		res, err := next(context.WithValue(ctx, outcomeKey{}, outcome), method, req)
		switch {
		case err != nil:
			*outcome = errorClass(err)
		case *outcome == "":
			*outcome = "ok"
		}
		tool := call.Params.Name
		m.calls.WithLabelValues(tool, *outcome).Inc()
		m.seconds.WithLabelValues(tool).Observe(time.Since(start).Seconds())
		return res, err
	}
}

// outcomeKey is the context key of a call's outcome, which errorResult
// notes for the metrics.
type outcomeKey struct{}

// noteOutcome records err's class as the outcome of ctx's call.
func noteOutcome(ctx context.Context, err error) {
	if o, ok := ctx.Value(outcomeKey{}).(*string); ok {
		*o = errorClass(err)
	}
}

// errorClass is the outcome label of a call that failed with err.
func errorClass(err error) string {
	var ce *tools.CallError
	var to *neo4jtx.TimeoutError
	switch {
	case errors.As(err, &ce):
		return "bad_call"
	case errors.Is(err, engine.ErrCommitUnknown):
		return "commit_unknown"
	case errors.Is(err, engine.ErrUnavailable):
		return "unavailable"
	case errors.Is(err, errTooManyCalls):
		return "busy"
	case errors.Is(err, errShuttingDown):
		return "shutting_down"
	case errors.As(err, &to), errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	}
	return "internal"
}

// DriverLogger returns a Neo4j driver logger (neo4j.Config.Log) that
// counts the pool's waits for the metrics and passes every message on to
// next (nil: none). The Go driver has no other signal of them: it logs
// "Borrow queued" when a borrow finds every connection of the pool in
// use and waits, and "Borrow time-out" when that wait gives up.
func (m *Metrics) DriverLogger(next neo4jlog.Logger) neo4jlog.Logger {
	return &poolLog{m: m, next: next}
}

// poolLog is [Metrics.DriverLogger]'s logger.
type poolLog struct {
	m    *Metrics
	next neo4jlog.Logger
}

func (l *poolLog) Warnf(name, id, msg string, args ...any) {
	if name == neo4jlog.Pool {
		switch {
		case strings.HasPrefix(msg, "Borrow queued"):
			l.m.poolWaits.Inc()
		case strings.HasPrefix(msg, "Borrow time-out"):
			l.m.poolTimeouts.Inc()
		}
	}
	if l.next != nil {
		l.next.Warnf(name, id, msg, args...)
	}
}

func (l *poolLog) Error(name, id string, err error) {
	if l.next != nil {
		l.next.Error(name, id, err)
	}
}

func (l *poolLog) Infof(name, id, msg string, args ...any) {
	if l.next != nil {
		l.next.Infof(name, id, msg, args...)
	}
}

func (l *poolLog) Debugf(name, id, msg string, args ...any) {
	if l.next != nil {
		l.next.Debugf(name, id, msg, args...)
	}
}
