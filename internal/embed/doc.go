// Package embed computes the stored vectors of a config's vector indexes
// for nodes written by anything other than the write tools (a loader, an
// import, an application's own Cypher): `ragforge-plan embed`.
//
// A node needs a vector when its indexed text is set and its vector is
// missing or was made from another text: beside each vector the node holds
// embedder.TextHash of the text it was made from, in the property
// model.VectorIndex.HashProperty names (`<vector property>_text_hash`). The write
// tools set the same hash, so nodes they wrote are not embedded again.
//
// The work is bounded and resumable: the nodes of a label are listed by
// element id, then read, embedded (one embedder request per batch when
// the embedder is an embedder.Batcher) and written back one batch at a
// time, each batch in its own write transaction. A run killed at any point
// loses at most the batch it was embedding; the next run finds the saved
// batches' hashes current and embeds only the rest. Every row of a batch
// is written to the node it was read from (matched by element id), so
// nodes of different tenants may share a batch but never each other's
// vectors. A node whose text was removed loses its vector and hash.
package embed
