package neo4jtx

import (
	"context"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// ReadOne runs one read statement, cypher with params, and hands its
// result to read, which reads the records it needs and returns res.Err()
// or its own error. It is [Read] for a work of one statement, in fewer
// round trips: the statement runs as an auto-commit transaction, whose
// RUN and PULL the driver sends together and Neo4j answers together, one
// round trip where Read's managed transaction takes three (BEGIN; RUN and
// PULL; COMMIT). On a cheap tool call the two round trips it spares
// cost serve 0.2 to 0.35 ms of CPU and Neo4j about 0.3 ms
// (docs/deploy.md, CPU per call).
//
// It keeps what Read promises: the transaction timeout sent with the RUN
// is what is left of the deadline; the RUN carries the bookmarks of ctx's
// chain ([WithBookmarks]), so Neo4j reads only after them, and the
// transaction's own bookmark joins the chain once the result is read or
// the session closes; the read is routed to a reader; failures are
// classified by [Classify].
//
// The driver does not retry an auto-commit transaction. A first attempt
// that fails with an error it would retry (a pooled connection the
// server had closed, a transient error, a cluster member gone) runs the
// statement again through Read, with the driver's retries, until the
// deadline; read is then called again and must start over.
func ReadOne(ctx context.Context, d neo4j.DriverWithContext, database string, timeout time.Duration, cypher string, params map[string]any, read func(neo4j.ResultWithContext) error) error {
	ctx, cancel, txOpts, err := bound(ctx, d, timeout)
	if err != nil {
		return err
	}
	defer cancel()
	tr := tracker(ctx)
	tr.set(Waiting)
	defer tr.set(Idle)
	err = autoCommit(ctx, d, database, tr, txOpts, cypher, params, read)
	if err == nil {
		return nil
	}
	if ctx.Err() == nil && neo4j.IsRetryable(err) {
		_, err = Read(ctx, d, database, timeout, func(tx neo4j.ManagedTransaction) (any, error) {
			res, err := tx.Run(ctx, cypher, params)
			if err != nil {
				return nil, err
			}
			return nil, read(res)
		})
		return err
	}
	return Classify(ctx, d, err, tr.Phase() == Running)
}

// autoCommit is ReadOne's first attempt, in an auto-commit transaction
// on a session of its own (closed, and its bookmark so taken, before it
// returns). Out of memory comes back as an [*OutOfMemoryError], which
// ReadOne does not retry.
func autoCommit(ctx context.Context, d neo4j.DriverWithContext, database string, tr *Tracker, txOpts []func(*neo4j.TransactionConfig),
	cypher string, params map[string]any, read func(neo4j.ResultWithContext) error) error {
	sess := d.NewSession(ctx, neo4j.SessionConfig{DatabaseName: database, AccessMode: neo4j.AccessModeRead, BookmarkManager: Bookmarks(ctx)})
	defer sess.Close(ctx)
	res, err := sess.Run(ctx, cypher, params, txOpts...)
	if err != nil {
		return stopRetry(err)
	}
	// The RUN's reply came: Neo4j planned the statement and started it.
	tr.set(Running)
	return stopRetry(read(res))
}
