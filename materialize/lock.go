package materialize

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
)

// LockLabel is the label of the lock node that keeps two applies (or an
// apply and a drop) from running at once (docs/design.md, invariant 7).
const LockLabel = "_RagforgeLock"

// DefaultLockStaleAfter is how old a lock's heartbeat must be before
// another process may take the lock over. A live holder beats every
// quarter of it; a holder killed with SIGKILL or a lost machine stops
// beating, so its lock frees itself after this long without anyone
// deleting nodes by hand.
const DefaultLockStaleAfter = 2 * time.Minute

var lockConstraint = "CREATE CONSTRAINT ragforge_lock_name IF NOT EXISTS FOR (l:" + lockLabelQ + ") REQUIRE l.name IS UNIQUE"

// LockedError says another process holds the lock, and who.
type LockedError struct {
	Name       string
	Owner      string
	AcquiredAt time.Time
	Heartbeat  time.Time
	StaleAfter time.Duration
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("materialize: lock %q is held by %s since %s (last heartbeat %s); wait for it to finish, or, if that process is gone, the lock is taken over once its heartbeat is %v old",
		e.Name, e.Owner, e.AcquiredAt.Format(time.RFC3339), e.Heartbeat.Format(time.RFC3339), e.StaleAfter)
}

// Lock is a held lock node. The holder beats its heartbeat in the
// background; Lost is closed if the lock was taken from it (its heartbeat
// had gone stale, e.g. the process was suspended), and the work it guards
// must stop.
type Lock struct {
	driver neo4j.DriverWithContext
	db     string
	name   string
	token  string
	stop   chan struct{}
	done   chan struct{}
	lost   chan struct{}
	once   sync.Once
}

// DefaultOwner describes this process for lock messages: host and pid.
func DefaultOwner() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s pid %d", host, os.Getpid())
}

// AcquireLock takes the lock node called name, in one write transaction:
// a lock whose heartbeat (server time) is older than staleAfter is deleted,
// then the lock is CREATEd; the uniqueness constraint on the name makes
// the CREATE of a second holder fail, which is reported as *LockedError.
func AcquireLock(ctx context.Context, driver neo4j.DriverWithContext, db, name, owner string, staleAfter time.Duration) (*Lock, error) {
	if staleAfter <= 0 {
		staleAfter = DefaultLockStaleAfter
	}
	if _, err := neo4jtx.Query(ctx, driver, db, neo4j.AccessModeWrite, lockConstraint, nil); err != nil {
		return nil, fmt.Errorf("materialize: lock constraint: %w", err)
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	l := &Lock{driver: driver, db: db, name: name, token: hex.EncodeToString(b),
		stop: make(chan struct{}), done: make(chan struct{}), lost: make(chan struct{})}
	label := lockLabelQ
	sess := neo4jtx.Session(ctx, driver, db, neo4j.AccessModeWrite)
	defer sess.Close(ctx)
	_, err := sess.ExecuteWrite(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, "MATCH (l:"+label+" {name: $name}) WHERE l.heartbeat < datetime() - duration({milliseconds: $stale}) DELETE l",
			map[string]any{"name": name, "stale": staleAfter.Milliseconds()})
		if err == nil {
			_, err = res.Consume(ctx)
		}
		if err != nil {
			return nil, err
		}
		res, err = tx.Run(ctx, "CREATE (l:"+label+" {name: $name, token: $token, owner: $owner, acquired_at: datetime(), heartbeat: datetime()})",
			map[string]any{"name": name, "token": l.token, "owner": owner})
		if err == nil {
			_, err = res.Consume(ctx)
		}
		return nil, err
	})
	if err != nil {
		var ne *neo4j.Neo4jError
		if errors.As(err, &ne) && ne.Code == "Neo.ClientError.Schema.ConstraintValidationFailed" {
			le := &LockedError{Name: name, StaleAfter: staleAfter}
			res, rerr := neo4jtx.Query(ctx, driver, db, neo4j.AccessModeWrite, "MATCH (l:"+label+" {name: $name}) RETURN l.owner AS owner, l.acquired_at AS at, l.heartbeat AS hb",
				map[string]any{"name": name})
			if rerr == nil && len(res) == 1 {
				m := res[0].AsMap()
				le.Owner, _ = m["owner"].(string)
				le.AcquiredAt, _ = m["at"].(time.Time)
				le.Heartbeat, _ = m["hb"].(time.Time)
			}
			return nil, le
		}
		return nil, fmt.Errorf("materialize: taking lock %q: %w", name, err)
	}
	go l.beat(staleAfter / 4)
	return l, nil
}

func (l *Lock) beat(every time.Duration) {
	defer close(l.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), every)
			res, err := neo4jtx.Query(ctx, l.driver, l.db, neo4j.AccessModeWrite, "MATCH (l:"+lockLabelQ+" {name: $name, token: $token}) SET l.heartbeat = datetime() RETURN count(l) AS n",
				map[string]any{"name": l.name, "token": l.token})
			cancel()
			if err != nil {
				continue // a missed beat; the next one may succeed
			}
			if n, _ := res[0].Get("n"); n == int64(0) {
				close(l.lost)
				return
			}
		}
	}
}

// Lost is closed when another process took the lock over.
func (l *Lock) Lost() <-chan struct{} { return l.lost }

// Release deletes the lock node if this holder still owns it. It uses its
// own short context, so a release after Ctrl-C still runs.
func (l *Lock) Release() error {
	var err error
	l.once.Do(func() {
		close(l.stop)
		<-l.done
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err = neo4jtx.Query(ctx, l.driver, l.db, neo4j.AccessModeWrite, "MATCH (l:"+lockLabelQ+" {name: $name, token: $token}) DELETE l",
			map[string]any{"name": l.name, "token": l.token})
	})
	return err
}
