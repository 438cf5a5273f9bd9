# Orogen. `make run` runs the default scene; `make test` runs every check CI runs.
SHELL := /bin/bash
GOPATH_BIN := $(shell scripts/ensure-go.sh)
export PATH := $(if $(GOPATH_BIN),$(GOPATH_BIN):,)$(PATH)
GO ?= go
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
BIN := bin/orogen
OUT := out
# 17 targets × FUZZTIME: at 5 s (and every package under -race) a cold CI
# run took 33.8 min on the 2-core machine (session 10, quiet); 3 s and the
# race run limited to the packages with goroutines aim back under 30;
# `make fuzz FUZZTIME=1m` for more.
FUZZTIME ?= 3s
# Packages with goroutines of their own (go statements, sim/parallel loops,
# wait groups, the GPU thread, the runners), run again under the race
# detector; the others only call into these, whose own race runs cover
# them. Not ./ui itself: under -race cgo packages build again, and
# cimgui-go's C++ took 6 minutes of a cold CI; the UI's renderer goroutine
# is ./ui/picture, and ui's other goroutines (the device probe, a build,
# the New dialog's thumbnails) only hand results over channels and
# atomics.
RACE_PKGS := ./sim/amplify ./sim/flow ./sim/geology ./sim/graph ./sim/grid ./sim/hillslope ./sim/hydro \
	./sim/invert ./sim/parallel ./sim/roudier ./sim/talus ./sim/water ./gpu/... \
	./app/amplifier ./app/analyst ./app/cli ./app/detail ./app/export ./app/rasterio ./app/runner \
	./app/session ./app/worker ./uplifttree ./viewer ./ui/picture

.PHONY: all build run test unit race fuzz bench soak lint deps clean release release-check

all: build

deps:
	@scripts/deps.sh

# orogen is the headless CLI; orogen-app, the desktop app it starts, links
# Ebiten, which needs a display as soon as it loads.
build: deps
	$(GO) build -o $(BIN) .
	$(GO) build -o bin/orogen-app ./cmd/orogen-app

# Opens the app on the default scene. Without a display it runs the same
# scene headless and writes the heightmap, masks, a preview picture and the
# report to $(OUT)/.
run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then ./$(BIN); else \
		mkdir -p $(OUT) && \
		./$(BIN) run --scene default --steps 150 \
			--out $(OUT)/default.png --out-drainage $(OUT)/default-drainage.png \
			--out-water $(OUT)/default-water.png --out-preview $(OUT)/default-preview.png \
			--report $(OUT)/default-report.json && \
		echo "no display: wrote $(OUT)/default.png (+ .json sidecars), drainage, water, the preview and the report"; fi

# cimgui-go's C++ compiles one file after another on one core, for Linux
# (the window test) and for Windows (the Wine test): minutes each on a
# cold cache. The lint's `go vet` builds the Linux one into the build
# cache (vet compiles every dependency, cgo's C++ included); prebuild
# compiles the Windows one beside it, so the unit tests find both built.
# A Linux prebuild beside vet compiled the same C++ twice at once: a cold
# run with both took 957 s for the lint, against 671 s with one prebuild
# beside it. A failure here shows again, with its cause, in the test that
# needs it. Each phase prints how long it took.
test: deps
	@set -e; t0=$$(date +%s); wlog=$$(mktemp); \
		trap 'kill $$pw 2>/dev/null || true; rm -f $$wlog' EXIT; \
		GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc CXX=x86_64-w64-mingw32-g++ \
			$(GO) build ./ui >$$wlog 2>&1 & pw=$$!; \
		for phase in lint prebuild unit race fuzz release-check; do \
			t=$$(date +%s); \
			if [ $$phase = prebuild ]; then \
				wait $$pw || { echo "prebuild (Windows) failed (the tests will say why):"; tail -5 $$wlog; }; \
			else $(MAKE) --no-print-directory $$phase; fi; \
			echo "make test: $$phase took $$(( $$(date +%s) - t )) s"; \
		done; echo "make test: all took $$(( $$(date +%s) - t0 )) s"

# Under Xvfb, so the real-window test (ui) opens its window; it fails
# rather than skips when OROGEN_WINDOW_TEST=1 finds no display. Likewise
# OROGEN_WINE_TEST=1: the Windows build's tests under Wine (wintest) fail
# rather than skip when Wine or MinGW-w64 is missing, and OROGEN_GPU_TEST=1
# the GPU kernels' tests (gpu/gputest) when no OpenGL 4.3 device (Mesa's
# llvmpipe) opens.
XVFB := xvfb-run -a -s "-screen 0 1600x1000x24"
unit:
	OROGEN_WINDOW_TEST=1 OROGEN_WINE_TEST=1 OROGEN_GPU_TEST=1 $(XVFB) $(GO) test -count=1 -timeout 30m ./...

# -timeout: the race detector slows tests 5-10x, and on a loaded 2-core
# machine one package (sim/graph) ran past go test's default 10 minutes.
race:
	$(XVFB) $(GO) test -race -short -count=1 -timeout 30m $(RACE_PKGS)

# Every fuzz target, briefly (FUZZTIME each). A failure prints its log and
# runs the target again: a crasher is saved under testdata/fuzz, so the
# second run fails on it; a fuzzing engine hiccup under load does not. The
# targets are found in the sources (`func FuzzX(` in a _test.go file), not
# with `go test -list`, which links every package's test binary (a minute
# of a cold CI).
fuzz:
	@set -e; for file in $$(grep -l '^func Fuzz[A-Za-z0-9_]*(' $$(git ls-files '*_test.go') | sort); do \
		pkg=./$$(dirname $${file#./}); \
		for f in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$file); do \
			echo "fuzz $$pkg $$f"; \
			$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 2s $$pkg >/tmp/orogen-fuzz.log 2>&1 || \
				{ tail -30 /tmp/orogen-fuzz.log; \
				  echo "fuzz $$f failed (above); again: a crasher it found is in testdata/fuzz and replays"; \
				  $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; }; \
		done; \
	done

# Every benchmark; BenchmarkConverge (seconds to steady state) runs once
# per size, the others calibrate themselves.
bench:
	$(GO) test -run '^$$' -bench 'Converge|SettleAfterStroke' -benchtime 1x ./app/run/
	$(GO) test -run '^$$' -bench . -skip 'Converge|SettleAfterStroke' -benchmem -timeout 60m ./...

# The long reliability runs (app/session): the soak at full length (10 000
# steps at 512² with edits, undo, engine switches, saves and detail passes;
# memory, goroutines, NaN, frame time) and 200 SIGKILLs during saves and
# autosaves of a 1024² project. `make test` runs both at a reduced length.
soak:
	$(GO) test -tags soak -run '^TestSoak$$' -count=1 -timeout 3h -v ./app/session/
	OROGEN_KILL_FULL=1 $(GO) test -run '^TestKillDuringSaves$$' -count=1 -timeout 3h -v ./app/session/

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
		if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

# dist/orogen-VERSION-linux-amd64.tar.gz and -windows-amd64.zip, VERSION
# from git describe (see scripts/release.sh).
release: deps
	@scripts/release.sh

# Builds the release into a temporary folder and checks the archives and
# the binaries' --version (the Windows ones under Wine).
release-check: deps
	@set -e; d=$$(mktemp -d); trap 'rm -rf "$$d"' EXIT; \
		v=$$(git describe --tags --always --dirty 2>/dev/null || echo dev); \
		DIST=$$d VERSION=$$v scripts/release.sh; \
		scripts/check-release.sh $$d $$v

clean:
	rm -rf bin dist $(OUT)
