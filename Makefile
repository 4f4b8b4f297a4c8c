# Quarry: `make run` starts the REPL on the default fixture; `make test` runs every test.
# Both install the missing system packages first (apt-get, as root) and build.

SYSTEM_PACKAGES := libsqlite3-dev libedit-dev sqlite3 tmux time
SWIFT ?= swift
SHELL := /bin/bash
export QUARRY_FIXTURES := $(CURDIR)/fixtures

.PHONY: run test bench fuzz setup build clean startup-order install format lint

# Where `make install` puts the release binary (`make install PREFIX=~/.local`).
PREFIX ?= /usr/local

setup:
	@missing=""; for p in $(SYSTEM_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "Missing system packages. Run: sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

build: setup
	$(SWIFT) build --product quarry

run: build
	$(SWIFT) run --skip-build quarry $(ARGS)

# The Swift the project writes (not the test inputs: app code, models and fixtures read as data).
FORMATTED := Package.swift Sources Tests/QueryBuilderTests Tests/QuarryDSLTests Tests/WorkbenchTests Tests/EndToEndTests

# Formats the project's Swift as `.swift-format` says; `make test` fails on any file left unformatted.
format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMATTED)

lint:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED)

test: setup lint
	$(SWIFT) build --build-tests
	set -o pipefail; CI=$${CI:-} $(SWIFT) test --skip-build --disable-swift-testing 2>&1 | tee .build/test.log
	cd fixtures && sha256sum --check --quiet SHA256SUMS
	@grep -E "^\s*Executed [0-9]+ tests?, with [0-9]+ failures?" .build/test.log | tail -1 \
	  | sed -E 's/.*Executed ([0-9]+) tests?, with ([0-9]+) failures?.*/\1 \2/' \
	  | awk '{ print "tests: " $$1 - $$2 " passed, " $$2 " failed" }'

# A release build: one static executable; its link places what start-up runs side by side
# (link/startup-order.txt, see Package.swift).
RELEASE := -c release --static-swift-stdlib

bench: setup
	$(SWIFT) build $(RELEASE) -Xlinker -s --product quarry
	$(SWIFT) build $(RELEASE) -Xlinker -s --product QuarryBench
	.build/release/QuarryBench --quarry .build/release/quarry

# The release binary, stripped, into $(PREFIX)/bin (one static executable: nothing else to copy).
install: setup
	$(SWIFT) build $(RELEASE) -Xlinker -s --product quarry
	install -d "$(PREFIX)/bin"
	install -m 755 .build/release/quarry "$(PREFIX)/bin/quarry"
	@echo "installed $(PREFIX)/bin/quarry"

# Lists again the functions start-up runs (needs valgrind), for the release link's order.
startup-order: setup
	$(SWIFT) build $(RELEASE) --product quarry
	python3 scripts/startup-order.py .build/release/quarry

# 200,000 seeded mutations through the binary: crashes, hangs (> 2 s) and unlocated errors.
fuzz: build
	python3 scripts/fuzz.py --quarry .build/debug/quarry --count $${COUNT:-200000} -j 2

clean:
	rm -rf .build
