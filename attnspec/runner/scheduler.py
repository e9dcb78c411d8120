"""An existing Dask scheduler: the probe that keeps what is not a scheduler out, TLS, the client.

``attnspec sweep --scheduler ADDRESS`` first probes the address (:func:`check_scheduler`), reading
the peer's replies as plain data, then connects Dask's own client (:func:`existing_client`). The
probe refuses what ``Client(address, timeout=CONNECT_TIMEOUT)`` does not: a peer that accepts the
connection and never answers (an HTTP server waiting for a request, a silent TCP peer: the client
still waits after 60 s, its timeout bounds the connect only), a peer whose reply announces an
absurd length (an HTTP answer: the client tries to allocate exabytes, a MemoryError), and a peer
that sends a pickled object (the client unpickles it); a closed port it refuses at once, the client
after its timeout (``benchmarks/bench_scheduler_refusal.py``). Dask's
client unpickles what its scheduler sends, so a scheduler must be one you trust; over ``tls://``
(:class:`TLS`) the scheduler and the client authenticate each other with certificates.
"""

from __future__ import annotations

import asyncio
import pickle
import ssl
import struct
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import InvalidInput

if TYPE_CHECKING:
    from distributed import Client
    from distributed.security import Security

#: Seconds to wait for an existing scheduler's handshake, and then again for the client, before
#: giving up.
CONNECT_TIMEOUT = 7


@dataclass(frozen=True)
class TLS:
    """The certificates of a ``tls://`` scheduler's client, as Dask's
    :class:`~distributed.security.Security` takes them: the CA that signed the scheduler's
    certificate, this client's certificate, and its key (None: in ``cert``'s file)."""

    ca_file: str
    cert: str
    key: str | None = None

    def __post_init__(self):
        for option, path in (("tls-ca-file", self.ca_file), ("tls-cert", self.cert)):
            if not Path(path).is_file():
                raise InvalidInput(f"{option}={path!r}: no such file (a PEM file is expected)")
        if self.key is not None and not Path(self.key).is_file():
            raise InvalidInput(f"tls-key={self.key!r}: no such file (a PEM file is expected)")

    def security(self) -> Security:
        """Dask's client-side :class:`~distributed.security.Security`, encryption required."""
        from distributed.security import Security

        return Security(
            tls_ca_file=self.ca_file,
            tls_client_cert=self.cert,
            tls_client_key=self.key,
            require_encryption=True,
        )

    def context(self) -> ssl.SSLContext:
        """The client's TLS context, as Dask makes it; a file that is not PEM is InvalidInput."""
        try:
            return self.security().get_connection_args("client")["ssl_context"]
        except (OSError, ValueError) as exc:  # ssl.SSLError is an OSError
            raise InvalidInput(
                f"tls-ca-file={self.ca_file!r}, tls-cert={self.cert!r}: not a usable PEM "
                f"certificate and key ({exc})"
            ) from None


#: Largest message read from a peer while probing it (a scheduler's identity, which lists its
#: workers, is far smaller); a larger length is a peer that is not a Dask scheduler.
MESSAGE_MAX = 2**26
#: Most frames in such a message.
FRAMES_MAX = 64


class NotAScheduler(Exception):
    """The peer does not speak the Dask protocol (or answers with something else)."""


def _message(msg: dict) -> bytes:
    """``msg`` as the Dask TCP protocol sends it: the length, then the packed frames."""
    from distributed.protocol import dumps
    from distributed.protocol.utils import pack_frames

    body = pack_frames(dumps(msg))
    return struct.pack("Q", len(body)) + body


async def _read_message(reader: asyncio.StreamReader) -> object:
    """One message of the Dask TCP protocol, decoded as plain msgpack: nothing is deserialized.

    A pickled or serialized object stays a dict of bytes (its ``__Pickled__`` or ``__Serialized__``
    marker is not acted on); every length is checked against :data:`MESSAGE_MAX` and the message's
    own size before anything is allocated or read.
    """
    import msgpack

    (size,) = struct.unpack("Q", await reader.readexactly(8))
    if not 8 <= size <= MESSAGE_MAX:
        raise NotAScheduler(f"a message of {size} bytes")
    body = await reader.readexactly(size)
    (count,) = struct.unpack_from("Q", body)
    if not 1 <= count <= FRAMES_MAX or 8 * (1 + count) > size:
        raise NotAScheduler(f"a message of {count} frames in {size} bytes")
    lengths = struct.unpack_from(f"{count}Q", body, 8)
    start = 8 * (1 + count)
    if start + sum(lengths) != size:
        raise NotAScheduler("frames that do not add up to the message")
    try:
        return msgpack.loads(
            body[start : start + lengths[0]], raw=False, strict_map_key=False, use_list=False
        )
    except (ValueError, msgpack.UnpackException) as exc:
        raise NotAScheduler(f"a message that is not msgpack ({exc.__class__.__name__})") from None


