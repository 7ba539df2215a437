PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: test run bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --upgrade pip
	$(VENV)/bin/python -m pip install -e '.[dev,web,ray,rl]'
	touch $(STAMP)

# pytest exit code 5 means "no tests collected": treat it as success.
test: $(STAMP)
	$(VENV)/bin/python -m pytest; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "no tests collected"; exit 0; fi; \
	exit $$rc

# The browser game at http://127.0.0.1:8000 (docs/web.md).
run: $(STAMP)
	$(VENV)/bin/millebornes serve

bench: $(STAMP)
	$(VENV)/bin/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build dist src/*.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
