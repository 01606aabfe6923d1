// Package evaluate measures tool retrieval on public, labelled data that
// nobody on the project wrote (MetaTool and BFCL, vendored under
// testdata/eval/tool-retrieval with their licences), with the fixed sha256
// split its README defines, so that tuning happens on dev and the reported
// figures come from test.
package retrievaleval
