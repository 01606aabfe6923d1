// Package timebucket writes the Cypher of a datetime bucket's label (the
// hour, day, weekday, month or year an instant falls in), so that
// aggregate_entities' buckets and the change-history statistics label
// time the same way. The bucket names are tools.Buckets'; a planner test
// keeps every one of them labelled here. It imports nothing of ragforge.
package timebucket

// Weekdays is the Cypher list of weekday names, Monday first, as
// dayOfWeek counts them (ISO: Monday is 1) less one.
const Weekdays = "['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']"

// labels render a bucket's label from a zoned DATETIME t: readable
// strings that sort in time order (the weekday's name aside), in the form
// of ISO-8601 truncated to the bucket (toString of a DATE is YYYY-MM-DD,
// of a LOCAL DATETIME YYYY-MM-DDTHH:MM…). A day is the part of t's ISO
// form before its T, which is toString(date(t)) without building a DATE
// per entity (each temporal value built is a db hit and most of a
// bucket's time).
var labels = map[string]func(t string) string{
	"hour":    func(t string) string { return "left(toString(localdatetime.truncate('hour', " + t + ")), 13)" },
	"day":     func(t string) string { return "split(toString(" + t + "), 'T')[0]" },
	"weekday": func(t string) string { return Weekdays + "[" + t + ".dayOfWeek - 1]" },
	"month":   func(t string) string { return "left(split(toString(" + t + "), 'T')[0], 7)" },
	"year":    func(t string) string { return "toString(" + t + ".year)" },
}

// Label is the Cypher expression of bucket's label for the temporal
// expression t (Cypher text from the caller, never an agent's), read in
// t's own zone; ok is false for a name that is not a bucket.
func Label(bucket, t string) (expr string, ok bool) {
	label, ok := labels[bucket]
	if !ok {
		return "", false
	}
	return label(t), true
}
