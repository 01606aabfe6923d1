package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// Defaults of [Options]; each bounds what one tool call may cost.
const (
	// DefaultTimeout is the transaction timeout of one call.
	DefaultTimeout = neo4jtx.DefaultTimeout
	// DefaultMaxRows is the most rows Execute reads for one call
	// (run_cypher's cap; generated tools are capped lower by their limits).
	DefaultMaxRows = 1000
	// HardMaxRows is the most rows any Options.MaxRows may allow.
	HardMaxRows = 10000
	// DefaultMaxString is the length (in characters) a string value is
	// shortened to unless the call is verbose.
	DefaultMaxString = 500
	// detectTimeout bounds capability detection in New.
	detectTimeout = 15 * time.Second
)

// Embedder turns the text of a semantic_search call into a vector with the
// model of the vector index it will be compared with. Applications supply
// it (package embedder has an OpenAI-compatible one and an offline one);
// without one, semantic_search is left out of the catalog.
type Embedder = embedder.Embedder

// EmbedderFunc adapts a function to [Embedder].
type EmbedderFunc = embedder.Func

// Options configure an [Engine]. Only Driver is needed to run calls; the
// zero value of everything else is a safe default.
type Options struct {
	// Driver connects to Neo4j; nil gives an engine that can list tools and
	// plan calls but not execute them.
	Driver neo4j.DriverWithContext
	// Database is the Neo4j database ("" for the server's default).
	Database string
	// Tools choose the generated tools. When Tools.Capabilities is nil and
	// Driver is set, New detects them on the server (full-text indexes
	// online, APOC installed), so the catalog offers only modes that work.
	Tools tools.Options
	// Timeout is each call's transaction timeout (DefaultTimeout if zero).
	Timeout time.Duration
	// MaxRows caps the rows read per call (DefaultMaxRows if zero, at most
	// HardMaxRows).
	MaxRows int
	// MaxString is the length strings are shortened to unless a call is
	// verbose (DefaultMaxString if zero; negative never shortens).
	MaxString int
	// Embedder embeds semantic_search queries.
	Embedder Embedder
	// State reports which computed fields are materialized and ready; nil
	// computes every computed field at query time.
	State func(ctx context.Context) (model.State, error)
	// RecordUses, when set, receives the field uses of every planned call
	// (for the materialization policy's counts).
	RecordUses func(tool string, uses []model.Use)
	// Procedures are the procedures run_cypher may call (DefaultProcedures
	// if nil).
	Procedures []string
	// Now and Location set the clock and zone of relative periods (wall
	// clock, UTC by default).
	Now      func() time.Time
	Location *time.Location
	// Tenant is the tenant every call runs under unless the request
	// context binds another (tenant.With). A config that declares a
	// tenant runs no call without one: Execute resolves the tenant once,
	// before any tool's handler, and hands it on in the context.
	Tenant string
	// Profile names one of the config's profiles (model.Profile): the
	// catalog keeps only its tools, of those the other options offer, and
	// the application's own Tools.CustomTools, which are the
	// application's to choose. "" keeps every tool.
	Profile string
	// Computed is m's computed fields compiled (computed.CompileModel) when
	// the application has them already, for a materialize.StateCache or
	// Materializer, so the process compiles them once; nil makes New
	// compile them. Either way New hands the one compiled form to its
	// planners and write tools, and no call compiles.
	Computed *computed.Model
	// GraphWarnings are what the live graph contradicts in the config,
	// served anyway (`serve --serve-contradicted`): each is said in every
	// answer that touches its owner (graphNotes).
	GraphWarnings []GraphWarning
}

// Engine runs an agent's tool calls on Neo4j: it owns the tool catalog
// generated from the model and plans each call into one read statement.
// It is safe for concurrent use.
type Engine struct {
	m       *model.Model
	opts    Options
	catalog *tools.Catalog
	planner *planner.Planner
	// verbose plans verbose calls: the same planner without the cut of
	// long strings.
	verbose *planner.Planner
	caps    tools.Capabilities
	// textKinds caches what a text field's values look like (textKind),
	// sampled once per field and tenant.
	textKinds sync.Map
}

