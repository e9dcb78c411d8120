"""Stopping early without a traceback or a partial file: Ctrl-C, SIGTERM and system errors.

SIGTERM is turned into :class:`Terminated` (as Ctrl-C is into ``KeyboardInterrupt``), so that the
``finally`` blocks of atomic writes (:mod:`attnspec.core.atomic`) remove their temporary files on
the way out. :func:`one_line` runs a step of ``make`` and turns each way of stopping into one line
on stderr and its status.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

EXIT_OS, EXIT_INTERRUPTED, EXIT_TERMINATED = 74, 130, 128 + signal.SIGTERM


class Terminated(BaseException):
    """Raised in the main thread on SIGTERM, so that temporary files are removed on the way out."""


def _terminate(signum, frame):
    raise Terminated


@contextmanager
def sigterm_raises() -> Iterator[None]:
    """Turn SIGTERM into :class:`Terminated` while the block runs (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def system_error(exc: OSError) -> str:
    """``exc`` in words, with the file it names: ``No space left on device: 'dist/a.zip'``."""
    where = f": {exc.filename!r}" if exc.filename else ""
    return f"{exc.strerror or exc}{where}"


def one_line(command: str, step: Callable[[], int]) -> int:
    """``step()``'s status; on Ctrl-C, SIGTERM or an ``OSError`` one line ``COMMAND: …`` on stderr
    and status 130, 143 or 74, after every temporary file is removed."""
    try:
        with sigterm_raises():
            return step()
    except KeyboardInterrupt:
        message, status = "interrupted (Ctrl-C); nothing partial is left", EXIT_INTERRUPTED
    except Terminated:
        message, status = "terminated (SIGTERM); nothing partial is left", EXIT_TERMINATED
    except OSError as exc:
        message, status = f"system error: {system_error(exc)}; nothing partial is left", EXIT_OS
    print(f"{command}: {message}", file=sys.stderr)
    return status
