package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"orogen/app/build"
	"orogen/app/compute"
	"orogen/app/export"
	"orogen/app/project"
	"orogen/app/scene"
)

func newBuildCmd(stderr io.Writer) *cobra.Command {
	var outDir, preset string
	var quiet bool
	var device compute.Device
	cmd := &cobra.Command{
		Use:   "build PROJECT.orogen.json",
		Short: "Simulate a project and write every output of its export profile",
		Long: `Load a project, run its simulation headless (to convergence when the scene
says until_converged, else its step count), and write every output of its
export profile (heightmaps, masks, splat and flow maps, previews, meshes, at
game-engine sizes and in tiles) into the output folder, with a JSON build
report (` + build.ReportName + `) listing every file with its SHA-256. The
same project builds to the same bytes on any machine and number of cores.

--preset unreal|unity|godot|generic builds a ready-made profile instead of
the project's: the heightmap at the target's size nearest the grid, slope,
flow, water and curvature masks, the default splat map, a flow map and a
preview.

A profile's "hydro_steps" finish each amplified output (one larger than the
grid) with that many steps of the hydraulic pass; its "device" (cpu when it
names none) or --device says where that pass runs: cpu, gpu or auto (a
hardware GPU if there is one, else the CPU). The report names the device
per output; without a usable GPU the pass runs on the CPU and says why.

Everything is checked before the simulation starts; a failure leaves no
partial file under a final name.`,
		Example: `  orogen build alps.orogen.json --out-dir build/
  orogen build alps.orogen.json --preset unreal
  orogen build alps.orogen.json --device auto`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			p, err := project.Load(path)
			if err != nil {
				if _, serr := scene.Load(path); serr == nil {
					return fmt.Errorf("%s: this is a scene, not a project: use orogen run --scene %s (the app saves projects: File → Save)", path, path)
				}
				return err
			}
			if preset != "" {
				if p.Export, err = export.Preset(preset, max(p.Scene.Width, p.Scene.Height)); err != nil {
					return fmt.Errorf("--preset: %w", err)
				}
			}
			name := build.Name(path)
			if outDir == "" {
				outDir = filepath.Join(filepath.Dir(path), name+"-build")
			}
			o := build.Options{OutDir: outDir, Name: name}
			if cmd.Flags().Changed("device") {
				o.Device = &device
			}
			if !quiet {
				o.Log = stderr
				last := -1
				o.Progress = func(f float64, what string) {
					if pct := int(f * 100); pct/10 != last/10 && strings.HasPrefix(what, "simulating") {
						last = pct
						fmt.Fprintf(stderr, "%3d%% %s\n", pct, what)
					}
				}
			}
			rep, err := build.Build(cmd.Context(), p, o)
			if err != nil {
				return err
			}
			if !quiet {
				n := 0
				for _, out := range rep.Outputs {
					n += len(out.Files)
				}
				fmt.Fprintf(stderr, "%s: %d steps, %d outputs, %d files → %s\n", name, rep.Steps, len(rep.Outputs), n,
					filepath.Join(outDir, build.ReportName))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&outDir, "out-dir", "", "output folder (default: NAME-build beside the project)")
	f.StringVar(&preset, "preset", "", "build a ready-made profile instead of the project's: "+strings.Join(export.Presets, ", "))
	f.BoolVarP(&quiet, "quiet", "q", false, "no progress or summary")
	f.Var(&device, "device", "where the build computes, instead of the export profile's \"device\": the grid engine and the hydraulic pass of amplified outputs (\"hydro_steps\"): cpu, gpu (any OpenGL 4.3 GPU, a software one too) or auto (a hardware GPU if there is one, else the CPU); without a usable GPU, or with parameters the GPU engine does not run, the engine runs on the CPU and says why")
	return cmd
}
