"""The publication gate (`make site`): a clean tree that passed `make test` is published whole; an
untested, dirty or changed tree, a later test run, or a file a test wrote into the built site is
refused in one line. Each case runs in a temporary git checkout with its own `_build/`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from attnspec.publish import gate, tree
from tests.publish.test_provenance import committed, git

#: the fake checkouts' suite: what pytest would collect there
SUITE = ("tests/test_a.py::test_one", "tests/test_a.py::test_two", "book/a.ipynb::Cell 0")


@pytest.fixture(autouse=True)
def fake_suite(monkeypatch):
    """The fake checkouts' suite, without running pytest's collection in each of them; and an
    environment that steers no pytest (whatever the caller's)."""
    monkeypatch.setattr(gate, "suite_tests", lambda root=None: set(SUITE))
    for name in gate.STEERING:
        monkeypatch.delenv(name, raising=False)


def tallied(root: Path, outcomes: dict[str, str] | None = None) -> None:
    """What the two pytest runs of `make test` record (``--tally``): every test passed, unless
    ``outcomes`` says otherwise."""
    outcomes = {test: "passed" for test in SUITE} if outcomes is None else outcomes
    site = {k: v for k, v in outcomes.items() if k.endswith("_two")}
    other = {k: v for k, v in outcomes.items() if k not in site}
    for name, part in zip(gate.TALLIES, (other, site), strict=True):
        (root / name).write_text(json.dumps({"exitstatus": 0, "outcomes": part}))


def later(path: Path, seconds: int = 10) -> None:
    """Move ``path``'s modification time ``seconds`` into the future (a later write)."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + seconds * 10**9))


def build_book(root: Path, text: str = "<p>book</p>") -> None:
    """What `make test`'s book build leaves: the site, then its log, written last."""
    html = root / gate.HTML
    (html / "book").mkdir(parents=True, exist_ok=True)
    (html / "index.html").write_text('<meta http-equiv="refresh" content="0; url=book/a.html">')
    (html / "book" / "a.html").write_text(text)
    (root / gate.BOOK_LOG).write_text("build succeeded.\n")
    later(root / gate.BOOK_LOG)
    gate.record_build(root)


@pytest.fixture
def tested(tmp_path) -> Path:
    """A clean checkout whose `make test` passed: book built, stamp written."""
    files = {"notebooks/a.md": "# A\n", "requirements.lock": "numpy==2.0 --hash=sha256:00\n"}
    root = committed(tmp_path / "checkout", {**files, ".gitignore": "_build/\n"})
    passing_run(root)
    return root


def passing_run(root: Path) -> None:
    """What a passing `make test` leaves: the book built, and the stamp of a run that passed."""
    build_book(root)
    stamp_after_passing(root)


def stamp_after_passing(root: Path) -> None:
    """The end of a `make test` that began on the tree as it is and passed every step."""
    gate.begin(root)
    tallied(root)
    for step in gate.STEPS:
        gate.passed(step, root)
    gate.write_stamp(root)


def refused(root: Path) -> str:
    with pytest.raises(gate.Refused) as info:
        gate.publish(root)
    assert not (root / gate.SITE).exists()
    return str(info.value)


def test_a_tested_clean_tree_is_published_whole(tested):
    site = gate.publish(tested)
    assert tree.folder_digests(site) == tree.folder_digests(tested / gate.HTML)
    assert not (tested / gate.BUILD / ".site.tmp").exists()


def test_publishing_again_replaces_the_site(tested):
    gate.publish(tested)
    (tested / gate.SITE / "stale.html").write_text("old")
    site = gate.publish(tested)
    assert not (site / "stale.html").exists()


def test_an_untested_tree_is_refused(tested):
    (tested / gate.STAMP).unlink()
    assert "untested" in refused(tested)


@pytest.mark.parametrize("name", ["a.md", "b.md"])  # edited, untracked
def test_a_dirty_tree_is_refused(tested, name):
    (tested / "notebooks" / name).write_text("# edited\n")
    message = refused(tested)
    assert "dirty" in message and f"notebooks/{name}" in message


def test_a_tree_committed_after_the_test_is_untested(tested):
    (tested / "notebooks" / "a.md").write_text("# A, edited\n")
    git(tested, "commit", "-q", "-am", "edit")
    assert "changed since the last passing make test" in refused(tested)


def test_a_tree_tested_dirty_and_then_committed_as_it_was_is_published(tested):
    (tested / "notebooks" / "a.md").write_text("# A, edited\n")
    stamp_after_passing(tested)  # make test passed on the uncommitted edit
    git(tested, "commit", "-q", "-am", "edit")
    assert gate.publish(tested).is_dir()


def test_a_later_test_run_is_refused(tested):
    build_book(tested)  # make test ran again (same site) and failed: no new stamp
    later(tested / gate.BOOK_LOG, 20)
    assert "a make test ran after the last passing one" in refused(tested)


def test_a_changed_site_is_refused(tested):
    (tested / gate.HTML / "book" / "a.html").write_text("<p>changed</p>")
    assert "not the site the last passing make test built" in refused(tested)


def test_a_file_a_test_wrote_into_the_site_is_refused(tested):
    probe = tested / gate.HTML / "book" / "_probe_a.html"
    probe.write_text("probe")
    later(probe, 20)
    stamp_after_passing(tested)  # written after the build, before the stamp: a test's file
    message = refused(tested)
    assert "written after the book build" in message and "book/_probe_a.html" in message


def test_a_built_file_with_a_future_mtime_is_published(tmp_path):
    """A source with a future modification time is copied into the site keeping it: the site is
    compared by content, so it is still the site the book build left."""
    root = committed(tmp_path / "checkout", {"notebooks/a.md": "# A\n", ".gitignore": "_build/\n"})
    build_book(root)
    later(root / gate.HTML / "book" / "a.html", 3600)  # an hour ahead of the build's log
    gate.record_build(root)
    stamp_after_passing(root)
    assert gate.publish(root).is_dir()


def test_an_untracked_file_whose_name_is_not_utf8_is_stamped_without_a_traceback(tested):
    """``notebooks/bad\\xff.md`` ended a passing make test in a traceback."""
    before = tree.tree_hash(tested)
    (tested / os.fsdecode(b"notebooks/bad\xff.md")).write_text("# B\n")
    assert os.fsdecode(b"notebooks/bad\xff.md") in tree.tree_files(tested)
    assert tree.tree_hash(tested) != before
    stamp_after_passing(tested)
    assert "dirty" in refused(tested)


def begun(root: Path, steps=gate.STEPS) -> None:
    gate.begin(root)
    tallied(root)
    for step in steps:
        gate.passed(step, root)
    build_book(root)


def test_a_tree_changed_while_make_test_ran_is_not_stamped(tested):
    """The stamp hashed the tree at the end, so a commit made during a long
    make test was stamped as tested."""
    (tested / gate.STAMP).unlink()
    begun(tested)
    (tested / "notebooks" / "a.md").write_text("# A, changed while the tests ran\n")
    git(tested, "commit", "-qam", "during the run")
    with pytest.raises(gate.Refused, match="the tree changed while make test ran"):
        gate.write_stamp(tested)
    assert not (tested / gate.STAMP).exists()


@pytest.mark.parametrize("missing", gate.STEPS)
def test_a_run_with_a_step_that_did_not_pass_is_not_stamped(tested, missing):
    """``make -i test`` wrote the stamp after failures."""
    (tested / gate.STAMP).unlink()
    begun(tested, [s for s in gate.STEPS if s != missing])
    with pytest.raises(gate.Refused, match=f"the {missing} step of this make test did not pass"):
        gate.write_stamp(tested)


def test_markers_and_tallies_of_an_earlier_run_do_not_count(tested):
    (tested / gate.STAMP).unlink()
    begun(tested)
    gate.begin(tested)  # a new run begins: the old markers and tallies are gone
    with pytest.raises(gate.Refused, match="did not pass"):
        gate.write_stamp(tested)
    with pytest.raises(gate.Refused, match="missing or unreadable"):
        gate.passed("tests", tested)


def test_a_step_outside_make_test_leaves_no_marker(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert gate.passed("lint", tmp_path) is None
    assert gate.main(["passed", "lint"], tmp_path) == 0
    assert not (tmp_path / gate.marker("lint")).exists()


@pytest.mark.parametrize("name", [gate.HTML, gate.BUILT, gate.BOOK_LOG])
def test_stamp_needs_the_built_book_and_its_record(tested, name):
    subprocess.run(["rm", "-r", str(tested / name)], check=True)
    with pytest.raises(gate.Refused, match=f"{name} is missing: make test builds it"):
        stamp_after_passing(tested)


def test_outside_a_checkout_nothing_is_published(tmp_path):
    assert "not a git checkout" in refused(tmp_path)


def test_outside_a_checkout_make_test_passes_without_a_stamp(tmp_path, capsys):
    assert gate.main(["stamp"], tmp_path) == 0
    assert "no stamp written" in capsys.readouterr().out and not (tmp_path / gate.STAMP).exists()


@pytest.mark.parametrize("argv, status", [(["site"], 0), (["stamp"], 0), ([], 2), (["publish"], 2)])
def test_command_statuses(tested, argv, status, capsys):
    if argv == ["stamp"]:
        assert gate.main(["begin"], tested) == 0
        tallied(tested)
        assert all(gate.main(["passed", step], tested) == 0 for step in gate.STEPS)
    assert gate.main(argv, tested) == status


def test_refusal_is_one_line_and_status_1(tested, capsys):
    (tested / gate.STAMP).unlink()
    assert gate.main(["site"], tested) == 1
    err = capsys.readouterr().err
    assert err.startswith("make site: refused: the tree is untested") and err.count("\n") == 1


# ---- make site under stress ----------------------------------------------------------------------


def test_a_stamp_that_is_not_an_object_is_no_stamp(tested):
    (tested / gate.STAMP).write_text("[]")
    assert "no passing make test recorded" in refused(tested)


def test_a_symlinked_site_folder_is_refused_and_its_target_kept(tested, tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    (target / "keep.txt").write_text("x")
    (tested / gate.SITE).symlink_to(target)
    with pytest.raises(gate.Refused, match="is a symlink"):
        gate.publish(tested)
    assert (target / "keep.txt").is_file()


def test_a_second_publication_while_one_runs_is_refused_and_leaves_nothing(tested):
    from attnspec.core.lock import reserved

    with reserved(tested / gate.SITE, "held"):
        with pytest.raises(gate.Refused, match="another run is writing into it"):
            gate.publish(tested)
    assert not (tested / gate.SITE).exists()
    assert [p.name for p in (tested / gate.BUILD).iterdir() if p.name.endswith(".tmp")] == []
    assert gate.publish(tested).is_dir()


# ---- fixed build paths are never written through a symlink ---------------------------------------


@pytest.mark.parametrize("linked", [gate.STAMP, gate.BEGIN])
def test_a_symlinked_stamp_or_begin_record_is_refused_and_its_target_kept(linked, tmp_path):
    root = committed(tmp_path / "checkout", {"a.md": "# A\n", ".gitignore": "_build/\n"})
    build_book(root)
    important = tmp_path / "important.json"
    important.write_text("keep")
    (root / linked).symlink_to(important)
    with pytest.raises(gate.Refused, match=f"{linked} is a symlink"):
        stamp_after_passing(root)
    assert important.read_text() == "keep"


def test_a_pass_marker_is_never_written_through_a_symlink(tmp_path):
    root = committed(tmp_path / "checkout", {"a.md": "# A\n", ".gitignore": "_build/\n"})
    gate.begin(root)
    important = tmp_path / "important.json"
    important.write_text("keep")
    (root / gate.marker("lint")).symlink_to(important)
    assert gate.main(["passed", "lint"], root) == 1
    assert important.read_text() == "keep"


# ---- a full disk or Ctrl-C during make site is one line ------------------------------------------


@pytest.mark.parametrize(
    "raised, status, words",
    [
        (OSError(28, "No space left on device"), 74, "system error: No space left on device"),
        (KeyboardInterrupt(), 130, "interrupted (Ctrl-C)"),
    ],
)
def test_a_full_disk_or_ctrl_c_during_make_site_is_one_line(
    raised, status, words, tested, monkeypatch, capsys
):
    def fail(*args, **kwargs):
        raise raised

    monkeypatch.setattr(gate.shutil, "copytree", fail)
    assert gate.main(["site"], tested) == status
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"make site: {words}")
    assert not (tested / gate.SITE).exists()
    assert [p.name for p in (tested / gate.BUILD).iterdir() if p.name.endswith(".tmp")] == []


# ---- a make test that ran no test, or part of the suite, stamps nothing --------------------------


@pytest.mark.parametrize(
    "outcomes, ran, passed",
    [
        ({}, 0, 0),  # --collect-only: nothing ran
        ({SUITE[0]: "passed", SUITE[2]: "passed"}, 2, 2),  # -k or -m left one out
        ({SUITE[0]: "passed", SUITE[1]: "skipped", SUITE[2]: "passed"}, 3, 2),
        ({SUITE[0]: "passed", SUITE[1]: "passed", SUITE[2]: "failed"}, 3, 2),
        ({"tests/test_other.py::test_x": "passed"}, 0, 0),  # tests that are not the suite's
    ],
)
def test_a_run_that_is_not_the_whole_suite_passing_is_not_stamped(tested, outcomes, ran, passed):
    (tested / gate.STAMP).unlink()
    gate.begin(tested)
    tallied(tested, outcomes)
    with pytest.raises(gate.Refused) as info:
        gate.passed("tests", tested)
    assert f"{ran} of the 3 tests of the suite ran and {passed} passed" in str(info.value)
    assert not (tested / gate.marker("tests")).exists()
    assert gate.main(["passed", "tests"], tested) == 1


def test_a_missing_tally_is_no_run(tested):
    (tested / gate.STAMP).unlink()
    gate.begin(tested)
    tallied(tested)
    (tested / gate.TALLIES[1]).unlink()
    with pytest.raises(gate.Refused, match="site-tally.json is missing or unreadable"):
        gate.passed("tests", tested)


def test_the_stamp_records_how_many_tests_ran_and_passed(tested):
    stamp = json.loads((tested / gate.STAMP).read_text())
    assert stamp["tests"] == {"collected": 3, "ran": 3, "passed": 3}


@pytest.mark.parametrize(
    "counts",
    [
        None,
        {"collected": 1732, "ran": 0, "passed": 0},
        {"collected": 3, "ran": 3, "passed": 2},
        {"collected": 0, "ran": 0, "passed": 0},
        {"collected": "3", "ran": "3", "passed": "3"},
    ],
)
def test_make_site_refuses_a_stamp_whose_counts_are_not_a_full_run(tested, counts):
    path = tested / gate.STAMP
    stamp = json.loads(path.read_text())
    stamp["tests"] = counts
    path.write_text(json.dumps(stamp))
    assert "counts" in refused(tested) and "not a full run" in refused(tested)


@pytest.mark.parametrize(
    "name", ["PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTEST_DISABLE_PLUGIN_AUTOLOAD", "PYTHONPATH"]
)
def test_make_test_refuses_an_environment_that_steers_pytest(tested, name, monkeypatch, capsys):
    monkeypatch.setenv(name, "--collect-only -q")
    assert gate.main(["begin"], tested) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{name} is set and would steer pytest" in err
    assert not (tested / gate.BEGIN).exists()


def test_the_makefile_passes_no_steering_variable_to_its_recipes():
    show = "showenv: ; @env | grep -E '^(PYTEST_|PYTHONPATH=)' || echo none"
    env = {**os.environ, "PYTEST_ADDOPTS": "--collect-only", "PYTEST_PLUGINS": "x"}
    env["PYTHONPATH"] = "/nowhere"
    for given in ([], ["PYTEST_ADDOPTS=--collect-only -q"]):
        done = subprocess.run(
            ["make", "--no-print-directory", "--eval", show, "showenv", *given],
            cwd=gate.ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        assert done.stdout == "none\n"


def test_the_suite_is_collected_whatever_the_environment(tmp_path, monkeypatch):
    root = tmp_path / "checkout"
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "test_a.py").write_text(
        "def test_one():\n    pass\n\ndef test_two():\n    pass\n"
    )
    monkeypatch.undo()  # the autouse fake: the real collection
    monkeypatch.setenv("PYTEST_ADDOPTS", "-k test_one")
    assert gate.suite_tests(root) == {"tests/test_a.py::test_one", "tests/test_a.py::test_two"}


def test_tally_records_every_outcome_and_nothing_for_collect_only(tmp_path):
    (tmp_path / "test_three.py").write_text(
        "import pytest\n\ndef test_ok():\n    pass\n\ndef test_bad():\n    assert False\n\n"
        "@pytest.mark.skip\ndef test_skipped():\n    pass\n"
    )
    record = tmp_path / "tally.json"
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.tally"]
    env = {**os.environ, "PYTHONPATH": str(gate.ROOT)}
    for extra, expected in (
        ([], {"test_ok": "passed", "test_bad": "failed", "test_skipped": "skipped"}),
        (["--collect-only"], {}),
    ):
        subprocess.run(
            [*argv, *extra, f"--tally={record}", "test_three.py"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
        )
        outcomes = json.loads(record.read_text())["outcomes"]
        assert outcomes == {f"test_three.py::{k}": v for k, v in expected.items()}


# ---- a git-ignored file under the book's sources is never published ------------------------------


def test_an_ignored_file_under_the_books_sources_is_refused(tested):
    (tested / ".gitignore").write_text("_build/\n*.tmp\n")
    git(tested, "commit", "-qam", "ignore *.tmp")
    stamp_after_passing(tested)
    static = tested / "book" / "_static"
    static.mkdir(parents=True)
    (static / "notes.tmp").write_text("<script>alert(1)</script>")
    message = refused(tested)
    assert "git-ignored files under book/" in message and "book/_static/notes.tmp" in message
    with pytest.raises(gate.Refused, match="book/_static/notes.tmp"):
        stamp_after_passing(tested)
    (static / "notes.tmp").unlink()
    (tested / "book" / "_ext" / "__pycache__").mkdir(parents=True)
    (tested / "book" / "_ext" / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"\0")
    (tested / ".gitignore").write_text("_build/\n*.tmp\n__pycache__/\n")
    git(tested, "commit", "-qam", "ignore bytecode")
    stamp_after_passing(tested)
    assert gate.publish(tested).is_dir()  # the build's own bytecode is no source
