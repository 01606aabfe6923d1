package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/mcpserver"
	"github.com/ragforge/ragforge/retrieval"
)

// runServe serves a config's tools to MCP clients: on stdin/stdout for a
// client that starts the server itself (Claude Desktop, IDEs), or over
// streamable HTTP for clients that connect to a running one.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", stderr,
		"usage: ragforge-plan serve CONFIG... [--transport stdio|http] [--addr 127.0.0.1:8080] [--tokens FILE] [--profile P] [--search-tools [--always TOOL]...] [flags]",
	)
	conn := addConnectionFlags(fs)
	transport := fs.String("transport", "stdio", "stdio (the client starts the server) or http (streamable HTTP at "+mcpserver.Path+")")
	addr := fs.String("addr", "127.0.0.1:8080", "http: the address to listen on (loopback unless --tokens is given)")
	tokensFile := fs.String("tokens", os.Getenv(mcpserver.EnvTokensFile), "http: bearer tokens, a JSON or YAML list of {token, tenant?}; requests without one get 401 (default $"+mcpserver.EnvTokensFile+")")
	searchTools := fs.Bool("search-tools", false, "list only search_tools, which finds the tools a task needs (all stay callable)")
	sel := addSelectionFlags(fs, mcpserver.DefaultSearchOptions(), false)
	timeout := fs.Duration("timeout", engine.DefaultTimeout, "time limit of each call (and of connecting at startup)")
	contradicted := addContradictedFlag(fs)
	grace := fs.Duration("grace", 30*time.Second, "on SIGINT/SIGTERM, how long running calls may take to finish")
	warmFor := fs.Duration("warm-plans", defaultWarm, "at start-up, run the catalog's heaviest statement shapes (find_paths, explore_relationships) once so Neo4j plans them before the first call; /readyz waits for it; at most this long, 0 turns it off")
	metricsAddr := fs.String("metrics-addr", "", "serve Prometheus metrics at http://ADDR"+metricsPath+" on a listener of its own, without a token (bind it where only the scraper reaches, e.g. 127.0.0.1:9464)")
	ef := addEngineFlags(fs, "stdio: the tenant every call runs under (needed when the config declares tenant; over http each token names its own)")
	sf := addStatsFlags(fs, false)
	sf.addFlushFlag(fs)
	lf := addLimitFlags(fs)
	configs, ok := parseConfigs(fs, args)
	if !ok {
		return 2
	}
	if *transport != "stdio" && *transport != "http" {
		fmt.Fprintf(stderr, "ragforge-plan serve: unknown transport %q (allowed: stdio, http)\n", *transport)
		return 2
	}
	if *timeout <= 0 || *grace <= 0 || sf.flushEvery <= 0 {
		fmt.Fprintln(stderr, "ragforge-plan serve: --timeout, --grace and --stats-flush must be positive")
		return 2
	}
	if *warmFor < 0 {
		fmt.Fprintln(stderr, "ragforge-plan serve: --warm-plans must be 0 (off) or positive")
		return 2
	}
	if err := lf.check(); err != nil {
		fmt.Fprintf(stderr, "ragforge-plan serve: %v\n", err)
		return 2
	}
	if sel.given() && !*searchTools {
		fmt.Fprintln(stderr, "ragforge-plan serve: --always, --top-k and --fallback-k choose what search_tools returns: give --search-tools")
		return 2
	}
	var search *retrieval.Options
	if *searchTools {
		o, err := sel.options()
		if err != nil {
			fmt.Fprintf(stderr, "ragforge-plan serve: %v\n", err)
			return 2
		}
		search = &o
	}
	var tokens []mcpserver.Token
	if *transport == "http" && *tokensFile != "" {
		var err error
		if tokens, err = mcpserver.LoadTokens(*tokensFile); err != nil {
			fmt.Fprintf(stderr, "ragforge-plan serve: %v\n", err)
			return 1
		}
	}
	if *transport == "http" {
		if err := checkAddr(*addr, len(tokens) > 0); err != nil {
			fmt.Fprintf(stderr, "ragforge-plan serve: %v\n", err)
			return 2
		}
		if err := lf.http(tokens).Check(); err != nil {
			fmt.Fprintf(stderr, "ragforge-plan serve: %v\n", err)
			return 2
		}
	}
	m, err := config.Load(configs...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	opts, err := ef.options(m, *timeout)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan serve: %v\n", err)
		return 2
	}
	if err := mcpserver.CheckTenants(tokens, m.Tenant != nil); err != nil {
		fmt.Fprintf(stderr, "ragforge-plan serve: %s: %v\n", *tokensFile, err)
		return 1
	}
	if m.Tenant != nil && *transport == "stdio" && *ef.tenant == "" {
		fmt.Fprintln(stderr, "ragforge-plan serve: the config scopes every call to a tenant: give --tenant (stdio serves one user)")
		return 2
	}
	// SIGINT comes through ctx (main); SIGTERM is how service managers stop it.
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()
	conn.timeout = *timeout
	var metrics *mcpserver.Metrics
	if *metricsAddr != "" {
		metrics = mcpserver.NewMetrics()
		conn.log = metrics.DriverLogger(nil)
		stopMetrics, err := serveMetrics(*metricsAddr, metrics, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "ragforge-plan serve: %v\n", err)
			return 1
		}
		defer stopMetrics()
	}
	eng, closeEngine, err := openEngine(ctx, m, conn, sf, opts, *contradicted, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan serve: %v\n", err)
		return 1
	}
	defer closeEngine()
	// The warm-up stops when serve returns, before the engine closes.
	warmCtx, stopWarm := context.WithCancel(ctx)
	defer stopWarm()
	warming := startWarm(warmCtx, eng, *warmFor, tokens, stderr)
	mcpserver.SetGCDefault()
	srv, err := mcpserver.New(eng, mcpserver.Options{
		SearchTools:   *searchTools,
		Search:        search,
		Logger:        slog.New(slog.NewTextHandler(stderr, nil)),
		CallsPerToken: *lf.calls,
		CallWait:      *lf.callWait,
		Metrics:       metrics,
		Ready:         warming,
	})
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan serve: %v\n", err)
		return 1
	}
	n := len(eng.Tools().Tools)
	if *transport == "stdio" {
		fmt.Fprintf(stderr, "ragforge-plan serve: %d tools on stdin/stdout\n", n)
		err = srv.RunStdio(ctx, *grace)
	} else {
		err = serveHTTP(ctx, srv, *addr, lf.http(tokens), n, *grace, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan serve: %v\n", err)
		return 1
	}
	fmt.Fprintln(stderr, "ragforge-plan serve: stopped")
	return 0
}

// checkAddr refuses an address other machines can reach when there are no
// tokens: an open server is safe only where just this machine's programs
// reach it.
func checkAddr(addr string, tokens bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); !tokens && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--addr %s is not a loopback address: give --tokens so that only clients holding a token get in", addr)
	}
	return nil
}

// serveHTTP listens on addr and serves until ctx is done.
func serveHTTP(ctx context.Context, srv *mcpserver.Server, addr string, o mcpserver.HTTPOptions, n int, grace time.Duration, stderr io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	auth := "no authentication (loopback only)"
	if len(o.Tokens) > 0 {
		auth = fmt.Sprintf("%d bearer token(s)", len(o.Tokens))
	}
	fmt.Fprintf(stderr, "ragforge-plan serve: %d tools at http://%s%s, %s\n", n, ln.Addr(), mcpserver.Path, auth)
	return srv.ServeHTTP(ctx, ln, o, grace)
}
