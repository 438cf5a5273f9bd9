package amplifier

import (
	"context"
	"fmt"
	"testing"

	"orogen/sim/amplify"
)

// BenchmarkPreview measures one preview: sim/amplify on a window of a
// routed 512² terrain, then the fine window's routing and inflow (what
// the goroutine does per request), by window size and factor.
func BenchmarkPreview(b *testing.B) {
	s := coarse(512, 512)
	for _, c := range []struct{ size, factor int }{{64, 4}, {128, 4}, {128, 8}} {
		b.Run(fmt.Sprintf("%dx%d", c.size, c.factor), func(b *testing.B) {
			j := &job{req: Request{Snap: s, X0: 192, Y0: 192, W: c.size, H: c.size, Opt: amplify.Options{Factor: c.factor, Seed: 1}}}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if p := run(context.Background(), j); p.Err != nil {
					b.Fatal(p.Err)
				}
			}
		})
	}
}

// BenchmarkFineRouting measures the part of a preview that is this
// package's: the fine window's routing and inflow, without sim/amplify.
func BenchmarkFineRouting(b *testing.B) {
	s := coarse(512, 512)
	for _, c := range []struct{ size, factor int }{{128, 4}, {128, 8}} {
		b.Run(fmt.Sprintf("%dx%d", c.size, c.factor), func(b *testing.B) {
			r := Request{Snap: s, X0: 192, Y0: 192, W: c.size, H: c.size, Opt: amplify.Options{Factor: c.factor, Seed: 1}}
			res, err := amplify.Window(context.Background(), s, r.Opt, r.X0, r.Y0, r.W, r.H)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := fineSnapshot(context.Background(), r, res); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
