PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: test run bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --upgrade pip
	$(VENV)/bin/python -m pip install -e '.[dev,ray]'
	touch $(STAMP)

# pytest exit code 5 means "no tests collected": treat it as success.
test: $(STAMP)
	$(VENV)/bin/python -m pytest; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "no tests collected"; exit 0; fi; \
	exit $$rc

# For now a headless simulation; the web server will replace this later.
run: $(STAMP)
	$(VENV)/bin/millebornes simulate --ruleset classic --players 2 --games 20 --seed 1

bench: $(STAMP)
	$(VENV)/bin/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build dist src/*.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
