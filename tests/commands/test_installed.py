"""From an installed package (a wheel, not the checkout): `attnspec chapters`, `run`, `diff` work.

The wheel is built from a copy of the checkout's tracked files and installed into a temporary
folder, which alone is put on the path, and the commands run in a folder outside the checkout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from attnspec.publish.chapters import toc_chapter_names
from tests.helpers import copy_checkout

pytestmark = pytest.mark.slow  # executes a chapter or installs the package


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    base = tmp_path_factory.mktemp("installed")
    copy_checkout(base / "src")
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run(
        [
            *pip,
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(base / "dist"),
            str(base / "src"),
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    wheel = next((base / "dist").glob("attnspec-*.whl"))
    subprocess.run(
        [*pip, "install", "--no-deps", "--target", str(base / "site"), str(wheel)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (base / "user").mkdir()
    return base


def attnspec(base: Path, *args: str, timeout: int = 900) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(base / "site"))
    return subprocess.run(
        [sys.executable, "-m", "attnspec.cli", *args],
        cwd=base / "user",
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_the_laws_need_only_the_base_dependencies(installed, tmp_path):
    """`pip install attnspec` without extras (numpy, scipy, tqdm) gives a working `attnspec law`."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    wheel = next((installed / "dist").glob("attnspec-*.whl"))
    python = venv / "bin" / "python"
    pip = [str(python), "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run(
        [*pip, "install", "--no-compile", str(wheel)], check=True, capture_output=True, timeout=900
    )
    listed = subprocess.run([*pip, "list"], capture_output=True, text=True, check=True).stdout
    present = {line.split()[0].lower() for line in listed.splitlines()[2:]}
    assert not present & {"matplotlib", "dask", "distributed", "pyyaml", "nbformat", "jupytext"}
    done = subprocess.run(
        [str(venv / "bin" / "attnspec"), "law", "--beta", "1", "--at", "1,4"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "9.00954" in done.stdout  # the law's edge at beta = 1


def test_installed_package_is_not_the_checkout(installed):
    env = dict(os.environ, PYTHONPATH=str(installed / "site"))
    where = subprocess.run(
        [sys.executable, "-c", "import attnspec; print(attnspec.__file__)"],
        cwd=installed / "user",
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert where.startswith(str(installed / "site"))
    assert not (installed / "site" / "attnspec" / "_book" / "notebooks").is_symlink()


def test_chapters_from_an_installed_package(installed):
    done = attnspec(installed, "chapters", "--json")
    assert done.returncode == 0, done.stderr
    assert [c["name"] for c in json.loads(done.stdout)] == toc_chapter_names()


def test_run_and_diff_from_an_installed_package(installed):
    done = attnspec(installed, "run", "setup", "-p", "d", "200", "-o", "out")
    assert done.returncode == 0, done.stderr
    out = installed / "user" / "out"
    assert sorted(p.name for p in out.iterdir()) == ["setup.ipynb", "setup.results.json"]
    results = json.loads((out / "setup.results.json").read_text())
    assert results["parameters"]["d"] == 200 and results["attnspec"]["commit"] is None
    diff = attnspec(installed, "diff", "out")  # against the published results shipped in the wheel
    assert diff.returncode == 0, diff.stderr
    assert diff.stdout.startswith("chapter setup:")


def test_missing_chapter_sources_give_one_line(installed, tmp_path):
    import shutil

    site = tmp_path / "site"
    shutil.copytree(installed / "site", site)
    shutil.rmtree(site / "attnspec" / "_book")
    env = dict(os.environ, PYTHONPATH=str(site))
    done = subprocess.run(
        [sys.executable, "-m", "attnspec.cli", "chapters"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2
    assert (
        len(done.stderr.strip().splitlines()) == 1 and "chapter sources are missing" in done.stderr
    )


def test_notebooks_outside_a_checkout_refuses_before_touching_anything(installed):
    """The installed package's results files are diff's baselines."""
    baseline = installed / "site" / "attnspec" / "_book" / "chapters" / "setup.results.json"
    before = (baseline.read_bytes(), baseline.stat().st_mtime_ns)
    listing = sorted(p.name for p in baseline.parent.iterdir())
    done = attnspec(installed, "notebooks", "setup")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "runs only in a checkout" in done.stderr
    assert (baseline.read_bytes(), baseline.stat().st_mtime_ns) == before
    assert sorted(p.name for p in baseline.parent.iterdir()) == listing
