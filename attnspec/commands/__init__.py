"""Sub-commands of the ``attnspec`` CLI; each module has ``add_parser(subparsers)``."""

from . import ladder, law, sweep

COMMANDS = [ladder, sweep, law]
