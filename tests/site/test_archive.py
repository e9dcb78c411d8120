"""The supplement archive (`make dist`): reproducible to the byte, complete, checksummed, and enough
on its own to re-execute a chapter.

The site and the PDF are given to the archive builder as inputs (they are copied byte for byte; the
PDF takes minutes to print): here a small stand-in site and PDF, whose file times change between
the two builds. Everything else is the tree's own. The fast tests give stand-in packages too; the
slow ones build the real wheel and sdist twice and re-execute a chapter from the unpacked archive
in a fresh virtual environment, with the locks, as the Citing page tells a reader to.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from attnspec import __version__
from attnspec.publish import archive, provenance
from attnspec.publish.chapters import toc_chapter_names
from attnspec.publish.paths import ROOT, SOURCES
from attnspec.publish.pdf import release_date

TOP = f"attnspec-{__version__}"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def touch_all(folder: Path, when: int) -> None:
    for p in folder.rglob("*"):
        os.utime(p, (when, when))


@pytest.fixture
def inputs(tmp_path) -> dict:
    """A stand-in site (a redirect and one page), PDF and packages."""
    site = tmp_path / "site"
    (site / "book").mkdir(parents=True)
    (site / "index.html").write_text('<meta http-equiv="refresh" content="0; url=book/intro.html">')
    (site / "book" / "intro.html").write_text("<h1>attnspec</h1>")
    pdf = tmp_path / "attnspec.pdf"
    pdf.write_bytes(b"%PDF-1.4 stand-in")
    wheel = tmp_path / f"attnspec-{__version__}-py3-none-any.whl"
    sdist = tmp_path / f"attnspec-{__version__}.tar.gz"
    wheel.write_bytes(b"wheel")
    sdist.write_bytes(b"sdist")
    return {"site": site, "pdf": pdf, "packages": (wheel, sdist)}


def build_twice(inputs: dict, tmp_path: Path) -> tuple[Path, Path]:
    first = archive.build(output=tmp_path / "one", **inputs)
    touch_all(inputs["site"], 1_000_000_000)  # other file times, same contents
    second = archive.build(output=tmp_path / "two", **inputs)
    return first, second


def test_same_tree_same_bytes(inputs, tmp_path):
    first, second = build_twice(inputs, tmp_path)
    assert first.name == second.name == f"attnspec-{__version__}-supplement.zip"
    assert sha256(first) == sha256(second)


def test_entries_are_sorted_in_one_folder_stamped_with_the_release_date(inputs, tmp_path):
    path = archive.build(output=tmp_path, **inputs)
    with zipfile.ZipFile(path) as z:
        infos = z.infolist()
    names = [i.filename for i in infos]
    assert names == sorted(names) and all(n.startswith(f"{TOP}/") for n in names)
    day = tuple(int(x) for x in release_date().split("-"))
    assert {i.date_time for i in infos} == {(*day, 0, 0, 0)}
    assert {i.external_attr >> 16 for i in infos} == {0o644}


def test_archive_holds_everything_a_citation_needs(inputs, tmp_path):
    with zipfile.ZipFile(archive.build(output=tmp_path, **inputs)) as z:
        names = {n.removeprefix(f"{TOP}/") for n in z.namelist()}
        index = z.read(f"{TOP}/index.html").decode()
    chapters = toc_chapter_names()
    wanted = {
        "index.html",
        "site/index.html",
        "site/book/intro.html",
        f"{TOP}.pdf",
        f"dist/attnspec-{__version__}-py3-none-any.whl",
        f"dist/attnspec-{__version__}.tar.gz",
        "requirements.lock",
        "requirements-data.lock",
        "CITATION.cff",
        ".zenodo.json",
        "CHANGELOG.md",
        "SHA256SUMS",
        *(f"notebooks/{c}.md" for c in chapters),
        *(f"book/chapters/{c}.ipynb" for c in chapters),
        *(f"book/chapters/{c}.results.json" for c in chapters),
        *(f"book/{p}.ipynb" for p in ("intro", "findings", "notation")),
        *(f"notebooks/pages/{p}.md" for p in ("intro", "findings", "notation")),
    }
    assert wanted <= names, sorted(wanted - names)
    assert 'url=site/index.html"' in index
    assert not [n for n in names if n.startswith(("tests/", "attnspec/", ".github/"))]


def test_checksums_cover_every_file_and_verify(inputs, tmp_path):
    path = archive.build(output=tmp_path, **inputs)
    with zipfile.ZipFile(path) as z:
        files = {n.removeprefix(f"{TOP}/"): z.read(n) for n in z.namelist()}
    listed = dict(
        reversed(line.split("  ", 1)) for line in files.pop("SHA256SUMS").decode().splitlines()
    )
    assert set(listed) == set(files)
    assert all(hashlib.sha256(files[f]).hexdigest() == d for f, d in listed.items())
    assert archive.verify(path) == len(files)


def rewrite(path: Path, change) -> None:
    """Rewrite the archive at ``path`` with ``change(name, data)`` -> data, or None to drop."""
    with zipfile.ZipFile(path) as z:
        files = {i.filename: z.read(i) for i in z.infolist()}
    with zipfile.ZipFile(path, "w") as z:
        for f, data in files.items():
            if (new := change(f, data)) is not None:
                z.writestr(f, new)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda f, d: d + b" " if f.endswith("CITATION.cff") else d, "CITATION.cff: SHA-256"),
        (lambda f, d: None if f.endswith("CHANGELOG.md") else d, "CHANGELOG.md: listed"),
    ],
    ids=["changed", "missing"],
)
def test_verify_names_a_changed_or_missing_file(inputs, tmp_path, change, message):
    path = archive.build(output=tmp_path, **inputs)
    rewrite(path, change)
    with pytest.raises(ValueError, match=message):
        archive.verify(path)


def test_verify_names_an_extra_file(inputs, tmp_path):
    path = archive.build(output=tmp_path, **inputs)
    with zipfile.ZipFile(path, "a") as z:
        z.writestr(f"{TOP}/extra.txt", "x")
    with pytest.raises(ValueError, match="extra.txt: in the archive but not in SHA256SUMS"):
        archive.verify(path)


def test_missing_site_or_pdf_is_refused_in_one_line(inputs, tmp_path, capsys):
    status = archive.main(
        ["--site", str(tmp_path / "none"), "--pdf", str(inputs["pdf"]), "-o", str(tmp_path)]
    )
    err = capsys.readouterr().err
    assert status == 1 and err.count("\n") == 1 and "make dist: refused:" in err
    assert not list(tmp_path.glob("*.zip"))


def tar_gz(files: dict[str, bytes], mtime: int) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as t:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.uid, info.uname = len(data), mtime, 1000, "someone"
            t.addfile(info, io.BytesIO(data))
    return out.getvalue()


def test_normalized_sdist_depends_only_on_contents():
    files = {"p/b.py": b"b", "p/a.py": b"a"}
    one = archive.normalized_tar_gz(tar_gz(files, 1_700_000_000), 86400)
    two = archive.normalized_tar_gz(tar_gz(dict(reversed(files.items())), 1_800_000_000), 86400)
    assert one == two
    with tarfile.open(fileobj=io.BytesIO(one)) as t:
        members = t.getmembers()
        assert [m.name for m in members] == ["p/a.py", "p/b.py"]
        assert {(m.mtime, m.uid, m.uname) for m in members} == {(86400, 0, "")}
        assert t.extractfile("p/a.py").read() == b"a"


@pytest.mark.parametrize(
    "case, message",
    [
        ("printed", None),
        ("fake", "is not the PDF make pdf printed"),  # the reproduction: a PDF written over
        ("other tree", "printed from another tree than the tested one"),
        ("never printed", "has no record of a make pdf"),
    ],
)
def test_dist_packs_only_the_pdf_printed_from_the_tested_tree(case, message, tmp_path):
    """Make dist packed a fake PDF, since it compared only mtimes."""
    from attnspec.publish.gate import STAMP
    from attnspec.publish.pdf import printed_record

    (tmp_path / STAMP).parent.mkdir(parents=True)
    (tmp_path / STAMP).write_text(json.dumps({"tree": "sha256:tested"}))
    pdf = tmp_path / "_build" / "pdf" / "attnspec.pdf"
    pdf.parent.mkdir(parents=True)
    pdf.write_bytes(b"%PDF-1.4 printed")
    tree = "sha256:other" if case == "other tree" else "sha256:tested"
    record = {"tree": tree, "sha256": provenance.file_digest(pdf)}
    if case != "never printed":
        printed_record(pdf).write_text(json.dumps(record))
    if case == "fake":
        pdf.write_bytes(b"%PDF-1.4 fake")
    if message is None:
        archive.check_printed(pdf, tmp_path)
    else:
        with pytest.raises(archive.Refused, match=message):
            archive.check_printed(pdf, tmp_path)


def test_normalized_wheel_depends_only_on_contents():
    def wheel(mode: int) -> bytes:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as z:
            for name, data in (("p/a.py", b"a"), ("p-1.dist-info/RECORD", b"r")):
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                info.external_attr = mode << 16
                z.writestr(info, data)
        return out.getvalue()

    one, two = archive.normalized_wheel(wheel(0o600)), archive.normalized_wheel(wheel(0o644))
    assert one == two
    with zipfile.ZipFile(io.BytesIO(one)) as z:
        assert z.namelist() == ["p/a.py", "p-1.dist-info/RECORD"]  # the wheel's order is kept
        assert {i.external_attr >> 16 & 0o777 for i in z.infolist()} == {0o644}


# -- slow: the real wheel and sdist, and a chapter re-executed from the archive alone -------------


@pytest.fixture(scope="module")
def real(tmp_path_factory) -> dict:
    """The archive built twice with the real packages (each build makes its own; the second under
    umask 077), unpacked."""
    base = tmp_path_factory.mktemp("archive")
    site = base / "site"
    site.mkdir()
    (site / "index.html").write_text("<p>site</p>")
    pdf = base / "attnspec.pdf"
    pdf.write_bytes(b"%PDF-1.4 stand-in")
    built = [archive.build(site, pdf, base / "one")]
    previous = os.umask(0o077)  # the bytes must not depend on the umask
    try:
        built.append(archive.build(site, pdf, base / "two"))
    finally:
        os.umask(previous)
    with zipfile.ZipFile(built[0]) as z:
        z.extractall(base / "unpacked")
    return {"archives": built, "folder": base / "unpacked" / TOP, "base": base}


@pytest.mark.slow
def test_real_archive_is_reproducible_and_verifies(real):
    one, two = real["archives"]
    assert sha256(one) == sha256(two)
    assert archive.verify(one) > 0
    done = subprocess.run(
        ["sha256sum", "--check", "--quiet", "SHA256SUMS"],
        cwd=real["folder"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def venv(real) -> Path:
    """A fresh virtual environment with the archive's locks and wheel, nothing of the checkout."""
    folder = real["folder"]
    venv = real["base"] / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    # no byte-compiling of the lock's hundreds of packages (a third of the install's time): the
    # modules a test imports are compiled as they are imported
    pip = [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check", "-q"]
    wheel = f"dist/attnspec-{__version__}-py3-none-any.whl"
    for args in (["--require-hashes", "-r", "requirements.lock"], ["--no-deps", wheel]):
        done = subprocess.run(
            [*pip, "install", "--no-compile", *args],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=1800,
        )
        assert done.returncode == 0, done.stderr[-3000:]
    return venv


def in_venv(venv: Path, folder: Path, *argv: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(
        [str(venv / "bin" / argv[0]), *argv[1:]],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.mark.slow
def test_the_installed_wheel_is_the_stamped_package(real, venv):
    done = in_venv(
        venv,
        real["folder"],
        "python",
        "-c",
        "import attnspec, attnspec.publish.provenance as p; "
        "print(attnspec.__file__); print(p.package_hash())",
    )
    assert done.returncode == 0, done.stderr
    where, digest = done.stdout.split()
    assert where.startswith(str(venv)) and digest == provenance.package_hash()


@pytest.mark.slow
def test_a_chapter_re_executes_from_the_archive_alone(real, venv):
    folder = real["folder"]
    assert in_venv(venv, folder, "attnspec", "--version").stdout == f"attnspec {__version__}\n"
    run = in_venv(venv, folder, "attnspec", "run", "setup", "-o", "runs/setup")
    assert run.returncode == 0, run.stderr[-3000:]
    results = json.loads((folder / "runs" / "setup" / "setup.results.json").read_text())
    made = results["attnspec"]
    assert made["version"] == __version__ and made["commit"] is None
    assert made["source"] == "sha256:" + sha256(SOURCES / "setup.md")
    assert made["package"] == provenance.package_hash()
    diff = in_venv(venv, folder, "attnspec", "diff", "runs/setup")
    assert diff.returncode == 0, diff.stderr
    assert (
        diff.stdout.startswith("chapter setup: 0 of ") and "no claim changed verdict" in diff.stdout
    )
    published = json.loads((folder / "book" / "chapters" / "setup.results.json").read_text())
    assert published == json.loads((ROOT / "book" / "chapters" / "setup.results.json").read_text())


# ---- make dist never writes through a symlink, and stops cleanly ------


def dist_args(inputs: dict, output: Path) -> list[str]:
    return ["--site", str(inputs["site"]), "--pdf", str(inputs["pdf"]), "-o", str(output)]


@pytest.fixture
def stand_ins(inputs, monkeypatch) -> dict:
    """`make dist` with the stand-in packages, and its PDF taken as printed from the tested tree."""
    monkeypatch.setattr(archive, "check_printed", lambda pdf: None)
    monkeypatch.setattr(archive, "build_packages", lambda root, work, date: inputs["packages"])
    return inputs


def test_a_symlinked_archive_is_refused_and_its_target_kept(stand_ins, tmp_path, capsys):
    out = tmp_path / "dist"
    out.mkdir()
    (tmp_path / "important").write_bytes(b"keep")
    (out / archive.name()).symlink_to(tmp_path / "important")
    assert archive.main(dist_args(stand_ins, out)) == 1
    one = capsys.readouterr().err
    assert one.count("\n") == 1 and f"{archive.name()} is a symlink" in one
    assert (tmp_path / "important").read_bytes() == b"keep"


@pytest.mark.parametrize(
    "raised, status, words",
    [
        (OSError(28, "No space left on device"), 74, "system error: No space left on device"),
        (KeyboardInterrupt(), 130, "interrupted (Ctrl-C)"),
    ],
)
def test_a_full_disk_or_ctrl_c_is_one_line_and_leaves_no_partial_archive(
    raised, status, words, stand_ins, tmp_path, monkeypatch, capsys
):
    def fail(*args, **kwargs):
        raise raised

    monkeypatch.setattr(zipfile.ZipFile, "writestr", fail)
    assert archive.main(dist_args(stand_ins, tmp_path / "dist")) == status
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"make dist: {words}") and "Traceback" not in err
    assert list((tmp_path / "dist").iterdir()) == []


SLOW_DIST = """
import sys, time, zipfile
from pathlib import Path
from attnspec.publish import archive
packages = tuple(map(Path, sys.argv[1:3]))
archive.check_printed = lambda pdf: None
archive.build_packages = lambda root, work, date: packages
write = zipfile.ZipFile.writestr
def slow(self, *args, **kwargs):
    write(self, *args, **kwargs)
    print("writing", flush=True)
    time.sleep(120)
zipfile.ZipFile.writestr = slow
sys.exit(archive.main(sys.argv[3:]))
"""


def test_sigterm_during_make_dist_removes_the_temporary_archive(inputs, tmp_path):
    """The issue's reproduction: SIGTERM left a 13 MB dist/.attnspec-….tmp.zip behind."""
    import signal

    out = tmp_path / "dist"
    packages = [str(p) for p in inputs["packages"]]
    command = [sys.executable, "-c", SLOW_DIST, *packages, *dist_args(inputs, out)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "writing\n"
    assert [p.suffix for p in out.iterdir()] == [".zip"]  # the temporary archive, being written
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert (
        proc.returncode == 143
        and err == "make dist: terminated (SIGTERM); nothing partial is left\n"
    )
    assert list(out.iterdir()) == []
