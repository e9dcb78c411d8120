"""The Makefile deletes nothing outside its checkout, whatever its path, and `make help` lists
every target.

The real ``make`` runs in a copy of the checkout whose path holds a space, ``…/p/attnspec copy``,
beside a sentinel folder ``…/p/attnspec``: the path an unquoted ``rm -rf $(CURDIR)/_build`` splits
into ``…/p/attnspec`` and ``copy/_build``. ``make clean`` needs no virtualenv.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.helpers import ROOT, copy_checkout


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    """A copy of the checkout at ``…/p/attnspec copy``, with a sentinel folder ``…/p/attnspec``."""
    parent = tmp_path_factory.mktemp("p")
    sentinel = parent / "attnspec"
    (sentinel / "_build").mkdir(parents=True)
    (sentinel / "keep.txt").write_text("not the checkout's\n")
    return copy_checkout(parent / "attnspec copy")


def make(checkout: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["make", "--no-print-directory", *args],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_clean_in_a_path_with_a_space_removes_only_its_own_build(checkout):
    sentinel = checkout.parent / "attnspec"
    (checkout / "_build" / "html").mkdir(parents=True, exist_ok=True)
    (checkout / "_build" / "html" / "index.html").write_text("<html></html>\n")
    done = make(checkout, "clean")
    assert done.returncode == 0, done.stderr
    assert not (checkout / "_build").exists()
    assert (sentinel / "keep.txt").is_file() and (sentinel / "_build").is_dir()


def test_portable_in_a_path_with_a_space_removes_only_its_own_cache(checkout):
    """The issue's reproduction: ``make portable`` removed the sibling ``…/p/attnspec``.

    The virtualenv is a stand-in (its stamp names this checkout and is newer than the locks, so
    nothing is installed, and its ``python`` only records its arguments): only the Makefile's own
    commands run.
    """
    sentinel = checkout.parent / "attnspec"
    bin_ = checkout / ".venv" / "bin"
    bin_.mkdir(parents=True, exist_ok=True)
    (bin_ / "python").write_text('#!/bin/sh\nprintf "%s\\n" "$@" > "$(dirname "$0")/args"\n')
    (bin_ / "python").chmod(0o755)
    (checkout / ".venv" / ".installed").write_text(f"{checkout}\n")  # made for this checkout
    cache = checkout / "_build" / "test-cache"
    (cache / "old").mkdir(parents=True, exist_ok=True)
    done = make(checkout, "portable")
    assert (sentinel / "keep.txt").is_file() and (sentinel / "_build").is_dir(), done.stdout
    assert done.returncode == 0, done.stderr
    assert not cache.exists() and (checkout / "_build").is_dir()
    args = (bin_ / "args").read_text().splitlines()
    assert args[:3] == ["tests/portable_env.py", str(cache), "--"]  # one word, space and all


@pytest.mark.parametrize("where", ["outside", "inside"])
def test_clean_removes_a_linked_build_folder_not_what_it_points_to(checkout, tmp_path, where):
    """``ln -s important _build; make clean`` deleted ``important/``."""
    target = tmp_path / "outside" if where == "outside" else checkout / "important"
    target.mkdir()
    (target / "keep.txt").write_text("x\n")
    subprocess.run(["rm", "-rf", "--", str(checkout / "_build")], check=True)
    (checkout / "_build").symlink_to(target)
    try:
        done = make(checkout, "clean")
        assert done.returncode == 0, done.stderr
        assert not (checkout / "_build").is_symlink()
        assert (target / "keep.txt").is_file()
    finally:
        if (checkout / "_build").is_symlink():
            (checkout / "_build").unlink()
        subprocess.run(["rm", "-rf", "--", str(checkout / "important")], check=True)


@pytest.mark.parametrize(
    "path, inside",
    [
        ("$(CURDIR)/_build/x", True),
        ("_build/x", True),
        ("$(CURDIR)", False),  # the checkout itself is not strictly inside it
        ("$(CURDIR)/", False),
        ("$(CURDIR)/..", False),
        ("$(CURDIR)/_build/..", False),  # the checkout again
        ("$(CURDIR)/_build/.", True),
        ("$(CURDIR)/../attnspec", False),  # the sentinel sibling
        ("$(CURDIR)/_build/../../attnspec", False),
        ("/nonexistent/attnspec", False),
    ],
)
def test_remove_acts_only_strictly_inside_the_checkout(checkout, path, inside, tmp_path):
    """``$(call remove,PATH)``, the Makefile's only way to delete, on paths inside and outside."""
    (checkout / "_build" / "x").mkdir(parents=True, exist_ok=True)
    extra = tmp_path / "probe.mk"
    extra.write_text(f"probe:\n\t$(call remove,{path})\n")
    try:
        done = make(checkout, "-f", "Makefile", "-f", str(extra), "probe")
        assert done.returncode == (0 if inside else 2), done.stderr
        assert (checkout / "_build" / "x").exists() is not inside
        assert inside or "refusing to remove" in done.stderr
        assert (checkout.parent / "attnspec" / "keep.txt").is_file()
        assert (checkout / "Makefile").is_file()
    finally:
        subprocess.run(["rm", "-rf", "--", str(checkout / "_build")], check=True)


