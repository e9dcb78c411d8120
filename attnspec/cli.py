"""The ``attnspec`` command: one sub-command per module in :mod:`attnspec.commands`.

Invalid input (``ValueError`` from validation, or a bad option) prints one line on stderr and exits
with status 2; no traceback, nothing written.
"""

from __future__ import annotations

import argparse
import sys

from .commands import COMMANDS


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, status 2, as for a ValueError
        self.exit(2, f"attnspec: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="attnspec", description="Spectra of softmax self-attention: the executable paper.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args) or 0
    except ValueError as exc:
        print(f"attnspec {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into e.g. `head`
        return 0
    except KeyboardInterrupt:
        print(f"attnspec {args.command}: interrupted; finished trials are kept in the cache", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
