PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed
BUILT := $(VENV)/.built
# the modules setup.py compiles, read from its list
COMPILED := $(shell sed -n 's/^    "\(src\/.*\.py\)",$$/\1/p' setup.py)

.PHONY: test run bench build clean

# The install compiles the engine with mypyc (setup.py); MILLEBORNES_PURE=1 keeps it pure Python.
$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --upgrade pip
	$(VENV)/bin/python -m pip install -e '.[dev,web,ray,rl]'
	touch $(STAMP) $(BUILT)

# An edited engine module is compiled again: its old extension would be imported instead of it.
$(BUILT): $(STAMP) $(COMPILED)
	$(VENV)/bin/python setup.py -q build_ext --inplace --force
	touch $(BUILT)

build: $(BUILT)

# pytest exit code 5 means "no tests collected": treat it as success.
test: $(BUILT)
	$(VENV)/bin/python -m pytest; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "no tests collected"; exit 0; fi; \
	exit $$rc

# The browser game at http://127.0.0.1:8000 (docs/web.md).
run: $(BUILT)
	$(VENV)/bin/millebornes serve

bench: $(BUILT)
	$(VENV)/bin/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build dist src/*.egg-info
	find src -name '*.so' -delete
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
