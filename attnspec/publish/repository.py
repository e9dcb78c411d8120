"""Where the book's code and site live: the repository's address, set in one place.

In a GitHub workflow it is the repository the workflow runs in (``GITHUB_SERVER_URL`` and
``GITHUB_REPOSITORY``). In a checkout it is git's remote ``origin``, when that is a GitHub
repository (``https://github.com/OWNER/NAME`` or ``git@github.com:OWNER/NAME``). Otherwise there is
none, and nothing names one: no address is invented. The site's address is GitHub Pages' address of
a project site, ``https://OWNER.github.io/NAME/`` (``https://OWNER.github.io/`` for the repository
``OWNER.github.io``).

The theme's repository button, the footer, the ``@software`` entry, each chapter's "Cite this
chapter" entry (``book/_ext/citation.py``) and the archive's ``CITATION.cff`` and ``.zenodo.json``
(:mod:`attnspec.publish.archive`) read it from here.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Mapping
from pathlib import Path

from .paths import ROOT

#: A GitHub remote, over HTTPS or SSH, with or without ``.git``.
GITHUB_REMOTE = re.compile(
    r"^(?:https://github\.com/|git@github\.com:|ssh://git@github\.com/)"
    r"(?P<owner>[A-Za-z0-9-]+)/(?P<name>[A-Za-z0-9._-]+?)(?:\.git)?/?$"
)


def _origin(root: Path) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "remote", "get-url", "origin"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:  # no git on this machine
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def owner_and_name(
    environ: Mapping[str, str] = os.environ, root: Path = ROOT
) -> tuple[str, str] | None:
    """``(OWNER, NAME)`` of the GitHub repository (see the module docstring), or None."""
    if environ.get("GITHUB_REPOSITORY"):
        if environ.get("GITHUB_SERVER_URL", "https://github.com") != "https://github.com":
            return None  # GitHub Enterprise: its Pages address is not derivable
        owner, _, name = environ["GITHUB_REPOSITORY"].partition("/")
        return (owner, name) if owner and name else None
    match = GITHUB_REMOTE.match(_origin(root) or "")
    return (match["owner"], match["name"]) if match else None


def repository_url(environ: Mapping[str, str] = os.environ, root: Path = ROOT) -> str | None:
    """``https://github.com/OWNER/NAME``, or None when there is no GitHub repository."""
    found = owner_and_name(environ, root)
    return f"https://github.com/{found[0]}/{found[1]}" if found else None


def site_url(environ: Mapping[str, str] = os.environ, root: Path = ROOT) -> str | None:
    """The published site's address, ending in ``/``: ``https://OWNER.github.io/NAME/``, or
    ``https://OWNER.github.io/`` for the repository ``OWNER.github.io``; None without a
    repository."""
    found = owner_and_name(environ, root)
    if not found:
        return None
    owner, name = found[0].lower(), found[1]
    host = f"https://{owner}.github.io/"
    return host if name.lower() == f"{owner}.github.io" else f"{host}{name}/"
