package mcpserver

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// fdReserve is the part of the open-file limit ServeHTTP keeps out of the
// connection cap: the Neo4j driver's pool (100 connections by default),
// the listener, log and stats files.
const fdReserve = 256

// connsWithin lowers n to fit an open-file limit of lim, keeping
// fdReserve (or, under a very low limit, half of it) for everything else.
func connsWithin(n int, lim uint64) int {
	room := max(int64(lim)-fdReserve, int64(lim)/2, 1)
	return int(min(int64(n), room))
}

// refusal is what a connection gets when the cap is reached and every
// open connection is serving a request with a token.
var refusal = func() []byte {
	const msg = "the server is at its connection cap (--max-conns): retry shortly\n"
	return fmt.Appendf(nil, "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(msg), msg)
}()

// connGuard is a listener that caps the open connections at max. It is
// not netutil.LimitListener because that one stops accepting at the cap:
// connections that send nothing, or headers a byte at a time, would then
// keep a client with a token waiting in the kernel's backlog until their
// read timeouts. connGuard accepts instead and, at the cap, closes the
// connection idle longest, preferring those that never carried a request
// with a token; connections serving such a request are never closed for
// it.
type connGuard struct {
	net.Listener
	max int
	log *slog.Logger

	mu    sync.Mutex
	conns map[net.Conn]*guardedConn
	// evicted and refused count the connections closed and refused at the
	// cap; warned is when the log last heard of them.
	evicted, refused int
	warned           time.Time
}

// capWarnEvery is how often, at most, the log hears that the cap is
// reached: once is news for the operator, every time would flood it.
const capWarnEvery = time.Minute

// guardedConn is what connGuard knows of one connection.
type guardedConn struct {
	conn    net.Conn
	g       *connGuard
	idle    time.Time // since when it has served nothing
	busy    int       // requests with a token (or on an open server) in a handler
	trusted bool      // has carried one
}

func newConnGuard(ln net.Listener, max int, log *slog.Logger) *connGuard {
	return &connGuard{Listener: ln, max: max, log: log, conns: map[net.Conn]*guardedConn{}}
}

// Accept returns the next connection, making room for it at the cap or,
// when none can be made, answering it 503 and taking the next.
func (g *connGuard) Accept() (net.Conn, error) {
	for {
		c, err := g.Listener.Accept()
		if err != nil {
			return nil, err
		}
		victim, ok := g.admit(c)
		if victim != nil {
			victim.Close()
		}
		if ok {
			return c, nil
		}
		// A fresh socket's send buffer takes the refusal at once; the
		// deadline only guards against a kernel that will not.
		c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
		c.Write(refusal)
		c.Close()
	}
}

// admit records c, choosing a connection to close when at the cap; it
// reports false when there is none to close.
func (g *connGuard) admit(c net.Conn) (victim net.Conn, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.conns) >= g.max {
		if now := time.Now(); now.Sub(g.warned) >= capWarnEvery {
			g.warned = now
			g.log.Warn("at the connection cap (--max-conns): idle connections are closed for new ones, or new ones refused when none is idle",
				"max_conns", g.max, "closed_so_far", g.evicted, "refused_so_far", g.refused)
		}
		var v *guardedConn
		for _, gc := range g.conns {
			if gc.busy > 0 {
				continue
			}
			if v == nil || !gc.trusted && v.trusted || gc.trusted == v.trusted && gc.idle.Before(v.idle) {
				v = gc
			}
		}
		if v == nil {
			g.refused++
			return nil, false
		}
		delete(g.conns, v.conn)
		g.evicted++
		victim = v.conn
	}
	g.conns[c] = &guardedConn{conn: c, g: g, idle: time.Now()}
	return victim, true
}

// connState is the http.Server's ConnState hook: it forgets closed
// connections and restarts a connection's idle time when a request ends.
func (g *connGuard) connState(c net.Conn, st http.ConnState) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch st {
	case http.StateClosed, http.StateHijacked:
		delete(g.conns, c)
	case http.StateIdle:
		if gc := g.conns[c]; gc != nil {
			gc.idle = time.Now()
		}
	}
}

type guardedConnKey struct{}

// connContext is the http.Server's ConnContext hook: it hands the handler
// the connection's record, so that a request found to carry a token can
// mark its connection busy (serving).
func (g *connGuard) connContext(ctx context.Context, c net.Conn) context.Context {
	g.mu.Lock()
	defer g.mu.Unlock()
	if gc := g.conns[c]; gc != nil {
		return context.WithValue(ctx, guardedConnKey{}, gc)
	}
	return ctx
}

// open returns how many connections are open, and how many were closed or
// refused at the cap.
func (g *connGuard) stats() (open, evicted, refused int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.conns), g.evicted, g.refused
}

// serving marks r's connection busy until the returned func is called:
// it carries a request with a token (or any request, on an open server),
// so the cap must not close it.
func serving(r *http.Request) (done func()) {
	gc, _ := r.Context().Value(guardedConnKey{}).(*guardedConn)
	if gc == nil {
		return func() {}
	}
	gc.g.mu.Lock()
	gc.busy++
	gc.trusted = true
	gc.g.mu.Unlock()
	return func() {
		gc.g.mu.Lock()
		gc.busy--
		gc.idle = time.Now()
		gc.g.mu.Unlock()
	}
}
