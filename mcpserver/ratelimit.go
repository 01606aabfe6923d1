package mcpserver

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// rateLimiter holds each token's token bucket of tool calls (see
// [HTTPOptions.CallsPerSecond]). The buckets are never dropped: there is
// one per token of the tokens file (or one for an open server).
type rateLimiter struct {
	perSecond float64
	burst     int

	mu      sync.Mutex
	buckets map[string]*rate.Limiter
}

// newRateLimiter returns the limiter of perSecond calls refilling a
// bucket of burst, or nil (no limit) when perSecond is zero.
func newRateLimiter(perSecond float64, burst int) *rateLimiter {
	if perSecond <= 0 {
		return nil
	}
	return &rateLimiter{perSecond: perSecond, burst: burst, buckets: map[string]*rate.Limiter{}}
}

// admit takes a token for each of a request's n tool calls (counted by
// checkBody) from user's bucket. When the bucket does not hold them it
// answers 429 with Retry-After and a JSON-RPC error, takes nothing, and
// returns false: a refused request costs the client none of its rate.
func (l *rateLimiter) admit(w http.ResponseWriter, user string, n int) bool {
	if l == nil || n == 0 {
		return true
	}
	l.mu.Lock()
	b := l.buckets[user]
	if b == nil {
		b = rate.NewLimiter(rate.Limit(l.perSecond), l.burst)
		l.buckets[user] = b
	}
	l.mu.Unlock()
	now := time.Now()
	res := b.ReserveN(now, n)
	if !res.OK() {
		jsonrpcError(w, http.StatusTooManyRequests, fmt.Sprintf("this request holds %d tool calls, more than the %d a token may send at once (--call-burst): send them in smaller batches", n, l.burst))
		return false
	}
	wait := res.DelayFrom(now)
	if wait == 0 {
		return true
	}
	res.CancelAt(now)
	secs := int(math.Ceil(wait.Seconds()))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	jsonrpcError(w, http.StatusTooManyRequests, fmt.Sprintf("this token sends more than %v tool calls per second (--calls-per-second, bursts of %d): none of this request ran; retry after %d s", l.perSecond, l.burst, secs))
	return false
}
