"""``attnspec sweep``: a (d, beta, trial) grid on Dask; write the tidy CSV, print pooled metrics."""

from __future__ import annotations

import argparse
import signal
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ..core.errors import InvalidInput
from ..core.kinds import PARAMETERS
from ..core.parameter import parse_number, shown
from .options import add_output, add_parameter_options, output_option, parse_parameters

if TYPE_CHECKING:
    from ..runner.scheduler import TLS
    from ..runner.tables import SweepResult

OPTIONS = ["trials", "seed", "remove_top_k", "c_poly"]
LISTS = ["d", "beta"]


def add_parser(sub) -> None:
    parser = sub.add_parser(
        "sweep", help="run a grid of (d, beta, trial) on Dask and write a tidy CSV"
    )
    for name in LISTS:
        p = PARAMETERS[name]
        parser.add_argument(
            f"--{name}",
            default=str(p.default),
            metavar="LIST",
            help=f"comma-separated values of {name}: {p.help} "
            f"({p.type_name}, {p.range_text}; default {p.default})",
        )
    add_parameter_options(parser, OPTIONS)
    add_output(
        parser,
        "CSV file to write: one row per (d, beta, trial, model)",
        aliases=("--out",),
        required=True,
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="address of an existing Dask scheduler you trust: Dask's client unpickles what "
        "its scheduler sends, so a scheduler runs code here (default: start a local cluster)",
    )
    for option, what in (
        ("--tls-ca-file", "the CA that signed a tls:// scheduler's certificate"),
        ("--tls-cert", "this client's certificate for a tls:// scheduler"),
        ("--tls-key", "its private key (default: in the --tls-cert file)"),
    ):
        parser.add_argument(option, metavar="PEM", help=f"{what}, as Dask's Security takes it")
    parser.add_argument(
        "--workers", metavar="N", help="workers of the local cluster (default: one per core)"
    )
    parser.set_defaults(run=run)


def parse_list(name: str, text: str) -> list:
    """Parse a comma-separated option, checking every value with ``PARAMETERS[name]``."""
    parts = text.split(",")
    if not text.strip():
        raise InvalidInput(f"{name}={text!r} must be a non-empty comma-separated list")
    return [PARAMETERS[name].parse(part.strip()) for part in parts]


def parse_workers(text: str | None) -> int | None:
    """The ``--workers`` option as an int (None if not given)."""
    if text is None:
        return None
    try:
        return parse_number(text, int)
    except ValueError as exc:
        raise InvalidInput(f"workers={shown(text)} is not of type int: {exc}") from None


def format_pooled(result: SweepResult) -> str:
    """The pooled table with fixed decimals, one line per (d, beta, model)."""
    from ..models.ladder import REFERENCE
    from ..runner.tables import COLUMNS

    names = list(COLUMNS)
    head = f"{'d':>6}  {'beta':>6}  {'model':>14}  " + "  ".join(f"{n:>8}" for n in names)
    rows = [
        f"{r['d']:6d}  {r['beta']:6.3f}  {r['model']:>14}  "
        + "  ".join(f"{r[n]:8.4f}" for n in names)
        for r in result.pooled
    ]
    title = f"bulk pooled over trials, distances to {REFERENCE}"
    return "\n".join([title, head, *rows])


@contextmanager
def interrupt_guard():
    """Record a Ctrl-C (SIGINT) while the sweep runs, and still raise KeyboardInterrupt at once."""
    seen = []

    def handler(signum, frame):
        seen.append(signum)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield lambda: bool(seen)
    finally:
        signal.signal(signal.SIGINT, previous)


def parse_tls(args: argparse.Namespace) -> TLS | None:
    """The ``--tls-*`` options as :class:`~attnspec.runner.scheduler.TLS` (None if none)."""
    from ..runner.scheduler import TLS

    given = (args.tls_ca_file, args.tls_cert, args.tls_key)
    if given == (None, None, None):
        return None
    if args.tls_ca_file is None or args.tls_cert is None:
        raise InvalidInput("--tls-ca-file and --tls-cert go together (--tls-key is optional)")
    return TLS(*given)


def run(args: argparse.Namespace) -> int:
    from ..core.atomic import check_writable
    from ..runner.cluster import check_workers
    from ..runner.sweep import make_grid, run_sweep
    from ..runner.tables import to_csv

    lists = {name: parse_list(name, getattr(args, name)) for name in LISTS}
    params = parse_parameters(args, OPTIONS)
    workers = parse_workers(args.workers)
    tls = parse_tls(args)
    make_grid(**lists, **params)
    check_workers(workers, args.scheduler)
    check_writable(args.output, output_option(args))
    with interrupt_guard() as interrupted:
        result = run_sweep(
            **lists, **params, scheduler=args.scheduler, tls=tls, n_workers=workers, progress=True
        )
    if interrupted():  # Dask may swallow the KeyboardInterrupt while it waits; the flag does not
        raise KeyboardInterrupt
    to_csv(result.table, args.output)
    total = sum(len(r.trials) for r in result.ladders)
    print(
        f"computed {result.computed} of {total} trials, "
        f"{total - result.computed} read from the cache",
        file=sys.stderr,
    )
    print(format_pooled(result))
    return 0
