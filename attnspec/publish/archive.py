"""The supplement archive a journal or Zenodo takes: ``dist/attnspec-VERSION-supplement.zip``.

``python -m attnspec.publish.archive`` (``make dist``, after ``make site`` and ``make pdf``) writes
it and verifies its checksums. Everything sits in one folder ``attnspec-VERSION/``:

==========================  ===================================================================
``index.html``              opens the book (a redirect to ``site/index.html``), offline
``site/``                   the published site (``make site``)
``attnspec-VERSION.pdf``    the whole book as one PDF (``make pdf``)
``notebooks/``              the chapter sources (MyST), and in ``pages/`` the generated pages'
``book/chapters/``          the executed chapters, each with its ``CHAPTER.results.json``
``book/*.ipynb``            the executed generated pages (intro, findings, notation)
``dist/``                   the ``attnspec`` wheel and sdist
``requirements*.lock``      the exact versions, with hashes, that produced the outputs
``CITATION.cff`` ...        with ``.zenodo.json`` and ``CHANGELOG.md``; the first two name the
                            repository when there is one (:func:`with_repository`)
``SHA256SUMS``              the SHA-256 of every other file (``sha256sum -c SHA256SUMS``)
==========================  ===================================================================

The same tree gives the same bytes: files in name order, every time stamp the version's release
date (``date-released`` of CITATION.cff), fixed modes, and the wheel and sdist built from a copy
of the tree with ``SOURCE_DATE_EPOCH`` at that date (the sdist re-packed in name order with the
same time stamps, since setuptools stamps it with the files' times).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import html
import io
import json
import os
import stat
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from datetime import UTC, datetime
from pathlib import Path

from .. import __version__
from ..core.atomic import atomic_path
from ..core.stopping import one_line
from .gate import SITE, STAMP
from .paths import ROOT
from .pdf import TARGET as PDF
from .pdf import printed_record, release_date
from .provenance import file_digest
from .repository import repository_url
from .tree import Refused, in_place, tree_files

#: Files at the tree's top that the archive holds as they are.
TOP_FILES = (
    "LICENSE",
    "requirements.lock",
    "requirements-data.lock",
    "CITATION.cff",
    ".zenodo.json",
    "CHANGELOG.md",
)
SUMS = "SHA256SUMS"


def name(version: str = __version__) -> str:
    """The archive's file name (and, without ``.zip``, its one top folder's)."""
    return f"attnspec-{version}-supplement.zip"


def folder(version: str = __version__) -> str:
    return f"attnspec-{version}"


def epoch(date: str) -> int:
    """Midnight UTC of ``YYYY-MM-DD``, in seconds since 1970."""
    return int(datetime.fromisoformat(date).replace(tzinfo=UTC).timestamp())


def redirect(target: str, version: str = __version__) -> bytes:
    """A page that opens ``target`` (relative), also from file://."""
    t = html.escape(target)
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>attnspec {html.escape(version)}: executable supplement</title>"
        f'<meta http-equiv="refresh" content="0; url={t}"></head>'
        f'<body><p><a href="{t}">Open the book</a></p></body></html>\n'
    ).encode()


def in_archive(path: str) -> bool:
    """Whether a file of the tree goes into the archive as it is: sources, executed notebooks with
    their results, locks and the citation files."""
    page = path.startswith("book/") and path.count("/") == 1 and path.endswith(".ipynb")
    return path.startswith(("notebooks/", "book/chapters/")) or page or path in TOP_FILES


def tree_entries(root: Path = ROOT) -> dict[str, Path]:
    """The archive's files taken from the tree (:func:`in_archive`), by archive path."""
    return {f: root / f for f in tree_files(root) if in_archive(f) and (root / f).is_file()}


def _copy_tree(root: Path, target: Path) -> None:
    """The tree's files (:func:`~attnspec.publish.tree.tree_files`), modes fixed, links kept."""
    for f in tree_files(root):
        source, copy = root / f, target / f
        copy.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            copy.symlink_to(os.readlink(source))
        elif source.is_file():
            copy.write_bytes(source.read_bytes())
            copy.chmod(0o755 if os.access(source, os.X_OK) else 0o644)


