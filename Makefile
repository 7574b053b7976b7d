# The project's interface. `make serve` and `make test` are the two commands a newcomer needs;
# both install whatever is missing first (scripts/setup-tools.sh) and are quick when it is there.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
# Trunk must never reach the network: no update check, tools pinned in Trunk.toml.
export TRUNK_SKIP_VERSION_CHECK := true

WASM := wasm32-unknown-unknown
CHROMEDRIVER ?= /usr/bin/chromedriver
# Property tests run this many cases per property in `make test` (proptest's default is 256).
PROPTEST_CASES ?= 64
# The calculator as one self-contained HTML file (`make single-file`; the e2e tests open it).
SINGLE_FILE ?= single-file/gpucost.html

.PHONY: help tools tools-browser serve build single-file pkg test lint test-native test-wasm test-e2e bench fuzz screenshots clean

help:
	@echo "make serve   install what is missing, then serve the app on http://127.0.0.1:8080"
	@echo "make test    install what is missing, then run every check (fmt, clippy, unit, browser, e2e)"
	@echo "make build   release build into dist/, with .wasm and JS sizes (raw and gzip)"
	@echo "make single-file  the page as one HTML file to open from disk: $(SINGLE_FILE)"
	@echo "make pkg     the model as a JS/WASM package in pkg/"
	@echo "make bench   benchmarks: prints a table and writes bench/RESULTS.md"
	@echo "make fuzz    fuzz the link decoder, scenario reader and history readers (FUZZ_SECONDS each)"
	@echo "make screenshots  regenerate docs/screenshots (desktop and phone) from the release build"

tools:
	@scripts/setup-tools.sh

tools-browser:
	@scripts/setup-tools.sh --browser

serve: tools
	trunk serve

# The release page in dist/: Trunk's build, the loading shell's first-number module, and the
# start-up script moved out of the page under a CSP (which also wires the first number).
define release-page
	trunk build --release
	scripts/build-first-number.sh dist
	node scripts/externalize-start-script.mjs dist
endef

build: tools
	$(release-page)
	@scripts/bundle-sizes.sh dist

# Everything inline (app JS, wasm, CSS, icon); no worker and no CSP, so it runs from file://.
single-file: build
	node scripts/make-single-file.mjs dist $(SINGLE_FILE)

pkg: tools
	cargo rustc --lib --profile release-sim --target $(WASM) --no-default-features --features js-api --crate-type cdylib
	wasm-bindgen --target web --typescript --out-dir pkg target/$(WASM)/release-sim/gpucost.wasm
	wasm-opt -O3 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
		--enable-mutable-globals pkg/gpucost_bg.wasm -o pkg/gpucost_bg.wasm
	cargo build --release --bin gpucost
	node scripts/pkg-types.mjs target/release/gpucost pkg/types.d.ts
	tsc -p pkg
	@scripts/bundle-sizes.sh pkg

# The whole check, in this order; the first failure stops it.
test: tools-browser lint test-native test-wasm test-e2e
	@echo "make test: all checks passed"

lint:
	cargo fmt --all --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy --target $(WASM) --all-targets -- -D warnings
	cargo clippy --target $(WASM) --lib --no-default-features --features js-api -- -D warnings
	cargo clippy --target $(WASM) --lib --no-default-features --features first-number -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet
	scripts/check-model-purity.sh

test-native:
	PROPTEST_CASES=$(PROPTEST_CASES) cargo test

# wasm-bindgen browser tests (tests/web.rs) in headless Chromium; options in webdriver.json.
test-wasm:
	CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
	CHROMEDRIVER=$(CHROMEDRIVER) WASM_BINDGEN_TEST_TIMEOUT=120 \
		cargo test --target $(WASM) --test web

# End-to-end: the release build, served from a sub-path (and framed by another origin), and its
# single-file form from file://, driven in headless Chromium; the JS package (pkg/) is checked
# against the CLI and the page. Then the cross-browser smoke suite in Firefox ESR and WebKitGTK
# (e2e/engines/smoke.mjs, through their WebDriver servers).
test-e2e: pkg
	$(release-page)
	@scripts/bundle-sizes.sh dist
	node scripts/make-single-file.mjs dist $(SINGLE_FILE)
	cargo build --release --bin gpucost
	SINGLE_FILE=$(SINGLE_FILE) DIST=dist node --test e2e/
	SINGLE_FILE=$(SINGLE_FILE) DIST=dist node --test e2e/engines/smoke.mjs

screenshots: tools-browser
	$(release-page)
	mkdir -p docs/screenshots
	DIST=dist node e2e/screenshots.mjs

# Performance: native criterion benches, the same scenarios in wasm in Chromium, the page's
# latencies, sizes, the SimPy peer (pinned in bench/peer/requirements.txt, in a venv) and
# memory; prints one table and writes bench/RESULTS.md. Not part of `make test`: timings are
# read by people, never asserted.
bench: single-file pkg
	cargo bench --profile bench-sim --bench engine | tee target/bench-native.txt
	# Its own target directory: the CLI timed against SimPy is built as it always was, apart
	# from the benches' build with dev-dependency features.
	cargo build --profile release-sim --bin gpucost --target-dir target/bench-cli
	test -x bench/peer/.venv/bin/python || python3 -m venv bench/peer/.venv
	bench/peer/.venv/bin/pip install --quiet --disable-pip-version-check -r bench/peer/requirements.txt
	DIST=dist SINGLE_FILE=$(SINGLE_FILE) node bench/report.mjs

# Fuzzing (libFuzzer through cargo-fuzz, nightly toolchain) of what users paste or drop: the
# link decoder, the scenario JSON reader, the job-history readers (CSV, sacct, SWF) and the
# request-trace readers (Azure CSV, Mooncake JSON lines),
# FUZZ_SECONDS each.
# Corpora grow in fuzz/corpus (seeded from fuzz/seeds); a crash lands in fuzz/artifacts and
# becomes a regression test.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS := link_decode scenario_json history_csv history_sacct history_swf traffic_trace
fuzz:
	command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
	for t in $(FUZZ_TARGETS); do \
		mkdir -p fuzz/corpus/$$t; \
		cargo +nightly fuzz run $$t fuzz/corpus/$$t fuzz/seeds/$$t -- \
			-max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -print_final_stats=1 || exit 1; \
	done

clean:
	cargo clean
	rm -rf dist single-file pkg/*.js pkg/*.ts pkg/*.wasm
