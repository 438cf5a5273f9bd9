// Package scene reads, checks and writes Orogen scenes: JSON documents that
// say what to simulate (grid, parameters, uplift, initial heights), and the
// presets embedded in package assets.
//
// Units: lengths in metres, time in years, uplift in m/yr, k in 1/yr, κ in
// m²/yr, angles in degrees. domain_m is the extent of the longer side of the
// grid; the cell size is domain_m / max(width, height). Files a scene names
// (uplift and initial heights) are relative to the scene file's directory,
// or to the presets directory for embedded scenes.
//
// Schema (version 1; every field but version may be left out and takes the
// default of Cordonnier et al. 2016 §6 shown here):
//
//	{
//	  "version": 1,
//	  "name": "default", "description": "...",
//	  "width": 512, "height": 512, "domain_m": 50000,
//	  "engine": "grid", "seed": 1,
//	  "steps": 200, "until_converged": false, "tolerance_m_per_yr": 1e-6,
//	  "uplift": {"image": "default-uplift.png", "umax_m_per_yr": 5e-4},
//	    (or "uplift": {"tree": {...an Uplift Tree...}, "layers": {"name": "painted.png"}, "umax_m_per_yr": 5e-4})
//	  "init": {"image": "start.tif"},
//	  "params": {
//	    "k": 5.61e-7, "m": 0.5, "n": 1, "dt_yr": 2.5e5,
//	    "diffusion_m2_per_yr": 0,
//	    "talus": {"mode": "constant", "angle_deg": 30},
//	    "edges": {"north": "outlet", "south": "outlet", "east": "outlet", "west": "outlet"},
//	    "natural_distance_m": 0,
//	    "init_noise_m": 1
//	  }
//	}
//
// Talus modes: "off"; "constant" {angle_deg}; "height" {low_deg, high_deg,
// height_m, blend_m}; "noise" {min_deg, max_deg, wavelength_m, octaves}.
// Edges: "outlet", "closed" or "natural"; at least one must not be closed.
package scene
