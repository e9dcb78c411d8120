"""Sub-commands of the ``attnspec`` CLI; each module has ``add_parser(subparsers)``."""

from . import chapters, diff, ladder, law, run, sweep

COMMANDS = [ladder, chapters, run, sweep, law, diff]
