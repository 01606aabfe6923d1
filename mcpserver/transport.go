package mcpserver

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Path is where ServeHTTP's handler answers streamable-HTTP MCP requests.
const Path = "/mcp"

// responseGrace bounds how long ServeHTTP waits, after the last call has
// returned, for its response to reach the client before closing the
// connections (a client's idle event stream would otherwise hold them).
const responseGrace = 2 * time.Second

// HTTPHandler serves the streamable-HTTP transport at [Path]. With tokens,
// every request needs `Authorization: Bearer TOKEN` with one of them (401
// otherwise); with none it is open, which ServeHTTP allows only on a
// loopback address.
func (s *Server) HTTPHandler(tokens []Token) http.Handler {
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, nil)
	if len(tokens) > 0 {
		h = auth.RequireBearerToken(verifier(tokens), &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h)
	}
	mux := http.NewServeMux()
	mux.Handle(Path, h)
	return mux
}

// ServeHTTP serves h on ln until ctx is done, then drains: new calls are
// refused, running ones get up to grace to finish, and the listener and
// connections are closed.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, h http.Handler, grace time.Duration) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	dctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	drained := s.Drain(dctx)
	sctx, scancel := context.WithTimeout(context.Background(), responseGrace)
	defer scancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return drained
}

// RunStdio serves one client on stdin and stdout until it disconnects or
// ctx is done; then it drains like ServeHTTP and closes the session.
func (s *Server) RunStdio(ctx context.Context, grace time.Duration) error {
	ss, err := s.mcp.Connect(context.Background(), &mcp.StdioTransport{}, nil)
	if err != nil {
		return err
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case err := <-ended:
		return err
	case <-ctx.Done():
	}
	dctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	drained := s.Drain(dctx)
	ss.Close()
	<-ended
	return drained
}
