# soloshop — `make run` (the tour) and `make test` (the whole suite); both install what is missing.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The browser build of the C cores (engines/wasm.py) and the Node that tests it.
WASM_APT_PACKAGES := clang lld wasi-libc libclang-rt-dev-wasm32 nodejs
# Debian packages the tools and tests use; installed with apt-get only when absent (defined
# after WASM_APT_PACKAGES: `:=` expands what is defined so far).
APT_PACKAGES := git nginx chromium ffmpeg espeak-ng gnugo gcc libc6-dev python3-venv python3-dev sox curl \
	$(WASM_APT_PACKAGES)
PY_SOURCES := pyproject.toml $(wildcard setup.py) $(wildcard engines/*/core/*.c engines/*/core/*.h engines/*/build_*.py engines/cbuild.py engines/platform/*.h)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PYTEST_ARGS ?=

# `make check`: every test that needs no system service or external tool (see the markers in
# pyproject.toml), on both cores, the parity tests with half their random games.
SERVICES := nginx or chromium or gnugo or ffmpeg or espeak or asan or ray or wasm or npm
CORE_APT_PACKAGES := git gcc libc6-dev python3-venv python3-dev curl

.PHONY: run test check check-isolated print-services stop system core-system venv wasm clean help

help:
	@echo "make run   - install what is missing, then run the tour (tracker, review instance, demo video)"
	@echo "make test  - install what is missing, then run the whole test suite"
	@echo "make check - the fast subset: every test that needs no system service (under a minute)"
	@echo "make stop  - stop what make run started"

run: system venv wasm
	$(BIN)/python scripts/tour.py run

stop:
	@if [ -x $(BIN)/python ]; then $(BIN)/python scripts/tour.py stop; else echo "nothing to stop"; fi

test: system venv wasm
	$(BIN)/python -m pytest $(PYTEST_ARGS)

check: core-system venv
	SOLOSHOP_PARITY_SCALE=0.5 $(BIN)/python -m pytest -q -n 2 -m "not ($(SERVICES))" $(PYTEST_ARGS)

# The markers' own test: `make check` with those components hidden (root; see the script).
check-isolated: core-system venv
	scripts/check_isolated.sh $(PYTEST_ARGS)

print-services:
	@echo "$(SERVICES)"

# System packages: only the missing ones, so a provisioned machine needs no network.
# Packages named by their command and installed only when the command is missing: another
# package may provide it (NodeSource's nodejs bundles npm and conflicts with Debian's npm).
system: PACKAGES = $(APT_PACKAGES)
system: COMMAND_PACKAGES = npm
core-system: PACKAGES = $(CORE_APT_PACKAGES)
system core-system:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	for c in $(COMMAND_PACKAGES); do command -v $$c >/dev/null || missing="$$missing $$c"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$missing; \
	fi

venv: $(VENV)/.installed

# The C cores for the browser: built (never committed) into engines/web/static/wasm/.
WASM_OUT := engines/web/static/wasm
wasm: $(WASM_OUT)/.built
$(WASM_OUT)/.built: $(VENV)/.installed engines/wasm.py $(wildcard engines/*/core/*.c engines/*/core/*.h engines/platform/*.h)
	$(BIN)/python -m engines.wasm
	@touch $@

# Re-installs when packaging or the C cores change (pip install -e builds the cffi modules).
$(VENV)/.installed: $(PY_SOURCES)
	@[ -x $(BIN)/python ] || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,cluster]'
	@touch $@

clean:
	rm -rf $(VENV) build *.egg-info var
