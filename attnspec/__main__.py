"""``python -m attnspec``: the ``attnspec`` command (:mod:`attnspec.cli`).

``python -m`` puts the current folder first on ``sys.path``; it is taken off before anything else
is imported, so that a file in the folder a command runs in (say a ``numpy.py`` among the outputs)
is never imported in its place, as with the ``attnspec`` script.
"""

import os
import sys

if sys.path and os.path.abspath(sys.path[0] or os.curdir) == os.getcwd():
    del sys.path[0]

from .cli import main  # noqa: E402

sys.exit(main())
