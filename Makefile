# The newest supported Python on this machine that runs (on PATH, else in pyenv's versions, whose shims on PATH do
# not run a version that is not selected), else python3; PYTHON=... picks another.
PYTHON ?= $(shell for v in 3.13 3.12 3.11; do \
	for p in $$(command -v python$$v) $$(ls -d $(HOME)/.pyenv/versions/$$v.*/bin/python$$v 2>/dev/null | sort -Vr); do \
	$$p -c '' 2>/dev/null && echo $$p && exit; done; done; echo python3)
PYTHON_VERSION := $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
ifeq ($(PYTHON_VERSION),)
$(error PYTHON=$(PYTHON) does not run)
endif
VENV := .venv
PY := $(VENV)/bin/python
# `make run` installs what serving needs (the package, its web extra, the compiled engine);
# `make test` installs everything the tests need. Each stamp says which install is done.
# Every install takes its exact versions from constraints.txt, which make lock exports from uv.lock, the universal
# lock (every supported Python and platform, hashed); the package itself asks for ranges (pyproject.toml).
LOCK := constraints.txt
SERVE := $(VENV)/.serve
FULL := $(VENV)/.full
BUILT := $(VENV)/.built
LEARN := $(VENV)/.learn
# from the npm registry (package-lock.json pins both): axe-core, the accessibility check the browser tests run, and
# TypeScript, whose tsc checks the pages' scripts (make lint)
NPM := node_modules/.installed
TSC := node_modules/.bin/tsc
# the modules setup.py compiles, read from its list
COMPILED := $(shell sed -n 's/^    "\(src\/.*\.py\)",$$/\1/p' setup.py)

.PHONY: test test-fast test-web bytecode lint types docs run bench build learn dist lock clean

# A newer pip resolves and installs about twice as fast as the one a venv starts with (and reads dependency
# groups); --no-compile leaves each installed module's bytecode to its first import, so modules nobody imports cost
# nothing. A venv of another Python (PYTHON changed, or an older checkout's) is made again.
$(PY): $(VENV)/.python-$(PYTHON_VERSION)
$(VENV)/.python-$(PYTHON_VERSION):
	@if [ -d $(VENV) ]; then echo "$(VENV) is not a Python $(PYTHON_VERSION) environment: making it again"; fi
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip==26.3
	touch $@

# The install compiles the engine with mypyc (setup.py); MILLEBORNES_PURE=1 keeps it pure Python.
$(SERVE): pyproject.toml setup.py $(LOCK) | $(PY)
	PIP_CONSTRAINT=$(CURDIR)/$(LOCK) $(PY) -m pip install --no-compile -e '.[web]'
	touch $(SERVE) $(BUILT)

# the package with every extra the tests use, and the project's dependency groups (PEP 735: dev, docs)
$(FULL): pyproject.toml setup.py $(LOCK) | $(PY)
	PIP_CONSTRAINT=$(CURDIR)/$(LOCK) $(PY) -m pip install --no-compile -e '.[all,openspiel]' --group dev --group docs
	touch $(FULL) $(SERVE) $(BUILT)

# MaskablePPO for the learning example (the learn extra, out of the groups): torch first and pinned, its CPU build,
# which this machine keeps for Python 3.11; left to resolve torch, pip would fetch a CUDA build of several GB. The
# package installed above is reused: pip reads the learn extra from it, and builds nothing. make test runs the
# example's test in nox's 3.11 session instead (noxfile.py); this is for running it here.
$(LEARN): $(FULL)
	PIP_CONSTRAINT=$(CURDIR)/$(LOCK) $(PY) -m pip install --no-compile torch==2.13.0
	PIP_CONSTRAINT=$(CURDIR)/$(LOCK) $(PY) -m pip install --no-compile 'millebornes[learn]'
	touch $(LEARN)

learn: $(LEARN)

# An edited engine module is compiled again: its old extension would be imported instead of it.
# pip builds it (mypy comes with the build requirements), so a serving-only venv can rebuild too.
$(BUILT): $(COMPILED) | $(SERVE)
	PIP_CONSTRAINT=$(CURDIR)/$(LOCK) $(PY) -m pip install -q --no-deps -e .
	touch $(BUILT)

build: $(BUILT)

# npm ci installs exactly package-lock.json into node_modules (git ignores it). Without npm the accessibility
# test skips on a developer's machine (CI installs npm, and a skip fails there), and make lint fails: its type
# check of the pages' scripts needs tsc.
$(NPM): package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund --loglevel=error && touch $(NPM); \
	else echo "npm is missing: tests/browser/test_axe.py will skip (Debian: apt-get install npm)"; fi

