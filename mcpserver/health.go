package mcpserver

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// The paths of the probes a load balancer or orchestrator polls; neither
// needs a token, and neither says more than ok or why not.
const (
	// HealthPath answers 200 while the process serves HTTP (liveness).
	HealthPath = "/healthz"
	// ReadyPath answers 200 while the server takes calls: its catalog is
	// built (it is before the listener opens), Neo4j answers, it is not
	// draining and Options.Ready (serve's warm-up) says nothing against
	// it; else 503 with the reason, so the balancer sends the calls
	// elsewhere.
	ReadyPath = "/readyz"
)

// readyEvery is how often, at most, a readiness probe reaches Neo4j; a
// probe within it gets the last answer, so a flood of probes costs the
// database one check a second.
const readyEvery = time.Second

// readyTimeout bounds one readiness check of Neo4j: a balancer's probe
// has its own short timeout, and a database slower than this to answer a
// connectivity check is not ready for calls.
const readyTimeout = 2 * time.Second

// readiness is the last answer of Neo4j to a readiness check.
type readiness struct {
	at  time.Time
	err error
}

func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintln(w, "ok")
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if s.isDraining() {
		http.Error(w, "not ready: shutting down (draining the running calls)", http.StatusServiceUnavailable)
		return
	}
	if err := s.neo4jReady(r.Context()); err != nil {
		http.Error(w, "not ready: Neo4j does not answer: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	if s.warm != nil {
		if err := s.warm(); err != nil {
			http.Error(w, "not ready: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
	}
	fmt.Fprintln(w, "ready")
}

// neo4jReady checks that Neo4j answers, at most once per readyEvery: the
// probes in between (and those waiting while one checks) get its answer.
func (s *Server) neo4jReady(ctx context.Context) error {
	s.readyMu.Lock()
	defer s.readyMu.Unlock()
	if !s.ready.at.IsZero() && time.Since(s.ready.at) < readyEvery {
		return s.ready.err
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), readyTimeout)
	defer cancel()
	s.ready = readiness{err: s.ping(ctx)}
	s.ready.at = time.Now()
	return s.ready.err
}

// isDraining reports whether Drain has begun: new calls are refused and
// the readiness probe answers 503.
func (s *Server) isDraining() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.draining
}
