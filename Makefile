# Two commands on a fresh machine (Python 3.11, make, root):
#   make demo   - create .venv, install satgrid, audit the bundled example puzzles
#   make test   - install the test extra (and, as root, the external SAT solvers) and run the suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test install install-test solvers pzpr bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .

install-test: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python -m pip install --quiet -e '.[png]' || echo "cairosvg not installed: PNG output and its test will be skipped"
	$(BIN)/python -m pip install --quiet -e '.[dask,parquet]' || echo "dask or pyarrow not installed: the batch tests that need them will be skipped"

demo: install
	$(BIN)/satgrid demo

# External SAT solvers (Debian packages) for the external-solver tests; needs root.
solvers:
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  missing=""; for b in cadical minisat picosat cryptominisat5; do command -v $$b >/dev/null || missing=1; done; \
	  if [ -n "$$missing" ]; then apt-get update -qq && apt-get install -y -qq cadical minisat picosat cryptominisat >/dev/null; fi; \
	else echo "not root: external solvers not installed; tests that need them will be skipped"; fi

# pzpr 0.10.1 (the puzz.link engine, an npm package) for the URL/pzprv3 cross-checks in
# tests/test_pzpr.py, installed into tests/node/ (ignored by git); skipped when npm is missing.
pzpr:
	@if command -v npm >/dev/null; then \
	  [ -f tests/node/node_modules/pzpr/package.json ] || npm install --silent --no-audit --no-fund --no-save --prefix tests/node pzpr@0.10.1; \
	else echo "npm not found: pzpr not installed; the pzpr cross-checks will be skipped when node is missing too"; fi

# one pytest worker per core (pytest-xdist): the tests are independent and CPU-bound
test: install-test solvers pzpr
	$(BIN)/python -m pytest -q -n auto

bench: install-test
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	for b in bench/bench_*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
