package computed

import "slices"

// Suggest returns the candidate closest to name by edit distance, or "" when
// none is close enough to be a likely typo (at most a third of the name's
// length, at least 2 edits allowed, and never a replacement of the whole
// name). Every "did you mean" of ragforge uses it: expressions here, and
// the live-schema checks of package schemacheck.
func Suggest(name string, candidates []string) string {
	if c := Closest(name, candidates, 1); len(c) > 0 {
		return c[0]
	}
	return ""
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

// Closest returns up to n candidates as close to name as Suggest requires,
// closest first (ties in candidate order): the values an empty answer
// offers when a condition named a value no entity has.
func Closest(name string, candidates []string, n int) []string {
	limit := max(2, len([]rune(name))/3)
	type scored struct {
		c string
		d int
	}
	var near []scored
	for _, c := range candidates {
		if c == name {
			continue
		}
		if d := distance(name, c); d <= limit && d < len([]rune(name)) {
			near = append(near, scored{c, d})
		}
	}
	slices.SortStableFunc(near, func(a, b scored) int { return a.d - b.d })
	out := make([]string, 0, min(n, len(near)))
	for _, s := range near[:min(n, len(near))] {
		out = append(out, s.c)
	}
	return out
}
