package worker

import (
	"fmt"
	"math"
	"orogen/app/drive"
	"orogen/sim/grid"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"orogen/app/runner"
	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/settle"
	"orogen/sim/simtest"
	"orogen/sim/talus"
)

// TestCommandsApplyInOrder sends one batch and checks every published
// frame: the steps of runner.Step{N: 3} use k1, those of runner.Step{N: 2} use k2, and the
// sequence numbers say which commands were applied.
func TestCommandsApplyInOrder(t *testing.T) {
	cfg := sceneConfig(t, 48)
	k0 := cfg.Params.K
	p1, p2 := cfg.Params, cfg.Params
	p1.K, p2.K = 2*k0, 3*k0
	w, rec, _ := startRecorded(t, cfg, runner.Options{Paused: true, MinInterval: -1})
	syncFrame(t, w, runner.Pause{}, SetParams{P: p1}, runner.Step{N: 3}, SetParams{P: p2}, runner.Step{N: 2})

	type row struct {
		step int
		k    float64
		seq  uint64
		run  bool
	}
	var got []row
	for _, f := range rec.all() {
		got = append(got, row{f.Snap.Step, f.Snap.Param.K, f.Seq, f.Running})
	}
	want := []row{
		{0, k0, 0, false},                      // New
		{1, p1.K, 3, true}, {2, p1.K, 3, true}, // Pause, SetParams, runner.Step{N: 3}
		{3, p1.K, 3, false},                     // last step of runner.Step{N: 3}
		{4, p2.K, 5, true}, {5, p2.K, 5, false}, // SetParams, runner.Step{N: 2}
		{5, p2.K, 6, false}, // Sync
	}
	if !slices.Equal(got, want) {
		t.Fatalf("frames (step, k, seq, running):\ngot  %v\nwant %v", got, want)
	}
}

// TestSyncSeqIncreases checks that Sync replies count every command sent
// before it, coalesced ones included.
func TestSyncSeqIncreases(t *testing.T) {
	cfg := sceneConfig(t, 32)
	w := start(t, cfg, runner.Options{})
	var last uint64
	for i := range 10 {
		p := cfg.Params
		p.K *= 1 + float64(i)/10
		cmds := []runner.Command{SetParams{P: p}, SetParams{P: p}}[:1+i%2]
		f := syncFrame(t, w, cmds...)
		if f.Seq <= last {
			t.Fatalf("round %d: Seq %d; want > %d", i, f.Seq, last)
		}
		if f.Snap.Param.K != p.K {
			t.Fatalf("round %d: k %g; want %g", i, f.Snap.Param.K, p.K)
		}
		last = f.Seq
	}
	if want := uint64(10 + 5 + 10); last != want {
		t.Fatalf("last Seq %d; want %d", last, want)
	}
}

// TestSnapshotsConsistent streams parameter, uplift and edge changes into
// a running worker while another goroutine reads every frame it can, and
// checks every published snapshot.
func TestSnapshotsConsistent(t *testing.T) {
	cfg := sceneConfig(t, 64)
	w, rec, _ := startRecorded(t, cfg, runner.Options{MinInterval: -1})
	stopRead := readConcurrently(t, w)
	edges := []flow.Edges{{}, {North: flow.Natural, East: flow.Closed}, {West: flow.Natural, South: flow.Natural}}
	for i := range 30 {
		p := cfg.Params
		p.K *= 1 + float64(i%5)/4
		p.Kappa = float64(i%3) * 0.01
		p.Edges = edges[(i/10)%len(edges)]
		// The uplift never drops to 0: after a few steps without it,
		// the terrain's pits multiply and hit TestFlowScratchBug.
		u := simtest.Scale(cfg.Up, float64(1+i%4)/2)
		if f := syncFrame(t, w, SetParams{P: p}, SetUplift{U: u}); f.Err != nil {
			t.Fatalf("round %d: %v", i, f.Err)
		}
	}
	stopRead()
	w.Close()
	checkFrames(t, rec.all(), 30)
}

