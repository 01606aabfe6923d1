// Package evaluate measures tool retrieval on public, labelled data that
// nobody on the project wrote (MetaTool and BFCL, under
// shared/eval/tool-retrieval), with the fixed sha256 split its README
// defines, so that tuning happens on dev and the reported figures come from
// test.
package evaluate
