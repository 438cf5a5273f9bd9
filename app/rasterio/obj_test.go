package rasterio

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestWriteOBJ(t *testing.T) {
	const w, h, cell = 6, 4, 2.5
	f := testField(w, h, 4)
	f.Cell = cell
	dir := t.TempDir()
	path := filepath.Join(dir, "m.obj")
	if err := Write(path, f); err != nil {
		t.Fatal(err)
	}
	if got := dirNames(t, dir); len(got) != 1 {
		t.Errorf("directory holds %q; want only m.obj (no sidecar)", got)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("# orogen heightmap mesh: 6x4 vertices, cell size 2.5 m")) {
		t.Errorf("header: got %q", b[:min(len(b), 80)])
	}
	var v, vt [][3]float64
	var faces [][3]int
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || fs[0] == "#" {
			continue
		}
		switch fs[0] {
		case "v", "vt":
			var p [3]float64
			for i, s := range fs[1:] {
				x, err := strconv.ParseFloat(s, 64)
				if err != nil {
					t.Fatalf("line %q: %v", sc.Text(), err)
				}
				p[i] = x
			}
			if fs[0] == "v" {
				v = append(v, p)
			} else {
				vt = append(vt, p)
			}
		case "f":
			var fc [3]int
			for i, s := range fs[1:] {
				a, b, ok := strings.Cut(s, "/")
				if !ok || a != b {
					t.Fatalf("face %q: want a/a", sc.Text())
				}
				fc[i], _ = strconv.Atoi(a)
			}
			faces = append(faces, fc)
		default:
			t.Fatalf("unexpected line %q", sc.Text())
		}
	}
	if len(v) != w*h || len(vt) != w*h || len(faces) != 2*(w-1)*(h-1) {
		t.Fatalf("got %d v, %d vt, %d f; want %d, %d, %d", len(v), len(vt), len(faces), w*h, w*h, 2*(w-1)*(h-1))
	}
	for _, c := range [][2]int{{0, 0}, {5, 0}, {2, 3}, {5, 3}} {
		x, y := c[0], c[1]
		p := v[y*w+x]
		// Coordinates are printed as the shortest decimal that reads back
		// as the same float32, so they compare exactly at float32.
		if float32(p[0]) != float32(float64(x)*cell) || float32(p[1]) != f.At(x, y) || float32(p[2]) != float32(float64(y)*cell) {
			t.Errorf("vertex (%d, %d): got %v; want (%v, %v, %v)", x, y, p, float64(x)*cell, f.At(x, y), float64(y)*cell)
		}
		uv := vt[y*w+x]
		if float32(uv[0]) != float32(float64(x)/(w-1)) || float32(uv[1]) != float32(1-float64(y)/(h-1)) {
			t.Errorf("vt (%d, %d): got %v", x, y, uv)
		}
	}
	for i, fc := range faces {
		for _, k := range fc {
			if k < 1 || k > len(v) {
				t.Fatalf("face %d: index %d outside 1..%d", i, k, len(v))
			}
		}
		a, b, c := v[fc[0]-1], v[fc[1]-1], v[fc[2]-1]
		u := [3]float64{b[0] - a[0], b[1] - a[1], b[2] - a[2]}
		s := [3]float64{c[0] - a[0], c[1] - a[1], c[2] - a[2]}
		// The y component of (b-a)×(c-a) involves only x and z, which lie
		// on the grid, so for a counter-clockwise triangle seen from +y it
		// is cell² whatever the heights.
		if ny := u[2]*s[0] - u[0]*s[2]; ny != cell*cell {
			t.Errorf("face %d %v: normal y = %g; want %g", i, fc, ny, cell*cell)
		}
	}
}

func TestWriteOBJThin(t *testing.T) {
	// A single row has vertices but no faces; vt stays finite.
	f := testField(5, 1, 2)
	path := filepath.Join(t.TempDir(), "row.OBJ")
	if err := Write(path, f); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if n := bytes.Count(b, []byte("\nv ")); n != 5 {
		t.Errorf("got %d vertices; want 5", n)
	}
	if bytes.Contains(b, []byte("\nf ")) || bytes.Contains(b, []byte("NaN")) {
		t.Errorf("got faces or NaN in %q", b)
	}
}
