package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	neo4jlog "github.com/neo4j/neo4j-go-driver/v5/neo4j/log"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
)

// connection holds the Neo4j settings every command that talks to the
// server shares: flags, defaulting to NEO4J_URI, NEO4J_USER and
// NEO4J_DATABASE so scripts and CI set them once. The password comes from
// NEO4J_PASSWORD, read only when connecting (after flag parsing, so no usage
// text ever prints it), or from --password-file; never from the arguments,
// which ps and shell history show to others.
type connection struct {
	uri, user, passwordFile, database string
	// timeout, when set (call and serve: their --timeout), bounds what
	// the driver may wait for (a connection from the pool, a TCP connect,
	// a transaction's retries) and the connectivity check, so that an
	// unavailable database costs no command more than one call may take.
	timeout time.Duration
	// log, when set (serve --metrics-addr), is the driver's logger.
	log neo4jlog.Logger
}

// defaultConnectTimeout bounds the connectivity check of commands without
// a --timeout: a server that accepts connections and never answers would
// otherwise hold them forever.
const defaultConnectTimeout = 30 * time.Second

// exitUnavailable is the exit code of a call that could not reach the
// database, or of a write whose commit went unanswered (sysexits'
// EX_TEMPFAIL): scripts retry it, unlike exit 1.
const exitUnavailable = 75

// errPasswordFlag is what --password answers: the flag exists only to say
// where a password goes instead.
var errPasswordFlag = errors.New("a password in the arguments shows in ps and shell history: " +
	"set NEO4J_PASSWORD or give --password-file FILE")

// passwordFlag is the refused --password flag (see errPasswordFlag).
type passwordFlag struct{}

func (passwordFlag) String() string   { return "" }
func (passwordFlag) Set(string) error { return errPasswordFlag }

// addConnectionFlags registers --uri, --user, --password-file and
// --database, and a --password that is refused with a pointer to them.
func addConnectionFlags(fs *flag.FlagSet) *connection {
	c := &connection{}
	fs.StringVar(&c.uri, "uri", os.Getenv("NEO4J_URI"), "Neo4j URI (default $NEO4J_URI)")
	user := os.Getenv("NEO4J_USER")
	if user == "" {
		user = "neo4j"
	}
	fs.StringVar(&c.user, "user", user, "Neo4j user (default $NEO4J_USER, else neo4j)")
	fs.StringVar(&c.passwordFile, "password-file", "", "read the Neo4j password from the first line of `FILE` (default: the NEO4J_PASSWORD variable)")
	fs.Var(passwordFlag{}, "password", "refused: "+errPasswordFlag.Error())
	fs.StringVar(&c.database, "database", os.Getenv("NEO4J_DATABASE"), "Neo4j database (default $NEO4J_DATABASE, else the server's default)")
	return c
}

// password returns the first line of --password-file when given, else
// NEO4J_PASSWORD as it is now.
func (c *connection) password() (string, error) {
	if c.passwordFile == "" {
		return os.Getenv("NEO4J_PASSWORD"), nil
	}
	password, err := firstLine(c.passwordFile)
	if err != nil {
		return "", fmt.Errorf("--password-file: %w", err)
	}
	return password, nil
}

// firstLine returns the first line of a secret's file, without its line
// ending (files written by editors and echo end in one).
func firstLine(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(data), "\n")
	return strings.TrimSuffix(line, "\r"), nil
}

// open connects and checks the connection, so a wrong address or password
// is reported before any work starts.
func (c *connection) open(ctx context.Context) (neo4j.DriverWithContext, error) {
	if c.uri == "" {
		return nil, fmt.Errorf("no Neo4j URI: give --uri or set NEO4J_URI")
	}
	password, err := c.password()
	if err != nil {
		return nil, err
	}
	d, err := neo4j.NewDriverWithContext(c.uri, neo4j.BasicAuth(c.user, password, ""), c.configure)
	if err != nil {
		return nil, err
	}
	vctx, cancel := context.WithTimeout(ctx, cmp.Or(c.timeout, defaultConnectTimeout))
	defer cancel()
	if err := d.VerifyConnectivity(vctx); err != nil {
		d.Close(context.Background())
		// An unreachable server is the retryable error a call gets; a
		// wrong password or address scheme is not.
		err = neo4jtx.Classify(vctx, d, err, false)
		if errors.Is(err, engine.ErrUnavailable) {
			return nil, err
		}
		return nil, fmt.Errorf("cannot reach Neo4j at %s: %w", c.uri, err)
	}
	return d, nil
}

// configure sets the driver's logger when the connection has one, and
// bounds the driver's own waits by the connection's timeout:
// the context of each call bounds them too, and the earlier wins, so
// these only make the driver agree with it.
func (c *connection) configure(cfg *neo4j.Config) {
	if c.log != nil {
		cfg.Log = c.log
	}
	if c.timeout <= 0 {
		return
	}
	cfg.ConnectionAcquisitionTimeout = c.timeout
	cfg.MaxTransactionRetryTime = c.timeout
	cfg.SocketConnectTimeout = min(cfg.SocketConnectTimeout, c.timeout)
}
