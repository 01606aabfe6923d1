package neo4jtest

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// Settings are where the test server is and how to log in, for tests
// that connect in their own way (another URI scheme, through a [Proxy],
// a subprocess's environment).
type Settings struct {
	URI, User, Password, Database string
}

// ServerSettings returns the test server's settings. Call it after Open
// (which skips or fails the test when there is no server).
func ServerSettings(t testing.TB) Settings {
	t.Helper()
	cfg, ok, err := loadConfig()
	if err != nil || !ok {
		t.Fatalf("neo4jtest: no test server settings (call Open first): %v", err)
	}
	return Settings{URI: cfg.URI, User: cfg.User, Password: cfg.Password, Database: cfg.Database}
}

// ProxyMode is how a [Proxy] treats connections: the ways a database
// becomes unavailable to a client, and back.
type ProxyMode int

const (
	// Forward passes bytes both ways, as if the proxy were not there.
	Forward ProxyMode = iota
	// Refuse closes the listening socket and every connection: a stopped
	// server (connect is refused).
	Refuse
	// Hang accepts connections and never answers, and stops answering on
	// the open ones: a server that is frozen, swapping or overloaded.
	Hang
	// Cut closes every open connection and each new one as soon as it is
	// accepted: a server killed, or restarting.
	Cut
	// LoseCommitReply forwards, but once a client sends a Bolt COMMIT,
	// Neo4j's answer to it is dropped and the connection closed: a server
	// that committed and died before the client heard.
	LoseCommitReply
	// HoldCommitReply forwards, but once a client sends a Bolt COMMIT,
	// Neo4j's answer to it is dropped and the connection kept open and
	// silent: a server that committed and froze, so the client's deadline
	// passes during the commit.
	HoldCommitReply
)

// UnavailableModes are the modes in which the database is unavailable
// through a [Proxy], for tests that try each.
var UnavailableModes = []ProxyMode{Refuse, Hang, Cut}

// String names the mode for test messages.
func (m ProxyMode) String() string {
	switch m {
	case Forward:
		return "forwarding"
	case Refuse:
		return "refused"
	case Hang:
		return "never answered"
	case Cut:
		return "cut"
	case LoseCommitReply:
		return "commit's answer lost"
	case HoldCommitReply:
		return "commit never answered"
	}
	return "unknown"
}

// Proxy is a TCP proxy on 127.0.0.1 between a client and the test server
// that a test switches between forwarding and being unavailable, so it
// can make the database unavailable to the code under test without
// touching the server the other tests share.
type Proxy struct {
	addr, target string

	// sends counts the reads of client bytes (see Sends).
	sends atomic.Int64

	mu    sync.Mutex
	mode  ProxyMode
	ln    net.Listener
	links map[*link]struct{}
	done  bool
}

// link is one client connection and, when forwarded, its connection to
// the server.
type link struct {
	client, server net.Conn
	// frozen drops what arrives instead of passing it on (Hang).
	frozen atomic.Bool
	// committing is set when the client sent a COMMIT in a mode that
	// loses its answer.
	committing atomic.Bool
}

func (l *link) close() {
	l.client.Close()
	if l.server != nil {
		l.server.Close()
	}
}

