package handwritten

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// Scale names the size of the generated airline graph.
type Scale string

// The scales: small is what CI loads (about 2,000 nodes, seconds), full is
// the benchmark's (about 100,000 nodes and 500,000 relationships).
const (
	Small Scale = "small"
	Full  Scale = "full"
)

// sizes are the generator's knobs per scale.
type sizes struct {
	airports, airlines, countries int
	// aircraft fly legs successive flights each.
	aircraft, legs int
	// routePairs is the number of airport pairs drawn for the route
	// network (each pair is a route both ways).
	routePairs int
}

func sizesOf(s Scale) (sizes, error) {
	switch s {
	case Small:
		return sizes{airports: 100, airlines: 8, countries: 12, aircraft: 60, legs: 30, routePairs: 300}, nil
	case Full:
		return sizes{airports: 3000, airlines: 60, countries: 40, aircraft: 1900, legs: 50, routePairs: 22000}, nil
	}
	return sizes{}, fmt.Errorf("scale %q: want %s or %s", s, Small, Full)
}

// zipf is the exponent of the power law the generator draws airports,
// airlines and countries by: the k-th most popular has weight 1/k^zipf,
// so a few hubs take most routes and flights and most airports have one
// or two routes.
const zipf = 1.0

// Start is the first instant of the generated schedule (UTC).
var Start = time.Date(2024, time.May, 1, 0, 0, 0, 0, time.UTC)

// Airport is an (:Airport) node.
type Airport struct {
	Code, Name, City, Country string
	Lat, Lon                  float64
	ElevationM                int64
}

// Airline is an (:Airline) node.
type Airline struct {
	Code, Name, Country string
	// Hub is the index of its home airport, where its aircraft start.
	Hub int
}

// Route is (:Airport)-[:ROUTE]->(:Airport): From and To index Airports.
type Route struct {
	From, To       int
	FlightsPerWeek int64
	DistanceKm     float64
}

// Codeshare is (:Flight)-[:MARKETED_BY {flight_number}]->(:Airline).
type Codeshare struct {
	Airline      int
	FlightNumber string
}

// Flight is a (:Flight) node with its FROM, TO, OPERATED_BY and
// MARKETED_BY relationships; Next is the index of the same aircraft's
// next leg (-1 for its last), the NEXT relationship.
type Flight struct {
	ID, Number, Tail   string
	Departure, Arrival time.Time
	// DelayMinutes is nil for a cancelled flight.
	DelayMinutes *int64
	DistanceKm   float64
	Status       string
	From, To     int
	Airline      int
	Codeshares   []Codeshare
	Next         int
	// Turnaround is the minutes on the ground before Next (the NEXT
	// relationship's property).
	Turnaround int64
}

// Graph is one generated airline graph.
type Graph struct {
	Scale    Scale
	Seed     uint64
	Airports []Airport
	Airlines []Airline
	Routes   []Route
	Flights  []Flight
	// out lists each airport's outgoing routes (indexes into Routes).
	out [][]int
}

// Counts returns the graph's node and relationship counts.
func (g *Graph) Counts() (nodes, rels int) {
	nodes = len(g.Airports) + len(g.Airlines) + len(g.Flights)
	rels = len(g.Routes)
	for _, f := range g.Flights {
		rels += 3 + len(f.Codeshares) // FROM, TO, OPERATED_BY
		if f.Next >= 0 {
			rels++
		}
	}
	return nodes, rels
}

