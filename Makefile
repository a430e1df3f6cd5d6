# soloshop — `make run` (the tour) and `make test` (the whole suite); both install what is missing.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Debian packages the tools and tests use; installed with apt-get only when absent.
APT_PACKAGES := git nginx chromium ffmpeg espeak-ng gnugo gcc libc6-dev python3-venv python3-dev sox
PY_SOURCES := pyproject.toml $(wildcard setup.py) $(wildcard engines/*/core/*.c engines/*/core/*.h engines/*/build_*.py)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PYTEST_ARGS ?=

.PHONY: run test stop system venv clean help

help:
	@echo "make run   - install what is missing, then run the tour (tracker, review instance, demo video)"
	@echo "make test  - install what is missing, then run the whole test suite"
	@echo "make stop  - stop what make run started"

run: system venv
	$(BIN)/python scripts/tour.py run

stop:
	@if [ -x $(BIN)/python ]; then $(BIN)/python scripts/tour.py stop; else echo "nothing to stop"; fi

test: system venv
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# System packages: only the missing ones, so a provisioned machine needs no network.
system:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$missing; \
	fi

venv: $(VENV)/.installed

# Re-installs when packaging or the C cores change (pip install -e builds the cffi modules).
$(VENV)/.installed: $(PY_SOURCES)
	@[ -x $(BIN)/python ] || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	@touch $@

clean:
	rm -rf $(VENV) build *.egg-info var
