package mcpserver

import (
	"fmt"
	"net"
	"net/http"
	"strings"
)

// hostGuard is the MCP SDK's DNS-rebinding protection with hosts a proxy
// may forward: a request that reached a loopback address must name a
// loopback host (localhost, 127.0.0.1, [::1]) or one of allowed (a host
// name, any port; or host:port), else it gets 403 naming the flag that
// allows it. A web page on a rebound name cannot reach the server, while
// a reverse proxy on the same machine forwarding its public name can.
func hostGuard(allowed []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		if local != nil && isLoopback(local.String()) && !isLoopback(r.Host) && !hostAllowed(allowed, r.Host) {
			http.Error(w, fmt.Sprintf("Forbidden: invalid Host header %q: a loopback server answers only loopback hosts (DNS-rebinding protection); behind a proxy that forwards this name, start serve with --allowed-hosts %s", r.Host, hostname(r.Host)), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostname is a Host header without its port.
func hostname(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

// isLoopback reports whether a host or host:port names this machine's
// loopback interface.
func isLoopback(hostport string) bool {
	h := hostname(hostport)
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// hostAllowed reports whether host (a Host header) is one of allowed,
// compared without case, as a host:port entry or by its name alone.
func hostAllowed(allowed []string, host string) bool {
	for _, a := range allowed {
		if strings.EqualFold(a, host) || strings.EqualFold(a, hostname(host)) {
			return true
		}
	}
	return false
}

// originGuard is the cross-origin protection with origins trusted: a
// browser's cross-origin request from any other origin gets 403.
func originGuard(origins []string) (*http.CrossOriginProtection, error) {
	p := http.NewCrossOriginProtection()
	for _, o := range origins {
		if err := p.AddTrustedOrigin(o); err != nil {
			return nil, fmt.Errorf("--allowed-origins %q: %w (an origin is scheme://host[:port], as a browser sends it)", o, err)
		}
	}
	return p, nil
}