def test_a_copied_checkout_makes_its_own_virtualenv(checkout):
    """After ``cp -a``, the copy's .venv ran the original's code (editable
    install, shebangs) and ``make install`` kept it, its stamp being newer than the locks."""
    venv = checkout / ".venv"
    venv.mkdir(exist_ok=True)
    stamp = venv / ".installed"
    try:
        stamp.write_text("/elsewhere/attnspec\n")  # the original's path: this is a copy
        plan = make(checkout, "-n", "install")
        assert plan.returncode == 0, plan.stderr
        assert "was made for '/elsewhere/attnspec' and not for this checkout" in plan.stdout
        assert 'rm -rf -- "$target"' in plan.stdout and 'path=".venv"' in plan.stdout
        stamp.write_text(f"{checkout}\n")  # made for this checkout, newer than the locks
        assert make(checkout, "-q", "install").returncode == 0
    finally:
        subprocess.run(["rm", "-rf", "--", str(venv)], check=True)


@pytest.mark.parametrize("name", ["q$(touch PWNED)x", "q`touch PWNED`x", 'q"x', "q\\x"])
def test_a_checkout_path_the_shell_would_expand_is_refused_before_any_recipe(tmp_path, name):
    """In ``…/q$(touch PWNED)x/``, ``make clean`` ran ``touch PWNED`` (the path
    sits in double quotes, where ``$(…)`` still expands) and kept ``_build``; a ``"`` broke the
    quoting."""
    checkout = tmp_path / name
    (checkout / "_build").mkdir(parents=True)
    (checkout / "Makefile").write_bytes((ROOT / "Makefile").read_bytes())
    done = make(checkout, "clean")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert f"the checkout's path '{checkout}' holds {name[1]}" in done.stderr
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["Makefile", "_build", name]


def test_a_checkout_path_holding_a_newline_is_refused_before_any_recipe(tmp_path):
    """In ``…/q<newline>touch PWNEDNL``, ``make -i clean`` ran ``touch PWNEDNL``."""
    checkout = tmp_path / "q\ntouch PWNEDNL"
    (checkout / "_build").mkdir(parents=True)
    (checkout / "Makefile").write_bytes((ROOT / "Makefile").read_bytes())
    for flags in ([], ["-i"]):
        done = make(checkout, *flags, "clean")
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and "holds a newline" in done.stderr
        assert "q\\ntouch PWNEDNL" in done.stderr
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["Makefile", "_build", checkout.name]


def test_help_lists_every_target_with_its_line():
    """``make help`` (no virtualenv needed) prints each target of the Makefile once, with the line
    of the ``## `` comment above it; ``install`` stays the default target (the first)."""
    text = (ROOT / "Makefile").read_text()
    targets = re.findall(r"^([a-z][\w-]*):(?!=)", text, flags=re.M)
    phony = text.split(".PHONY:", 1)[1].split("\n", 1)[0].split()
    assert targets[0] == "install" and sorted(targets) == sorted(phony) and "help" in targets
    listed = make(ROOT, "help")
    assert listed.returncode == 0, listed.stderr
    rows = [line.split(None, 1) for line in listed.stdout.splitlines()]
    assert [row[0] for row in rows] == targets
    assert all(len(row) == 2 and row[1].strip() for row in rows), listed.stdout