// Generate builds the airline graph of a scale from a seed; the same
// scale and seed give the same graph, so workloads name real airports
// and a run can be repeated.
//
// Airports are drawn into route pairs by a power law (a few hubs, a long
// tail of airports with one or two routes), every route flown both ways.
// Flights are the legs of aircraft that start at their airline's hub and
// each time fly one of the current airport's routes, chosen by its weekly
// flights, so flights concentrate on hubs as in a real network, every
// flight follows a route, and each aircraft's legs chain by NEXT.
func Generate(s Scale, seed uint64) (*Graph, error) {
	sz, err := sizesOf(s)
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	g := &Graph{Scale: s, Seed: seed}

	// Countries: centres and popularity.
	type country struct{ lat, lon float64 }
	countries := make([]country, sz.countries)
	for i := range countries {
		countries[i] = country{lat: -45 + r.Float64()*105, lon: -170 + r.Float64()*340}
	}
	countryPick := newPicker(zipfWeights(sz.countries))

	// Airports: popularity rank i (0 is the biggest hub).
	codes := uniqueCodes(r, sz.airports, 3)
	for i := range sz.airports {
		c := countryPick.pick(r)
		city := cityName(r)
		lat := clampF(countries[c].lat+r.NormFloat64()*4, -60, 72)
		lon := wrapLon(countries[c].lon + r.NormFloat64()*6)
		g.Airports = append(g.Airports, Airport{
			Code: codes[i], City: city, Name: city + " " + airportKinds[r.IntN(len(airportKinds))],
			Country: fmt.Sprintf("C%02d", c+1), Lat: round(lat, 5), Lon: round(lon, 5),
			ElevationM: int64(r.IntN(2400)),
		})
	}
	weights := zipfWeights(sz.airports)
	airportPick := newPicker(weights)

	// Route pairs by the power law, then every airport without one joined
	// to a hub, so each has somewhere to fly.
	pairs := map[[2]int]bool{}
	addPair := func(a, b int) {
		if a == b {
			return
		}
		k := [2]int{min(a, b), max(a, b)}
		if pairs[k] {
			return
		}
		pairs[k] = true
		d := haversine(g.Airports[a], g.Airports[b])
		fpw := max(1, int64(math.Round(2000*math.Sqrt(weights[a]*weights[b])*(0.5+r.Float64()))))
		g.Routes = append(g.Routes, Route{From: a, To: b, FlightsPerWeek: fpw, DistanceKm: round(d, 1)},
			Route{From: b, To: a, FlightsPerWeek: fpw, DistanceKm: round(d, 1)})
	}
	for tries := 0; len(pairs) < sz.routePairs && tries < 50*sz.routePairs; tries++ {
		addPair(airportPick.pick(r), airportPick.pick(r))
	}
	joined := make([]bool, sz.airports)
	for k := range pairs {
		joined[k[0]], joined[k[1]] = true, true
	}
	for a := range g.Airports {
		for !joined[a] {
			b := airportPick.pick(r)
			addPair(a, b)
			joined[a] = a != b
		}
	}
	g.out = make([][]int, sz.airports)
	for i, rt := range g.Routes {
		g.out[rt.From] = append(g.out[rt.From], i)
	}

	// Airlines: hubs among the biggest airports, popularity by the power law.
	lcodes := uniqueCodes(r, sz.airlines, 2)
	for i := range sz.airlines {
		hub := min(i, sz.airports-1)
		if r.IntN(3) == 0 {
			hub = airportPick.pick(r)
		}
		g.Airlines = append(g.Airlines, Airline{Code: lcodes[i], Name: cityName(r) + " Air",
			Country: g.Airports[hub].Country, Hub: hub})
	}
	airlinePick := newPicker(zipfWeights(sz.airlines))

	// Flights: aircraft rotations.
	numbers := map[[3]int]string{}
	next := make([]int, sz.airlines)
	for a := range sz.aircraft {
		al := airlinePick.pick(r)
		tail := fmt.Sprintf("%s-%04d", g.Airlines[al].Code, a+1)
		at := g.Airlines[al].Hub
		t := Start.Add(time.Duration(r.IntN(24*12)) * 5 * time.Minute)
		prev := -1
		for range sz.legs {
			rt := g.Routes[g.pickRoute(r, at)]
			key := [3]int{al, rt.From, rt.To}
			num, ok := numbers[key]
			if !ok {
				next[al]++
				num = fmt.Sprintf("%s%d", g.Airlines[al].Code, next[al])
				numbers[key] = num
			}
			dur := time.Duration(30+int(rt.DistanceKm/800*60)/5*5) * time.Minute
			f := Flight{
				ID: fmt.Sprintf("F%07d", len(g.Flights)+1), Number: num, Tail: tail,
				Departure: t, Arrival: t.Add(dur), DistanceKm: rt.DistanceKm,
				From: rt.From, To: rt.To, Airline: al, Next: -1,
			}
			f.Status, f.DelayMinutes = delay(r)
			for range codeshareCount(r) {
				m := airlinePick.pick(r)
				if m == al || slices.ContainsFunc(f.Codeshares, func(c Codeshare) bool { return c.Airline == m }) {
					continue
				}
				f.Codeshares = append(f.Codeshares, Codeshare{Airline: m, FlightNumber: fmt.Sprintf("%s%d", g.Airlines[m].Code, 5000+r.IntN(4000))})
			}
			g.Flights = append(g.Flights, f)
			turn := int64(40 + 5*r.IntN(17))
			if prev >= 0 {
				g.Flights[prev].Next = len(g.Flights) - 1
			}
			prev = len(g.Flights) - 1
			g.Flights[prev].Turnaround = turn
			at = rt.To
			t = f.Arrival.Add(time.Duration(turn) * time.Minute)
			if f.DelayMinutes != nil {
				t = t.Add(time.Duration(*f.DelayMinutes) * time.Minute)
			}
		}
	}
	return g, nil
}

