"""Shared fixtures: every test runs against its own, empty, temporary disk cache."""

from __future__ import annotations

import pytest

from attnspec.cache import CACHE_ENV


@pytest.fixture(scope="session", autouse=True)
def _session_cache(tmp_path_factory):
    """Backstop for module- and session-scoped fixtures: never touch the user's real cache."""
    mp = pytest.MonkeyPatch()
    mp.setenv(CACHE_ENV, str(tmp_path_factory.mktemp("session-cache")))
    yield
    mp.undo()


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch):
    """A fresh cache folder per test (``$ATTNSPEC_CACHE``); returned for tests that inspect it."""
    path = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(path))
    return path
