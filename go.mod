module github.com/ragforge/ragforge

go 1.26.8

require (
	cuelang.org/go v0.17.1 // indirect
	github.com/expr-lang/expr v1.17.8 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/neo4j/neo4j-go-driver/v5 v5.28.4 // indirect
)
