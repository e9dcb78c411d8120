"""Shared fixtures: every test runs against its own, empty, temporary disk cache."""

from __future__ import annotations

import pytest

from attnspec.core.cache import CACHE_ENV


@pytest.fixture(scope="module", autouse=True)
def _module_cache(tmp_path_factory):
    """Backstop for module-scoped fixtures: never touch the user's real cache.

    Module scope, not session: autouse puts it before every other module-scoped fixture, and it is
    undone when the last test of the module ends, so the nbval items that ``make test`` runs after
    ``tests/`` in the same process (chapter kernels inherit the environment) see the caller's
    ``$ATTNSPEC_CACHE``, not an empty temporary one. Add no session-scoped fixture that computes:
    it would run before this backstop.
    """
    mp = pytest.MonkeyPatch()
    mp.setenv(CACHE_ENV, str(tmp_path_factory.mktemp("module-cache")))
    yield
    mp.undo()


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch):
    """A fresh cache folder per test (``$ATTNSPEC_CACHE``); returned for tests that inspect it."""
    path = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(path))
    return path
