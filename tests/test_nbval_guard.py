"""nbval really guards the stored outputs: one changed printed digit fails with a readable diff,
and the sanitize file hides nothing that carries a result."""

import configparser
import re

import nbformat
import pytest

from attnspec.publish.paths import EXECUTED
from tests.helpers import SANITIZE, run_nbval

pytestmark = pytest.mark.slow


def test_a_changed_printed_digit_fails_with_a_readable_diff(tmp_path):
    nb = nbformat.read(EXECUTED / "theta-statistics.ipynb", as_version=4)
    stream = next(o for c in nb.cells for o in c.get("outputs", []) if o["output_type"] == "stream")
    original = stream["text"]
    stream["text"] = re.sub(
        r"\d(?=\D*$)", lambda m: str((int(m.group()) + 1) % 10), original, count=1
    )
    assert stream["text"] != original
    nbformat.write(nb, tmp_path / "theta-statistics.ipynb")
    done = run_nbval(tmp_path / "theta-statistics.ipynb")
    assert done.returncode == 1
    changed_tail = stream["text"].splitlines()[-1][-10:]
    assert "Cell outputs differ" in done.stdout and "mismatch 'stdout'" in done.stdout
    assert changed_tail in done.stdout


def test_sanitizers_touch_no_digits_of_results():
    cfg = configparser.ConfigParser()
    cfg.read(SANITIZE)
    samples = [
        "mean s1(A) = 1.001082",
        "| `Y_f_lin` | 0.0506 | 0.0153 | 0.0427 |",
        "<Figure size 800x450 with 1 Axes>",
    ]
    for section in cfg.sections():
        pattern = re.compile(cfg[section]["regex"])
        assert all(pattern.sub(cfg[section]["replace"], s) == s for s in samples), section
