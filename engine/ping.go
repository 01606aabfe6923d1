package engine

import "context"

// Ping reports whether the engine's Neo4j server (or cluster) answers, for
// a readiness probe: nil when it does, or when the engine has no driver
// (it runs no calls on Neo4j, so none can fail for want of it).
func (e *Engine) Ping(ctx context.Context) error {
	if e.opts.Driver == nil {
		return nil
	}
	return e.opts.Driver.VerifyConnectivity(ctx)
}
