"""What refuses an address that is not a Dask scheduler: the probe against Dask's own client.

For each peer the tests cover (a closed port, an HTTP server waiting for a request, a peer that
answers with HTTP, a TCP peer that never answers) and for a peer that sends a pickled object, it
times :func:`attnspec.runner.scheduler.check_scheduler` and ``distributed.Client(address,
timeout=CONNECT_TIMEOUT)`` in turn, in one run, and prints the first line of each refusal. The
pickled object only creates a marker file: it shows whether the client unpickles what a peer sends.

Run by hand: ``.venv/bin/python benchmarks/bench_scheduler_refusal.py [CASE ...]`` (e.g.
``"silent peer"``; every case by default).
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import socket
import struct
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from distributed import Client  # noqa: E402
from distributed.protocol import dumps  # noqa: E402
from distributed.protocol.serialize import ToPickle  # noqa: E402
from distributed.protocol.utils import pack_frames  # noqa: E402

from attnspec.runner.scheduler import CONNECT_TIMEOUT, check_scheduler  # noqa: E402
from tests.helpers import peer  # noqa: E402
from tests.runner.test_sweep import http_answering_peer, http_server  # noqa: E402

#: Seconds after which a refusal is given up on.
GIVE_UP = 60


class Marker:
    def __init__(self, path: str):
        self.path = path

    def __reduce__(self):
        return (Path.touch, (Path(self.path),))


def message(msg: dict) -> bytes:
    body = pack_frames(dumps(msg))
    return struct.pack("Q", len(body)) + body


def closed_port():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return peer_at(f"tcp://127.0.0.1:{port}")


class peer_at:
    def __init__(self, address):
        self.address = address

    def __enter__(self):
        return self.address

    def __exit__(self, *exc):
        return False


def timed(call) -> tuple[float, str]:
    """Seconds until ``call`` returns or raises (given up after :data:`GIVE_UP`), and how."""
    out: list[str] = []

    def run():
        try:
            result = call()
            out.append(f"accepted ({type(result).__name__})")
        except Exception as exc:  # noqa: BLE001 -- whatever refuses, its first line is printed
            first = str(exc).splitlines()[0] if str(exc) else ""
            out.append(f"{type(exc).__name__}: {first}")

    start = time.perf_counter()
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(GIVE_UP)
    return time.perf_counter() - start, (out[0] if out else f"still waiting after {GIVE_UP} s")[
        :100
    ]


def main() -> None:
    only = sys.argv[1:]  # case names to run (all by default)
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    marker = Path(tempfile.mkdtemp()) / "unpickled"
    hello = message({"compression": None, "python": (3, 11, 7), "pickle-protocol": 5})
    evil = message({"type": "Scheduler", "id": "x", "payload": ToPickle(Marker(str(marker)))})
    cases = {
        "closed port": closed_port,
        "HTTP server": http_server,
        "HTTP answer": http_answering_peer,
        "silent peer": lambda: peer(lambda conn: None, close=False),
        "pickle peer": lambda: peer(lambda conn: conn.sendall(hello + evil), close=False),
    }
    print(f"CONNECT_TIMEOUT = {CONNECT_TIMEOUT} s; load average {os.getloadavg()[0]:.2f}")
    for name, make in cases.items():
        if only and name not in only:
            continue
        for who, call in (
            ("probe", lambda a: check_scheduler(a)),
            ("Client", lambda a: Client(a, timeout=CONNECT_TIMEOUT)),
        ):
            marker.unlink(missing_ok=True)
            with make() as address, contextlib.redirect_stderr(io.StringIO()):
                sec, outcome = timed(lambda: call(address))  # noqa: B023 -- called at once
            ran = " [unpickled]" if marker.exists() else ""
            print(f"{name:12} {who:7} {sec:6.2f} s  {outcome}{ran}", flush=True)


if __name__ == "__main__":
    main()
    os._exit(0)  # a client still waiting in its thread would keep the process alive
