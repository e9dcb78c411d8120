"""Argument checks shared by every module: one message style, one exception type.

Each check returns the value converted (``int`` or ``float``) or raises
:class:`~attnspec.core.errors.InvalidInput` with a one-line message naming the parameter, the value
and the valid range, e.g. ``ell=1 is out of range: must be an int >= 2``. Command-line parameters go
through :class:`attnspec.core.parameter.Parameter`, which states its ranges the same way.
"""

from __future__ import annotations

import math
import numbers

from .errors import InvalidInput


def _bounds(kind: str, low, high) -> str:
    parts = [f">= {low}" if low is not None else "", f"<= {high}" if high is not None else ""]
    return (
        f"must be {kind} " + " and ".join(p for p in parts if p)
        if any(parts)
        else f"must be {kind}"
    )


def integer(name: str, value, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an ``int`` with ``low <= value <= high`` (bools are not integers)."""
    rule = _bounds("an int", low, high)
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidInput(f"{name}={value!r} is not an integer: {rule}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise InvalidInput(f"{name}={value!r} is out of range: {rule}")
    return value


def real(name: str, value, low: float | None = None, high: float | None = None) -> float:
    """``value`` as a finite ``float`` with ``low <= value <= high``."""
    rule = _bounds("a finite real", low, high)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidInput(f"{name}={value!r} is not a real number: {rule}")
    value = float(value)
    if not math.isfinite(value):
        raise InvalidInput(f"{name}={value!r} is not finite: {rule}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise InvalidInput(f"{name}={value!r} is out of range: {rule}")
    return value


def choice(name: str, value, options) -> object:
    """``value`` if it is one of ``options``."""
    if value not in options:
        raise InvalidInput(
            f"{name}={value!r} is out of range: must be one of {', '.join(map(str, options))}"
        )
    return value
