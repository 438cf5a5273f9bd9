package assets

import "embed"

// Presets holds the preset scenes and their uplift maps under "presets/".
//
//go:embed presets
var Presets embed.FS

// PresetDir is the directory of Presets that holds the presets.
const PresetDir = "presets"
