package splgpu

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"orogen/gpu"
	"orogen/sim/flow"
)

// TestRelease: an engine with deposition whose scratch is given back
// after its third step gives, from the same snapshot on, the heights,
// receivers, area and alluvium of one that kept it, bit for bit, and its
// scratch is small until the next step.
func TestRelease(t *testing.T) {
	c := config(32, flow.Edges{North: flow.Outlet, South: flow.Closed, East: flow.Natural, West: flow.Closed})
	c.Params.G = 1
	_, a := pair(t, c)
	_, b := pair(t, c)
	same := func(when string) {
		t.Helper()
		sa, sb := a.Snapshot(), b.Snapshot()
		if !slices.Equal(sa.Height, sb.Height) || !slices.Equal(sa.Receivers, sb.Receivers) ||
			!slices.Equal(sa.Area, sb.Area) || !slices.Equal(sa.Alluvium, sb.Alluvium) {
			t.Fatalf("%s: the snapshots differ", when)
		}
	}
	for range 3 {
		a.Step()
		b.Step()
	}
	b.Release()
	for _, p := range b.scratch() {
		if (*p).Size() > 8 {
			t.Fatalf("a scratch buffer of %d bytes kept after Release", (*p).Size())
		}
	}
	same("after Release")
	for range 3 {
		a.Step()
		b.Step()
	}
	if err := b.Err(); err != nil {
		t.Fatal(err)
	}
	same("3 steps after Release")
}

// smallCard is a device that reports mib MiB of memory.
type smallCard struct {
	gpu.Device
	mib int
}

func (d smallCard) Info() gpu.Info {
	i := d.Device.Info()
	i.MemoryMiB = d.mib
	return i
}

// TestRefusesWhatDoesNotFit: a grid whose fields with the physics asked
// for (BytesFor) exceed the card's memory is refused by New and by
// SetParams with one line naming the size and the largest --size that
// fits (which does, and one more does not); the same grid without them
// runs.
func TestRefusesWhatDoesNotFit(t *testing.T) {
	c := config(512, flow.Edges{})
	c.Up = nil
	dev := smallCard{device(t), 16} // 512²: 13 MiB without deposition, 20 with (slot 1 by cell: leanDep)
	e, err := New(dev, c)
	if err != nil {
		t.Fatalf("512² without physics on 16 MiB: %v", err)
	}
	defer e.Close()
	p := c.Params
	p.G = 1
	want := "a 512×512 grid needs 20 MiB of GPU memory (80 bytes a cell)"
	err = e.SetParams(p)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("SetParams with deposition on 16 MiB: %v; want %q", err, want)
	}
	var side int
	if _, serr := fmt.Sscanf(err.Error()[strings.Index(err.Error(), "--size"):], "--size %d fits", &side); serr != nil {
		t.Fatalf("SetParams with deposition on 16 MiB: %v; want the --size that fits (%v)", err, serr)
	}
	if BytesFor(side, side, p)>>20 > 16 || BytesFor(side+1, side+1, p)>>20 <= 16 {
		t.Errorf("--size %d named: %d MiB, %d MiB at %d; want the largest side within 16 MiB", side, BytesFor(side, side, p)>>20, BytesFor(side+1, side+1, p)>>20, side+1)
	}
	t.Log(err)
	c.Params = p
	if _, err := New(dev, c); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("New with deposition on 16 MiB: %v; want %q", err, want)
	}
}
