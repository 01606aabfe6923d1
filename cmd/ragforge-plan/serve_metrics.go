package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/ragforge/ragforge/mcpserver"
)

// metricsPath is where --metrics-addr answers.
const metricsPath = "/metrics"

// serveMetrics serves m in Prometheus's text format at metricsPath on
// addr, a listener of its own (no MCP token: bind it where only the
// scraper reaches), until the returned stop is called.
func serveMetrics(addr string, m *mcpserver.Metrics, stderr io.Writer) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET "+metricsPath, m.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: mcpserver.DefaultReadHeaderTimeout, IdleTimeout: mcpserver.DefaultIdleTimeout}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(stderr, "ragforge-plan serve: metrics: %v\n", err)
		}
	}()
	fmt.Fprintf(stderr, "ragforge-plan serve: metrics at http://%s%s\n", ln.Addr(), metricsPath)
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if srv.Shutdown(ctx) != nil {
			srv.Close()
		}
		<-done
	}, nil
}
