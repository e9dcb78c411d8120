"""Provenance of an executed chapter: its results file.

Every execution of a chapter (``attnspec notebooks`` for the book, ``attnspec run`` for a
reader) writes ``CHAPTER.results.json`` beside the executed notebook, atomically, in the format
of the JSON Schema :data:`SCHEMA`. It holds the chapter's name and parameters, every glued value
(key, kind, typed value, printed form) and every claim (text, measured, criterion, verdict) as the
chapter's study recorded them in its kernel (:mod:`attnspec.present.record`: typed objects, never
read back from the notebook's rendered text), the attnspec version with the stamp of what produced
the outputs (:func:`stamp`), the versions of Python, numpy, scipy, matplotlib and the BLAS, and
the UTC time.

The notebook's own metadata (``metadata.attnspec``) holds only what does not change from one run
to the next (parameters and versions), so re-executing the book leaves no diff.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import platform
import subprocess
from collections.abc import Collection, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .. import __version__
from ..core.errors import InvalidInput
from .paths import DATA, EXECUTED, ROOT, SOURCES

SUFFIX = ".results.json"
#: The package's own folder (``attnspec/``).
PACKAGE = DATA.parent


def blas() -> str:
    """The BLAS numpy was built with, as ``name version`` (from ``numpy.show_config``)."""
    import numpy

    try:
        info = numpy.show_config(mode="dicts")["Build Dependencies"]["blas"]
        return f"{info.get('name', 'unknown')} {info.get('version', '')}".strip()
    except Exception:  # numpy < 1.25 has no dict mode
        return "unknown"


def versions() -> dict[str, str]:
    """Versions of all that can change a printed digit: Python, numpy, scipy, matplotlib, BLAS."""
    import matplotlib
    import numpy
    import scipy

    return {
        "attnspec": __version__,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "matplotlib": matplotlib.__version__,
        "blas": blas(),
    }


def file_digest(path: Path) -> str:
    """The hex SHA-256 of a file's bytes (of its target's name, for a symbolic link)."""
    path = Path(path)
    data = os.fsencode(os.readlink(path)) if path.is_symlink() else path.read_bytes()
    return hashlib.sha256(data).hexdigest()


def content_hash(digests: Iterable[tuple[str, str]]) -> str:
    r"""One hash for a set of files, given as ``(name, hex SHA-256)`` pairs.

    ``sha256:`` and the SHA-256 of the lines ``name\0digest\n`` in name order: it changes when
    any file is added, removed, renamed or changed, and depends on nothing else (no time, no
    folder). Names are hashed in their file-system bytes, so a name that is not UTF-8 counts too.
    """
    lines = "".join(f"{name}\0{digest}\n" for name, digest in sorted(digests))
    return "sha256:" + hashlib.sha256(os.fsencode(lines)).hexdigest()


def package_files(package: Path = PACKAGE) -> list[Path]:
    """Every file of the package but the book's data (``_book``) and compiled caches.

    The same files in a checkout and in an installed wheel, so their :func:`content_hash` agrees.
    """
    found = []
    for folder, subfolders, files in os.walk(package):
        subfolders[:] = [d for d in subfolders if d not in (DATA.name, "__pycache__")]
        found += [Path(folder) / f for f in files if not f.endswith(".pyc")]
    return sorted(found)


def package_hash(package: Path = PACKAGE) -> str:
    """The :func:`content_hash` of :func:`package_files`, named relative to the package."""
    return content_hash(
        (p.relative_to(package).as_posix(), file_digest(p)) for p in package_files(package)
    )


def commit_if_clean(paths: list[Path], root: Path = ROOT) -> str | None:
    """HEAD's commit if every path is as committed there (no change, no untracked file), else None.

    None outside a git checkout too: a commit is named only when it holds exactly these files.
    """
    if not (root / ".git").exists():
        return None
    git = ["git", "-C", str(root)]
    try:
        head = subprocess.run(
            [*git, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        changed = subprocess.run(
            [*git, "status", "--porcelain", "--untracked-files=all", "--", *map(str, paths)],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return None if changed else head


def stamp(chapter: str) -> dict[str, str | None]:
    """What produced a chapter's outputs: content hashes of its source and of the package.

    ``source`` is the SHA-256 of ``notebooks/CHAPTER.md``, ``package`` the :func:`package_hash`;
    ``commit`` is the checkout's commit when both are exactly as committed
    (:func:`commit_if_clean`), else None: never a commit "-dirty", which would not say what ran.
    """
    source = (SOURCES / f"{chapter}.md").resolve()
    return {
        "source": "sha256:" + file_digest(source),
        "package": package_hash(),
        "commit": commit_if_clean([PACKAGE.resolve(), source]),
    }


def notebook_metadata(chapter: str, parameters: dict[str, Any]) -> dict[str, Any]:
    """What an executed notebook records about itself: chapter, parameters, versions (no time)."""
    return {"chapter": chapter, "parameters": dict(parameters), "versions": versions()}


def results(chapter: str, parameters: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    """The results of an execution of ``chapter`` (see the module docstring): the values and
    claims of its study's ``record`` (:func:`attnspec.present.record.read`), with provenance."""
    return {
        "chapter": chapter,
        "parameters": dict(parameters),
        "values": record["values"],
        "claims": record["claims"],
        "attnspec": {"version": __version__, **stamp(chapter)},
        "versions": versions(),
        "time": datetime.now(UTC).isoformat(timespec="seconds"),
        "recorded_from": "execution",
    }


