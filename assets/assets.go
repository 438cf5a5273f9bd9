package assets

import "embed"

// Presets holds the preset scenes and their uplift maps under "presets/".
//
//go:embed presets
var Presets embed.FS

// PresetDir is the directory of Presets that holds the presets.
const PresetDir = "presets"

// SymbolFont is DejaVu Sans cut to the glyphs beyond Latin-1 that the
// app's labels use (→, θ, ≥, ł, ...): the app merges it into Dear ImGui's
// own font, which stops at Latin-1. Its licence is fonts/LICENSE.
//
//go:embed fonts/DejaVuSans-subset.ttf
var SymbolFont []byte