// TestSnapshotsConsistentLakes checks the water depths too, on a terrain
// with lakes, stepping with Step commands while another goroutine reads.
// (Edits on this terrain once hit the sim/flow bug of TestFlowScratchBug.)
func TestSnapshotsConsistentLakes(t *testing.T) {
	w, rec, _ := startRecorded(t, lakeConfig(t, 64), runner.Options{Paused: true, MinInterval: -1})
	stopRead := readConcurrently(t, w)
	for range 10 {
		w.Send(runner.Step{N: 2})
	}
	syncFrame(t, w)
	stopRead()
	w.Close()
	frames := rec.all()
	checkFrames(t, frames, 20)
	wet := 0
	for _, f := range frames {
		if slices.ContainsFunc(f.Snap.Water, func(d float32) bool { return d > 0 }) {
			wet++
		}
	}
	if wet < len(frames)/2 {
		t.Fatalf("%d of %d frames have lake water; want most, or the water check tests nothing", wet, len(frames))
	}
}

// readConcurrently reads every new frame of w on another goroutine, as the
// UI does, checking each snapshot and touching all its values (for the
// race detector). The returned function stops the reader and reports.
func readConcurrently(t *testing.T, w *Worker) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	var readErr error
	read := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		var seen *engine.Snapshot
		for {
			select {
			case <-done:
				return
			default:
			}
			f := w.Frame()
			if f.Snap == seen {
				runtime.Gosched()
				continue
			}
			seen = f.Snap
			read++
			if err := checkSnapshot(f.Snap); err != nil && readErr == nil {
				readErr = fmt.Errorf("step %d: %w", f.Snap.Step, err)
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
		if readErr != nil {
			t.Fatalf("a frame read while the worker ran: %v", readErr)
		}
		t.Logf("%d snapshots read concurrently", read)
	}
}

// checkFrames checks every published frame: a consistent snapshot, Seq
// never decreasing, the history's newest sample from the snapshot's step
// and heights.
func checkFrames(t *testing.T, frames []*Frame, atLeast int) {
	t.Helper()
	var prevSeq uint64
	for k, f := range frames {
		if err := checkSnapshot(f.Snap); err != nil {
			t.Fatalf("frame %d (step %d, seq %d): %v", k, f.Snap.Step, f.Seq, err)
		}
		if f.Seq < prevSeq {
			t.Fatalf("frame %d: Seq %d after %d; want non-decreasing", k, f.Seq, prevSeq)
		}
		prevSeq = f.Seq
		if h := f.History; len(h) > 0 {
			last := h[len(h)-1]
			top := float64(slices.Max(f.Snap.Height))
			if last.Step != f.Snap.Step || last.MaxHeightM != top {
				t.Fatalf("frame %d: history ends at step %d, max height %g; snapshot at step %d, max height %g", k, last.Step, last.MaxHeightM, f.Snap.Step, top)
			}
		}
	}
	t.Logf("%d frames published", len(frames))
	if len(frames) < atLeast {
		t.Fatalf("%d frames; want >= %d", len(frames), atLeast)
	}
}

// TestSliderWithinTwoSteps sends parameter changes to a running worker with
// the default publishing interval and checks that the first frame that
// counts the change shows it, at most two steps after the one in progress
// when it was sent.
func TestSliderWithinTwoSteps(t *testing.T) {
	cfg := sceneConfig(t, 64)
	w, rec, d := startRecorded(t, cfg, runner.Options{})
	type sent struct {
		seq  uint64
		step int
		p    engine.Params
	}
	var sends []sent
	for i := range 40 {
		p := cfg.Params
		p.K *= 1 + float64(i+1)/40
		step := int(d.steps.Load())
		seq := w.SendSeq(SetParams{P: p})
		sends = append(sends, sent{seq, step, p})
		if i%4 == 3 {
			syncFrame(t, w) // let a few steps pass
		}
	}
	syncFrame(t, w)
	frames := rec.all()
	for _, s := range sends {
		i := slices.IndexFunc(frames, func(f *Frame) bool { return f.Seq >= s.seq })
		if i < 0 {
			t.Fatalf("no frame with Seq >= %d", s.seq)
		}
		f := frames[i]
		// The params of the newest SetParams the frame counts.
		newest := s
		for _, s2 := range sends {
			if s2.seq <= f.Seq {
				newest = s2
			}
		}
		if f.Snap.Param != newest.p {
			t.Fatalf("first frame with Seq >= %d (Seq %d) has k %g; want %g", s.seq, f.Seq, f.Snap.Param.K, newest.p.K)
		}
		if f.Snap.Step > s.step+2 {
			t.Fatalf("SetParams #%d sent at step %d first shows at step %d; want <= %d", s.seq, s.step, f.Snap.Step, s.step+2)
		}
		// ParamsStep says when they took effect: at or after the send, and
		// at most 2 steps before the frame.
		if f.ParamsStep < s.step || f.Snap.Step-f.ParamsStep > 2 {
			t.Fatalf("SetParams #%d sent at step %d: frame at step %d says ParamsStep %d; want in [%d, %d]",
				s.seq, s.step, f.Snap.Step, f.ParamsStep, s.step, f.Snap.Step)
		}
	}
	// ParamsShown is the step of the first frame published with a step on
	// the frame's parameters (what the window's slider lag counts, however
	// late it reads the frames), at most 2 steps after they took effect.
	type epoch struct {
		step int
		p    engine.Params
	}
	shown := map[epoch]int{}
	for k, f := range frames {
		e := epoch{f.ParamsStep, f.Snap.Param}
		if _, ok := shown[e]; !ok && f.Snap.Step > f.ParamsStep {
			shown[e] = f.Snap.Step
		}
		if want := shown[e]; f.ParamsShown != want || want-f.ParamsStep > 2 {
			t.Fatalf("frame %d (step %d, parameters from step %d): ParamsShown %d; want %d, at most 2 steps after", k, f.Snap.Step, f.ParamsStep, f.ParamsShown, want)
		}
	}
}

