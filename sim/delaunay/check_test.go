package delaunay

import (
	"fmt"
)

// nextHalfedge returns the next halfedge around the same triangle.
func nextHalfedge(e int) int {
	if e%3 == 2 {
		return e - 2
	}
	return e + 1
}

// validate checks every structural invariant of t and returns the first
// violation, or nil. It does not check the Delaunay property.
func validate(t *Triangulation) error {
	n := len(t.Points)
	tri, half := t.Triangles, t.Halfedges
	if len(tri)%3 != 0 || len(half) != len(tri) {
		return fmt.Errorf("len(Triangles) = %d, len(Halfedges) = %d; want equal multiples of 3", len(tri), len(half))
	}
	used := make([]bool, n)
	for _, v := range tri {
		if v < 0 || v >= n {
			return fmt.Errorf("vertex index %d out of range [0, %d)", v, n)
		}
		used[v] = true
	}
	for i, u := range used {
		if !u {
			return fmt.Errorf("point %d in no triangle", i)
		}
	}
	hullEdges := 0
	for e := range half {
		o := half[e]
		if o == -1 {
			hullEdges++
			continue
		}
		if o < 0 || o >= len(half) || half[o] != e {
			return fmt.Errorf("Halfedges[Halfedges[%d]] = %v; want %d", e, o, e)
		}
		if tri[e] != tri[nextHalfedge(o)] || tri[o] != tri[nextHalfedge(e)] {
			return fmt.Errorf("halfedges %d and %d do not share reversed endpoints", e, o)
		}
	}
	for k := 0; k < len(tri); k += 3 {
		a, b, c := t.Points[tri[k]], t.Points[tri[k+1]], t.Points[tri[k+2]]
		if orient(a, b, c) <= 0 {
			return fmt.Errorf("triangle %d (%d %d %d) not counter-clockwise", k/3, tri[k], tri[k+1], tri[k+2])
		}
	}
	h := len(t.Hull)
	if hullEdges != h {
		return fmt.Errorf("got %d hull halfedges; want %d (hull size)", hullEdges, h)
	}
	if len(t.ConvexHull) != h {
		return fmt.Errorf("len(ConvexHull) = %d; want %d", len(t.ConvexHull), h)
	}
	for k, i := range t.Hull {
		j, l := t.Hull[(k+1)%h], t.Hull[(k+2)%h]
		if t.ConvexHull[k] != t.Points[i] {
			return fmt.Errorf("ConvexHull[%d] = %v; want Points[%d] = %v", k, t.ConvexHull[k], i, t.Points[i])
		}
		if orient(t.Points[i], t.Points[j], t.Points[l]) < 0 {
			return fmt.Errorf("hull turns clockwise at %d", j)
		}
	}
	// Euler: with n points and h on the hull, 2n-2-h triangles, 3n-3-h edges.
	nt := len(tri) / 3
	if want := 2*n - 2 - h; nt != want {
		return fmt.Errorf("got %d triangles; want 2n-2-h = %d (n=%d, h=%d)", nt, want, n, h)
	}
	edges := (len(half) + hullEdges) / 2
	if want := 3*n - 3 - h; edges != want {
		return fmt.Errorf("got %d edges; want 3n-3-h = %d", edges, want)
	}
	return nil
}

// checkDelaunay reports the first point strictly inside a triangle's
// circumcircle. It tests each triangle against the far vertex of each
// neighbour (local Delaunay, which implies global Delaunay for a valid
// triangulation) and, when all is true, against every point.
func checkDelaunay(t *Triangulation, all bool) error {
	tri := t.Triangles
	for e, o := range t.Halfedges {
		if o == -1 {
			continue
		}
		k := e - e%3
		far := tri[nextHalfedge(nextHalfedge(o))]
		if inCircle(t.Points[tri[k]], t.Points[tri[k+1]], t.Points[tri[k+2]], t.Points[far]) > 0 {
			return fmt.Errorf("point %d inside circumcircle of triangle %d", far, k/3)
		}
	}
	if !all {
		return nil
	}
	for k := 0; k < len(tri); k += 3 {
		for i, p := range t.Points {
			if inCircle(t.Points[tri[k]], t.Points[tri[k+1]], t.Points[tri[k+2]], p) > 0 {
				return fmt.Errorf("point %d inside circumcircle of triangle %d", i, k/3)
			}
		}
	}
	return nil
}
