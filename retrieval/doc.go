// Package retrieval chooses, for one user message, the few tools an LLM agent
// should see out of a catalog of dozens or thousands.
//
// Agents pick worse among many tools and every tool definition costs context
// tokens, so ragforge indexes each tool once (an [Index] built from
// [Document]s) and, per message, delivers only the top-scoring tools plus an
// always-include list, widening the selection when the scores are uncertain
// (fail-open) and never exceeding a hard cap. Scoring is lexical and
// deterministic: BM25F over weighted fields (name, keywords, description,
// examples, parameters), English stemming, Arabic normalization and light
// stemming, and character n-grams for Arabic sub-words, using bleve's
// analyzers. It needs no model and answers in well under a millisecond for a
// thousand tools.
package retrieval
