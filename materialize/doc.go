// Package materialize decides, per computed field, whether it is computed in
// every query (runtime) or stored as a node property and indexed
// (materialized), and applies that decision on Neo4j safely.
//
// Computing `line_count = endLine - startLine + 1` for a million nodes on
// every sort is what makes such queries slow; storing it once and reading an
// index is fast. But storing costs writes, goes stale when the inputs change
// outside ragforge, and must never be read half-written. So the decision
// comes from real usage and the application follows docs/design.md invariants 3 and
// 7:
//
//   - Usage: every planned call reports, per entity.field, how it used the
//     field (filter, order, aggregate, group, project). A [Recorder] buffers
//     those uses by UTC day and flushes them into a [Store]: a local JSON
//     file ([FileStore], safe for goroutines and processes, crash-safe) or
//     Neo4j itself ([Neo4jStore], shared by every process of a deployment).
//   - Policy: [Decide] turns a field's config (`materialized: true | false |
//     auto`), its uses within the window, the label's node count and its
//     current state into a [Verdict] with a reason a person can check.
//   - State: a `_RagforgeMaterialization` node per materialized field holds
//     its property, the expression hash ([Hashes]), its status (building,
//     ready, dropping) and progress. [StateCache] turns the state nodes into
//     the model.State the engine plans with: a field is read from its
//     property only when its state is ready and its hash equals the
//     config's (invariant 3).
//   - Apply: [Materializer] writes values in resumable batches, builds the
//     index, marks the field ready; refuses a property it does not own;
//     holds a lock node so two applies cannot run at once (invariant 7).
package materialize
