package simtest

import "testing"

// SkipUnderRace skips a test that exercises no concurrency the package's
// other tests do not (numerical results, process kills, input checks)
// under `go test -race -short` (`make race`): the race detector slows it
// 5 to 10 times and finds nothing that the package's tests across
// GOMAXPROCS, which still run, do not. `make unit` runs it without the
// detector. why says what the test checks instead.
func SkipUnderRace(tb testing.TB, why string) {
	tb.Helper()
	if Race && testing.Short() {
		tb.Skip(why + ": skipped under -race -short (make unit runs it)")
	}
}
