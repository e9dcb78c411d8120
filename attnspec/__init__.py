"""attnspec: an executable paper on the spectra of softmax self-attention."""

from __future__ import annotations


def __getattr__(name: str) -> str:
    """``__version__``, looked up in the installed metadata on first use (not at import)."""
    if name != "__version__":
        raise AttributeError(f"module 'attnspec' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        value = version("attnspec")
    except PackageNotFoundError:  # running from a source tree that was not installed
        value = "0+unknown"
    globals()["__version__"] = value
    return value
