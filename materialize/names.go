package materialize

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/ragforge/ragforge/internal/cypher/ident"
)

// The labels of ragforge's own nodes, already quoted as ident.Quote quotes
// them: they are constants, so quoting them cannot fail, and
// TestOwnLabelsAreQuotedAsIdentQuotesThem keeps each equal to
// ident.Quote of its label.
const (
	lockLabelQ  = "`" + LockLabel + "`"
	stateLabelQ = "`" + StateLabel + "`"
	usageLabelQ = "`" + UsageLabel + "`"
)

// quote is ident.Quote with the error saying what the name is for, so a
// bad name from a config or a state node stops the command with a clear
// message instead of becoming Cypher.
func quote(what, name string) (string, error) {
	q, err := ident.Quote(name)
	if err != nil {
		return "", fmt.Errorf("materialize: %s: %w", what, err)
	}
	return q, nil
}

// labelAndProperty quotes an entity's label and one of its properties.
func labelAndProperty(entity, property string) (label, prop string, err error) {
	if label, err = quote("entity", entity); err != nil {
		return "", "", err
	}
	if prop, err = quote(entity+" property", property); err != nil {
		return "", "", err
	}
	return label, prop, nil
}

// maxIdent is the longest name the identifier rules allow.
const maxIdent = 100

// IndexName is the name of the range index apply creates on a stored
// property: derived from entity and property, so drop finds it again. A
// name that would pass the identifier rules' 100 characters is cut and
// ends in a hash of the whole, so it stays unique and quotable.
func IndexName(entity, property string) string {
	name := "ragforge_mat_" + entity + "_" + property
	if len(name) <= maxIdent {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	tail := "_" + hex.EncodeToString(sum[:8])
	return name[:maxIdent-len(tail)] + tail
}
