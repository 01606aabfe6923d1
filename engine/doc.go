// Package engine runs an LLM agent's tool calls on Neo4j. An embedder
// makes four calls:
//
//	m, err := config.Load("ragforge.yaml")                           // 1. the config, validated once
//	eng, err := engine.New(ctx, m, engine.Options{Driver: d})        // 2. the catalog and planners
//	defs, err := format.Marshal(eng.Tools().Tools, format.OpenAI)    // 3. the tools, for the LLM
//	res, err := eng.Execute(ctx, engine.Call{Name: n, Arguments: a}) // 4. each call it makes
//
// New builds the catalog from one model: the generated tools package
// planner registers (one file per tool) and the handler-backed families
// their packages register (tools.RegisterHandlers; engine/handlers.go
// imports them), all given one tools.Env; the config decides which
// apply. Execute resolves the call's tenant and deadline, validates the
// arguments once (tools.Catalog.Parse), then plans them into one
// parameterized statement and shapes its rows into a [Result], or calls
// the tool's handler. [Engine.Plan] shows the statement without running
// it. docs/design.md ("Data flow") follows a call through these steps.
package engine
