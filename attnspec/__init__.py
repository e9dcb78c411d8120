"""attnspec: an executable paper on the spectra of softmax self-attention."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("attnspec")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0+unknown"