// New builds the engine for m: validates it as [config.Load] validates a
// config (the error is [config.ConfigErrors]; a model Load returned,
// unchanged since, is not checked again), detects the server's
// capabilities when needed (on ctx, for at most 15 seconds: New returns
// when ctx ends), generates the catalog and prepares the planner. It compiles the
// computed fields once (unless Options.Computed has them) and hands them
// to every part that reads them, so no call compiles (docs/design.md, data
// flow).
func New(ctx context.Context, m *model.Model, opts Options) (*Engine, error) {
	if m == nil {
		return nil, fmt.Errorf("engine: nil model")
	}
	// A model built or changed in Go passes the same checks as a loaded
	// one; Load's own model, unchanged, passed them already (config.Validate
	// knows it).
	if err := config.Validate(m); err != nil {
		return nil, err
	}
	if opts.Computed == nil {
		cm, err := computed.CompileModel(m)
		if err != nil {
			return nil, err
		}
		opts.Computed = cm
	} else if opts.Computed.Model() != m {
		return nil, fmt.Errorf("engine: Options.Computed was compiled from another model")
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxRows <= 0 {
		opts.MaxRows = DefaultMaxRows
	}
	if opts.MaxRows > HardMaxRows {
		opts.MaxRows = HardMaxRows
	}
	if opts.MaxString == 0 {
		opts.MaxString = DefaultMaxString
	}
	if opts.Procedures == nil {
		opts.Procedures = DefaultProcedures
	}
	if m.Tenant != nil && opts.Tools.RawCypher {
		return nil, fmt.Errorf("engine: run_cypher cannot be offered with a tenant-scoped config: its statements are not scoped to the tenant (the traverse tool is, and is offered instead)")
	}
	caps := tools.Capabilities{FullText: true}
	switch {
	case opts.Tools.Capabilities != nil:
		caps = *opts.Tools.Capabilities
	case opts.Driver != nil:
		ctx, cancel := context.WithTimeout(ctx, detectTimeout)
		defer cancel()
		c, err := DetectCapabilities(ctx, opts.Driver, opts.Database, m)
		if err != nil {
			return nil, fmt.Errorf("engine: detecting server capabilities: %w", neo4jtx.Classify(ctx, opts.Driver, err, false))
		}
		caps = c
	}
	topts := opts.Tools
	topts.Capabilities = &caps
	if opts.Embedder == nil {
		topts.NoSemanticSearch = true
	}
	topts.EmbedderCaveat = embedder.Caveat(opts.Embedder)
	// The handler-backed tools (the tree, write, traverse, explore,
	// history, analytics and find_similar families, engine/handlers.go)
	// are built from their registry with one environment; each family's
	// Build decides from the config and env whether it applies.
	env := tools.Env{
		Driver: opts.Driver, Database: opts.Database, Timeout: opts.Timeout,
		MaxRows: opts.MaxRows, MaxString: opts.MaxString, Embedder: opts.Embedder,
		Now: opts.Now, Computed: opts.Computed, Capabilities: caps, History: opts.Tools.History,
	}
	custom, err := tools.BuildHandlers(m, env, opts.Tools.CustomTools)
	if err != nil {
		return nil, err
	}
	topts.CustomTools = custom
	cat, err := planner.Generate(m, topts)
	if err != nil {
		return nil, err
	}
	if cat, err = profile(m, cat, opts.Profile, opts.Tools.CustomTools); err != nil {
		return nil, err
	}
	popts := planner.Options{
		Limits:       cat.Limits(),
		Capabilities: &caps,
		Now:          opts.Now,
		Location:     opts.Location,
		Computed:     opts.Computed,
	}
	verbose, err := planner.New(m, popts)
	if err != nil {
		return nil, err
	}
	// Long strings are cut in the statement, so they cross the network
	// only as far as a result shows them.
	popts.MaxString = max(opts.MaxString, 0)
	p, err := planner.New(m, popts)
	if err != nil {
		return nil, err
	}
	return &Engine{m: m, opts: opts, catalog: cat, planner: p, verbose: verbose, caps: caps}, nil
}

// profile narrows cat to the named profile's tools and the application's
// own tools; "" keeps cat.
func profile(m *model.Model, cat *tools.Catalog, name string, own []tools.CustomTool) (*tools.Catalog, error) {
	if name == "" {
		return cat, nil
	}
	p := m.Profile(name)
	if p == nil {
		if len(m.Profiles) == 0 {
			return nil, fmt.Errorf("engine: unknown profile %q: the config declares no profiles", name)
		}
		return nil, fmt.Errorf("engine: unknown profile %q (profiles: %s)", name, strings.Join(m.ProfileNames(), ", "))
	}
	return cat.Subset(func(t *tools.Tool) bool {
		return slices.Contains(p.Tools, t.Name) || slices.ContainsFunc(own, func(ct tools.CustomTool) bool { return ct.Name == t.Name })
	}), nil
}

// Tools returns the catalog to hand to the LLM (render it with package
// tools/format).
func (e *Engine) Tools() *tools.Catalog { return e.catalog }

// Capabilities returns the server capabilities the catalog was built for.
func (e *Engine) Capabilities() tools.Capabilities { return e.caps }

// Model returns the engine's model.
func (e *Engine) Model() *model.Model { return e.m }

// Call is one tool call from an agent: the tool's name and its JSON
// arguments, as the LLM produced them.
type Call struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	// Verbose returns long strings whole instead of shortened: generated
	// tools plan without the cut, and the call's context tells every
	// converter, the handler tools' too, to cut nothing
	// (neo4jvalue.WithWhole). A host's switch, never an agent's argument.
	Verbose bool `json:"verbose,omitempty"`
}