// TestBadCommands checks that rejected commands report an error and change
// nothing.
func TestBadCommands(t *testing.T) {
	cfg := sceneConfig(t, 32)
	w := start(t, cfg, runner.Options{Paused: true})
	before := syncFrame(t, w, runner.Step{N: 2})
	n := cfg.W * cfg.H
	nanUp := slices.Clone(cfg.Up)
	nanUp[7] = float32(math.NaN())
	badP := cfg.Params
	badP.N = -1
	badCfg := cfg
	badCfg.W = 2
	for _, tc := range []struct {
		name string
		cmd  runner.Command
		want string // in the error
	}{
		{"uplift size", SetUplift{U: make([]float32, n-1)}, "uplift values"},
		{"uplift NaN", SetUplift{U: nanUp}, "not finite"},
		{"params", SetParams{P: badP}, "n = -1"},
		{"heights size", SetHeights{H: make([]float32, n+1)}, "initial heights"},
		{"heights nil", SetHeights{}, "without heights"},
		{"reset", Reset{Spec: badCfg}, "size 2×32"},
		{"reset engine", Reset{Spec: withKind(cfg, "voxel", 0)}, `unknown engine "voxel"`},
		{"reset samples", Reset{Spec: withKind(cfg, grid.Kind, 100)}, "--samples applies"},
		{"negative step", runner.Step{N: -1}, "Step{-1}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := syncFrame(t, w, tc.cmd)
			if f.CmdErr == nil || !strings.Contains(f.CmdErr.Error(), tc.want) {
				t.Fatalf("CmdErr %v; want one containing %q", f.CmdErr, tc.want)
			}
			if f.CmdErrSeq != f.Seq-1 {
				t.Fatalf("CmdErrSeq %d; want %d (the command before the Sync)", f.CmdErrSeq, f.Seq-1)
			}
			s, s0 := f.Snap, before.Snap
			if s.Step != s0.Step || s.Param != s0.Param || !slices.Equal(s.Uplift, s0.Uplift) || !slices.Equal(s.Height, s0.Height) || f.Running || f.Err != nil {
				t.Fatalf("state changed: step %d, k %g, running %v, err %v; want step %d, k %g, paused, no error, same fields",
					s.Step, s.Param.K, f.Running, f.Err, s0.Step, s0.Param.K)
			}
		})
	}

	// In a run of one kind, the newest valid command wins, as applied one
	// by one; a bad one after good ones leaves the good ones' state.
	good := cfg.Params
	good.K *= 2
	f := syncFrame(t, w, SetParams{P: badP}, SetParams{P: good})
	if f.Snap.Param != good {
		t.Fatalf("after bad, good: k %g; want %g", f.Snap.Param.K, good.K)
	}
	good2 := good
	good2.K *= 2
	seq := w.SendSeq(SetParams{P: good2}, SetParams{P: badP})
	f = syncFrame(t, w)
	if f.Snap.Param != good2 || f.CmdErrSeq != seq {
		t.Fatalf("after good, bad: k %g, CmdErrSeq %d; want %g, %d", f.Snap.Param.K, f.CmdErrSeq, good2.K, seq)
	}
	// A good Reset clears the command error.
	if f = syncFrame(t, w, Reset{Spec: sceneConfig(t, 32)}); f.CmdErr != nil || f.Snap.Step != 0 || len(f.History) != 0 {
		t.Fatalf("after Reset: CmdErr %v, step %d, %d samples; want nil, 0, 0", f.CmdErr, f.Snap.Step, len(f.History))
	}
}

