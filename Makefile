# Status codes of CANN's LLM-DataDist, HIXL and ADXL: one catalog, every output generated from it.
#
#   make generate    regenerate every output from catalog/
#   make test        drift check of the committed outputs, then the whole test suite
#   make test-fast   the edit-test loop: drift check, bad catalogs, header, module
#
# Each creates .venv/ first when it is missing, too old, or pyproject.toml changed.

SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
# Empty: scripts/bootstrap picks the first python3.11+ on PATH. Name one to override.
PYTHON_BOOT ?=
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=
# make test-fast collects only the modules that hold its tests (tests/conftest.py FAST)
FAST_TESTS := tests/test_bad_inputs.py tests/test_c_header.py tests/test_python_module.py
# pytest-xdist: one worker per core; a module's tests stay on one worker (they share fixtures)
PYTEST_JOBS ?= -n auto --dist loadscope
# make publish: where the site goes and the URL it is served at (sitemap, canonical links)
PUBLISH_REMOTE ?= origin
PUBLISH_BRANCH ?= gh-pages
SITE_URL ?=
# make serve
SERVE_ADDR ?= 127.0.0.1:8000
# make audit-upstream UPSTREAM="hicann/ge=../ge hicann/hixl=../hixl"
UPSTREAM ?=

# These values reach the commands through the environment only ("$$SITE_URL" below), never
# pasted into a recipe, so no value is ever read by the shell (a quote in SITE_URL ran a
# command), nor by make itself ($(value ...): a value's own $(...) stays text).
VALUES := PYTHON_BOOT PUBLISH_REMOTE PUBLISH_BRANCH SITE_URL SERVE_ADDR UPSTREAM
$(foreach v,$(VALUES),$(eval override $(v) := $$(value $(v))))
export $(VALUES)

export NO_MKDOCS_2_WARNING := 1

.PHONY: help venv generate check validate test test-fast docs serve publish audit-upstream bench clean FORCE

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  make %-15s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# Rebuilt when pyproject.toml changes, or when .venv/'s interpreter is gone or too old.
VENV_FITS := $(shell $(PY) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null && echo yes)
$(STAMP): pyproject.toml $(if $(VENV_FITS),,FORCE)
	@scripts/bootstrap $(VENV) $(STAMP) "$$PYTHON_BOOT"

FORCE:

venv: $(STAMP) ## create .venv/ with the pinned dependencies

generate: $(STAMP) ## regenerate every output from the catalog (a second run changes nothing)
	$(PY) -m generator generate

check: $(STAMP) ## fail when a committed output is stale, missing or orphaned; writes nothing
	$(PY) -m generator check

validate: $(STAMP) ## check the catalog only
	$(PY) -m generator validate

test: $(STAMP) ## drift check on the committed outputs, then the whole test suite
	$(PY) -m generator check
	scripts/ensure-browser
	$(PY) -m pytest $(PYTEST_JOBS) $(PYTEST_ARGS)

test-fast: $(STAMP) ## the edit-test loop: drift check, bad catalogs, header compiled, module imported
	$(PY) -m generator check
	$(PY) -m pytest -q -m fast -n auto --dist worksteal $(PYTEST_ARGS) $(FAST_TESTS)

docs: $(STAMP) ## build the site into site/build/, and a copy to open from disk into site/build-offline/ (and .zip)
	$(PY) -m generator docs

serve: $(STAMP) ## serve the site on http://$(SERVE_ADDR)/ and regenerate it when the catalog changes
	$(PY) -m generator serve --dev-addr="$$SERVE_ADDR"

publish: $(STAMP) ## build the site for SITE_URL and push it to PUBLISH_BRANCH of PUBLISH_REMOTE
	$(PY) -m generator publish --remote="$$PUBLISH_REMOTE" --branch="$$PUBLISH_BRANCH" --site-url="$$SITE_URL"

audit-upstream: $(STAMP) ## audit every edition against upstream copies: UPSTREAM="owner/name=DIR ..."
	@test -n "$$UPSTREAM" || { echo 'usage: make audit-upstream UPSTREAM="hicann/ge=DIR hicann/hixl=DIR libochao-huawei/hixl=DIR"' >&2; exit 2; }
	set -f; args=(); for u in $$UPSTREAM; do args+=(--upstream="$$u"); done; $(PY) -m generator audit "$${args[@]}"

bench: $(STAMP) ## time validate, generate and check from 100 to 10,000 codes, against honest floors
	$(PY) -m generator.bench

clean: ## remove the built site and caches (keeps .venv/ and every committed output)
	rm -rf site/build site/build-offline site/build-offline.zip .pytest_cache .hypothesis tests/.artifacts .generate-cache.json
