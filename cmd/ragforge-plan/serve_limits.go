package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/ragforge/ragforge/mcpserver"
)

// limitFlags are serve's limits: the HTTP transport's timeouts and caps,
// and the calls each token may run at once (stdio: the one session).
type limitFlags struct {
	readHeader, read, write, idle, sessionIdle, callWait *time.Duration
	conns, sessions, tokenSessions, batch, calls         *int
	// keepSessions, the proxy's hosts and origins, and each token's call
	// rate are what a fleet of replicas behind a balancer needs.
	keepSessions   *bool
	hosts, origins stringList
	perSecond      *float64
	burst          *int
	fs             *flag.FlagSet
}

func addLimitFlags(fs *flag.FlagSet) *limitFlags {
	l := &limitFlags{
		fs:            fs,
		readHeader:    fs.Duration("read-header-timeout", mcpserver.DefaultReadHeaderTimeout, "http: how long a connection may take to send a request's headers"),
		read:          fs.Duration("read-timeout", mcpserver.DefaultReadTimeout, "http: how long a request's headers and body may take together"),
		write:         fs.Duration("write-timeout", mcpserver.DefaultWriteTimeout, "http: how long one write to a client that does not read may block (a long call or an event stream is not cut)"),
		idle:          fs.Duration("idle-timeout", mcpserver.DefaultIdleTimeout, "http: how long a kept-alive connection may wait for its next request"),
		conns:         fs.Int("max-conns", mcpserver.DefaultMaxConns, "http: open connections; at the cap the one idle longest is closed, or a new one gets 503 (lowered to fit ulimit -n)"),
		sessionIdle:   fs.Duration("session-idle-timeout", mcpserver.DefaultSessionIdleTimeout, "http --sessions: an MCP session with no request for this long is closed"),
		sessions:      fs.Int("max-sessions", mcpserver.DefaultMaxSessions, "http --sessions: open MCP sessions; a new one beyond gets 503 with Retry-After (stateless, without --sessions, opens none)"),
		tokenSessions: fs.Int("max-sessions-per-token", 0, "http --sessions: open MCP sessions of one token; a new one beyond gets 429 with Retry-After (0: --max-sessions shared among the tokens)"),
		batch:         fs.Int("max-batch", mcpserver.DefaultMaxBatch, "http: messages in one JSON-RPC batch (protocol 2025-03-26); a longer one is refused"),
		calls:         fs.Int("calls-per-token", mcpserver.DefaultCallsPerToken, "calls one token (no tokens: all clients together; stdio: the session) runs at once; more wait up to --call-wait"),
		callWait:      fs.Duration("call-wait", mcpserver.DefaultCallWait, "how long a call beyond --calls-per-token waits before it is refused (isError: retry)"),
		keepSessions:  fs.Bool("sessions", false, "http: keep an MCP session per client in this process, for clients that need server-to-client requests; without it each request stands alone, so any replica behind a load balancer answers it"),
		perSecond:     fs.Float64("calls-per-second", 0, "http: tool calls one token may send per second to this process (token bucket; 0: no limit); beyond it 429 with Retry-After. Behind a balancer over N replicas a token gets about N times it"),
		burst:         fs.Int("call-burst", 0, "http: tool calls one token may send at once before --calls-per-second paces it (0: the rate rounded up)"),
	}
	fs.Var(&l.hosts, "allowed-hosts", "http: a Host header a proxy on this machine forwards to the loopback address (repeatable or comma-separated; others get 403)")
	fs.Var(&l.origins, "allowed-origins", "http: an origin (scheme://host[:port]) whose browser pages may call cross-origin (repeatable or comma-separated)")
	return l
}

// check refuses a limit that is not positive (zero would silently mean
// the default, and a negative one nothing sensible), and a session cap
// given without --sessions, which would bound nothing.
func (l *limitFlags) check() error {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"read-header-timeout", *l.readHeader}, {"read-timeout", *l.read}, {"write-timeout", *l.write},
		{"idle-timeout", *l.idle}, {"session-idle-timeout", *l.sessionIdle}, {"call-wait", *l.callWait}} {
		if d.v <= 0 {
			return fmt.Errorf("--%s must be positive", d.name)
		}
	}
	for _, n := range []struct {
		name string
		v    int
	}{{"max-conns", *l.conns}, {"max-sessions", *l.sessions}, {"max-batch", *l.batch}, {"calls-per-token", *l.calls}} {
		if n.v <= 0 {
			return fmt.Errorf("--%s must be positive", n.name)
		}
	}
	if *l.burst < 0 {
		return fmt.Errorf("--call-burst must not be negative (0 is --calls-per-second rounded up)")
	}
	if *l.tokenSessions < 0 {
		return fmt.Errorf("--max-sessions-per-token must not be negative (0 shares --max-sessions among the tokens)")
	}
	if !*l.keepSessions {
		for _, name := range []string{"max-sessions", "max-sessions-per-token", "session-idle-timeout"} {
			if flagGiven(l.fs, name) {
				return fmt.Errorf("--%s bounds MCP sessions, which the server keeps only with --sessions (without it each request stands alone and opens none): give --sessions, or drop --%s", name, name)
			}
		}
	}
	return nil
}

// http returns the HTTP transport's options with these limits.
func (l *limitFlags) http(tokens []mcpserver.Token) mcpserver.HTTPOptions {
	return mcpserver.HTTPOptions{
		Tokens:              tokens,
		ReadHeaderTimeout:   *l.readHeader,
		ReadTimeout:         *l.read,
		WriteTimeout:        *l.write,
		IdleTimeout:         *l.idle,
		MaxConns:            *l.conns,
		SessionIdleTimeout:  *l.sessionIdle,
		MaxSessions:         *l.sessions,
		MaxSessionsPerToken: *l.tokenSessions,
		MaxBatch:            *l.batch,
		Sessions:            *l.keepSessions,
		AllowedHosts:        splitList(l.hosts),
		AllowedOrigins:      splitList(l.origins),
		CallsPerSecond:      *l.perSecond,
		CallBurst:           *l.burst,
	}
}

// splitList flattens a repeatable flag whose values may also be
// comma-separated lists (--allowed-hosts a,b --allowed-hosts c).
func splitList(l stringList) []string {
	var out []string
	for _, v := range l {
		for _, x := range strings.Split(v, ",") {
			if x = strings.TrimSpace(x); x != "" {
				out = append(out, x)
			}
		}
	}
	return out
}