// panicKappa marks the parameters whose step panics in TestEngineErrorPauses.
const panicKappa = 0.123

// TestEngineErrorPauses blows the engine up with absurd but valid
// parameters and checks that the worker pauses, reports, refuses to run,
// and that a Reset clears the error.
func TestEngineErrorPauses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(p *engine.Params)
		want  string
		pause bool // the error comes from the engine's Err, not a panic
	}{
		// uplift × dt overflows float32 and nothing limits it.
		{"non-finite", func(p *engine.Params) { p.Dt, p.Talus.Mode = 1e300, talus.ModeOff }, "non-finite", true},
		// A solver panics (validation now rejects the κ·dt overflow that
		// once did this; stepEngine stands in for any such bug).
		{"panic", func(p *engine.Params) { p.Kappa = panicKappa }, "engine failed at step 1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.pause {
				// Restored after the worker is closed (cleanups run last
				// first, and start registers its Close after this).
				old := stepEngine
				t.Cleanup(func() { stepEngine = old })
				stepEngine = func(e *drive.Driver) (engine.StepStats, error) {
					if e.Params().Kappa == panicKappa {
						panic("a solver overflowed")
					}
					return e.Step()
				}
			}
			cfg := sceneConfig(t, 32)
			bad := sceneConfig(t, 32)
			tc.edit(&bad.Params)
			w := start(t, bad, runner.Options{})
			// Running, a Sync is answered by the first step's frame.
			f := syncFrame(t, w)
			if f.Err == nil || !strings.Contains(f.Err.Error(), tc.want) || f.Running {
				t.Fatalf("Err %v, running %v; want an error containing %q, paused", f.Err, f.Running, tc.want)
			}
			errStep := f.Snap.Step
			if f = syncFrame(t, w, runner.Run{}, runner.Step{N: 3}); f.Running || f.Err == nil || f.Snap.Step != errStep {
				t.Fatalf("Run and Step after the error: running %v, err %v, step %d; want paused, error kept, step %d", f.Running, f.Err, f.Snap.Step, errStep)
			}
			// Edits still apply (they go into the next engine on
			// SetHeights), but an engine that panicked mid-step is never
			// snapshotted again: its fields may belong to two steps.
			p := cfg.Params
			p.K *= 2
			f2 := syncFrame(t, w, SetParams{P: p})
			if tc.pause && f2.Snap.Param != p {
				t.Fatalf("SetParams after a non-finite step: k %g; want %g shown", f2.Snap.Param.K, p.K)
			}
			if !tc.pause && f2.Snap != f.Snap {
				t.Fatal("SetParams after a panic: a new snapshot of the failed engine; want the last one kept")
			}
			if tc.pause {
				for _, h := range f.Snap.Height {
					if math.IsNaN(float64(h)) || math.IsInf(float64(h), 0) {
						t.Fatalf("height %g after the error; want the last good terrain", h)
					}
				}
			}
			if f = syncFrame(t, w, Reset{Spec: cfg}); f.Err != nil || f.Running || f.Snap.Step != 0 {
				t.Fatalf("after Reset: err %v, running %v, step %d; want nil, paused, 0", f.Err, f.Running, f.Snap.Step)
			}
			if f = syncFrame(t, w, runner.Step{N: 2}); f.Snap.Step != 2 || f.Err != nil {
				t.Fatalf("after Reset and runner.Step{N: 2}: step %d, err %v; want 2, nil", f.Snap.Step, f.Err)
			}
		})
	}
}

