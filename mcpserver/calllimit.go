package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	// DefaultCallsPerToken is how many calls one token (without tokens:
	// the open server's clients together; over stdio the session) may
	// have running at once, so that one client
	// — a batch, or many sessions on one token — cannot take the engine
	// from the others.
	DefaultCallsPerToken = 8
	// DefaultCallWait is how long a call beyond that limit waits for one
	// of its token's running calls to finish before it is refused.
	DefaultCallWait = 10 * time.Second
)

// errTooManyCalls is the error of a call refused at its token's limit; its
// result says the call can be retried.
var errTooManyCalls = errors.New("too many calls at once")

// callLimiter bounds each token's running tools/call requests. A call
// beyond the bound waits (in arrival order) up to wait for a slot, then is
// refused with an isError result asking to retry ({"retryable": true}); it is not queued longer
// because the client's own request timeout would be running meanwhile.
type callLimiter struct {
	max  int
	wait time.Duration
	// log gets the line of each call refused.
	log *slog.Logger

	mu    sync.Mutex
	slots map[any]*callSlots
}

// callSlots are one token's: a semaphore, and how many calls hold or wait
// for it (the entry is dropped at zero, so sessions of an open server
// leave nothing behind).
type callSlots struct {
	sem   chan struct{}
	users int
}

func newCallLimiter(max int, wait time.Duration, log *slog.Logger) *callLimiter {
	orDefault(&max, DefaultCallsPerToken)
	orDefault(&wait, DefaultCallWait)
	return &callLimiter{max: max, wait: wait, log: log, slots: map[any]*callSlots{}}
}

// middleware applies the limit to tools/call; other methods pass.
func (l *callLimiter) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		release, err := l.acquire(ctx, callerOf(req))
		if err != nil {
			// The call's one log line: it never reaches callTool.
			if call, ok := req.(*mcp.CallToolRequest); ok {
				l.log.Info("call", append(callFields(call), "error", err)...)
			}
			return errorResult(ctx, err), nil
		}
		defer release()
		return next(ctx, method, req)
	}
}

// callerOf is whom a call counts against: its token; an open server's
// clients (HTTP without tokens, on loopback) together, since a stateless
// request's session is its own and would bound nothing; or the session
// over stdio.
func callerOf(req mcp.Request) any {
	ex := req.GetExtra()
	switch {
	case ex != nil && ex.TokenInfo != nil:
		return ex.TokenInfo.UserID
	case ex != nil && ex.Header != nil:
		return openServer{}
	}
	return req.GetSession()
}

// openServer is the caller of every call of an open HTTP server.
type openServer struct{}

// acquire takes one of key's slots, waiting up to l.wait.
func (l *callLimiter) acquire(ctx context.Context, key any) (release func(), err error) {
	l.mu.Lock()
	s := l.slots[key]
	if s == nil {
		s = &callSlots{sem: make(chan struct{}, l.max)}
		l.slots[key] = s
	}
	s.users++
	l.mu.Unlock()
	leave := func() {
		l.mu.Lock()
		if s.users--; s.users == 0 {
			delete(l.slots, key)
		}
		l.mu.Unlock()
	}
	t := time.NewTimer(l.wait)
	defer t.Stop()
	select {
	case s.sem <- struct{}{}:
		return func() { <-s.sem; leave() }, nil
	case <-t.C:
		leave()
		return nil, fmt.Errorf("%w: %d are running with this token (the limit, --calls-per-token) and none finished within %v; retry when one has finished", errTooManyCalls, l.max, l.wait)
	case <-ctx.Done():
		leave()
		return nil, ctx.Err()
	}
}