// NewProxy starts a proxy to the test server, forwarding; it stops in
// t.Cleanup. Call it after Open.
func NewProxy(t testing.TB) *Proxy {
	t.Helper()
	u, err := url.Parse(ServerSettings(t).URI)
	if err != nil {
		t.Fatalf("neo4jtest: proxy: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("neo4jtest: proxy: %v", err)
	}
	p := &Proxy{addr: ln.Addr().String(), target: u.Host, links: map[*link]struct{}{}}
	p.ln = ln
	go p.accept(ln)
	t.Cleanup(p.close)
	return p
}

// URI is the bolt:// URI of the proxy. (A neo4j:// URI would route
// around it: the server's routing table names the server itself.)
func (p *Proxy) URI() string { return "bolt://" + p.addr }

// Driver returns a driver to the server through the proxy, closed in
// t.Cleanup; configurers adjust its settings.
func (p *Proxy) Driver(t testing.TB, configurers ...func(*neo4j.Config)) neo4j.DriverWithContext {
	t.Helper()
	s := ServerSettings(t)
	d, err := neo4j.NewDriverWithContext(p.URI(), neo4j.BasicAuth(s.User, s.Password, ""), configurers...)
	if err != nil {
		t.Fatalf("neo4jtest: driver through the proxy: %v", err)
	}
	t.Cleanup(func() { _ = d.Close(context.Background()) })
	return d
}

// Sends is how many times the proxy has read bytes a client sent. The
// driver writes what it has queued at once and then waits for the
// answers, so on a connection already open each send is one round trip
// to the server: tests count a statement's round trips with it.
func (p *Proxy) Sends() int64 { return p.sends.Load() }

// Set switches the proxy to mode. Leaving Hang closes the connections it
// held, as a server that recovers from a freeze has lost them.
func (p *Proxy) Set(mode ProxyMode) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return nil
	}
	switch mode {
	case Refuse, Cut:
		if mode == Refuse && p.ln != nil {
			p.ln.Close()
			p.ln = nil
		}
		p.closeLinksLocked()
	case Hang:
		for l := range p.links {
			l.frozen.Store(true)
		}
	case Forward:
		if p.mode == Hang || p.mode == HoldCommitReply {
			p.closeLinksLocked()
		}
	}
	if mode != Refuse && p.ln == nil {
		ln, err := net.Listen("tcp", p.addr)
		if err != nil {
			return err
		}
		p.ln = ln
		go p.accept(ln)
	}
	p.mode = mode
	return nil
}

func (p *Proxy) closeLinksLocked() {
	for l := range p.links {
		l.close()
		delete(p.links, l)
	}
}

func (p *Proxy) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = true
	if p.ln != nil {
		p.ln.Close()
	}
	p.closeLinksLocked()
}

// accept serves ln until it is closed.
func (p *Proxy) accept(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go p.serve(c)
	}
}

// serve treats one accepted connection by the mode of the moment.
func (p *Proxy) serve(c net.Conn) {
	p.mu.Lock()
	mode := p.mode
	p.mu.Unlock()
	l := &link{client: c}
	switch mode {
	case Forward, LoseCommitReply, HoldCommitReply:
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			return
		}
		l.server = s
	case Hang:
		l.frozen.Store(true)
	default:
		c.Close()
		return
	}
	p.mu.Lock()
	if p.done || p.mode != mode {
		p.mu.Unlock()
		l.close()
		return
	}
	p.links[l] = struct{}{}
	p.mu.Unlock()
	if l.server == nil {
		// Hung: read what the client sends, answer nothing.
		_, _ = io.Copy(io.Discard, c)
		p.drop(l)
		return
	}
	go p.pump(l, l.server, c)
	p.pump(l, c, l.server)
}

// drop closes l and forgets it.
func (p *Proxy) drop(l *link) {
	l.close()
	p.mu.Lock()
	delete(p.links, l)
	p.mu.Unlock()
}

// boltCommit is a Bolt COMMIT message in its chunk: size 2, a struct of
// no fields (0xB0) with signature 0x12, the end marker.
var boltCommit = []byte{0x00, 0x02, 0xB0, 0x12, 0x00, 0x00}

// pump copies src to dst until either closes, dropping what arrives
// while the link is frozen or, in the commit modes, Neo4j's answers after
// the client's COMMIT; then it drops the link.
func (p *Proxy) pump(l *link, dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && src == l.client {
			p.sends.Add(1)
		}
		if n > 0 && src == l.client && bytes.Contains(buf[:n], boltCommit) {
			p.mu.Lock()
			mode := p.mode
			p.mu.Unlock()
			// Marked before the COMMIT goes on, so its answer is dropped.
			l.committing.Store(mode == LoseCommitReply || mode == HoldCommitReply)
		}
		if n > 0 && src == l.server && l.committing.Load() {
			p.mu.Lock()
			mode := p.mode
			p.mu.Unlock()
			if mode == HoldCommitReply {
				continue
			}
			break
		}
		if n > 0 && !l.frozen.Load() {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	p.drop(l)
}
