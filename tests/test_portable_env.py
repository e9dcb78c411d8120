"""The portability run's environment really switches numpy's SIMD dispatch off."""

import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from portable_env import dispatch_targets, portable_environment  # noqa: E402

PROBE = (
    "import json; from numpy._core import _multiarray_umath as u; "
    "print(json.dumps({t: bool(u.__cpu_features__.get(t)) for t in u.__cpu_dispatch__}))"
)


def test_every_detected_target_is_disabled_in_the_portable_run(tmp_path):
    env = {**os.environ, **portable_environment(str(tmp_path))}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
    )
    features = json.loads(done.stdout)
    assert all(not features[t] for t in dispatch_targets())
    assert env["OPENBLAS_NUM_THREADS"] == "1" and env["ATTNSPEC_CACHE"] == str(tmp_path)


def test_the_wrapper_runs_the_command_in_that_environment(tmp_path):
    cache = tmp_path / "a cache with spaces"
    script = Path(__file__).with_name("portable_env.py")
    probe = (
        "import os; print(os.environ['ATTNSPEC_CACHE']); print(os.environ['OPENBLAS_NUM_THREADS'])"
    )
    done = subprocess.run(
        [sys.executable, str(script), str(cache), "--", sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.splitlines() == [str(cache), "1"]
