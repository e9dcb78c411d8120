"""The ``attnspec`` command: one sub-command per module in :mod:`attnspec.commands`.

Every failure that is not a bug prints one line on stderr, with no traceback; each kind has its own
exit status:

====  ==========================================================================================
2     invalid input (:class:`~attnspec.core.errors.InvalidInput`, or a bad option); nothing is
      written
71    out of memory (``MemoryError``, e.g. under ``ulimit -v``)
74    an operating-system error (``OSError``: disk full, permission denied, ...)
75    the run could not finish (:class:`~attnspec.core.errors.RunFailed`); run it again to resume
130   interrupted (Ctrl-C); 143: terminated (SIGTERM). Finished trials are kept in the cache.
====  ==========================================================================================

Any other exception is a bug and keeps its traceback. Requested files are written before the
results are printed. One rule for stdout: what a command prints is part of its output, so if it
cannot be printed (stdout closed, as in ``attnspec law >&-``, or full, as ``/dev/full``) the status
is 74 with one line on stderr, the requested files kept (``--help`` and ``--version`` too); a
reader that stops reading (a broken pipe, as in ``| head -1``) is not an error, status 0.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .commands import chapters, diff, ladder, law, notebooks, run, sweep
from .core import cleanup
from .core.errors import InvalidInput, RunFailed
from .core.stopping import (
    EXIT_INTERRUPTED,
    EXIT_OS,
    EXIT_TERMINATED,
    Terminated,
    sigterm_raises,
    system_error,
)

#: What argparse takes for a value, not an option, though it starts with ``-``.
NEGATIVE_NUMBER = re.compile(
    r"^-(?:[0-9]+\.?[0-9]*(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)$",
    re.IGNORECASE,
)

#: The sub-commands, in the order ``attnspec --help`` lists them.
COMMANDS = [ladder, chapters, run, sweep, law, diff, notebooks]
EXIT_INVALID, EXIT_MEMORY, EXIT_FAILED = 2, 71, 75


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):  # an option is spelled in full: `--tri 1` is an error
        super().__init__(*args, **{"allow_abbrev": False, **kwargs})
        # a negative or infinite float (-1e-3, -inf) is a value, checked as any other
        self._negative_number_matcher = NEGATIVE_NUMBER

    def error(self, message: str):  # one line, status 2, as for InvalidInput
        self.exit(EXIT_INVALID, f"attnspec: error: {message}\n")

    def _print_message(self, message, file=None):  # --help: a full stdout is an error (74)
        if message:
            file = sys.stderr if file is None else file
            file.write(message)
            file.flush()


class _Version(argparse.Action):
    """``--version``: print ``attnspec VERSION`` and exit 0 (looked up only when asked)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        from . import __version__

        print(f"attnspec {__version__}", flush=True)
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="attnspec", description="Spectra of softmax self-attention: the executable paper."
    )
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


class _ClosedStdout(io.TextIOBase):
    """``sys.stdout`` when stdout was closed as the command started: it counts what is lost."""

    lost = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.lost += len(text)
        return len(text)


def _standard_streams() -> None:
    """Open /dev/null on a closed stdin, stdout or stderr (``attnspec law >&-``), so that no file
    this process opens takes their number and no child process inherits it as a stream; a closed
    stdout becomes a :class:`_ClosedStdout`."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            os.open(os.devnull, os.O_RDWR)  # the lowest free number: fd itself
            if fd == 1:
                sys.stdout = _ClosedStdout()


def _absolute_cache() -> None:
    """Resolve a relative ``$ATTNSPEC_CACHE`` against the folder the command was started in, once,
    before any kernel or worker (which start elsewhere) inherits it."""
    name = "ATTNSPEC_CACHE"  # attnspec.core.cache.CACHE_ENV (not imported: it needs numpy)
    if os.environ.get(name):
        os.environ[name] = os.path.abspath(os.environ[name])


def _discard_stdout() -> None:
    """Flush stdout; if it is closed or full, point it at /dev/null so that exit does not fail."""
    if sys.stdout is None or isinstance(sys.stdout, _ClosedStdout):
        return
    try:
        sys.stdout.flush()
    except OSError:
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):  # not a real file (e.g. captured by a test)
            pass


#: the commands that compute trials, which the cache keeps when they stop early
TRIAL_COMMANDS = ("ladder", "sweep", "run", "notebooks")


def _kept(command: str) -> str:
    """What an early stop of ``command`` leaves: its finished trials, or nothing partial."""
    if command in TRIAL_COMMANDS:
        return "finished trials are kept in the cache"
    return "nothing partial is left"


#: what the kernels and workers of a command write besides its outputs, each in a subfolder of the
#: command's own temporary folder (:func:`_scratch`): IPython's profile, matplotlib's configuration
#: and font cache, Dask's scratch space
SCRATCH = {
    "IPYTHONDIR": "ipython",
    "MPLCONFIGDIR": "matplotlib",
    "DASK_TEMPORARY_DIRECTORY": "dask",
}


@contextmanager
def _scratch(command: str) -> Iterator[None]:
    """For a command that starts kernels or workers (:data:`TRIAL_COMMANDS`): a private folder
    ``$TMPDIR/attnspec-PID-XXXXXXXX.tmp`` holding :data:`SCRATCH`, named in the environment they
    inherit, removed when the command ends or stops. So nothing is written to ``~/.ipython``,
    ``~/.cache/matplotlib`` or ``$TMPDIR/dask-scratch-space`` (a read-only home gives no warning),
    and no profile or ``matplotlibrc`` of the user's changes a computed output."""
    if command not in TRIAL_COMMANDS:
        yield
        return
    before = {name: os.environ.get(name) for name in SCRATCH}
    cleanup.remove_stale(Path(tempfile.gettempdir()), "attnspec-")  # those of killed commands
    with cleanup.temporary_folder(Path(tempfile.gettempdir()), "attnspec-") as folder:
        os.environ.update({name: str(folder / sub) for name, sub in SCRATCH.items()})
        try:
            yield
        finally:
            for name, value in before.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


