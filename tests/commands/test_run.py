"""Valid inputs that crashed a chapter are refused with one line and status 2
before any kernel starts (the chapter's rules,
:data:`attnspec.chapters.rules.CHAPTER_RULES`, and :data:`attnspec.core.config.RULES`), or they run.

Every case runs the real command on temporary folders.
"""

from __future__ import annotations

import json
import os

import pytest

from tests.helpers import attnspec, one_line


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["convergence", "-p", "beta", "0"],
            "convergence: beta=0.0 is out of range for the limit law: must be >= 0.000122",
        ),
        (
            ["normalizer-concentration", "-p", "d", "60", "-p", "beta", "8"],
            "normalizer-concentration: beta=8.0 is out of range for this chapter at d = 60",
        ),
        (["limit-law", "-p", "hist_max", "1e-300"], "limit-law: hist_max=1e-300 is out of range"),
        (
            ["bulk-equivalence", "-p", "hist_max", "1e-300"],
            "bulk-equivalence: hist_max=1e-300 is out of range",
        ),
    ],
)
def test_input_a_chapter_cannot_compute_is_refused_before_the_kernel(argv, message, tmp_path):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    done = attnspec("run", *argv, "-o", "R", cwd=tmp_path, env={"TMPDIR": str(scratch)})
    assert done.returncode == 2 and done.stdout == ""
    one_line(done.stderr, f"attnspec run: error: {message}")
    assert not (tmp_path / "R").exists() and list(scratch.iterdir()) == []  # no kernel started


@pytest.mark.slow  # executes a chapter
def test_the_limit_law_at_the_largest_beta_and_a_small_d_runs(tmp_path):
    """d = 60, beta = 18.8: no bulk value lies below the law's quantile (a max() over no gaps)."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    argv = ["run", "limit-law", "-p", "d", "60", "-p", "beta", "18.8", "-o", "R"]
    done = attnspec(*argv, cwd=tmp_path, env={"TMPDIR": str(scratch)}, timeout=900)
    assert done.returncode == 0, done.stderr
    results = json.loads((tmp_path / "R" / "limit-law.results.json").read_text())
    assert results["parameters"]["d"] == 60 and results["parameters"]["beta"] == 18.8
    assert results["claims"] and os.listdir(scratch) == []