async def _identity(host: str, port: int, context: ssl.SSLContext | None) -> object:
    """The peer's answer to the ``identity`` request, after the Dask handshake (over TLS with
    ``context``), never unpickled."""
    reader, writer = await asyncio.open_connection(host, port, ssl=context)
    try:
        hello = {
            "compression": None,
            "python": tuple(sys.version_info)[:3],
            "pickle-protocol": pickle.HIGHEST_PROTOCOL,
        }
        writer.write(_message(hello) + _message({"op": "identity", "reply": True}))
        await writer.drain()
        handshake = await _read_message(reader)
        if not (isinstance(handshake, dict) and _plain(handshake)):
            raise NotAScheduler("a handshake that is not a mapping of plain data")
        return await _read_message(reader)
    finally:
        writer.close()


def _plain(value: object) -> bool:
    """No mapping in ``value`` holds an object to deserialize (``__Pickled__``, ``__Serialized__``):
    a scheduler's identity is plain data."""
    if isinstance(value, dict):
        return not {"__Pickled__", "__Serialized__"} & set(value) and all(
            _plain(v) for v in value.values()
        )
    if isinstance(value, tuple | list):
        return all(_plain(v) for v in value)
    return True


def check_scheduler(address: str, tls: TLS | None = None) -> None:
    """Refuse, within :data:`CONNECT_TIMEOUT` seconds, an address that is not a Dask scheduler over
    TCP, or over TLS with the certificates ``tls``.

    The whole handshake is bounded, not only the TCP connect: a peer that accepts the connection
    but never answers (or answers in another protocol, e.g. HTTP) is refused. The peer's replies
    are read as raw frames and plain msgpack (:func:`_read_message`), so a peer that sends a
    pickled object runs no code in the probe; the reply must be a mapping whose ``type`` is
    ``"Scheduler"``, with no object to deserialize anywhere in it (:func:`_plain`). The probe only
    keeps what is not a scheduler out: Dask's own client, which the sweep then uses, unpickles what
    the scheduler sends, by design, so ``--scheduler`` must be a scheduler you trust. A
    ``tls://`` scheduler is authenticated by its certificate (signed by ``tls.ca_file``) and
    authenticates this client by ``tls.cert``, as Dask's :class:`~distributed.security.Security`
    does; ``tcp://`` authenticates nothing. ``ucx://`` is not supported (the in-process
    ``inproc://`` of a cluster in this process is accepted as it is).
    """
    from distributed.comm.addressing import parse_address, parse_host_port

    scheme = address.split("://")[0] if "://" in address else "tcp"
    if scheme == "inproc":
        return
    if scheme not in ("tcp", "tls"):
        raise InvalidInput(
            f"scheduler={address!r}: only tcp:// and tls:// addresses are supported, "
            f"not {scheme}://"
        )
    if (scheme == "tls") != (tls is not None):
        raise InvalidInput(
            f"scheduler={address!r}: a tls:// scheduler needs --tls-ca-file and --tls-cert"
            if tls is None
            else f"scheduler={address!r}: --tls-ca-file and --tls-cert apply to tls:// only"
        )
    context = None if tls is None else tls.context()
    try:
        host, port = parse_host_port(parse_address(address)[1])
        if not 1 <= port <= 65535:
            raise InvalidInput(f"scheduler={address!r}: port {port} is out of range: 1 to 65535")
        reply = asyncio.run(asyncio.wait_for(_identity(host, port, context), CONNECT_TIMEOUT))
    except (TimeoutError, EOFError, NotAScheduler, struct.error):  # no answer, or not Dask's
        reply = None
    except (OSError, ValueError) as exc:  # ssl.SSLError too: a certificate refused either way
        raise InvalidInput(f"scheduler={address!r}: cannot connect ({exc})") from None
    if not (isinstance(reply, dict) and reply.get("type") == "Scheduler" and _plain(reply)):
        raise InvalidInput(
            f"scheduler={address!r}: no Dask scheduler answered within {CONNECT_TIMEOUT} s"
        )


@contextmanager
def existing_client(address: str, tls: TLS | None = None) -> Iterator[Client]:
    """A client of the scheduler at ``address`` (checked by :func:`check_scheduler` already),
    closed after."""
    from distributed import Client

    security = None if tls is None else tls.security()
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT, security=security)
    except (OSError, ValueError, struct.error) as exc:
        raise InvalidInput(f"scheduler={address!r}: cannot connect ({exc})") from None
    with client:
        yield client