def normalized_tar_gz(data: bytes, mtime: int) -> bytes:
    """A .tar.gz re-packed in name order, every time stamp ``mtime``, owners and modes fixed."""
    out = io.BytesIO()
    with (
        tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as source,
        gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0) as packed,
        tarfile.open(fileobj=packed, mode="w", format=tarfile.PAX_FORMAT) as target,
    ):
        for member in sorted(source.getmembers(), key=lambda m: m.name):
            info = tarfile.TarInfo(member.name)
            info.type, info.size, info.linkname, info.mtime = (
                member.type,
                member.size,
                member.linkname,
                mtime,
            )
            info.mode = 0o755 if member.isdir() or member.mode & 0o111 else 0o644
            target.addfile(info, source.extractfile(member) if member.isfile() else None)
    return out.getvalue()


def normalized_wheel(data: bytes) -> bytes:
    """A wheel re-written entry by entry, in its own order, with every mode 0644 (0755 where an
    execute bit was set): the modes a umask gave the build's files do not reach its bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for entry in source.infolist():
            mode = 0o755 if (entry.external_attr >> 16) & 0o111 else 0o644
            info = zipfile.ZipInfo(entry.filename, date_time=entry.date_time)
            info.create_system, info.external_attr = 3, (stat.S_IFREG | mode) << 16
            target.writestr(info, source.read(entry), compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def build_packages(root: Path, out: Path, date: str) -> tuple[Path, Path]:
    """The attnspec wheel and sdist, built reproducibly from a copy of the tree into ``out``."""
    env = dict(os.environ, SOURCE_DATE_EPOCH=str(epoch(date)))
    built = []
    with tempfile.TemporaryDirectory(prefix="attnspec-dist-") as work:
        src = Path(work) / "src"
        _copy_tree(root, src)
        for kind in ("wheel", "sdist"):
            done = subprocess.run(
                [
                    sys.executable,
                    "-c",
                    "import sys; from setuptools import build_meta as b; "
                    f"print(b.build_{kind}(sys.argv[1]))",
                    str(out),
                ],
                cwd=src,
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
            )
            if done.returncode:
                raise RuntimeError(f"building the {kind} failed:\n{done.stderr[-2000:]}")
            built.append(out / done.stdout.strip().splitlines()[-1])
    wheel, sdist = built
    sdist.write_bytes(normalized_tar_gz(sdist.read_bytes(), epoch(date)))
    wheel.write_bytes(normalized_wheel(wheel.read_bytes()))
    return wheel, sdist


def sums(files: dict[str, bytes]) -> bytes:
    """``SHA256SUMS`` of ``files`` (``sha256sum`` format, name order)."""
    return "".join(
        f"{hashlib.sha256(data).hexdigest()}  {f}\n" for f, data in sorted(files.items())
    ).encode()


def write_zip(files: dict[str, bytes], target: Path, top: str, date: str) -> Path:
    """``files`` under the folder ``top`` as a zip, in name order, stamped ``date``, atomically."""
    stamp = datetime.fromisoformat(date).timetuple()[:6]
    with atomic_path(target) as tmp, zipfile.ZipFile(tmp, "w") as z:
        for f in sorted(files):
            info = zipfile.ZipInfo(f"{top}/{f}", date_time=stamp)
            info.create_system, info.external_attr = 3, 0o644 << 16
            z.writestr(info, files[f], compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return target


def with_repository(files: dict[str, bytes], url: str | None) -> dict[str, bytes]:
    """``files`` with the repository's address in ``CITATION.cff`` (``repository-code``) and
    ``.zenodo.json`` (a ``related_identifiers`` entry ``isSupplementTo``, as GitHub's Zenodo
    integration writes it); unchanged without an address."""
    if not url:
        return files
    cff = (
        files["CITATION.cff"]
        .decode()
        .replace("\nlicense:", f'\nrepository-code: "{url}"\nlicense:', 1)
    )
    zenodo = json.loads(files[".zenodo.json"])
    zenodo["related_identifiers"].append(
        {"identifier": url, "relation": "isSupplementTo", "scheme": "url"}
    )
    return files | {
        "CITATION.cff": cff.encode(),
        ".zenodo.json": (json.dumps(zenodo, indent=2, ensure_ascii=False) + "\n").encode(),
    }


def build(
    site: Path,
    pdf: Path,
    output: Path,
    packages: tuple[Path, Path] | None = None,
    root: Path = ROOT,
) -> Path:
    """Write ``output/attnspec-VERSION-supplement.zip`` (see the module docstring).

    ``site`` and ``pdf`` are the published site and the PDF; ``packages`` an already built
    ``(wheel, sdist)`` (default: built here, reproducibly).
    """
    for path in (site / "index.html", pdf):
        if not path.is_file():
            raise Refused(f"{path} is missing: make site and make pdf make it")
    date = release_date(root / "CITATION.cff")
    files = {f: p.read_bytes() for f, p in tree_entries(root).items()}
    files = with_repository(files, repository_url(root=root))
    files |= {
        f"site/{p.relative_to(site).as_posix()}": p.read_bytes()
        for p in sorted(site.rglob("*"))
        if p.is_file()
    }
    files[f"{folder()}.pdf"] = pdf.read_bytes()
    files["index.html"] = redirect("site/index.html")
    with tempfile.TemporaryDirectory(prefix="attnspec-packages-") as work:
        for p in packages or build_packages(root, Path(work), date):
            files[f"dist/{p.name}"] = p.read_bytes()
    files[SUMS] = sums(files)
    output.mkdir(parents=True, exist_ok=True)
    return write_zip(files, output / name(), folder(), date)


def verify(archive: Path) -> int:
    """Check every file of ``archive`` against its ``SHA256SUMS``; return how many files it lists.

    Raises ValueError naming the first file that is missing, extra or changed.
    """
    with zipfile.ZipFile(archive) as z:
        top = z.namelist()[0].split("/")[0]
        contents = {i.filename.removeprefix(f"{top}/"): z.read(i) for i in z.infolist()}
    listed = {}
    for line in contents.pop(SUMS).decode().splitlines():
        digest, _, f = line.partition("  ")
        listed[f] = digest
    for f in sorted(set(listed) | set(contents)):
        if f not in contents:
            raise ValueError(f"{f}: listed in {SUMS} but not in the archive")
        if f not in listed:
            raise ValueError(f"{f}: in the archive but not in {SUMS}")
        if hashlib.sha256(contents[f]).hexdigest() != listed[f]:
            raise ValueError(f"{f}: SHA-256 differs from {SUMS}")
    return len(listed)


def check_printed(pdf: Path, root: Path = ROOT) -> None:
    """Refused unless ``pdf`` is, byte for byte, the PDF ``make pdf`` printed from the tree that the
    last passing ``make test`` stamped."""
    try:
        printed = json.loads(printed_record(pdf).read_text())
        tested = json.loads((root / STAMP).read_text())
    except (OSError, ValueError):
        raise Refused(f"{pdf} has no record of a make pdf after a passing make test") from None
    if not pdf.is_file() or printed.get("sha256") != file_digest(pdf):
        raise Refused(f"{pdf} is not the PDF make pdf printed: make pdf")
    if printed.get("tree") != tested.get("tree"):
        raise Refused(f"{pdf} was printed from another tree than the tested one: make pdf")


def _make(args: argparse.Namespace) -> int:
    try:
        place = (ROOT, f"dist/{name()}") if args.output == ROOT / "dist" else (args.output, name())
        in_place(*place)
        check_printed(args.pdf)
        archive = build(args.site, args.pdf, args.output)
    except Refused as exc:
        print(f"make dist: refused: {exc}", file=sys.stderr)
        return 1
    count = verify(archive)
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    size = archive.stat().st_size / 2**20
    print(f"wrote {archive} ({size:.1f} MiB, {count} files + {SUMS}, all verified)")
    print(f"sha256 {digest}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``make dist``: 0 when written, 1 when refused, and one line with 130, 143 or 74 on Ctrl-C,
    SIGTERM or a system error (the temporary archive removed)."""
    parser = argparse.ArgumentParser(prog="python -m attnspec.publish.archive")
    parser.add_argument("--site", type=Path, default=ROOT / SITE, help="the published site")
    parser.add_argument("--pdf", type=Path, default=PDF, help="the PDF supplement")
    parser.add_argument("-o", "--output", type=Path, default=ROOT / "dist", help="output folder")
    args = parser.parse_args(argv)
    return one_line("make dist", lambda: _make(args))


if __name__ == "__main__":
    sys.exit(main())
