PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# `make run` installs what serving needs (the package, its web extra, the compiled engine);
# `make test` installs everything the tests need. Each stamp says which install is done.
SERVE := $(VENV)/.serve
FULL := $(VENV)/.full
BUILT := $(VENV)/.built
# axe-core from the npm registry, the accessibility check the browser tests run (package-lock.json pins it)
AXE := node_modules/.installed
# the modules setup.py compiles, read from its list
COMPILED := $(shell sed -n 's/^    "\(src\/.*\.py\)",$$/\1/p' setup.py)

.PHONY: test run bench build clean

# A newer pip resolves and installs about twice as fast as the one a venv starts with; --no-compile leaves
# each installed module's bytecode to its first import, so modules nobody imports cost nothing.
$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip==26.3

# The install compiles the engine with mypyc (setup.py); MILLEBORNES_PURE=1 keeps it pure Python.
$(SERVE): pyproject.toml setup.py | $(PY)
	$(PY) -m pip install --no-compile -e '.[web]'
	touch $(SERVE) $(BUILT)

$(FULL): pyproject.toml setup.py | $(PY)
	$(PY) -m pip install --no-compile -e '.[dev,web,ray,rl]'
	touch $(FULL) $(SERVE) $(BUILT)

# An edited engine module is compiled again: its old extension would be imported instead of it.
# pip builds it (mypy comes with the build requirements), so a serving-only venv can rebuild too.
$(BUILT): $(COMPILED) | $(SERVE)
	$(PY) -m pip install -q --no-deps -e .
	touch $(BUILT)

build: $(BUILT)

# npm ci installs exactly package-lock.json into node_modules (git ignores it). Without npm the accessibility
# test skips on a developer's machine (CI installs npm, and a skip fails there).
$(AXE): package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund --loglevel=error && touch $(AXE); \
	else echo "npm is missing: tests/test_axe.py will skip (Debian: apt-get install npm)"; fi

# pytest exit code 5 means "no tests collected": treat it as success.
test: $(FULL) $(BUILT) $(AXE)
	$(PY) -m pytest; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "no tests collected"; exit 0; fi; \
	exit $$rc

# The browser game at http://127.0.0.1:8000 (docs/web.md); Ctrl+C stops it.
run: $(SERVE) $(BUILT)
	$(VENV)/bin/millebornes serve

bench: $(BUILT)
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) node_modules .pytest_cache .hypothesis build dist src/*.egg-info
	find src -name '*.so' -delete
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
