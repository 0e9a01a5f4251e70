# Quick start: `make serve` (build and serve the site) and `make test` (every test).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SITE_READY := $(VENV)/.installed-docs
READY := $(VENV)/.installed
# Every dependency from a hashed lock (pip refuses any other file), then rulesref itself,
# editable, with the pinned build backend the lock installed (an editable install has no
# file to hash).
PIP := $(BIN)/python -m pip install --quiet --require-hashes --no-deps
# The site is built by ProperDocs, the maintained continuation of MkDocs 1.x (pinned).
DOCS := $(BIN)/properdocs
CONFIG := -f mkdocs.yml
BUILD_BACKEND := $(shell sed -n 's/^requires = \["\([^"]*\)"\]$$/\1/p' pyproject.toml)

.PHONY: serve preview site site-check test anchors lock clean

# The site needs only requirements/site.txt; the tests add requirements/test.txt.
$(SITE_READY): pyproject.toml requirements/site.txt
	$(PYTHON) -m venv $(VENV)
	$(PIP) -r requirements/site.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

$(READY): $(SITE_READY) requirements/test.txt
	$(PIP) -r requirements/test.txt
	touch $@

# For writing: rebuilds on every edit and reloads the browser (responses gzipped on the fly).
serve: $(SITE_READY) workbench-assets
	$(DOCS) serve $(CONFIG) --strict --dev-addr 127.0.0.1:8000

# As a host serves it: the built site/ with its precompressed twins (tools/serve_site.py).
preview: site
	$(BIN)/python tools/serve_site.py site --port 8000

site: $(SITE_READY) workbench-assets
	$(DOCS) build $(CONFIG) --strict --site-dir site

# Spread over the machine's cores (pytest-xdist): the workers share one build of the site,
# made in the background from the start, and take the tests in the order tests/conftest.py
# gives (those that need no site first, then the longest modules of the site).
test: $(READY) /usr/bin/chromium workbench-assets
	$(BIN)/pytest -n auto --dist load

# The strict ProperDocs build and every published anchor, links and assets, alone.
site-check: $(READY) workbench-assets
	$(BIN)/pytest -q tests/test_site.py tests/test_site_hooks.py

# The browser tests drive Debian's Chromium (Playwright never downloads a browser here).
/usr/bin/chromium:
	@command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] || { echo "make test needs \
	Chromium at /usr/bin/chromium for the browser tests: install it (Debian: apt-get install \
	chromium, as root) and run make test again" >&2; exit 2; }
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

# The Workbench runs rulesref in the page through Pyodide: its runtime is downloaded over
# HTTPS from the npm registry (pinned: sha512 of the package, sha256 of each file) into a
# cache outside the clone, with Python alone (tools/fetch_pyodide.py); each site build
# copies it from there (docs/hooks/pyodide_assets.py), checked against the pins again.
.PHONY: workbench-assets
workbench-assets: $(SITE_READY)
	@$(BIN)/python tools/fetch_pyodide.py --cache-only

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

# Refresh the pins from a fresh resolve of pyproject.toml: the hashed locks make installs
# from (tools/lock.py), and requirements/constraints.txt for the `bench` extra as well.
lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --upgrade pip
	.lock-venv/bin/python -m pip install --quiet '.[docs,test,bench]' $(BUILD_BACKEND) editables
	.lock-venv/bin/python -m pip freeze --all --exclude-editable | grep -v '^rulesref' > requirements/constraints.txt
	.lock-venv/bin/python tools/lock.py
	rm -rf .lock-venv

clean:
	rm -rf $(VENV) site .pytest_cache .hypothesis
