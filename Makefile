# Orogen. `make run` runs the default scene; `make test` runs every check CI runs.
SHELL := /bin/bash
GOPATH_BIN := $(shell scripts/ensure-go.sh)
export PATH := $(if $(GOPATH_BIN),$(GOPATH_BIN):,)$(PATH)
GO ?= go
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
BIN := bin/orogen
OUT := out
FUZZTIME ?= 10s
# Packages with goroutines, run again under the race detector.
RACE_PKGS := ./sim/... ./app/... ./uplifttree/... ./brushes/...

.PHONY: all build run test unit race fuzz bench lint deps clean

all: build

deps:
	@scripts/deps.sh

build: deps
	$(GO) build -o $(BIN) .

# Opens the app on the default scene. Until the window lands (issue 4) and
# whenever there is no display, it runs the same scene headless and writes
# the outputs to $(OUT)/.
run: build
	@mkdir -p $(OUT)
	./$(BIN) run --scene default --steps 150 \
		--out $(OUT)/default.png --out-drainage $(OUT)/default-drainage.png \
		--out-water $(OUT)/default-water.png --report $(OUT)/default-report.json
	@echo "wrote $(OUT)/default.png (+ .json sidecars), drainage, water and the report"

test: deps lint unit race fuzz

unit:
	$(GO) test -count=1 ./...

race:
	$(GO) test -race -short -count=1 $(RACE_PKGS)

# Every fuzz target, briefly (FUZZTIME each).
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "fuzz $$pkg $$f"; \
			$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg >/dev/null || \
				{ $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; exit 1; }; \
		done; \
	done

bench:
	$(GO) test -run '^$$' -bench . -benchmem -timeout 60m ./...

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
		if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

clean:
	rm -rf bin $(OUT)
