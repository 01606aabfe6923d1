package computed

// Suggest returns the candidate closest to name by edit distance, or "" when
// none is close enough to be a likely typo (at most a third of the name's
// length, at least 2 edits allowed, and never a replacement of the whole
// name). Every "did you mean" of ragforge uses it: expressions here, and
// the live-schema checks of package schemacheck.
func Suggest(name string, candidates []string) string {
	limit := max(2, len([]rune(name))/3)
	best, bestD := "", limit+1
	for _, c := range candidates {
		if c == name {
			continue
		}
		if d := distance(name, c); d < bestD && d < len([]rune(name)) {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b, in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