def results_path(notebook: str | Path) -> Path:
    """``CHAPTER.results.json`` beside ``CHAPTER.ipynb``."""
    notebook = Path(notebook)
    return notebook.with_name(notebook.stem + SUFFIX)


def find_results(path: str | Path, chapter: str | None = None) -> Path:
    """A results file given as such, or the one results file in a run folder.

    Raises
    ------
    InvalidInput
        if the file or folder is missing, or a folder holds none or several results files.
    """
    path = Path(path)
    if path.is_dir():
        found = sorted(path.glob(f"{chapter}{SUFFIX}" if chapter else f"*{SUFFIX}"))
        if len(found) != 1:
            what = "no" if not found else f"{len(found)}"
            raise InvalidInput(f"{path}: folder holds {what} *{SUFFIX} files; name one of them")
        path = found[0]
    if not path.exists():
        raise InvalidInput(f"{path}: no such file or folder")
    if not path.is_file():
        raise InvalidInput(f"{path}: not a results file (not a regular file)")
    if path.stat().st_size > MAX_RESULTS_BYTES:
        raise InvalidInput(
            f"{path}: not a results file (larger than {MAX_RESULTS_BYTES // 2**20} MiB)"
        )
    return path


#: the largest results file read (the book's largest is about 0.1 MiB)
MAX_RESULTS_BYTES = 64 * 2**20


def load(path: str | Path, chapters: Collection[str] | None = None) -> dict[str, Any]:
    """Read a results file (or the one in a run folder), checked with :func:`check_results`.

    ``chapters``, if given, are the chapter names the file may name (the registry's).

    Raises
    ------
    InvalidInput
        one line naming the file and what is wrong, for anything that is not a results file.
    """
    path = find_results(path)
    try:
        data = json.loads(
            path.read_text(), parse_constant=_refuse_constant, object_pairs_hook=_once_each
        )
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        why = {json.JSONDecodeError: "not JSON", RecursionError: "nested too deep"}.get(
            type(exc), str(exc)
        )
        raise InvalidInput(f"{path}: not a results file ({why})") from None
    return check_results(data, path, chapters)


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are distinct (else ValueError: which would count is unclear)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {printable(key)!r} appears twice in one object")
        out[key] = value
    return out


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number in strict JSON")


#: The JSON Schema of a results file, shipped with the package (linked from the Reproduce page).
SCHEMA = Path(__file__).with_name("results.schema.json")


@functools.cache
def schema_validator():
    """A validator of :data:`SCHEMA` (Draft 2020-12)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(json.loads(SCHEMA.read_text()))


def check_results(
    data: Any, path: str | Path, chapters: Collection[str] | None = None
) -> dict[str, Any]:
    """``data`` if it is a results file (:data:`SCHEMA`), else InvalidInput naming what is wrong.

    Beyond the schema: ``chapter`` must be one of ``chapters`` (when given), every number finite,
    and no value key may appear twice.
    """
    from jsonschema.exceptions import best_match

    def bad(why: str) -> InvalidInput:
        return InvalidInput(f"{path}: not a results file ({why})")

    error = best_match(schema_validator().iter_errors(data))
    if error is not None:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        raise bad(f"{where.lstrip('.') or 'the file'}: {short_text(error.message, 160)}")
    chapter = data["chapter"]
    if chapters is not None and chapter not in chapters:
        raise bad(
            f"chapter {printable(chapter)!r} is not a chapter of the book; chapters: "
            + ", ".join(chapters)
        )
    for i, v in enumerate(data["values"]):
        if v["kind"] == "number" and not _finite_number(v["value"]):
            raise bad(f"values[{i}] ({printable(v['key'])}): {v['value']!r} is not a finite number")
    seen: set[str] = set()
    for v in data["values"]:
        if v["key"] in seen:
            raise bad(f"the value key {printable(v['key'])!r} appears more than once")
        seen.add(v["key"])
    return data


def _finite_number(value: Any) -> bool:
    """An int or float (not a bool) whose float is finite."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:  # an int beyond the floats
        return False


def published(chapter: str) -> Path:
    """The results file of the published chapter ``chapter``."""
    path = EXECUTED / f"{chapter}{SUFFIX}"
    if not path.is_file():
        raise InvalidInput(f"no published results for chapter {chapter!r} ({path} not found)")
    return path


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on (controls, escapes) written as its
    Python escape, so a file's text can neither move the cursor nor rewrite a line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def short_text(text: str | None, width: int = 40) -> str:
    """``text`` on one printable line, cut to ``width`` characters (``–`` for none)."""
    if text is None:
        return "–"
    text = printable(" ".join(text.split()))
    return text if len(text) <= width else text[: width - 1] + "…"