# The lint and the type check (config in pyproject.toml): the public API under strict flags, the rest plain.
# The pages' scripts are type-checked too (tsconfig.json: JavaScript with JSDoc types, nothing emitted), and the
# frames' types they read must be what tools/frame_types.py writes from web/tables/outbound.py now.
lint: $(FULL) $(NPM)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	@test -x $(TSC) || { echo "$(TSC) is missing: make lint needs npm to install TypeScript (Debian: apt-get install npm)"; exit 1; }
	$(TSC) --noEmit -p tsconfig.json
	$(PY) tools/frame_types.py --check

types: $(FULL)
	$(VENV)/bin/mypy

# The documentation site (zensical.toml) into site/, with Zensical: a broken link or reference, or any other
# warning, fails it (tools/build_docs.py).
docs: $(FULL)
	$(PY) tools/build_docs.py

# The whole suite on this Python (the newest here), then the short suite against a wheel built on each older Python
# (noxfile.py; 3.11's session also runs the learning example and the baseline table, whose torch build this machine
# keeps for 3.11 alone),
# the two Pythons at once (each builds from a copy of its own).
# Most tests wait on servers, browsers and processes rather than compute, so pytest-xdist runs a file per worker,
# more workers than cores (TEST_WORKERS=0 runs them in this process, one after another).
# pytest exit code 5 means "no tests collected": treat it as success.
TEST_WORKERS ?= 4
IN_NOX := tests/research/test_learn_example.py tests/research/test_baseline.py
test: lint types docs $(FULL) $(BUILT) $(NPM) bytecode
	@$(PY) --version
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --durations=25 $(addprefix --ignore=,$(IN_NOX)); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "no tests collected"; rc=0; fi; \
	[ $$rc -eq 0 ] || exit $$rc
	mkdir -p .nox; start=$$(date +%s); \
	$(VENV)/bin/nox -s api-3.11 > .nox/api-3.11.log 2>&1 & first=$$!; \
	$(VENV)/bin/nox -s api-3.12 > .nox/api-3.12.log 2>&1; second=$$?; \
	wait $$first; first=$$?; cat .nox/api-3.11.log .nox/api-3.12.log; \
	echo "nox (both Pythons at once) took $$(( $$(date +%s) - start )) s"; [ $$first -eq 0 ] && [ $$second -eq 0 ]

# The tests start hundreds of processes (servers, the command line, bots), each importing the web stack. Where
# PYTHONDONTWRITEBYTECODE is set (as on this project's machines) none of them writes the bytecode it compiles, so
# each compiled it all again: 3.7 s of CPU a server instead of 1.5. Compiled once here (a second run only looks),
# except the large packages no such process imports; a third-party file that does not compile (test data) is left.
NOT_COMPILED := /(torch|ray|open_spiel|scipy|matplotlib|playwright|mypy|mypyc|pip|setuptools|sympy|pygments/lexers)/
bytecode: $(FULL)
	-@$(PY) -m compileall -qq -j 0 -x '$(NOT_COMPILED)' $(VENV)/lib
	@$(PY) -m compileall -q -j 0 src

# The engine and the bots alone (tests/engine, tests/bots), the long simulations left out: the check to run after
# each edit of the rules or a bot.
test-fast: $(FULL) $(BUILT) bytecode
	$(PY) -m pytest -n $(TEST_WORKERS) -m "(engine or bots) and not slow" tests/engine tests/bots

# The web wing's in-process tests (tests/web through FastAPI's TestClient), the ones that start real `millebornes
# serve` processes (marker server) and the long ones left out: the check to run after each edit of the web wing.
# A file goes to a worker whole, as in make test: its tests share its module's fixtures.
test-web: $(FULL) $(BUILT) bytecode
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile -m "not server and not slow" tests/web

# This machine's share of a release, into dist/ (emptied first): the sdist, a manylinux wheel of the compiled engine
# for each of Python 3.11 to 3.14 found here (PATH or pyenv), and the pure-Python wheel for every other platform;
# twine checks them all (tools/dist.py, CONTRIBUTING.md).
dist: $(FULL)
	$(PY) tools/dist.py

# Resolve every dependency afresh (the newest versions in the ranges, for every supported Python and platform) into
# uv.lock, and export constraints.txt from it (tools/lock.py; tests/project/test_lock.py fails when either is stale).
lock: $(FULL)
	$(PY) tools/lock.py

# The browser game at http://127.0.0.1:8000 (docs/web.md); Ctrl+C stops it.
run: $(SERVE) $(BUILT)
	$(VENV)/bin/millebornes serve

bench: $(BUILT)
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) node_modules .nox site .cache .pytest_cache .hypothesis build dist src/*.egg-info
	find src -name '*.so' -delete
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
