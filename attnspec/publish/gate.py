"""The publication gate: the site is published only from a tree that passed ``make test``.

``python -m attnspec.publish.gate begin`` starts ``make test``: it refuses an environment that
steers pytest (:data:`STEERING`: ``PYTEST_ADDOPTS``, ``PYTEST_PLUGINS``, ... could make it collect
only, or deselect), records the tree as it is then (``_build/test-begin.json``) and forgets the
pass markers and tallies of earlier runs. Each step that passes leaves one (``gate passed lint``,
``gate passed tests``). The tests step counts as passed only for a full run (:func:`full_run`):
every test the suite collects (:func:`suite_tests`, no marker or keyword selection) ran and passed,
as the runs' tallies (``--tally``, :mod:`tests.tally`) record.
``python -m attnspec.publish.gate stamp`` ends ``make test``: only if every step (:data:`STEPS`)
left its marker in this run, and the tree is still the one it began with, it writes
``_build/tested.json`` with the content hash of the tested tree (:func:`~.tree.tree_hash`: every
file git does not ignore, read from the working tree), the counts of that full run (collected,
ran, passed), the content hash of the site as the book build left it (``gate built``, run as the
build ends, records each file's digest in ``_build/html-built.json``) and the book build's log
(``_build/book.log``). Outside a git checkout
it writes none (and ``make test`` still passes).

``python -m attnspec.publish.gate site`` (``make site``) copies ``_build/html`` to ``_build/site``
only when

- the tree is clean (nothing differs from HEAD, no untracked file), so the site has a commit, and
  no file git ignores lies under ``book/`` (the build would publish it:
  :func:`~.tree.ignored_sources`; nor is a stamp written while one does);
- the stamp exists and names this tree (the same hash), and its counts are those of
  a full run (as many tests ran and passed as the suite collects, and more than none);
- ``_build/book.log`` is the stamped one: no ``make test`` has run since, failing or not;
- ``_build/html`` is the stamped site, file for file as the book build left it (nothing a test
  wrote after the build, such as a probe page; contents are compared, never modification times,
  which a source copied into the site keeps).

Otherwise it refuses in one line and writes nothing. The copy is checked file by file against the
stamp and moved into place whole.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from .. import __version__
from ..core.atomic import write_json
from ..core.stopping import one_line
from .paths import ROOT
from .provenance import content_hash, file_digest
from .tree import (
    Refused,
    folder_digests,
    git,
    in_place,
    no_ignored_sources,
    tree_files,
    tree_hash,
)

BUILD = "_build"
STAMP = f"{BUILD}/tested.json"
HTML = f"{BUILD}/html"
SITE = f"{BUILD}/site"
#: the book build's log: ``make test`` writes it while building, so it ends when the build ends
BOOK_LOG = f"{BUILD}/book.log"
#: each file's digest in ``_build/html`` as the book build ended (:func:`record_build`)
BUILT = f"{BUILD}/html-built.json"
#: the tree as ``make test`` began, and the steps of ``make test`` that must pass for a stamp
BEGIN = f"{BUILD}/test-begin.json"
STEPS = ("lint", "tests")
#: the paths ``make test`` gives pytest (its ``$(NOTEBOOKS)`` and ``tests``); the suite is what
#: pytest collects from those that exist
SUITE = (
    "book/chapters",
    "book/intro.ipynb",
    "book/findings.ipynb",
    "book/notation.ipynb",
    "book/reproduce.ipynb",
    "tests",
)
#: the outcome of every test of ``make test``'s two pytest runs (``--tally``)
TALLIES = (f"{BUILD}/test-tally.json", f"{BUILD}/site-tally.json")


#: what changes which tests pytest collects or runs, from the environment
STEERING = ("PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTEST_DISABLE_PLUGIN_AUTOLOAD", "PYTHONPATH")


def steering(environ=None) -> list[str]:
    """The variables of :data:`STEERING` set in ``environ`` (default: this process's)."""
    environ = os.environ if environ is None else environ
    return [name for name in STEERING if name in environ]


def marker(step: str) -> str:
    """The pass marker of a step of ``make test``."""
    return f"{BUILD}/test-passed-{step}.json"


def record_build(root: Path = ROOT) -> Path:
    """Record :func:`~.tree.folder_digests` of ``_build/html`` as the book build ends, before any
    test of the built site runs (``make test``; ``built``)."""
    html = root / HTML
    if not html.is_dir():
        raise Refused(f"{HTML} is missing: the book build writes it")
    write_json(in_place(root, BUILT), folder_digests(html))
    return root / BUILT


def _built(root: Path) -> dict[str, str]:
    """The digests :func:`record_build` recorded (Refused if missing)."""
    try:
        built = json.loads((root / BUILT).read_text())
    except (OSError, ValueError):
        built = None
    if not isinstance(built, dict):
        raise Refused(f"{BUILT} is missing or unreadable: make test's book build writes it")
    return built


def begin(root: Path = ROOT) -> Path:
    """Record the tree as ``make test`` begins, and remove the pass markers and tallies of earlier
    runs; Refused if the environment steers pytest (:func:`steering`)."""
    steered = steering()
    if steered:
        raise Refused(
            f"{', '.join(steered)} is set and would steer pytest: unset it (make test runs the "
            "whole suite as it is)"
        )
    for path in (*map(marker, STEPS), *TALLIES):
        in_place(root, path).unlink(missing_ok=True)
    start = {"tree": tree_hash(root), "time": datetime.now(UTC).isoformat(timespec="seconds")}
    (root / BUILD).mkdir(exist_ok=True)
    write_json(in_place(root, BEGIN), start)
    return root / BEGIN


def passed(step: str, root: Path = ROOT) -> Path | None:
    """Leave the pass marker of ``step`` for the ``make test`` that began last; nothing when none
    began (``make lint`` alone)."""
    if step not in STEPS:
        raise Refused(f"unknown step {step!r}: the steps are {', '.join(STEPS)}")
    try:
        start = json.loads((root / BEGIN).read_text())
    except (OSError, ValueError):
        return None
    mark = {"begin": start}
    if step == "tests":
        mark["tests"] = full_run(root)
    write_json(in_place(root, marker(step)), mark)
    return root / marker(step)


def suite_tests(root: Path = ROOT) -> set[str]:
    """The id of every test of the suite: ``pytest --collect-only`` on :data:`SUITE`, with no
    selection, in an environment cleared of what steers pytest (Refused if collection fails)."""
    paths = [name for name in SUITE if (root / name).exists()]
    if not paths:
        raise Refused(f"none of {', '.join(SUITE)} exists: there is no test suite")
    env = {name: value for name, value in os.environ.items() if name not in steering()}
    options = ["-q", "-p", "no:cacheprovider", "--nbval", "--nbval-current-env"]
    options.append("--ignore-glob=book/chapters/.*")
    argv = [sys.executable, "-m", "pytest", "--collect-only", *options, *paths]
    done = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise Refused(f"collecting the suite failed (pytest status {done.returncode})")
    lines = done.stdout.splitlines()
    return set(lines[: lines.index("")] if "" in lines else lines)


def full_run(root: Path = ROOT) -> dict[str, int]:
    """The counts of this ``make test``: the tests the suite collects, how many of them ran and
    how many passed (every phase passed), from the :data:`TALLIES`; Refused unless every one
    ran and passed."""
    outcomes: dict[str, str] = {}
    for name in TALLIES:
        try:
            tally = json.loads((root / name).read_text())
            runs = tally["outcomes"].items()
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            raise Refused(f"{name} is missing or unreadable: make test writes it") from None
        for test, outcome in runs:
            if outcomes.get(test, "passed") == "passed":
                outcomes[test] = outcome
    suite = suite_tests(root)
    counts = {
        "collected": len(suite),
        "ran": sum(1 for test in suite if test in outcomes),
        "passed": sum(1 for test in suite if outcomes.get(test) == "passed"),
    }
    if not full(counts):
        raise Refused(
            f"{counts['ran']} of the {counts['collected']} tests of the suite ran and "
            f"{counts['passed']} passed: not a full run, no stamp written"
        )
    return counts


def full(counts) -> bool:
    """Whether ``counts`` are a full run's: as many tests ran and passed as were collected, and
    more than none."""
    if not isinstance(counts, dict):
        return False
    collected = counts.get("collected")
    return (
        type(collected) is int
        and collected > 0
        and (counts.get("ran") == counts.get("passed") == collected)
    )


def _tested_tree(root: Path) -> tuple[str, dict]:
    """The hash of the tree this run of ``make test`` tested, if every step passed on it, and the
    counts of its tests."""
    try:
        start = json.loads((root / BEGIN).read_text())
    except (OSError, ValueError):
        raise Refused(f"no make test has begun ({BEGIN} is missing): no stamp written") from None
    marks = {}
    for step in STEPS:
        try:
            mark = json.loads((root / marker(step)).read_text())
        except (OSError, ValueError):
            mark = None
        if not isinstance(mark, dict) or mark.get("begin") != start:
            raise Refused(f"the {step} step of this make test did not pass: no stamp written")
        marks[step] = mark
    counts = marks["tests"].get("tests")
    if not full(counts):
        raise Refused("the tests step of this make test was not a full run: no stamp written")
    if tree_hash(root) != start.get("tree"):
        raise Refused("the tree changed while make test ran: no stamp written")
    return start["tree"], counts


def write_stamp(root: Path = ROOT) -> Path:
    """Record that the tree ``make test`` began with passed every step (its last step)."""
    html, log = root / HTML, root / BOOK_LOG
    for path in (html, log, root / BUILT):
        if not path.exists():
            raise Refused(f"{path.relative_to(root)} is missing: make test builds it")
    no_ignored_sources(root)
    tree, counts = _tested_tree(root)
    stamp = {
        "version": __version__,
        "tree": tree,
        "tests": counts,
        "files": len(tree_files(root)),
        "html": content_hash(_built(root).items()),
        "book_log": {"sha256": file_digest(log), "mtime_ns": log.stat().st_mtime_ns},
        "time": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    write_json(in_place(root, STAMP), stamp)
    for path in (BEGIN, *map(marker, STEPS)):
        (root / path).unlink()
    return root / STAMP


def check(root: Path = ROOT) -> dict:
    """The stamp, if the tree may be published as it is (see the module docstring); else Refused."""
    changed = git(root, "status", "--porcelain", "--untracked-files=all").decode().splitlines()
    if changed:
        raise Refused(
            f"the tree is dirty (git status lists {len(changed)}, e.g. {changed[0][3:]!r}): "
            "commit, then make test"
        )
    no_ignored_sources(root)
    try:
        stamp = json.loads((root / STAMP).read_text())
    except (OSError, ValueError):
        stamp = None
    if not isinstance(stamp, dict):
        raise Refused(f"the tree is untested: no passing make test recorded ({STAMP})")
    if not full(stamp.get("tests")):
        raise Refused(
            f"the tree is untested: the stamp's counts ({stamp.get('tests')}) are not a full "
            "run's (as many tests ran and passed as the suite collects)"
        )
    if stamp.get("tree") != tree_hash(root):
        raise Refused("the tree is untested: it changed since the last passing make test")
    log = root / BOOK_LOG
    if not log.is_file() or {"sha256": file_digest(log), "mtime_ns": log.stat().st_mtime_ns} != (
        stamp.get("book_log")
    ):
        raise Refused("the tree is untested: a make test ran after the last passing one")
    html = root / HTML
    digests = folder_digests(html) if html.is_dir() else {}
    if content_hash(digests.items()) != stamp.get("html"):
        message = f"{HTML} is not the site the last passing make test built"
        try:
            built = _built(root)
        except Refused:
            raise Refused(message) from None
        late = sorted(name for name in digests if built.get(name) != digests[name])
        gone = sorted(set(built) - set(digests))
        if late or gone:
            message += (
                f": {len(late)} files written after the book build (by a test?) and {len(gone)} "
                f"removed, e.g. {(late or gone)[0]}"
            )
        raise Refused(message)
    return stamp


def publish(root: Path = ROOT) -> Path:
    """Copy the tested ``_build/html`` to ``_build/site``, whole or not at all; one publication
    at a time (:func:`attnspec.core.lock.reserved`), never through a symlink."""
    import tempfile

    from ..core.errors import InvalidInput
    from ..core.lock import reserved

    html, site = root / HTML, in_place(root, SITE)
    try:
        with reserved(site, SITE):
            stamp = check(root)
            work = Path(tempfile.mkdtemp(dir=root / BUILD, prefix=".site-", suffix=".tmp"))
            try:
                shutil.rmtree(work)
                shutil.copytree(html, work, symlinks=True)
                if content_hash(folder_digests(work).items()) != stamp["html"]:
                    raise Refused(f"the copy of {HTML} differs from it")
                shutil.rmtree(site, ignore_errors=True)
                os.replace(work, site)
            finally:
                shutil.rmtree(work, ignore_errors=True)
    except InvalidInput as exc:
        raise Refused(str(exc)) from None
    return site


def _act(action: str, argv: list[str], root: Path) -> int:
    try:
        if action in ("begin", "passed", "stamp") and not (root / ".git").exists():
            if action == "stamp":
                print("not a git checkout: no stamp written, so make site will refuse this tree")
        elif action == "built":
            record_build(root)
        elif action == "begin":
            begin(root)
        elif action == "passed":
            passed(argv[1], root)
        elif action == "stamp":
            print(f"recorded the tested tree in {write_stamp(root).relative_to(root)}")
        else:
            site = publish(root)
            count = sum(1 for p in site.rglob("*") if p.is_file())
            print(f"published {site.relative_to(root)} ({count} files) from the tested tree")
    except Refused as exc:
        print(f"make {'site' if action == 'site' else 'test'}: refused: {exc}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str], root: Path = ROOT) -> int:
    """``begin``, ``built``, ``passed STEP`` and ``stamp`` (the start, the book build's end, steps
    and end of make test) or
    ``site`` (make site); 1 when refused, and one line with 130, 143 or 74 on Ctrl-C, SIGTERM or a
    system error (:func:`~attnspec.core.stopping.one_line`)."""
    action = argv[0] if argv else None
    actions = (("begin", 1), ("built", 1), ("passed", 2), ("stamp", 1), ("site", 1))
    if (action, len(argv)) not in actions:
        usage = "usage: python -m attnspec.publish.gate begin|built|passed STEP|stamp|site"
        print(usage, file=sys.stderr)
        return 2
    command = f"make {'site' if action == 'site' else 'test'}"
    return one_line(command, lambda: _act(action, argv, root))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
