package mcpserver

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// progress sends the notifications of one call that carries a progress
// token: 0 at the start, one more every interval while it runs, and the
// last (progress = total) when it ends. The total is unknown until then.
type progress struct {
	stop chan struct{}
	done chan struct{}
	// send is nil when the client asked for no progress.
	send func(n float64, total float64, msg string)
	n    float64
}

func (s *Server) startProgress(ctx context.Context, req *mcp.CallToolRequest) *progress {
	token := req.Params.GetProgressToken()
	p := &progress{}
	if token == nil {
		return p
	}
	name := req.Params.Name
	// A notification that cannot be sent (the client left) changes nothing
	// about the call, so its error is dropped.
	p.send = func(n, total float64, msg string) {
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: n, Total: total, Message: msg})
	}
	p.send(0, 0, "running "+name)
	p.stop, p.done = make(chan struct{}), make(chan struct{})
	start := time.Now()
	go func() {
		defer close(p.done)
		t := time.NewTicker(s.interval)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.n++
				p.send(p.n, 0, fmt.Sprintf("running %s: %v", name, time.Since(start).Round(time.Second)))
			}
		}
	}()
	return p
}

// finish stops the periodic notifications and sends the last one; it
// returns before the call's result is sent, so the client hears it first.
func (p *progress) finish(msg string) {
	if p.send == nil {
		return
	}
	close(p.stop)
	<-p.done
	p.send(p.n+1, p.n+1, msg)
}
