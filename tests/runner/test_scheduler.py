"""`attnspec sweep` and its scheduler: the probe deserializes nothing a peer sends, though Dask's
client after it does (so a scheduler must be one you trust); a tls:// scheduler is reached with
certificates and refused without them; a malformed reply is one line and status 2, a scheduler
without workers and a cluster whose worker dies at start-up are one line and status 75, and
``--scheduler`` is checked even when every trial is cached.

Every case runs the real command: against a fake peer on a local port (fast), or against a real
scheduler or cluster (``cluster``).
"""

from __future__ import annotations

import os
import pickle
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from distributed import LocalCluster

from attnspec.cli import main
from attnspec.core.config import Config
from attnspec.experiments.trials import run_ladder
from attnspec.runner.scheduler import check_scheduler
from tests.helpers import one_line, peer

SWEEP = ["sweep", "--d", "24", "--beta", "1", "--trials", "1"]


class Payload:
    """Unpickling it creates ``marker``: the code a hostile peer would run."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def message(msg: dict) -> bytes:
    """``msg`` framed as distributed's TCP comm frames it (pickled parts as ``__Pickled__``)."""
    from distributed.protocol import dumps
    from distributed.protocol.utils import pack_frames

    body = pack_frames(dumps(msg))
    return struct.pack("Q", len(body)) + body


def handshake() -> bytes:
    return message({"compression": None, "python": (3, 11, 7), "pickle-protocol": 5})


@pytest.mark.parametrize("where", ["handshake", "identity"])
def test_a_peer_that_sends_a_pickle_runs_no_code(where, tmp_path, capsys):
    from distributed.protocol.serialize import ToPickle

    marker = tmp_path / "pwned"
    evil = {"type": "Scheduler", "id": "x", "payload": ToPickle(Payload(marker))}
    replies = (
        [message(evil)]
        if where == "handshake"
        else [handshake(), message(evil | {"address": "tcp://x", "workers": {}})]
    )
    with peer(lambda conn: conn.sendall(b"".join(replies))) as address:
        status = main([*SWEEP, "-o", str(tmp_path / "o.csv"), "--scheduler", address])
    assert status == 2 and not marker.exists()
    one_line(capsys.readouterr().err, f"scheduler={address!r}: no Dask scheduler answered")
    assert not (tmp_path / "o.csv").exists()


@pytest.mark.parametrize(
    "reply",
    [
        struct.pack("Q", 1) + struct.pack("Q", 2**62),  # the issue's: a u64 1, then a u64 2^62
        struct.pack("Q", 2**62),  # a length no reply has
        struct.pack("Q", 16) + struct.pack("Q", 2**40) + bytes(8),  # 2^40 frames in 16 bytes
        struct.pack("Q", 24) + struct.pack("QQ", 1, 2**40) + bytes(8),  # a frame beyond the end
        struct.pack("Q", 17) + struct.pack("QQ", 1, 1) + b"\xc1",  # a byte that is not msgpack
        handshake() + message({"type": "Worker"}),  # a Dask peer, not a scheduler
        handshake() + message({"status": "error", "exception": "x"}),
        b"\0" * 3,  # too short for a length
    ],
    ids=[
        "u64 1 then u64 2^62",
        "length 2^62",
        "2^40 frames",
        "a frame beyond the end",
        "not msgpack",
        "a worker",
        "an error",
        "3 bytes",
    ],
)
def test_a_malformed_reply_is_one_line_and_status_2(reply, tmp_path, capsys):
    with peer(lambda conn: conn.sendall(reply)) as address:
        status = main([*SWEEP, "-o", str(tmp_path / "o.csv"), "--scheduler", address])
    assert status == 2
    one_line(capsys.readouterr().err, f"scheduler={address!r}")
    assert not (tmp_path / "o.csv").exists()


@pytest.mark.parametrize("port", ["99999", "0"])
def test_a_port_out_of_range_is_one_line_not_an_overflow_traceback(port, tmp_path, capsys):
    address = f"tcp://127.0.0.1:{port}"
    assert main([*SWEEP, "-o", str(tmp_path / "o.csv"), "--scheduler", address]) == 2
    one_line(capsys.readouterr().err, f"port {port} is out of range: 1 to 65535")
    assert not (tmp_path / "o.csv").exists()


def test_the_worker_count_has_an_upper_bound(tmp_path, capsys):
    from attnspec.runner.cluster import max_workers

    too_many = str(max_workers() + 1)
    assert main([*SWEEP, "-o", str(tmp_path / "o.csv"), "--workers", too_many]) == 2
    one_line(capsys.readouterr().err, f"workers={int(too_many)} is out of range")
    assert not (tmp_path / "o.csv").exists()


@pytest.mark.parametrize("address", ["garbage://x", "tcp://127.0.0.1:1", "nonsense"])
def test_a_fully_cached_sweep_still_checks_its_scheduler(address, tmp_path, capsys):
    run_ladder(Config(d=24, beta=1.0, trials=1))  # every trial of the sweep is in the cache
    assert main([*SWEEP, "-o", str(tmp_path / "o.csv")]) == 0  # from the cache, no cluster
    capsys.readouterr()
    assert main([*SWEEP, "-o", str(tmp_path / "p.csv"), "--scheduler", address]) == 2
    one_line(capsys.readouterr().err, f"scheduler={address!r}")
    assert not (tmp_path / "p.csv").exists()


