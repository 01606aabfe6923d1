// Command fleet is the load generator of docs/deploy.md's measurements: it
// sends stateless MCP tools/call requests (no initialize, no session, as a
// balancer may route each anywhere) from -c clients for -d and prints the
// calls that succeeded (200, no isError) per second, the latency
// percentiles and the failures.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"
)

func main() {
	url := flag.String("url", "http://127.0.0.1:8000/mcp", "the MCP endpoint (a balancer or a replica)")
	c := flag.Int("c", 8, "concurrent clients")
	d := flag.Duration("d", 10*time.Second, "how long to send")
	flag.Parse()
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"query_entities","arguments":{"entity_type":"File","limit":1}}}`)
	var mu sync.Mutex
	var lat []time.Duration
	fails := 0
	end := time.Now().Add(*d)
	var wg sync.WaitGroup
	tr := &http.Transport{MaxIdleConnsPerHost: *c}
	for range *c {
		wg.Go(func() {
			cl := &http.Client{Transport: tr}
			for time.Now().Before(end) {
				req, _ := http.NewRequest("POST", *url, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
				t0 := time.Now()
				res, err := cl.Do(req)
				ok := err == nil && res.StatusCode == 200
				if err == nil {
					b, _ := io.ReadAll(res.Body)
					res.Body.Close()
					ok = ok && bytes.Contains(b, []byte(`"result"`)) && !bytes.Contains(b, []byte(`"isError":true`))
				}
				el := time.Since(t0)
				mu.Lock()
				if ok {
					lat = append(lat, el)
				} else {
					fails++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	slices.Sort(lat)
	p := func(q float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[int(q*float64(len(lat)-1))].Round(10 * time.Microsecond)
	}
	fmt.Printf("ok=%d failed=%d calls/s=%.0f p50=%v p99=%v\n", len(lat), fails, float64(len(lat))/d.Seconds(), p(0.5), p(0.99))
}