// pickRoute draws one of airport a's outgoing routes by weekly flights.
func (g *Graph) pickRoute(r *rand.Rand, a int) int {
	var total int64
	for _, i := range g.out[a] {
		total += g.Routes[i].FlightsPerWeek
	}
	x := r.Int64N(total)
	for _, i := range g.out[a] {
		x -= g.Routes[i].FlightsPerWeek
		if x < 0 {
			return i
		}
	}
	return g.out[a][len(g.out[a])-1]
}

// delay draws how a flight ended: mostly on time, a long tail of delays,
// a few diverted, and cancelled ones without a delay.
func delay(r *rand.Rand) (string, *int64) {
	p := r.Float64()
	switch {
	case p < 0.015:
		return "cancelled", nil
	case p < 0.02:
		d := int64(60 + r.IntN(240))
		return "diverted", &d
	case p < 0.55:
		d := int64(0)
		return "landed", &d
	case p < 0.97:
		d := int64(r.ExpFloat64() * 25)
		return "landed", &d
	}
	d := int64(120 + r.ExpFloat64()*150)
	return "landed", &d
}

// codeshareCount draws how many other airlines market a flight (0–3,
// about 0.9 on average).
func codeshareCount(r *rand.Rand) int {
	p := r.Float64()
	switch {
	case p < 0.4:
		return 0
	case p < 0.75:
		return 1
	case p < 0.95:
		return 2
	}
	return 3
}

var airportKinds = []string{"International", "Regional", "Municipal", "Airport", "Airfield", "International", "Airport"}

var syllables = []string{"ka", "ro", "va", "tse", "lin", "mar", "do", "bel", "qu", "an", "sor", "vi", "ne", "tor", "ga", "hu", "ri", "pal", "os", "ken"}

// cityName makes a pronounceable place name of two or three syllables.
func cityName(r *rand.Rand) string {
	n := 2 + r.IntN(2)
	b := make([]byte, 0, 12)
	for range n {
		b = append(b, syllables[r.IntN(len(syllables))]...)
	}
	b[0] -= 'a' - 'A'
	return string(b)
}

// uniqueCodes draws n distinct upper-case codes of the given length.
func uniqueCodes(r *rand.Rand, n, length int) []string {
	seen := map[string]bool{}
	out := make([]string, 0, n)
	for len(out) < n {
		b := make([]byte, length)
		for i := range b {
			b[i] = byte('A' + r.IntN(26))
		}
		if c := string(b); !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

func zipfWeights(n int) []float64 {
	w := make([]float64, n)
	var sum float64
	for i := range w {
		w[i] = 1 / math.Pow(float64(i+1), zipf)
		sum += w[i]
	}
	for i := range w {
		w[i] /= sum
	}
	return w
}

// picker draws indexes by weight (inverse of the cumulative weights).
type picker struct{ cum []float64 }

func newPicker(w []float64) picker {
	cum := make([]float64, len(w))
	var s float64
	for i, x := range w {
		s += x
		cum[i] = s
	}
	return picker{cum}
}

func (p picker) pick(r *rand.Rand) int {
	x := r.Float64() * p.cum[len(p.cum)-1]
	i, _ := slices.BinarySearch(p.cum, x)
	return min(i, len(p.cum)-1)
}

// haversine is the great-circle distance in km on Neo4j's WGS-84 sphere
// (radius 6,378,140 m, as point.distance uses).
func haversine(a, b Airport) float64 {
	const rad = math.Pi / 180
	const earthKm = 6378.14
	dlat, dlon := (b.Lat-a.Lat)*rad, (b.Lon-a.Lon)*rad
	h := math.Sin(dlat/2)*math.Sin(dlat/2) + math.Cos(a.Lat*rad)*math.Cos(b.Lat*rad)*math.Sin(dlon/2)*math.Sin(dlon/2)
	return 2 * earthKm * math.Asin(math.Sqrt(h))
}

func round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}

func clampF(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }

func wrapLon(x float64) float64 {
	for x > 180 {
		x -= 360
	}
	for x < -180 {
		x += 360
	}
	return x
}
