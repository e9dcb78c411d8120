"""Output files: special files at the target, modes, unwritable destinations,
closed or full stdout. Every test runs the real command on temporary folders."""

from __future__ import annotations

import os
import stat

import pytest

from attnspec.core import atomic
from attnspec.core.atomic import atomic_path, check_writable
from attnspec.core.errors import InvalidInput
from tests.helpers import attnspec, one_line, strict_json, tmpfs_mounts

LAW = ["law", "--beta", "1"]


@pytest.fixture
def mounted(tmp_path):
    yield from tmpfs_mounts(tmp_path)


# ---- 1. whatever sits at the target --------------------------------------------------------------


@pytest.mark.parametrize("kind", ["char device", "fifo"])
def test_special_file_at_the_target_is_refused_and_kept(tmp_path, kind):
    target = tmp_path / "x"
    if kind == "fifo":
        os.mkfifo(target)
    else:
        os.mknod(
            target, stat.S_IFCHR | 0o666, os.makedev(1, 3)
        )  # a /dev/null node, in a tmp folder
    done = attnspec(*LAW, "--json", "x", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    one_line(done.stderr, "not a regular file")
    mode = os.lstat(target).st_mode
    assert (stat.S_ISFIFO if kind == "fifo" else stat.S_ISCHR)(mode)


@pytest.mark.parametrize("option", ["-o", "--json"])
def test_a_symlink_at_the_target_is_refused_and_its_target_kept(tmp_path, option):
    """The link was resolved and the file it named replaced, even another user's
    link in a sticky folder (which ``open`` refuses under ``fs.protected_symlinks``)."""
    (tmp_path / "real.json").write_text("old\n")
    (tmp_path / "link.json").symlink_to("real.json")
    done = attnspec(*LAW, option, "link.json", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    one_line(done.stderr, "'link.json': is a symlink; attnspec never writes through one")
    assert (tmp_path / "link.json").is_symlink() and (tmp_path / "real.json").read_text() == "old\n"


def sticky_link(tmp_path, monkeypatch):
    """A sticky, world-writable folder (as /tmp) holding ``evil``, a link to another folder that
    belongs to someone else: this process pretends to be another user than the link's owner."""
    sticky, victim = tmp_path / "sticky", tmp_path / "victim"
    sticky.mkdir()
    victim.mkdir()
    os.chmod(sticky, 0o1777)
    (sticky / "evil").symlink_to(victim)
    (victim / "x.json").write_text("victim's\n")
    monkeypatch.setattr(atomic.os, "geteuid", lambda: os.lstat(sticky / "evil").st_uid + 1)
    return sticky / "evil", victim


def test_another_users_symlink_in_a_sticky_folder_is_not_followed(tmp_path, monkeypatch):
    link, victim = sticky_link(tmp_path, monkeypatch)
    for check, name in ((check_writable, "x.json"), (atomic.check_folder, "run")):
        with pytest.raises(InvalidInput, match="is another user's symlink in a sticky folder"):
            check(link / name, "-o")
    with pytest.raises(InvalidInput, match="another user's symlink"):
        with atomic_path(link / "x.json") as tmp:
            tmp.write_text("new\n")
    assert (victim / "x.json").read_text() == "victim's\n"


def test_ones_own_symlinked_folder_on_the_way_is_followed(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to("real")
    with atomic_path(tmp_path / "link" / "x.json") as tmp:
        tmp.write_text("new\n")
    assert (tmp_path / "real" / "x.json").read_text() == "new\n"


def test_atomic_path_refuses_a_special_file(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(InvalidInput, match="not a regular file"), atomic_path(tmp_path / "fifo"):
        pass
    assert stat.S_ISFIFO(os.lstat(tmp_path / "fifo").st_mode)


# ---- 2. modes ------------------------------------------------------------------------------------


def test_replaced_file_keeps_its_mode(tmp_path):
    (tmp_path / "l.json").write_text("{}\n")
    os.chmod(tmp_path / "l.json", 0o600)
    assert attnspec(*LAW, "--json", "l.json", cwd=tmp_path).returncode == 0
    assert stat.S_IMODE(os.stat(tmp_path / "l.json").st_mode) == 0o600


def test_new_file_respects_the_umask(tmp_path):
    assert attnspec(*LAW, "--json", "l.json", cwd=tmp_path, umask=0o077).returncode == 0
    assert stat.S_IMODE(os.stat(tmp_path / "l.json").st_mode) == 0o600
    assert attnspec(*LAW, "--json", "m.json", cwd=tmp_path, umask=0o002).returncode == 0
    assert stat.S_IMODE(os.stat(tmp_path / "m.json").st_mode) == 0o664


# ---- 3. unwritable destinations are refused before any work --------------------------------------


@pytest.mark.parametrize(
    "argv, option",
    [
        (["ladder", "--d", "24", "--trials", "1", "--json"], "--json"),
        (["law", "--beta", "1", "--json"], "--json"),
        (
            ["sweep", "--d", "24", "--beta", "1", "--trials", "1", "--workers", "1", "--out"],
            "--out",
        ),
    ],
)
def test_read_only_destination_is_refused_before_work(argv, option, tmp_path, cache_dir, mounted):
    read_only = mounted("ro,size=1m")
    done = attnspec(*argv, str(read_only / "out"), cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    one_line(done.stderr, f"{option} ")
    assert "cannot write" in done.stderr and not cache_dir.exists()  # nothing was computed


@pytest.mark.parametrize(
    "path, fragment",
    [("", "must be the path of a file"), ("newdir/", "must be the path of a file")],
)
def test_empty_path_or_folder_path_is_bad_input(path, fragment, tmp_path):
    done = attnspec(*LAW, "--json", path, cwd=tmp_path)
    assert done.returncode == 2
    one_line(done.stderr, fragment)
    assert list(tmp_path.iterdir()) == []


def test_check_writable_refuses_a_folder(tmp_path):
    with pytest.raises(InvalidInput, match="is a folder"):
        check_writable(tmp_path)


# ---- 4. files first, then stdout -----------------------------------------------------------------


@pytest.mark.parametrize("unbuffered", ["1", ""])
def test_closed_stdout_loses_no_file(tmp_path, unbuffered):
    read_end, write_end = os.pipe()
    os.close(read_end)  # as in `attnspec ... | true`
    try:
        done = attnspec(
            *LAW,
            "--json",
            "l.json",
            cwd=tmp_path,
            stdout=write_end,
            env={"PYTHONUNBUFFERED": unbuffered},
        )
    finally:
        os.close(write_end)
    assert done.returncode == 0 and done.stderr == ""
    assert strict_json(tmp_path / "l.json")["theta1"] > 0


def test_full_stdout_is_one_line_and_loses_no_file(tmp_path):
    full = tmp_path / "full"
    os.mknod(full, stat.S_IFCHR | 0o666, os.makedev(1, 7))  # a /dev/full node, in a tmp folder
    with open(full, "w") as out:
        done = attnspec(*LAW, "--json", "l.json", cwd=tmp_path, stdout=out)
    assert done.returncode == 74
    one_line(done.stderr, "system error: No space left on device")
    assert strict_json(tmp_path / "l.json")["theta1"] > 0
