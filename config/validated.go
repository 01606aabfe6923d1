package config

import (
	"crypto/sha256"
	"encoding/json"
	"runtime"
	"sync"
	"weak"

	"github.com/ragforge/ragforge/model"
)

// validated remembers, per model, the fingerprint of the form Load
// decoded or Validate last passed (weak.Pointer[model.Model] →
// [sha256.Size]byte), so a model is unified with the schema once: engine.New
// validates every model it is given, and a loaded one, unchanged since,
// is not validated again. A model changed in Go after Load has another
// fingerprint and is validated in full. Entries go with their models.
var validated sync.Map

// fingerprint is the digest of a model's config form (encodeModel), or
// false when that form has no JSON (then the model is always validated).
func fingerprint(cfg map[string]any) ([sha256.Size]byte, bool) {
	b, err := json.Marshal(cfg)
	if err != nil {
		return [sha256.Size]byte{}, false
	}
	return sha256.Sum256(b), true
}

// remember records that m, in the form whose fingerprint is fp, is valid.
func remember(m *model.Model, fp [sha256.Size]byte) {
	w := weak.Make(m)
	if _, loaded := validated.Swap(w, fp); !loaded {
		runtime.AddCleanup(m, func(w weak.Pointer[model.Model]) { validated.Delete(w) }, w)
	}
}

// known reports whether m, in the form whose fingerprint is fp, was
// found valid before.
func known(m *model.Model, fp [sha256.Size]byte) bool {
	v, ok := validated.Load(weak.Make(m))
	return ok && v.([sha256.Size]byte) == fp
}

// trust records a model Load decoded and checked as valid.
func trust(m *model.Model) {
	cfg, _ := encodeModel(m)
	if fp, ok := fingerprint(cfg); ok {
		remember(m, fp)
	}
}
