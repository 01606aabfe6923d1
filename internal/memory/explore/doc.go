// Package explore runs the explore tool of a memory graph (a config with
// an `explore:` block): one call that finds what the user's memory holds
// about a few queries and names, and returns it with its context.
//
// A call searches by meaning (each query, embedded once per vector index,
// against every declared vector index) and by name: each text match as
// fuzzy terms through an entity's full-text index, else against its
// indexed string fields, where Neo4j keeps the 50 to 500 candidates (10 ×
// top) sharing the most letter pairs with the text and Go scores them:
// exact, prefix, substring, or every word within 1 or 2 edits (a swap is
// one; match.go). Each source's
// scores are put on 0..1, a node keeps its best score, and hits are
// reranked by salience = score × degree weight × recency weight (the
// recency field halves it every half_life_days, whatever the way each
// entity stores that datetime). The top N hits per entity come back with
// the edges between them, the user's own node and its edges to them, a
// bounded set of their neighbours, and the most relevant of those edges.
//
// A vector index holds every tenant's nodes and Neo4j 5 cannot filter
// inside it, so each query fetches its nearest 10 × top candidates (50 to
// 500) before the tenant filter: in a graph shared by very many tenants a
// tenant's weaker matches may be missed (explanations count what each
// source kept).
//
// Everything runs in one read transaction of two statements under the
// call's timeout. When the config declares a tenant, every node either
// statement touches carries the tenant field = the bound tenant
// (the one engine.Execute bound to the context, tenant.From; none is
// tenant.ErrUnbound), and
// neither the tenant field nor an embedding is ever returned.
package explore
