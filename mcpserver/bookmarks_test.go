package mcpserver

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragforge/ragforge/tools"
)

// TestGivenBookmarksAreAListOfShortStrings: a call's _meta bookmarks are
// read as sent, and anything but a list of at most 16 non-empty strings
// of at most 1,024 bytes is a CallError at its path.
func TestGivenBookmarksAreAListOfShortStrings(t *testing.T) {
	if got, err := givenBookmarks("t", nil); got != nil || err != nil {
		t.Errorf("no _meta: %v %v", got, err)
	}
	if got, err := givenBookmarks("t", mcp.Meta{BookmarksMeta: []any{"FB:a", "FB:b"}}); err != nil || !slices.Equal(got, []string{"FB:a", "FB:b"}) {
		t.Errorf("two bookmarks: %v %v", got, err)
	}
	many := make([]any, maxBookmarks+1)
	for i := range many {
		many[i] = "FB:a"
	}
	for _, tc := range []struct {
		v    any
		path string
	}{
		{"FB:a", "_meta.ragforge/bookmarks"},
		{many, "_meta.ragforge/bookmarks"},
		{[]any{"FB:a", 3}, "_meta.ragforge/bookmarks[1]"},
		{[]any{""}, "_meta.ragforge/bookmarks[0]"},
		{[]any{strings.Repeat("x", maxBookmarkLen+1)}, "_meta.ragforge/bookmarks[0]"},
	} {
		_, err := givenBookmarks("t", mcp.Meta{BookmarksMeta: tc.v})
		var ce *tools.CallError
		if !errors.As(err, &ce) || ce.Problems[0].Path != tc.path {
			t.Errorf("%v: %v, want a CallError at %s", tc.v, err, tc.path)
		}
	}
}
