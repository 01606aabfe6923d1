package mcpserver

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// unauthorizedLinger is how long a connection refused with 401 stays open
// after the response, so the client reads the 401 before the close (closing
// at once, with its body unread, would reset the connection and could lose
// the response).
const unauthorizedLinger = 500 * time.Millisecond

// sessionRetryAfter is the Retry-After of a new session refused at the
// session cap, in seconds: sessions end when clients close them or sit
// idle for the session idle timeout, so a minute is a fair first wait.
const sessionRetryAfter = "60"

// requireToken answers a request without one of the tokens 401 before
// anything reads its body, and passes the others to next (the SDK's
// auth.RequireBearerToken, which hands the token's info to the sessions).
// The 401 carries `WWW-Authenticate: Bearer` and closes the connection:
// Go's server would otherwise read up to 256 KB of the unread body, at the
// client's pace, to keep the connection for another request.
func requireToken(v auth.TokenVerifier, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, token, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
		challenge, msg := `Bearer realm="ragforge"`, "a bearer token is needed: Authorization: Bearer TOKEN"
		if strings.EqualFold(scheme, "bearer") && strings.TrimSpace(token) != "" {
			if _, err := v(r.Context(), strings.TrimSpace(token), r); err == nil {
				defer serving(r)()
				next.ServeHTTP(w, r)
				return
			}
			challenge, msg = challenge+`, error="invalid_token"`, "the bearer token is not one of this server's"
		}
		w.Header().Set("WWW-Authenticate", challenge)
		w.Header().Set("Connection", "close")
		http.Error(w, msg, http.StatusUnauthorized)
		http.NewResponseController(w).SetReadDeadline(time.Now().Add(unauthorizedLinger))
	})
}

// trusted serves an open server's requests (no tokens, loopback only):
// each marks its connection busy as a request with a token would.
func trusted(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer serving(r)()
		next.ServeHTTP(w, r)
	})
}

// limits applies the session caps (all sessions, and each token's; with
// sessions only), the JSON-RPC checks of a body (checkBody), each token's
// call rate and the write timeout to requests that passed authentication,
// then hands them to next (the SDK's streamable handler).
type limits struct {
	s    *Server
	opts HTTPOptions
	next http.Handler
	rate *rateLimiter

	mu sync.Mutex
	// pending counts the requests starting a session, not yet in
	// s.mcp.Sessions(), by the token's user ("" on an open server).
	pending map[string]int
	// owners is the token's user of each session a token started, by
	// session id; ids of sessions that ended are dropped as sessions are
	// counted.
	owners map[string]string
}

func (l *limits) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		user := ""
		if info := auth.TokenInfoFromContext(r.Context()); info != nil {
			user = info.UserID
		}
		// Stateless requests open no session, so only sessions count.
		if l.opts.Sessions && r.Header.Get("Mcp-Session-Id") == "" {
			if status, msg := l.reserveSession(user); status != 0 {
				w.Header().Set("Retry-After", sessionRetryAfter)
				jsonrpcError(w, status, msg)
				return
			}
			defer l.releaseSession(user, w)
		}
		calls, ok := checkBody(w, r, l.opts.MaxBatch)
		if !ok || !l.rate.admit(w, user, calls) {
			return
		}
	}
	l.next.ServeHTTP(&stallWriter{ResponseWriter: w, timeout: l.opts.WriteTimeout}, r)
}

// reserveSession counts a request of user that may start a session in,
// unless the sessions open and starting reach the cap, or user's reach
// the cap per token; then it returns the status and the message to refuse
// the request with. Counting the starting ones keeps concurrent
// initializes from overshooting either cap.
func (l *limits) reserveSession(user string) (int, string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	all, mine := 0, l.pending[user]
	for _, n := range l.pending {
		all += n
	}
	live := map[string]bool{}
	for ss := range l.s.mcp.Sessions() {
		all++
		live[ss.ID()] = true
		if user != "" && l.owners[ss.ID()] == user {
			mine++
		}
	}
	for id := range l.owners {
		if !live[id] {
			delete(l.owners, id)
		}
	}
	ends := fmt.Sprintf("retry later; idle sessions close after %v, and a client can end its own with DELETE %s", l.opts.SessionIdleTimeout, Path)
	switch {
	case all >= l.opts.MaxSessions:
		return http.StatusServiceUnavailable, fmt.Sprintf("the server holds its maximum of %d MCP sessions (--max-sessions): %s", l.opts.MaxSessions, ends)
	case user != "" && mine >= l.opts.MaxSessionsPerToken:
		return http.StatusTooManyRequests, fmt.Sprintf("this token holds its maximum of %d MCP sessions (--max-sessions-per-token): %s", l.opts.MaxSessionsPerToken, ends)
	}
	l.pending[user]++
	return 0, ""
}

// releaseSession counts the request out, and records the session it
// started (the id its response gave) as user's.
func (l *limits) releaseSession(user string, w http.ResponseWriter) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if id := w.Header().Get("Mcp-Session-Id"); id != "" && user != "" {
		l.owners[id] = user
	}
	if l.pending[user]--; l.pending[user] == 0 {
		delete(l.pending, user)
	}
}

// stallWriter bounds each write to the client by timeout, moving the
// connection's write deadline before every write and flush. http.Server's
// WriteTimeout alone bounds the whole response, which would cut a call
// running longer than it and every session's event stream (GET), both of
// which rightly stay open; a client that stops reading is still cut after
// timeout.
type stallWriter struct {
	http.ResponseWriter
	timeout time.Duration
}

func (w *stallWriter) extend() {
	http.NewResponseController(w.ResponseWriter).SetWriteDeadline(time.Now().Add(w.timeout))
}

func (w *stallWriter) Write(p []byte) (int, error) {
	w.extend()
	return w.ResponseWriter.Write(p)
}

// FlushError flushes, as http.ResponseController.Flush calls it (the SDK
// flushes every event).
func (w *stallWriter) FlushError() error {
	w.extend()
	return http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *stallWriter) Flush() { w.FlushError() }

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *stallWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
