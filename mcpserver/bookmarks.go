package mcpserver

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragforge/ragforge/tools"
)

// BookmarksMeta is the _meta key of a call's Neo4j bookmarks. Every
// successful tools/call result carries, under it, the bookmarks of the
// call's transactions (a list of strings). A client that sends a later
// call with the same key and those strings in the call's _meta gets a
// call that reads after them, on any replica of a fleet and any member of
// a Neo4j cluster: its own writes are visible. Stateless replicas keep no
// chain between requests, so the client carries it (docs/deploy.md).
const BookmarksMeta = "ragforge/bookmarks"

// maxBookmarks bounds the bookmarks one call may send back: a result
// carries one per database its transactions touched, and a client merging
// a few results' holds a few.
const maxBookmarks = 16

// maxBookmarkLen bounds one bookmark's length: Neo4j 5's are about 40
// bytes, one per database.
const maxBookmarkLen = 1024

// givenBookmarks returns the bookmarks a call sent back in its _meta
// (none when it sent no BookmarksMeta), or a CallError saying what is
// wrong with them, before anything runs.
func givenBookmarks(tool string, meta mcp.Meta) ([]string, error) {
	v, ok := meta[BookmarksMeta]
	if !ok || v == nil {
		return nil, nil
	}
	path := "_meta." + BookmarksMeta
	list, ok := v.([]any)
	if !ok {
		return nil, tools.Fail(tool, path, nil, "bookmarks are a list of strings: send back the list a result's _meta %q holds, unchanged; got %T", BookmarksMeta, v)
	}
	if len(list) > maxBookmarks {
		return nil, tools.Fail(tool, path, nil, "at most %d bookmarks; got %d (send back those of the results this call must read after)", maxBookmarks, len(list))
	}
	out := make([]string, 0, len(list))
	for i, b := range list {
		s, ok := b.(string)
		if !ok || s == "" || len(s) > maxBookmarkLen {
			return nil, tools.Fail(tool, fmt.Sprintf("%s[%d]", path, i), nil, "a bookmark is a non-empty string of at most %d bytes, sent back unchanged from a result's _meta %q", maxBookmarkLen, BookmarksMeta)
		}
		out = append(out, s)
	}
	return out, nil
}
