"""pyproject.toml and environment.yml declare the same dependencies, the lock pins every one of them
inside its range with hashes, and the wheel ships every package."""

from __future__ import annotations

import tomllib
from pathlib import Path

import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def environment() -> dict:
    return yaml.safe_load((ROOT / "environment.yml").read_text())


def as_table(requirements: list[str]) -> dict[str, SpecifierSet]:
    table = {}
    for text in requirements:
        req = Requirement(text)
        name = canonicalize_name(req.name)
        # an extra may repeat a package of another extra, with the same range
        assert table.setdefault(name, req.specifier) == req.specifier, f"{name}: two ranges"
    return table


def pip_entries(env: dict) -> list[str]:
    lists = [
        item["pip"] for item in env["dependencies"] if isinstance(item, dict) and "pip" in item
    ]
    assert len(lists) == 1, "environment.yml needs exactly one pip: list"
    return [str(r).strip() for r in lists[0]]


def pip_list(env: dict) -> list[str]:
    """The pip requirements, without options such as the project itself (-e .)."""
    return [r for r in pip_entries(env) if not r.startswith("-")]


def declared_requirements() -> list[str]:
    """The project's dependencies with every extra."""
    project = pyproject()["project"]
    return project["dependencies"] + sum(project["optional-dependencies"].values(), [])


def locked(name: str) -> dict[str, Version]:
    """``package -> pinned version`` of a lock file, checking that every pin carries hashes."""
    pins, text = {}, (ROOT / name).read_text()
    for block in text.split("\n"):
        if "==" in block and not block.startswith((" ", "#")):
            req = Requirement(block.rstrip(" \\"))
            pins[canonicalize_name(req.name)] = Version(str(req.specifier).lstrip("="))
    assert text.count("--hash=sha256:") >= len(pins), f"{name}: every pin needs a hash"
    return pins


def test_same_packages_and_ranges():
    declared = as_table(declared_requirements())
    mirrored = as_table(pip_list(environment()))
    assert set(declared) == set(mirrored), {
        "only in pyproject.toml": sorted(set(declared) - set(mirrored)),
        "only in environment.yml": sorted(set(mirrored) - set(declared)),
    }
    for name in declared:
        assert declared[name] == mirrored[name], (name, str(declared[name]), str(mirrored[name]))


def test_lock_pins_every_declared_package_inside_its_range():
    pins = locked("requirements.lock")
    for name, spec in as_table(declared_requirements()).items():
        assert name in pins, f"{name} is not in requirements.lock"
        assert pins[name] in spec, (name, str(pins[name]), str(spec))


def test_data_lock_pins_the_makefile_data_packages():
    makefile = (ROOT / "Makefile").read_text()
    line = next(x for x in makefile.splitlines() if x.startswith("DATA_PACKAGES :="))
    wanted = {
        canonicalize_name(r.split("==")[0]): Version(r.split("==")[1])
        for r in line.split(":=")[1].split()
    }
    assert locked("requirements-data.lock") == wanted


def test_install_uses_the_locks_with_hashes():
    makefile = (ROOT / "Makefile").read_text()
    assert "--require-hashes -r requirements.lock" in makefile
    assert "--no-deps --require-hashes -r requirements-data.lock" in makefile


def test_environment_installs_the_project_itself():
    assert any(r in ("-e .", "-e .[real]") for r in pip_entries(environment()))


def test_environment_python_satisfies_requires_python():
    requires = SpecifierSet(pyproject()["project"]["requires-python"])
    pythons = [
        d for d in environment()["dependencies"] if isinstance(d, str) and d.startswith("python")
    ]
    assert len(pythons) == 1
    version = pythons[0].split("=")[-1]
    assert Version(version) in requires


def test_jupyter_book_is_pinned_below_2():
    spec = as_table(declared_requirements())["jupyter-book"]
    assert Version("1.0.4.post1") in spec and Version("2.0.0") not in spec


def test_every_package_folder_is_shipped():
    """The wheel's packages are found by setuptools' ``find`` with pyproject's patterns: every
    folder of attnspec/ holding an ``__init__.py`` must match them (a chapter's folder included)."""
    from setuptools import find_packages

    config = pyproject()["tool"]["setuptools"]["packages"]["find"]
    shipped = set(
        find_packages(str(ROOT), include=config["include"], exclude=config.get("exclude", ()))
    )
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "attnspec").rglob("__init__.py")
        if "__pycache__" not in p.parts
    }
    assert found == shipped, sorted(found ^ shipped)


def test_console_script():
    assert pyproject()["project"]["scripts"]["attnspec"] == "attnspec.cli:main"
