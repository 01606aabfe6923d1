package config

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ragforge/ragforge/model"
)

// What Validate writes back is a config: loading it gives the model it
// came from, so the encoder and the decoder cannot drift apart unnoticed
// (Validate would then check a different model than the one it was given).
func TestDecodingWhatTheEncoderWritesGivesTheSameModel(t *testing.T) {
	for _, path := range configFiles(t, validDir) {
		m, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		cfg, _ := encodeModel(m)
		data, err := json.Marshal(cfg)
		if err != nil {
			t.Fatal(err)
		}
		again, err := LoadSources(Source{Name: "encoded.json", Data: data})
		if err != nil {
			t.Fatalf("%s: the encoded model does not load: %v\n%s", path, err, data)
		}
		if diff := cmp.Diff(m, again, cmpopts.IgnoreTypes(model.Pos{}), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: decode(encode(m)) differs from m (-loaded +round-tripped):\n%s", path, diff)
		}
	}
}
