# Two entry points: `make run` (play) and `make test` (everything CI checks).
# Both install what they need (.venv, web/node_modules, Debian's chromium) on first use.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.run-stamp
STAMP := $(VENV)/.installed-stamp
WEB_STAMP := web/node_modules/.installed-stamp
CHROMIUM := /usr/bin/chromium
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install web web-build chromium haproxy lint typecheck test-py test-web bench dist clean

# `make run` installs only what the game needs; `make test` adds the dev and research extras.
$(RUN_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP) $(RUN_STAMP)

install: $(STAMP)

$(WEB_STAMP): web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	touch $(WEB_STAMP)

web: $(WEB_STAMP)

web-build: web
	cd web && npm run build

chromium:
	@test -x $(CHROMIUM) || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-core fonts-noto-color-emoji >/dev/null; }

# tests/ops/test_cluster.py puts HAProxy in front of three servers.
haproxy:
	@test -x /usr/sbin/haproxy || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null; }

run: $(RUN_STAMP) web-build
	$(BIN)/dixit serve --host $(HOST) --port $(PORT)

lint: install web
	$(BIN)/ruff check src tests bench examples setup.py
	$(BIN)/ruff format --check src tests bench examples setup.py
	$(BIN)/lint-imports
	cd web && npm run --silent lint

typecheck: install
	$(BIN)/mypy

test-web: web
	cd web && npm test --silent

# tests/packaging builds the wheel (as `make dist` does), installs it into a fresh virtual
# environment from the package index and serves the game from it.
test-py: install web-build chromium haproxy
	$(BIN)/pytest

test: lint typecheck test-web test-py

bench: install
	$(BIN)/python bench/engine.py

# dist/: the sdist and the wheel, both carrying the built web client (setup.py).
dist: install web-build
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

clean:
	rm -rf $(VENV) web/node_modules web/dist dist build .pytest_cache .mypy_cache .ruff_cache
