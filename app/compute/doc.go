// Package compute chooses where the hydraulic pass runs: the CPU engine
// (sim/hydro) or the GPU one (gpu/hydrogpu), for `--device cpu|gpu|auto`
// of orogen erode and orogen run (its --out-hydro-steps), and for the
// app's detail pass (app/detail.NewOn, Settings: compute device). With no usable GPU, a run falls back
// to the CPU and says why in one line; it never fails for want of one.
//
//   - cpu: sim/hydro.
//   - gpu: the first OpenGL 4.3 device, a software rasterizer (Mesa's
//     llvmpipe) included: correct, but slower than the CPU engine.
//   - auto: a hardware GPU if there is one, else the CPU (a software
//     rasterizer is not taken).
//
// The GPU is the process's one device (Shared), which the grid engine
// on the GPU uses too; the app opens it before its window.
//
// A geology (hardness from the rock) runs on either: the GPU engine
// computes the exposed rock and the alluvium per cell as the CPU does.
package compute