// TestPausedEditsShow checks that edits made while paused are published at
// once, and that imports and resets rebuild the engine.
func TestPausedEditsShow(t *testing.T) {
	cfg := sceneConfig(t, 32)
	cfg.InitNoise = 0
	w := start(t, cfg, runner.Options{Paused: true})
	u := simtest.Scale(cfg.Up, 2)
	f := syncFrame(t, w, SetUplift{U: u})
	if !slices.Equal(f.Snap.Uplift, u) || f.Snap.Step != 0 {
		t.Fatalf("uplift not shown while paused (step %d)", f.Snap.Step)
	}
	if f = syncFrame(t, w, runner.Step{N: 3}); f.Snap.Step != 3 || f.Running {
		t.Fatalf("after runner.Step{N: 3}: step %d, running %v; want 3, paused", f.Snap.Step, f.Running)
	}
	h := simtest.Cone(cfg.W, cfg.H, cfg.Cell, 800, 0.01)
	p := cfg.Params
	p.Kappa = 0.02
	if f = syncFrame(t, w, SetParams{P: p}, SetHeights{H: slices.Clone(h)}); !slices.Equal(f.Snap.Height, h) || f.Snap.Step != 0 || f.Snap.Param != p || !slices.Equal(f.Snap.Uplift, u) {
		t.Fatalf("after SetHeights: step %d, k %g, heights equal %v; want step 0, the current params, uplift and the imported heights",
			f.Snap.Step, f.Snap.Param.K, slices.Equal(f.Snap.Height, h))
	}
	big := sceneConfig(t, 40)
	if f = syncFrame(t, w, Reset{Spec: big}); f.Snap.W != 40 || f.Snap.H != 40 || f.Running {
		t.Fatalf("after Reset to 40²: %d×%d, running %v; want 40×40, paused", f.Snap.W, f.Snap.H, f.Running)
	}
	if f = syncFrame(t, w, runner.Run{}, Reset{Spec: sceneConfig(t, 32)}); !f.Running {
		t.Fatalf("Reset while running: running %v; want it kept", f.Running)
	}
}

// TestCloseIsPromptAndClean closes a worker in the middle of a very long
// Step with commands still queued, and one waiting for a Sync's receiver
// that never comes, and checks Close returns, Send panics after it, and
// no goroutine is left. It runs in a synctest bubble: the bubble ends
// only when every goroutine started in it has returned, and fails at
// once, whatever the load, if one is blocked for good (the old count of
// runtime.NumGoroutine waited up to 2 s for the runtime and failed under
// load).
func TestCloseIsPromptAndClean(t *testing.T) {
	cfg := sceneConfig(t, 32)
	synctest.Test(t, func(t *testing.T) {
		// A worker in the middle of a very long Step, commands queued
		// behind it: Close would hang if it waited for them.
		d, err := newDriver(cfg)
		if err != nil {
			t.Fatal(err)
		}
		w, err := runner.New(d, runner.Options{Paused: true})
		if err != nil {
			t.Fatal(err)
		}
		w.Send(runner.Step{N: math.MaxInt32}, runner.Sync{Done: make(chan uint64, 1)}, runner.Run{}, SetParams{P: engine.DefaultParams()})
		for d.steps.Load() < 2 {
			runtime.Gosched()
		}
		w.Close()
		w.Close() // again: no-op
		if f := w.Frame(); f == nil || f.Snap == nil {
			t.Fatal("no frame after Close")
		}
		// A worker waiting for a Sync's receiver that never comes.
		w2, err := New(cfg, runner.Options{Paused: true})
		if err != nil {
			t.Fatal(err)
		}
		w2.Send(runner.Sync{Done: make(chan uint64)})
		w2.Close()
		defer func() {
			r := recover()
			if s, ok := r.(string); !ok || !strings.HasPrefix(s, "runner: ") {
				t.Fatalf("Send after Close: panic %v; want one prefixed \"runner: \"", r)
			}
		}()
		w.Send(runner.Run{})
	})
}