@pytest.mark.cluster  # starts a Dask scheduler
def test_a_real_scheduler_passes_the_probe():
    with LocalCluster(
        n_workers=0, processes=False, protocol="tcp://", dashboard_address=None
    ) as cluster:
        check_scheduler(cluster.scheduler_address)


def failed_sweep(tmp_path: Path, python: list[str], *options: str, **kwargs) -> str:
    """``python PYTHON sweep ... OPTIONS``: status 75, no traceback, no CSV; its last line."""
    done = subprocess.run(
        [sys.executable, *python, *SWEEP, "-o", str(tmp_path / "o.csv"), *options],
        capture_output=True,
        text=True,
        **kwargs,
    )
    assert done.returncode == 75, done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "o.csv").exists()
    return done.stderr.strip().splitlines()[-1]


@pytest.mark.cluster  # starts a Dask scheduler and a sweep process
def test_a_scheduler_without_workers_is_one_line_and_status_75(tmp_path):
    """The real command with a short wait (``WORKER_WAIT`` = 3 s, 60 s by default)."""
    code = (
        "import sys; import attnspec.runner.cluster as c; c.WORKER_WAIT = 3; "
        "from attnspec.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    with LocalCluster(
        n_workers=0, processes=False, protocol="tcp://", dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address
        last = failed_sweep(tmp_path, ["-c", code], "--scheduler", address, timeout=120)
    assert last.startswith("attnspec sweep: failed: no Dask worker was connected to the scheduler")
    assert "0 of 1 trials finished" in last


@pytest.mark.cluster  # starts a Dask scheduler, a worker and a sweep process
def test_a_scheduler_whose_workers_leave_keeps_the_finished_trials(tmp_path, cache_dir):
    """Its only worker leaves after the first trials: status 75, those trials kept in the cache."""
    import time

    code = (
        "import sys; import attnspec.runner.cluster as c; c.WORKER_WAIT = 3; "
        "from attnspec.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    grid = ["--d", "160", "--beta", "1", "--trials", "40"]
    with LocalCluster(
        n_workers=1, processes=False, protocol="tcp://", dashboard_address=None
    ) as cluster:
        command = [sys.executable, "-c", code, "sweep", *grid, "-o", str(tmp_path / "o.csv")]
        proc = subprocess.Popen(
            [*command, "--scheduler", cluster.scheduler_address],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 120
        while not list(cache_dir.glob("trial_*.npz")):
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.05)
        cluster.scale(0)
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 75, err
    last = err.strip().splitlines()[-1]
    finished = int(last.split(" s; ")[1].split(" of ")[0])
    assert last.startswith("attnspec sweep: failed: no Dask worker was connected") and finished >= 1
    assert len(list(cache_dir.glob("trial_*.npz"))) >= finished
    assert "Traceback" not in err and not (tmp_path / "o.csv").exists()


@pytest.mark.cluster  # starts a sweep process and its cluster
def test_a_worker_killed_as_it_starts_is_one_line_and_status_75(tmp_path):
    """Every worker of the embedded cluster kills itself as it starts (a Dask preload)."""
    preload = tmp_path / "die.py"
    preload.write_text("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n")
    env = dict(os.environ, DASK_DISTRIBUTED__WORKER__PRELOAD=f'["{preload}"]')
    last = failed_sweep(tmp_path, ["-m", "attnspec.cli"], timeout=300, env=env)
    assert last.startswith("attnspec sweep: failed: the local Dask cluster did not start")


def test_payload_really_runs_code_when_unpickled(tmp_path):
    """The hostile peer's object is real: unpickling it creates the marker."""
    marker = tmp_path / "pwned"
    pickle.loads(pickle.dumps(Payload(marker)))
    assert marker.exists()


@pytest.mark.parametrize("before", [None, "/elsewhere"])
def test_a_trial_task_leaves_the_workers_cache_setting_as_it_was(before, tmp_path, monkeypatch):
    """An external worker's ATTNSPEC_CACHE is the client's for the task only."""
    from attnspec.core import cache
    from attnspec.runner.cluster import _trial_task

    if before is None:
        monkeypatch.delenv(cache.CACHE_ENV, raising=False)
    else:
        monkeypatch.setenv(cache.CACHE_ENV, before)
    _trial_task(str(tmp_path), 24, 1.0, 2.0, 0, 0)
    assert os.environ.get(cache.CACHE_ENV) == before
    assert any(tmp_path.rglob("*"))  # the trial went into the client's cache


def test_the_documentation_says_the_scheduler_must_be_trusted(capsys):
    """The probe cannot stop Dask's client from unpickling what a scheduler that passed it sends."""
    from attnspec.publish.paths import ROOT

    with pytest.raises(SystemExit):
        main(["sweep", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "scheduler you trust" in help_text and "unpickles" in help_text
    assert "must be one you trust" in " ".join((ROOT / "README.md").read_text().split())
    assert "must be a scheduler you trust" in " ".join(check_scheduler.__doc__.split())


def test_a_fake_scheduler_that_passes_the_probe_runs_code_through_dasks_client(cache_dir, tmp_path):
    """What the documentation says: the probe reads plain data, so a peer that answers it as a
    scheduler would passes; Dask's own client then unpickles the handshake that peer sends."""
    from distributed.protocol.serialize import ToPickle

    marker = tmp_path / "pwned"
    identity = {"type": "Scheduler", "id": "x", "address": "tcp://x", "workers": {}}
    connections = []

    def answer(conn):
        connections.append(conn)
        if len(connections) == 1:  # the probe: plain data only
            conn.sendall(handshake() + message(identity))
        else:  # Dask's client: a handshake holding a pickled object
            conn.sendall(message({"compression": None, "payload": ToPickle(Payload(marker))}))

    with peer(answer) as address:
        done = subprocess.run(
            [sys.executable, "-m", "attnspec.cli", *SWEEP, "-o", str(tmp_path / "o.csv")]
            + ["--scheduler", address],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert marker.exists(), done.stderr  # the code ran: --scheduler must be one you trust
    assert done.returncode == 2 and "Traceback" not in done.stderr


@pytest.fixture(scope="module")
def certificates(tmp_path_factory) -> dict:
    """A scheduler's :class:`~distributed.security.Security` with temporary self-signed
    certificates, the same certificates as files for the client, and another CA's file."""
    from distributed.security import Security

    folder = tmp_path_factory.mktemp("tls")
    security = Security.temporary()
    files = {"ca": security.tls_ca_file, "cert": security.tls_client_cert}
    files |= {"key": security.tls_client_key, "other-ca": Security.temporary().tls_ca_file}
    for name, text in files.items():
        (folder / f"{name}.pem").write_text(text)
    return {"security": security, **{name: str(folder / f"{name}.pem") for name in files}}


def tls_options(certificates: dict, ca: str = "ca") -> list[str]:
    files = (certificates[ca], certificates["cert"], certificates["key"])
    return [
        x
        for pair in zip(("--tls-ca-file", "--tls-cert", "--tls-key"), files, strict=True)
        for x in pair
    ]


@pytest.mark.cluster  # starts a Dask scheduler over TLS, and its worker
def test_a_tls_scheduler_runs_the_sweep_with_certificates_and_refuses_another_ca(
    certificates, cache_dir, tmp_path, capsys
):
    with LocalCluster(
        n_workers=1,
        processes=False,
        protocol="tls://",
        security=certificates["security"],
        dashboard_address=None,
    ) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tls://")
        out = ["-o", str(tmp_path / "o.csv"), "--scheduler", address]
        assert main([*SWEEP, *out, *tls_options(certificates, "other-ca")]) == 2
        one_line(capsys.readouterr().err, f"scheduler={address!r}: cannot connect")
        assert main([*SWEEP, *out]) == 2  # no certificates: refused before any connection
        one_line(capsys.readouterr().err, "a tls:// scheduler needs --tls-ca-file and --tls-cert")
        assert main([*SWEEP, *out, *tls_options(certificates)]) == 0, capsys.readouterr().err
    assert "computed 1 of 1 trials" in capsys.readouterr().err
    assert (tmp_path / "o.csv").read_text().startswith("d,beta,trial,model")


@pytest.mark.parametrize(
    "options, words",
    [
        (
            ["--scheduler", "tcp://127.0.0.1:1", "--tls-ca-file", "{ca}", "--tls-cert", "{cert}"],
            "apply to tls:// only",
        ),
        (["--tls-ca-file", "{ca}", "--tls-cert", "{cert}"], "apply to a tls:// --scheduler only"),
        (["--scheduler", "tls://127.0.0.1:1", "--tls-cert", "{cert}"], "go together"),
        (
            ["--scheduler", "tls://127.0.0.1:1", "--tls-ca-file", "{none}", "--tls-cert", "{cert}"],
            "tls-ca-file=",
        ),
        (
            "--scheduler tls://127.0.0.1:1 --tls-ca-file {ca} --tls-cert {garbage}".split(),
            "not a usable PEM certificate and key",
        ),
    ],
    ids=["tcp with certificates", "no scheduler", "no CA", "a missing file", "not PEM"],
)
def test_tls_options_out_of_place_are_one_line(options, words, certificates, tmp_path, capsys):
    (tmp_path / "garbage.pem").write_text("not a certificate")
    files = {**certificates, "none": str(tmp_path / "none.pem")}
    files["garbage"] = str(tmp_path / "garbage.pem")
    options = [o.format(**files) if o.startswith("{") else o for o in options]
    assert main([*SWEEP, "-o", str(tmp_path / "o.csv"), *options]) == 2
    one_line(capsys.readouterr().err, words)
    assert not (tmp_path / "o.csv").exists()
