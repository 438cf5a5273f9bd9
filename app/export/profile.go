package export

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"orogen/app/jsondoc"
	"orogen/sim/amplify"
)

// Profile is a project's export profile: the outputs `orogen build` and
// the app's File → Build write, in order.
type Profile struct {
	Outputs []Output `json:"outputs"`
	// HydroSteps, when > 0, finishes each amplified terrain (an output
	// larger than the grid) with that many steps of the hydraulic pass
	// (sim/amplify's Options.HydroSteps, at most amplify.MaxHydroSteps).
	HydroSteps int `json:"hydro_steps,omitempty"`
	// Device is where that pass runs: "cpu" (also when empty), "gpu" or
	// "auto" (app/compute); `orogen build --device` and the app's
	// Settings override it.
	Device string `json:"device,omitempty"`
}

// Devices are the values of Profile.Device.
var Devices = []string{"cpu", "gpu", "auto"}

// Output is one entry of a profile. Path is relative to the build's
// output folder, without or with the extension of Format; "{project}"
// in it is replaced by the project's name. Size is pixels per side (0:
// the grid's, for generic; an engine target needs one of its sizes).
// Tiles is "RxC" or "". Rules are a splat map's (nil: DefaultRules).
type Output struct {
	Kind   string `json:"kind"`
	Mask   string `json:"mask,omitempty"`
	Format string `json:"format"`
	Target string `json:"target,omitempty"`
	Size   int    `json:"size,omitempty"`
	Tiles  string `json:"tiles,omitempty"`
	Path   string `json:"path"`
	VRT    bool   `json:"vrt,omitempty"`
	Rules  *Rules `json:"rules,omitempty"`
}

// Kinds are the output kinds, in the order the dialog lists them.
var Kinds = []string{"heightmap", "mask", "splat", "flow", "preview", "mesh"}

// kindFormats are the formats each kind may have.
var kindFormats = map[string][]string{
	"heightmap": {"tif", "png", "r16", "raw"},
	"mask":      {"png", "tif", "r16", "raw"},
	"splat":     {"png"},
	"flow":      {"png"},
	"preview":   {"png"},
	"mesh":      {"obj"},
}

// KindFormats returns the formats (extensions without the dot) a kind may
// have, the preferred first.
func KindFormats(kind string) []string { return kindFormats[kind] }

// MaskNames are the masks a profile may ask for (InputNames but the
// height, which is a heightmap).
var MaskNames = []string{"slope", "curvature", "flow", "water", "sediment", "rock", "height_frac"}