// TestDeterministic runs one command sequence with Step commands under 1
// and 2 procs, and as direct engine calls, and demands identical heights.
func TestDeterministic(t *testing.T) {
	cfg := sceneConfig(t, 96)
	p1, p2 := cfg.Params, cfg.Params
	p1.K *= 1.5
	p2.K *= 0.7
	p2.Kappa = 0.01
	u2, u3 := simtest.Scale(cfg.Up, 2), simtest.Scale(cfg.Up, 1.5)
	cmds := func() []runner.Command {
		return []runner.Command{
			SetParams{P: p1}, runner.Step{N: 4},
			SetUplift{U: slices.Clone(u2)}, SetUplift{U: slices.Clone(u3)}, SetParams{P: p2}, SetParams{P: p1}, SetParams{P: p2},
			runner.Step{N: 3},
		}
	}
	var got [][]float32
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		w := start(t, sceneConfig(t, 96), runner.Options{Paused: true, MinInterval: -1})
		f := syncFrame(t, w, cmds()...)
		w.Close()
		if f.Snap.Step != 7 {
			t.Fatalf("procs %d: step %d; want 7", procs, f.Snap.Step)
		}
		got = append(got, f.Snap.Height)
	}
	e, err := gridEngine(sceneConfig(t, 96))
	if err != nil {
		t.Fatal(err)
	}
	// The worker steps through the adaptive scheme.
	sch, err := settle.New(e, settle.Options{Tol: ConvergedTol})
	if err != nil {
		t.Fatal(err)
	}
	sch.SetParams(p1)
	for range 4 {
		sch.Step()
	}
	e.SetUplift(u3)
	sch.Restart()
	sch.SetParams(p2)
	for range 3 {
		sch.Step()
	}
	want := e.Heights()
	for i, h := range got {
		for j := range h {
			if math.Float32bits(h[j]) != math.Float32bits(want[j]) {
				t.Fatalf("run %d (procs %d): height %d is %g; want %g as the engine gives, bit for bit", i, i+1, j, h[j], want[j])
			}
		}
	}
}

// TestFlowScratchBug reproduces a crash in sim/flow that the worker's edits
// provoke: findPasses sizes its per-worker scratch with resize, sets best
// to its whole capacity but bestA and bestB only to np+1, and later resizes
// none of them while np+1 <= len(best); when the number of pits grows
// within that capacity, reducePit indexes bestA past its length. On 2
// procs the panic happens in a parallel.Do goroutine and kills the app; on
// 1 proc the worker recovers it into Frame.Err, which this test checks.
func TestFlowScratchBug(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	cfg := lakeConfig(t, 64)
	w := start(t, cfg, runner.Options{Paused: true})
	edges := []flow.Edges{{}, {North: flow.Natural, East: flow.Closed}}
	for i := range 20 {
		p := cfg.Params
		p.K *= 1 + float64(i%5)/4
		p.Kappa = float64(i%3) * 0.01
		p.Edges = edges[(i/10)%len(edges)]
		w.Send(SetParams{P: p}, SetUplift{U: simtest.Scale(cfg.Up, float64(i%4)/2)})
		if i == 5 {
			w.Send(SetHeights{H: simtest.Rough(cfg.W, cfg.H, 300, 5)})
		}
		w.Send(runner.Step{N: 2})
	}
	if f := syncFrame(t, w); f.Err != nil {
		t.Fatalf("step %d: %v", f.Snap.Step, f.Err)
	}
}

// TestDutyRests checks that a worker with Duty rests between steps: the
// engine's busy time stays near Duty of the wall time (wall time is only
// compared with the engine's own step times, both measured in the same
// run, so a slow machine scales both), and the heights do not depend on it.
func TestDutyRests(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the engine for a while")
	}
	cfg := sceneConfig(t, 64)
	run := func(duty float64) (busy, wall time.Duration, h []float32) {
		w, d := startHooked(t, cfg, runner.Options{Paused: true, Duty: duty}, nil)
		t0 := time.Now()
		f := syncFrame(t, w, runner.Step{N: 40})
		for f.StepsLeft > 0 || f.Running {
			f = syncFrame(t, w)
		}
		wall = time.Since(t0)
		busy = time.Duration(d.stepTime.Load())
		return busy, wall, f.Snap.Height
	}
	busy, wall, h1 := run(0.5)
	_, _, h2 := run(0)
	if frac := float64(busy) / float64(wall); frac > 0.75 {
		t.Errorf("duty 0.5: the engine was busy %.0f%% of the wall time; want about 50%% (≤ 75%%)", 100*frac)
	}
	if !slices.Equal(h1, h2) {
		t.Error("heights after 40 steps differ with and without Duty; want identical")
	}
	if _, err := New(cfg, runner.Options{Duty: math.NaN()}); err == nil {
		t.Error("Duty NaN: got no error")
	}
	w := start(t, cfg, runner.Options{Paused: true})
	if f := syncFrame(t, w, runner.SetDuty{D: math.Inf(1)}); f.CmdErr == nil {
		t.Error("runner.SetDuty{D: +Inf}: got no command error")
	}
	if f := syncFrame(t, w, runner.SetDuty{D: 0.6}); f.CmdErrSeq == f.Seq-1 {
		t.Errorf("runner.SetDuty{D: 0.6} rejected: %v", f.CmdErr)
	}
}
