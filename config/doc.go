// Package config turns ragforge config files (YAML, JSON or CUE) into the
// typed [model.Model] every other package reads.
//
// Load unifies the files with each other and with the CUE schema embedded
// by package schema, reports every problem as one line at file:line:col
// (what is wrong; what is allowed), and decodes the result. Validate holds
// a model built or changed in Go to the same rules by writing it back into
// the config's shape and unifying that with the same schema, so the schema
// stays the one definition of a valid config. CheckCypherFields is the one
// check that needs a server: every raw `cypher:` computed field must be a
// read that Neo4j can plan.
package config