// Plan validates a call and returns the statement Execute would run,
// without touching the database (ragforge-plan explain). Custom tools have
// no statement. The error is a *tools.CallError for a bad call.
func (e *Engine) Plan(ctx context.Context, call Call) (*planner.Statement, error) {
	args, err := e.catalog.Parse(call.Name, call.Arguments)
	if err != nil {
		return nil, err
	}
	if t := e.catalog.Tool(call.Name); t != nil && t.Custom() {
		return nil, fmt.Errorf("engine: %s is a custom tool; it runs its handler, not a statement", call.Name)
	}
	var state model.State
	if e.opts.State != nil {
		if state, err = e.opts.State(ctx); err != nil {
			return nil, fmt.Errorf("engine: reading materialization state: %w", err)
		}
	}
	p := e.planner
	if call.Verbose {
		p = e.verbose
	}
	st, err := p.Plan(planner.Call{Tool: call.Name, Args: args}, state)
	if err != nil || e.m.Tenant == nil {
		return st, err
	}
	// The statement compares the tenant field with this parameter. An
	// unbound call (explain without a tenant) shows it null; Execute
	// refuses such a call before planning it.
	var v any
	if ctx, err := e.bindTenant(ctx); err == nil {
		v, _ = tenant.From(ctx)
	}
	st.Params[tenant.Param] = v
	for _, s := range []*planner.Statement{st.Fetch, st.Next} {
		if s != nil {
			s.Params[tenant.Param] = v
		}
	}
	return st, nil
}

// bindTenant is the one tenant resolver of every call, whatever its
// tool: the tenant bound to the request context (tenant.With), else the
// engine's default (Options.Tenant). It returns ctx carrying the resolved
// tenant, so handlers read only tenant.From and never choose for
// themselves; for a tenant-scoped config with neither, the error is
// tenant.ErrUnbound. A config without a tenant scopes nothing and gets ctx
// back as it is.
func (e *Engine) bindTenant(ctx context.Context) (context.Context, error) {
	if e.m.Tenant == nil {
		return ctx, nil
	}
	if _, ok := tenant.From(ctx); ok {
		return ctx, nil
	}
	if e.opts.Tenant == "" {
		return ctx, tenant.ErrUnbound
	}
	return tenant.With(ctx, e.opts.Tenant), nil
}
