package config

import "testing"

// BenchmarkValidate times config.Validate on the model Load returns for
// code-rag.yaml: "loaded" as engine.New calls it (the model is known, so
// only its fingerprint is taken), "full" as every call checked before a
// model was validated once (the schema unified and the computed fields
// compiled):
//
//	go test ./config -run '^$' -bench Validate -benchtime 20x
func BenchmarkValidate(b *testing.B) {
	m, err := Load("../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("loaded", func(b *testing.B) {
		for b.Loop() {
			if err := Validate(m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("full", func(b *testing.B) {
		for b.Loop() {
			cfg, pos := encodeModel(m)
			if err := check(m, cfg, pos); err != nil {
				b.Fatal(err)
			}
		}
	})
}
