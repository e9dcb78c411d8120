"""``python -m attnspec``: the ``attnspec`` command (:mod:`attnspec.cli`)."""

import sys

from .cli import main

sys.exit(main())
