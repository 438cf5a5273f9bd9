package export

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"orogen/app/rasterio"
)

// Target is a game engine (or none: generic) that an export is made for:
// the sizes it accepts, the formats it reads, and how its import settings
// map the 16-bit values back to the terrain's metres.
type Target struct {
	Name string
	// Sizes are the square sizes (pixels per side) the engine accepts,
	// ascending; nil accepts any size (generic).
	Sizes []int
	// Formats are the extensions it reads, the preferred one first.
	Formats []string
	// Why says why these formats and sizes.
	Why string
	// SouthUp writes heightmaps' rows from the south edge north: Unity's
	// RAW import puts the file's first row at the terrain's z = 0 (a
	// north-up raw file comes in mirrored north-south).
	SouthUp bool
	// scales returns the engine's import settings for a heightmap whose
	// 16-bit range maps [lo, hi] metres, with cells cx × cy metres.
	scales func(lo, hi, cx, cy float64) rasterio.EngineMeta
}

// UnrealLayout is one of Unreal Engine's recommended landscape sizes
// (Unreal Engine documentation, "Landscape Technical Guide", table of
// recommended landscape sizes): Size = Components·Sections·Quads + 1.
type UnrealLayout struct {
	Size                 int
	QuadsPerSection      int
	SectionsPerComponent int // per side: 1 (1×1) or 2 (2×2)
	Components           int // per side
}

// UnrealLayouts are the sizes the Unreal target accepts, with the section
// and component counts to type in the landscape import dialog.
var UnrealLayouts = []UnrealLayout{
	{127, 63, 2, 1},
	{253, 63, 2, 2},
	{505, 63, 2, 4},
	{1009, 63, 2, 8},
	{2017, 63, 2, 16},
	{4033, 63, 2, 32},
	{8129, 127, 2, 32},
}

// Targets are the export targets by name.
var Targets = map[string]*Target{
	"unreal": {
		Name:    "unreal",
		Sizes:   layoutSizes(),
		Formats: []string{".png", ".r16"},
		Why: "Unreal imports 16-bit grayscale PNG or R16 heightmaps at its landscape sizes; " +
			"a value 32768 is the actor's Z, and Z scale 100 spans -256..256 m",
		scales: func(lo, hi, cx, cy float64) rasterio.EngineMeta {
			// Unreal: Z(cm) = LocationZ + (q-32768)·ScaleZ/128. q = 0 is
			// lo and q = 65535 is hi, so ScaleZ = 100·(hi-lo)·128/65535
			// and LocationZ = 100·lo + 32768·ScaleZ/128.
			sz := 100 * (hi - lo) * 128 / 65535
			return rasterio.EngineMeta{ScaleX: 100 * cx, ScaleY: 100 * cy, ScaleZ: sz,
				OffsetZ: 100*lo + 32768*sz/128, Units: "cm",
				Note: "Landscape import: Scale X, Y, Z = scale_x, scale_y, scale_z; Location Z = offset_z"}
		},
	},
	"unity": {
		Name:    "unity",
		Sizes:   powerSizes(33, 4097),
		Formats: []string{".raw", ".r16"},
		SouthUp: true,
		Why: "Unity's terrain imports RAW 16-bit (byte order Windows: little-endian) heightmaps of 2ⁿ+1 pixels, " +
			"the first row at z = 0 (south); 0..65535 spans 0 to the terrain height",
		scales: func(lo, hi, cx, cy float64) rasterio.EngineMeta {
			return rasterio.EngineMeta{ScaleX: cx, ScaleY: cy, ScaleZ: hi - lo, OffsetZ: lo, Units: "m",
				Note: "Import Raw: Depth 16 bit, Byte Order Windows; Terrain Width = scale_x·(size-1), " +
					"Length = scale_y·(size-1), Height = scale_z; the terrain's position Y = offset_z. Rows run south to north (Flip Vertically off); tile names count rows from the north"}
		},
	},
	"godot": {
		Name:    "godot",
		Sizes:   powerSizes(33, 4097),
		Formats: []string{".r16"},
		Why: "Godot's Image loader reads a 16-bit PNG as 8 bits and has no TIFF reader, so the terrain plugins " +
			"(Terrain3D, HTerrain) import 16-bit heights as R16 with a height range; 2ⁿ+1 sizes suit HTerrain, which needs them, and Terrain3D, which takes any",
		scales: func(lo, hi, cx, cy float64) rasterio.EngineMeta {
			return rasterio.EngineMeta{ScaleX: cx, ScaleY: cy, ScaleZ: hi - lo, OffsetZ: lo, Units: "m",
				Note: "R16 import: height range offset_z to offset_z + scale_z metres (Terrain3D: r16 range; HTerrain: min and max height); vertex spacing scale_x"}
		},
	},
	"generic": {
		Name:    "generic",
		Formats: []string{".tif", ".png", ".r16", ".raw"},
		Why:     "any size, any of Orogen's raster formats",
		scales: func(lo, hi, cx, cy float64) rasterio.EngineMeta {
			return rasterio.EngineMeta{ScaleX: cx, ScaleY: cy, ScaleZ: hi - lo, OffsetZ: lo, Units: "m",
				Note: "16-bit q stands for offset_z + q/65535·scale_z metres; float TIFFs hold metres"}
		},
	},
}

