"""Executing a notebook of the book: one executor (papermill) for the chapters and the pages.

:func:`read_notebook` reads a MyST source with jupytext and gives its cells stable ids;
:func:`execute_notebook` runs it in a kernel that logs nothing to the terminal and is stopped on
Ctrl-C or SIGTERM (:mod:`attnspec.core.cleanup`), and returns it without timing metadata, so that
re-execution leaves no diff.

The kernel runs no code but the notebook's and the installed packages': by default its working
folder is a new, empty, private folder, and it starts with ``PYTHONSAFEPATH=1``, so that neither
Python nor IPython puts that folder (or any other) on ``sys.path``. A ``myst_nb.py``, an
``ipython_kernel_config.py`` or a ``matplotlibrc`` in the caller's folders is never read.

The kernel's environment names a file in the private folder, :func:`record_path`, where a
chapter's study records what it glued and claimed (:mod:`attnspec.present.record`).
"""

from __future__ import annotations

import logging
import os
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import cleanup
from ..present.record import RECORD

if TYPE_CHECKING:
    import nbformat


def read_notebook(source: Path, prefix: str) -> nbformat.NotebookNode:
    """The MyST notebook ``source`` (jupytext), its cells named ``prefix-0``, ``prefix-1``, ..."""
    import jupytext

    nb = jupytext.read(source)
    for i, cell in enumerate(nb.cells):
        cell.id = f"{prefix}-{i}"
    return nb


def strip_volatile_metadata(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Remove timing and papermill metadata so that re-execution leaves no diff."""
    nb.metadata.pop("papermill", None)
    for cell in nb.cells:
        cell.metadata.pop("papermill", None)
        cell.metadata.pop("execution", None)
    return nb


def record_path(work: Path) -> Path:
    """The file in ``work`` where a chapter's study records its values and claims."""
    return work / "record.json"


def _kernel_manager_class(work: Path):
    """A kernel manager: the kernel's connection file in ``work``, its log off the terminal.

    The kernel's own log (e.g. "Kernel is running over TCP without encryption") is not for readers;
    errors in cells still reach the notebook. The kernel's ``sys.path`` holds no working folder
    (``PYTHONSAFEPATH=1``), and :data:`~attnspec.present.record.RECORD` names
    :func:`record_path`. Every manager is registered with :mod:`attnspec.core.cleanup`.
    """
    from jupyter_client.manager import AsyncKernelManager

    class QuietKernelManager(AsyncKernelManager):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.connection_file = str(work / "kernel.json")
            cleanup.track_kernel(self)

        async def start_kernel(self, **kwargs):
            kwargs.setdefault("stdout", subprocess.DEVNULL)
            kwargs.setdefault("stderr", subprocess.DEVNULL)
            kwargs["env"] = {
                **kwargs.get("env", os.environ),
                "PYTHONSAFEPATH": "1",
                RECORD: str(record_path(work)),
            }
            return await super().start_kernel(**kwargs)

    return QuietKernelManager


def loopback_usable() -> None:
    """Connect to ``127.0.0.1``, over which the kernel is reached; when loopback is down, an
    ``OSError`` in one line at once, not a kernel that does not answer for a minute."""
    import socket

    try:
        with socket.socket() as server:
            server.bind(("127.0.0.1", 0))
            server.listen(1)
            socket.create_connection(server.getsockname(), timeout=5).close()
    except OSError as exc:
        reason = exc.strerror or exc
        raise OSError(
            exc.errno,
            f"no connection to 127.0.0.1 ({reason}), over which the kernel is reached: "
            "bring the loopback interface up (ip link set lo up)",
        ) from None


def _shutdown() -> None:
    """Stop every kernel still running (after an interrupt during start-up or execution)."""
    from jupyter_client.utils import run_sync

    for km in cleanup.kernels():
        try:
            if km.has_kernel:
                run_sync(km.shutdown_kernel)(now=True)
            run_sync(km.cleanup_resources)()
        except Exception:  # the kernel is already gone
            pass
        cleanup.untrack_kernel(km)


def execute_notebook(
    nb: nbformat.NotebookNode,
    work: Path,
    cwd: Path | None = None,
    parameters: dict[str, Any] | None = None,
) -> nbformat.NotebookNode:
    """Execute ``nb`` with papermill in the kernel's folder ``cwd``; return it, executed.

    ``parameters`` are injected after the cell tagged ``parameters`` (none: the notebook runs as
    written). ``work`` is a private folder for the input, output and connection files and the
    study's record (:func:`record_path`); ``cwd`` defaults to a new empty folder inside it.

    Raises
    ------
    papermill.exceptions.PapermillExecutionError
        when a cell raises; the notebook's own traceback is in the message.
    OSError
        when loopback is down (:func:`loopback_usable`).
    """
    import nbformat
    import papermill

    loopback_usable()
    source, executed = work / "input.ipynb", work / "output.ipynb"
    if cwd is None:
        cwd = work / "cwd"
        cwd.mkdir()
    nbformat.write(nb, source)
    quiet = [logging.getLogger(n) for n in ("papermill", "traitlets", "jupyter_client", "nbclient")]
    levels = [log.level for log in quiet]
    for log in quiet:
        log.setLevel(logging.ERROR)
    try:
        papermill.execute_notebook(
            str(source),
            str(executed),
            parameters=parameters or {},
            cwd=str(cwd),
            progress_bar=False,
            kernel_name="python3",
            log_output=False,
            kernel_manager_class=_kernel_manager_class(work),
        )
    finally:
        _shutdown()
        for log, level in zip(quiet, levels, strict=True):
            log.setLevel(level)
    return strip_volatile_metadata(nbformat.read(executed, as_version=4))
