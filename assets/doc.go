// Package assets holds the files that ship inside the orogen binary: the
// preset scenes and their uplift maps. It imports only the standard library.
//
// # Presets
//
// Presets is rooted at the module's assets directory, so every preset lives
// under "presets/": a scene NAME.json (the schema is described in package
// orogen/app/scene) and the uplift map it names, NAME-uplift.png. Scenes
// refer to their files relative to the presets directory.
//
//   - default: two mountain ridges crossing near the centre over a low plain
//     (5% of umax), so rivers drain to all four borders.
//   - cone: a single cone, u = max(0, 1 - r/0.45) with r the distance to the
//     centre in units of the map side.
//   - gradient: a broad range whose uplift decreases slowly and linearly from
//     an east-west crest toward the borders (Cordonnier et al. 2016, §6.4,
//     Fig. 13, "a slowly decreasing gradient").
//   - steps: the gradient shape quantized into 5 constant levels (Cordonnier
//     et al. 2016, §6.4, Fig. 13, "a set of steps of constant values").
//
// # Uplift maps
//
// An uplift map is a 16-bit grayscale PNG of 512×512 pixels. A pixel value v
// means an uplift of v/65535 times the scene's umax_m_per_yr (m/yr); row 0 is
// the north edge and x grows east. The maps are generated, not drawn: the
// analytic shapes are in assets/internal/shapes, sampled at pixel centres,
// and the generator assets/internal/genpresets writes them (go generate
// ./assets). A test renders every shape again and fails if a committed map
// differs from it by a single pixel value.
package assets

//go:generate go run ./internal/genpresets
