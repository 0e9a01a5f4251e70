# Quick start: `make serve` (build and serve the site) and `make test` (every test).
PYTHON ?= python3
export NO_MKDOCS_2_WARNING := 1
VENV := .venv
BIN := $(VENV)/bin
SITE_READY := $(VENV)/.installed-docs
READY := $(VENV)/.installed
PIP := $(BIN)/python -m pip install --quiet -c requirements/constraints.txt

.PHONY: serve site test anchors lock clean

# The site needs only the `docs` extra; the tests add the `test` extra (Playwright, ...).
$(SITE_READY): pyproject.toml requirements/constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PIP) --upgrade pip
	$(PIP) -e '.[docs]'
	touch $@

$(READY): $(SITE_READY)
	$(PIP) -e '.[docs,test]'
	touch $@

serve: $(SITE_READY) workbench-assets
	$(BIN)/mkdocs serve --strict --dev-addr 127.0.0.1:8000

site: $(SITE_READY) workbench-assets
	$(BIN)/mkdocs build --strict --site-dir site

test: $(READY) /usr/bin/chromium workbench-assets
	$(BIN)/pytest

# The browser tests drive Debian's Chromium (Playwright never downloads a browser here).
/usr/bin/chromium:
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

# The Workbench runs rulesref in the page through Pyodide: its runtime and wheels are
# downloaded (npm, pip; pinned with sha256) and byte-compiled by Pyodide under Node once per
# set of pins, into a cache outside the clone (tools/fetch_pyodide.py); each site build
# copies them from there (docs/hooks/pyodide_assets.py). Debian's nodejs and npm if missing.
.PHONY: workbench-assets node
workbench-assets: $(SITE_READY) node
	$(BIN)/python tools/fetch_pyodide.py --cache-only

node:
	@command -v node >/dev/null && command -v npm >/dev/null || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm; }

# Record the anchors of newly published rules and headings (they may never be removed).
anchors: site $(READY)
	$(BIN)/python tests/test_site.py site

# Rewrite the golden snapshot of every published number from the current code
# (tests/test_snapshot.py compares it); then review `git diff tests/snapshots`.
.PHONY: snapshot
snapshot: $(READY)
	$(BIN)/python tests/test_snapshot.py

# Mutation testing of the rules modules against the fast tests (not part of `make test`;
# settings in pyproject.toml [tool.mutmut]). Resumes where it stopped; `mutmut results`
# lists the survivors, `mutmut show NAME` shows one. MUTANTS='rulesref.dice*' narrows it.
.PHONY: mutants
mutants: $(READY)
	nice -n 10 $(BIN)/mutmut run --max-children 2 $(MUTANTS)
	$(BIN)/mutmut results

# Refresh the pins from a fresh resolve of pyproject.toml.
lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --upgrade pip
	.lock-venv/bin/python -m pip install --quiet '.[docs,test,bench]'
	.lock-venv/bin/python -m pip freeze --all --exclude-editable | grep -v '^rulesref' > requirements/constraints.txt
	rm -rf .lock-venv

clean:
	rm -rf $(VENV) site .pytest_cache .hypothesis