// ParseProfile reads a profile strictly and validates it.
func ParseProfile(b []byte) (*Profile, error) {
	var p Profile
	if err := jsondoc.Strict(b, &p); err != nil {
		return nil, fmt.Errorf("export profile: %w", err)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &p, nil
}

// Clone returns a deep copy of p.
func (p *Profile) Clone() *Profile {
	if p == nil {
		return nil
	}
	c := &Profile{Outputs: slices.Clone(p.Outputs), HydroSteps: p.HydroSteps, Device: p.Device}
	for i, o := range c.Outputs {
		if o.Rules != nil {
			r := &Rules{Layers: slices.Clone(o.Rules.Layers)}
			for j := range r.Layers {
				r.Layers[j].Ramps = slices.Clone(r.Layers[j].Ramps)
			}
			c.Outputs[i].Rules = r
		}
	}
	return c
}

// Validate returns an error naming the first output (by number and path)
// with a problem: an unknown kind, format, mask or target; a format the
// kind or target does not take; a size or tiling the target refuses; a
// path that is empty, absolute, climbs out of the output folder with
// "..", or is used twice; rules that do not validate; hydro_steps or
// device out of range.
func (p *Profile) Validate() error {
	if len(p.Outputs) == 0 {
		return fmt.Errorf("export profile: no outputs: add at least one")
	}
	if p.HydroSteps < 0 || p.HydroSteps > amplify.MaxHydroSteps {
		return fmt.Errorf("export profile: \"hydro_steps\" %d: give 0 (no hydraulic pass) to %d", p.HydroSteps, amplify.MaxHydroSteps)
	}
	if p.Device != "" && !slices.Contains(Devices, p.Device) {
		return fmt.Errorf("export profile: \"device\" %q: use %s", p.Device, strings.Join(Devices, ", "))
	}
	seen := map[string]int{}
	for i, o := range p.Outputs {
		if err := o.validate(); err != nil {
			return fmt.Errorf("export profile: output %d (%s): %w", i+1, o.Path, err)
		}
		f := filepath.Clean(filepath.FromSlash(o.FileName("{project}")))
		if j, ok := seen[f]; ok {
			return fmt.Errorf("export profile: outputs %d and %d both write %s", j+1, i+1, f)
		}
		seen[f] = i
	}
	return nil
}

// FileName returns the output's path relative to the output folder, with
// "{project}" replaced by project and the format's extension.
func (o *Output) FileName(project string) string {
	p := strings.ReplaceAll(o.Path, "{project}", project)
	ext := "." + strings.ToLower(o.Format)
	if !strings.EqualFold(filepath.Ext(p), ext) {
		p += ext
	}
	return p
}

func (o *Output) validate() error {
	formats, ok := kindFormats[o.Kind]
	if !ok {
		return fmt.Errorf("unknown kind %q: want one of %s", o.Kind, strings.Join(Kinds, ", "))
	}
	if !slices.Contains(formats, strings.ToLower(o.Format)) {
		return fmt.Errorf("a %s is written as %s, not %q", o.Kind, strings.Join(formats, " or "), o.Format)
	}
	p := filepath.ToSlash(o.Path)
	switch {
	case strings.TrimSpace(p) == "":
		return fmt.Errorf("no path: give a file name such as %q", o.Kind)
	case filepath.IsAbs(o.Path) || strings.HasPrefix(p, "/") || (len(p) > 1 && p[1] == ':'):
		return fmt.Errorf("path %q is absolute: give it relative to the output folder", o.Path)
	case slices.Contains(strings.Split(p, "/"), ".."):
		return fmt.Errorf("path %q leaves the output folder (..)", o.Path)
	case strings.ContainsAny(p, "\x00<>|?*\""):
		return fmt.Errorf("path %q holds a character file systems refuse", o.Path)
	case strings.HasSuffix(p, "/") || path.Base(p) == "." || strings.HasPrefix(path.Base(p), "."):
		// "." or "sub/" would write ".png" or "sub/.png": a hidden file.
		return fmt.Errorf("path %q names no file (or a hidden one): end it with a file name such as %q", o.Path, strings.TrimSuffix(p, "/")+"/"+o.Kind)
	}
	if o.Kind == "mask" {
		if !slices.Contains(MaskNames, o.Mask) {
			return fmt.Errorf("mask %q: want one of %s", o.Mask, strings.Join(MaskNames, ", "))
		}
	} else if o.Mask != "" {
		return fmt.Errorf("\"mask\" applies to kind mask only")
	}
	if o.Rules != nil {
		if o.Kind != "splat" {
			return fmt.Errorf("\"rules\" apply to kind splat only")
		}
		if err := o.Rules.Validate(); err != nil {
			return err
		}
	}
	if o.Size < 0 || o.Size > MaxExportSide {
		return fmt.Errorf("size %d: want 0 (the grid's) to %d", o.Size, MaxExportSide)
	}
	if o.Kind == "preview" || o.Kind == "mesh" {
		if o.Target != "" && o.Target != "generic" {
			return fmt.Errorf("a %s has no engine target", o.Kind)
		}
		if o.Tiles != "" {
			return fmt.Errorf("a %s is not tiled", o.Kind)
		}
		if o.VRT {
			return fmt.Errorf("\"vrt\" applies to .r16 and .raw files only")
		}
		return nil
	}
	if o.VRT && o.Format != "r16" && o.Format != "raw" {
		return fmt.Errorf("\"vrt\" applies to .r16 and .raw files only")
	}
	return o.checkPlan()
}

// Plan returns the export plan of the output (not preview or mesh) to
// the file path for a srcW×srcH grid; the folder must exist.
func (o *Output) Plan(path string, srcW, srcH int) (*Plan, error) {
	spec, err := o.spec()
	if err != nil {
		return nil, err
	}
	return spec.check(path, srcW, srcH, true)
}

// checkPlan checks what of the plan does not depend on the grid or the
// folder.
func (o *Output) checkPlan() error {
	spec, err := o.spec()
	if err != nil {
		return err
	}
	// A stand-in grid that any tiling splits (size 0 takes the grid's,
	// which Build checks again once it is known).
	n := spec.Rows*spec.Cols + 1
	_, err = spec.check("x."+strings.ToLower(o.Format), n, n, false)
	return err
}

// spec returns the export spec of the output.
func (o *Output) spec() (Spec, error) {
	t, err := LookupTarget(o.Target)
	if err != nil {
		return Spec{}, err
	}
	rows, cols, err := ParseTiles(o.Tiles)
	if err != nil {
		return Spec{}, err
	}
	spec := Spec{Target: t, W: o.Size, Rows: rows, Cols: cols, VRT: o.VRT, Kind: o.Kind, Heightmap: o.Kind == "heightmap"}
	if o.Kind == "mask" {
		spec.Kind = "mask:" + o.Mask
	}
	return spec, nil
}

// Presets are ready-made profiles by target name (see Preset).
var Presets = []string{"unreal", "unity", "godot", "generic"}

// Preset returns the ready-made profile of a target for a grid of the
// given longer side: the heightmap at the target's size nearest the grid
// (generic: the grid's), slope, flow, water and curvature masks, the
// default splat map, a flow map and a preview; generic adds a float
// GeoTIFF and a mesh.
func Preset(target string, grid int) (*Profile, error) {
	t, err := LookupTarget(target)
	if err != nil {
		return nil, err
	}
	size := 0
	if t.Sizes != nil {
		size = t.Sizes[0]
		for _, s := range t.Sizes {
			if abs(s-grid) < abs(size-grid) {
				size = s
			}
		}
	}
	hf, mf := t.Formats[0], t.Formats[0]
	if t.Name == "generic" {
		hf, mf = ".tif", ".png"
	}
	if t.Name == "unity" || t.Name == "godot" {
		mf = ".png" // layer masks are images in both
	}
	name := t.Name
	if name == "generic" {
		name = ""
	}
	out := func(kind, mask, format, path string) Output {
		o := Output{Kind: kind, Mask: mask, Format: strings.TrimPrefix(format, "."), Target: name, Size: size, Path: path}
		if kind == "mask" || kind == "splat" || kind == "flow" {
			o.Target = "" // generic at the same size: engines read them as textures
		}
		return o
	}
	p := &Profile{Outputs: []Output{
		out("heightmap", "", hf, "{project}_height"),
		out("mask", "slope", mf, "{project}_slope"),
		out("mask", "flow", mf, "{project}_flow"),
		out("mask", "water", mf, "{project}_water"),
		out("mask", "curvature", mf, "{project}_curvature"),
		out("splat", "", ".png", "{project}_splat"),
		out("flow", "", ".png", "{project}_flowmap"),
		{Kind: "preview", Format: "png", Path: "{project}_preview"},
	}}
	if t.Name == "generic" {
		p.Outputs = append(p.Outputs, Output{Kind: "mesh", Format: "obj", Path: "{project}_mesh"})
	}
	return p, p.Validate()
}

func abs(v int) int { return max(v, -v) }
