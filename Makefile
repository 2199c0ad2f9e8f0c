# Two entry points: `make run` (the main job) and `make test` (the whole check).
# Both create .venv and install what they need on their own, so a fresh clone needs nothing else.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
REFERENCE_CORE := $(VENV)/reference/amplifier-core-2
OLD_MODULE_DISTS := $(addprefix amplifier-module-hooks-,approval logging progress-monitor redaction shell todo-reminder)
MODULE_PACKAGES := $(filter-out %.egg-info/,$(wildcard modules/*/amplifier_module_*/))

.PHONY: run test bench screenshot clean postgres

PG_BINDIR ?= /usr/lib/postgresql/15/bin

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall only when the project's metadata changes. PYTHONWARNINGS silences setuptools'
# advice about editable installs (one screenful per in-repo module), not errors.
$(STAMP): $(BIN)/python Makefile pyproject.toml $(wildcard modules/*/pyproject.toml)
	PYTHONWARNINGS=ignore $(BIN)/python -m pip install --quiet -e ".[dev]"
	@# The in-repo modules were renamed from hooks-* to ah-* (Amplifier publishes hooks-*);
	@# drop the old editable installs so their entry points do not linger in this venv.
	@$(BIN)/python -m pip uninstall --quiet -y $(OLD_MODULE_DISTS) >/dev/null 2>&1 || true
	@for m in modules/*/; do \
		if [ -f "$$m/pyproject.toml" ]; then \
			PYTHONWARNINGS=ignore $(BIN)/python -m pip install --quiet --no-deps -e "$$m" || exit 1; \
		fi; \
	done
	@# The reference's own amplifier-core 2.x, in a directory of its own (never on the venv's
	@# path): tests/amplifier/test_foreign_results.py runs modules against it in a subprocess.
	rm -rf $(REFERENCE_CORE)
	PYTHONWARNINGS=ignore $(BIN)/python -m pip install --quiet --no-deps --target $(REFERENCE_CORE) "amplifier-core>=2,<3"
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/amplifier-hooks run

# The shared-approvals tests start a throwaway PostgreSQL server (initdb + pg_ctl): make
# sure the binaries are there. Installing needs root; otherwise those tests skip and say why.
postgres:
	@if [ ! -x "$(PG_BINDIR)/initdb" ] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing postgresql for the shared-approvals tests"; \
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null \
			|| (apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null); \
		else \
			echo "warning: PostgreSQL binaries missing and not root: the PostgreSQL tests will skip"; \
		fi; \
	fi

test: $(STAMP) postgres
	$(BIN)/ruff check .
	$(BIN)/ruff format --check amplifier_hooks modules
	$(BIN)/mypy amplifier_hooks $(MODULE_PACKAGES)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python -m benchmarks

screenshot: $(STAMP)
	$(BIN)/python scripts/screenshot_approval.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
