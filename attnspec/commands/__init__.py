"""Sub-commands of the ``attnspec`` CLI; each module has ``add_parser(subparsers)`` and ``run``.

A command module imports only :mod:`argparse` and :mod:`attnspec.commands.options` at the top; what
it computes with (numpy, scipy, papermill, Dask, ...) is imported inside ``run``, so that building
the parser, and ``attnspec --help``, stay fast.
"""