// TargetNames lists the targets, for help texts and errors.
var TargetNames = []string{"unreal", "unity", "godot", "generic"}

func layoutSizes() []int {
	var s []int
	for _, l := range UnrealLayouts {
		s = append(s, l.Size)
	}
	return s
}

// powerSizes returns the sizes 2ⁿ+1 from lo to hi.
func powerSizes(lo, hi int) []int {
	var s []int
	for n := 2; n+1 <= hi; n *= 2 {
		if n+1 >= lo {
			s = append(s, n+1)
		}
	}
	return s
}

// LookupTarget returns the named target ("" is generic).
func LookupTarget(name string) (*Target, error) {
	if name == "" {
		name = "generic"
	}
	t, ok := Targets[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("export: unknown target %q: want one of %s", name, strings.Join(TargetNames, ", "))
	}
	return t, nil
}

// CheckSize reports whether the target accepts an n-pixel side.
func (t *Target) CheckSize(n int) error {
	if t.Sizes == nil {
		if n < 2 || n > MaxExportSide {
			return fmt.Errorf("export: size %d: want 2 to %d pixels per side", n, MaxExportSide)
		}
		return nil
	}
	if !slices.Contains(t.Sizes, n) {
		return fmt.Errorf("export: %s does not take a size of %d: want one of %s", t.Name, n, joinInts(t.Sizes))
	}
	return nil
}

// SizeFor returns the smallest side the target takes that is not below
// n pixels (its largest when n is beyond them all), or 0 when the target
// takes any size.
func (t *Target) SizeFor(n int) int {
	if t.Sizes == nil {
		return 0
	}
	for _, s := range t.Sizes {
		if s >= n {
			return s
		}
	}
	return t.Sizes[len(t.Sizes)-1]
}

// CheckFormat reports whether the target reads files with extension ext.
func (t *Target) CheckFormat(ext string) error {
	if !slices.Contains(t.Formats, strings.ToLower(ext)) {
		return fmt.Errorf("export: %s does not read %q files: want %s", t.Name, ext, strings.Join(t.Formats, " or "))
	}
	return nil
}

// Scales returns the engine's import settings for a heightmap whose 16-bit
// range is [lo, hi] metres, with exported cells cx × cy metres.
func (t *Target) Scales(lo, hi, cx, cy float64) *rasterio.EngineMeta {
	m := t.scales(lo, hi, cx, cy)
	m.Target = t.Name
	return &m
}

// Layout returns Unreal's sections and components for size n, if n is one
// of its sizes.
func Layout(n int) (UnrealLayout, bool) {
	for _, l := range UnrealLayouts {
		if l.Size == n {
			return l, true
		}
	}
	return UnrealLayout{}, false
}

// Describe returns the import settings of m in one line, for a terminal
// or the app's log.
func Describe(m *rasterio.EngineMeta, size int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: scale X %.6g, Y %.6g, Z %.6g %s, offset Z %.6g %s", m.Target, m.ScaleX, m.ScaleY, m.ScaleZ, m.Units, m.OffsetZ, m.Units)
	if l, ok := Layout(size); ok && m.Target == "unreal" {
		fmt.Fprintf(&b, "; %d quads/section, %d×%d sections/component, %d×%d components",
			l.QuadsPerSection, l.SectionsPerComponent, l.SectionsPerComponent, l.Components, l.Components)
	}
	return b.String()
}

// MaxExportSide is the largest exported side, in pixels.
const MaxExportSide = rasterio.MaxSide

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}
