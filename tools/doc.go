// Package tools turns a validated [model.Model] into the tools an LLM agent
// calls: their names, descriptions, JSON Schemas and categories, and checks
// the arguments an agent sends before the planner turns them into Cypher.
//
// The agent never sees the config, only these definitions, so everything it
// must know to call a tool well is written into them: which entities exist,
// each entity's unique field, every field with its type and description,
// which fields are computed and from what, the relationships with their
// direction and endpoint types, the vector and full-text indexes, and the
// operators and modes each field supports. The modes and operators are read
// from the model (the CUE schema derived them); no table in this package
// repeats the type → mode mapping.
//
// Tools are global (one query_entities for all entities, with an entity_type
// argument) so the catalog stays small as the graph grows. Their schemas
// enumerate the union of valid names; whether a field belongs to the chosen
// entity, or a mode to the chosen field, is checked after schema validation
// by [Catalog.Validate], whose error lists that entity's valid choices. This
// keeps schemas compact and free of per-entity oneOf branches that some LLM
// providers reject.
//
// The package knows no particular tool: each generated tool is declared
// in one file of package planner as a [Kind] (name, rank, when it is
// offered, how it is generated with a [Generator], how its arguments are
// parsed with a [Checker]), and planner.Generate hands the kinds to
// [Generate].
//
// Package tools/format renders a [Catalog] for MCP, OpenAI, Anthropic and
// Gemini.
package tools