def _fail(command: str, message: str, status: int) -> int:
    print(f"attnspec {command}: {message}", file=sys.stderr)
    return status


def _unprinted(command: str, why: str) -> int:
    """Status 74: the results could not be printed (the rule in the module docstring)."""
    kept = "the results were not printed; requested files are kept"
    return _fail(command, f"system error: {why}: {kept}", EXIT_OS)


def _copied_checkout() -> None:
    """Warn, in one line, when this is the console script of another checkout's ``.venv`` (a
    copied checkout before its ``make install``: the script's interpreter and the editable
    install are still the original's, so the original's code runs)."""
    script = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    bin_folder = os.path.dirname(script)
    if os.path.basename(bin_folder) != "bin" or os.path.basename(os.path.dirname(bin_folder)) != (
        ".venv"
    ):
        return
    checkout = os.path.dirname(os.path.dirname(bin_folder))
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    checkouts = all(os.path.isfile(os.path.join(c, "pyproject.toml")) for c in (checkout, package))
    if checkouts and os.path.realpath(checkout) != os.path.realpath(package):
        print(
            f"attnspec: warning: this command runs the code of {package}, not of {checkout} "
            f"(a copied checkout?): run make install in {checkout}",
            file=sys.stderr,
        )


def main(argv: list[str] | None = None) -> int:
    _standard_streams()
    _absolute_cache()
    _copied_checkout()
    try:
        args = build_parser().parse_args(argv)
    except InvalidInput as exc:  # the book's data the parser reads (a chapter's declaration)
        print(f"attnspec: error: {exc}", file=sys.stderr)
        return EXIT_INVALID
    except OSError as exc:  # --version or --help into a full stdout
        _discard_stdout()
        print(f"attnspec: system error: stdout: {system_error(exc)}", file=sys.stderr)
        return EXIT_OS
    except SystemExit as done:  # --version or --help into a closed stdout
        if done.code == 0 and isinstance(sys.stdout, _ClosedStdout) and sys.stdout.lost:
            print("attnspec: system error: stdout is closed: nothing was printed", file=sys.stderr)
            return EXIT_OS
        raise
    name = args.command
    try:
        with sigterm_raises(), _scratch(name):
            status = args.run(args) or 0
            if isinstance(sys.stdout, _ClosedStdout) and sys.stdout.lost:
                return _unprinted(name, "stdout is closed")
            try:
                if sys.stdout is not None:
                    sys.stdout.flush()
            except BrokenPipeError:
                raise
            except OSError as exc:
                _discard_stdout()
                return _unprinted(name, f"stdout: {system_error(exc)}")
            return status
    except InvalidInput as exc:
        return _fail(name, f"error: {exc}", EXIT_INVALID)
    except BrokenPipeError:  # output piped into e.g. `head`; requested files are already written
        _discard_stdout()
        return 0
    except OSError as exc:
        _discard_stdout()
        return _fail(name, f"system error: {system_error(exc)}", EXIT_OS)
    except MemoryError:
        fewer = "fewer --workers, " if hasattr(args, "workers") else ""
        return _fail(name, f"out of memory: try a smaller d, {fewer}or more memory", EXIT_MEMORY)
    except RunFailed as exc:
        return _fail(name, f"failed: {exc}; run the same command again to resume", EXIT_FAILED)
    except KeyboardInterrupt:
        return _fail(name, f"interrupted; {_kept(name)}", EXIT_INTERRUPTED)
    except Terminated:
        return _fail(name, f"terminated; {_kept(name)}", EXIT_TERMINATED)


if __name__ == "__main__":
    sys.exit(main())
