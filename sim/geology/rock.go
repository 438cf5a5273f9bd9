package geology

import "image/color"

// Rock is a kind of stratum with the coefficients of Roudier et al. 1993
// §3.2, each in [0, 1]: softness Kd (gravity creep and mechanical
// erosion), permeability Kf (the share of rain that infiltrates) and
// dissolution Ke (chemical weathering by infiltrated water).
type Rock struct {
	Name       string
	Kd, Kf, Ke float64
	Color      color.RGBA
}

// The rocks of Roudier et al. 1993, Table 1. Alluvium, what running water
// deposits, has the coefficients of river sand (ibid.).
var (
	Clay      = Rock{Name: "Clay", Kd: 0.90, Kf: 0.10, Ke: 0.30, Color: color.RGBA{0xb0, 0x7a, 0x5a, 0xff}}
	Quartzite = Rock{Name: "Quartzite", Kd: 0.10, Kf: 0.30, Ke: 0.30, Color: color.RGBA{0xd8, 0xd0, 0xc0, 0xff}}
	Limestone = Rock{Name: "Limestone", Kd: 0.30, Kf: 0.50, Ke: 0.95, Color: color.RGBA{0xe6, 0xe0, 0xb8, 0xff}}
	RiverSand = Rock{Name: "River sand", Kd: 0.80, Kf: 0.50, Ke: 0.30, Color: color.RGBA{0xd9, 0xb8, 0x78, 0xff}}
	Granite   = Rock{Name: "Granite", Kd: 0.50, Kf: 0.75, Ke: 0.30, Color: color.RGBA{0x9a, 0x8a, 0x88, 0xff}}
	Alluvium  = Rock{Name: "Alluvium", Kd: RiverSand.Kd, Kf: RiverSand.Kf, Ke: RiverSand.Ke, Color: color.RGBA{0xc8, 0xb0, 0x80, 0xff}}
)

// Presets are the rocks a user can pick by name, in the order the app
// lists them.
func Presets() []Rock { return []Rock{Clay, Quartzite, Limestone, RiverSand, Granite} }

// Lithology answers which rock lies at a point: x and y in metres on the
// map (the grid's cell centres are at (i+0.5)·cell), z in metres. Engines
// call it for every cell every step, so it must be safe for concurrent
// use and cheap.
type Lithology interface {
	RockAt(x, y, z float64) Rock
}
