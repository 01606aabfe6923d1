// Package write generates and runs the write tools of a config whose
// entities and relationship types are declared writable: create_<entity>
// and update_<entity> for each writable entity, and create_relationship
// and update_relationship for the writable relationship types.
//
// Every write is scoped to the tenant bound to the call (package tenant):
// the tenant field is set by the engine, never by the agent, and every node
// a write statement matches carries it. Entity writes MERGE on the
// entity's derived key ([model.Key]), so a retried create finds the node it
// made; relationship writes MERGE on the two endpoints and the type.
// Provenance (source, confidence, update and creation times) is set on
// every write, and computed fields that are stored (materialized) on the
// written node are recomputed in the same transaction, so the planner's
// guarantee that a ready stored value is right holds after writes too.
// A write that changes a tracked entity (change_tracking) records a Change
// in its transaction (package change): an entity write on the node, a
// relationship write on each tracked end, naming the relationship.
package write
