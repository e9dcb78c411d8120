"""One run parameter (:class:`Parameter`): its type, default, valid range and help, and how a value
given on the command line is parsed (:func:`parse_number`: ASCII decimal only) and checked.

The kinds of parameter, one :class:`Parameter` per name, are the table
:data:`attnspec.core.kinds.PARAMETERS`.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from typing import Any

from .errors import InvalidInput


@dataclass(frozen=True)
class Parameter:
    """One run parameter: its type, default, valid range and a one-line help text."""

    name: str
    kind: type  # int, float, str, or list (a comma-separated list of `item`)
    default: Any
    help: str
    low: float | None = None  # inclusive lower bound
    high: float | None = None  # inclusive upper bound
    low_open: bool = False  # lower bound excluded
    item: type | None = None  # element type of a list parameter
    why: str = ""  # why the range ends where it does, added to out-of-range messages

    @property
    def range_text(self) -> str:
        """The valid range in words, as the error messages state it."""
        if self.low is None and self.high is None:
            return "any value"
        lo = "" if self.low is None else f"{'>' if self.low_open else '>='} {_fmt(self.low)}"
        hi = "" if self.high is None else f"<= {_fmt(self.high)}"
        text = " and ".join(t for t in (lo, hi) if t)
        return f"each {text}" if self.kind is list else text

    @property
    def type_name(self) -> str:
        """`int`, `float`, `str` or e.g. `list[int]`."""
        if self.kind is list:
            return f"list[{self.item.__name__}]"
        return self.kind.__name__

    def parse(self, text: str) -> Any:
        """A command-line string in this parameter's type (:meth:`read`), then checked."""
        return self.check(self.read(text))

    def read(self, text: str) -> Any:
        """A command-line string in this parameter's type (:func:`parse_number`: ASCII decimal
        only), not yet checked against the range."""
        if self.kind is list:
            if not all(part.strip() for part in text.split(",")):
                raise InvalidInput(
                    f"{self.name}={shown(text)} has an empty item: give a comma-separated list of "
                    f"{self.item.__name__} with no empty item ({self.range_text})"
                )
            try:
                value = [parse_number(part, self.item) for part in text.split(",")]
            except ValueError as exc:
                raise InvalidInput(
                    f"{self.name}={shown(text)} is not a comma-separated list of "
                    f"{self.item.__name__}: {exc} ({self.range_text})"
                ) from None
        else:
            try:
                value = parse_number(text, self.kind)
            except ValueError as exc:
                raise InvalidInput(
                    f"{self.name}={shown(text)} is not of type {self.type_name}: {exc} "
                    f"({self.range_text})"
                ) from None
        return value

    def check(self, value: Any) -> Any:
        """Return ``value`` if it has the right type and lies in range, else raise InvalidInput."""
        if self.kind is list:
            if not isinstance(value, (list, tuple)) or not value:
                raise InvalidInput(
                    f"{self.name}={value!r} must be a non-empty list of {self.item.__name__}"
                )
            return [self._check_scalar(v, self.item) for v in value]
        return self._check_scalar(value, self.kind)

    def _check_scalar(self, value: Any, kind: type) -> Any:
        ok_type = isinstance(value, kind) and not isinstance(value, bool)
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok_type = float(value), True
        if not ok_type:
            raise InvalidInput(
                f"{self.name}={value!r} must be of type {kind.__name__} ({self.range_text})"
            )
        if kind is float and not math.isfinite(value):
            raise InvalidInput(f"{self.name}={value!r} must be finite ({self.range_text})")
        below = self.low is not None and (value <= self.low if self.low_open else value < self.low)
        above = self.high is not None and value > self.high
        if below or above:
            why = f" ({self.why})" if self.why else ""
            raise InvalidInput(
                f"{self.name}={value!r} is out of range: must be {self.range_text}{why}"
            )
        return value


def _fmt(x: float) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


#: A number on the command line: ASCII digits only (no other script's digits, no underscores),
#: an optional sign; a float may have a point, an exponent, or be inf or nan (refused later, with
#: the range). Leading zeros are decimal: 007 is 7, -0 is 0.
_INT = re.compile(r"[+-]?[0-9]+")
_FLOAT = re.compile(
    r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)", re.I
)


#: the most characters of a given value that a message repeats
SHOWN_CHARS = 40


def shown(text: str) -> str:
    """``repr(text)``, cut to :data:`SHOWN_CHARS` characters with its length, for messages."""
    if len(text) <= SHOWN_CHARS:
        return repr(text)
    return f"{text[:SHOWN_CHARS]!r}… ({len(text)} characters)"


def parse_number(text: str, kind: type) -> int | float:
    """``text`` (surrounding spaces ignored) as an ``int`` or a ``float``: ASCII decimal only.

    Raises
    ------
    ValueError
        saying what is accepted, e.g. for ``1_000``, ``١٢`` (Arabic-Indic digits), ``0x40`` or
        ``2.5`` as an int.
    """
    stripped = text.strip(" \t\n\r\f\v")
    if kind is int:
        if _INT.fullmatch(stripped) and len(stripped) > sys.get_int_max_str_digits() > 0:
            raise ValueError("it has more digits than any parameter's range allows")
        if _INT.fullmatch(stripped):
            return int(stripped)
        raise ValueError("an int is written with a sign and the digits 0-9 only, e.g. 1000")
    if _FLOAT.fullmatch(stripped):
        return float(stripped) + 0.0  # -0 is 0
    raise ValueError(
        "a float is written with a sign, the digits 0-9, a point and an exponent only, "
        "e.g. 0.5 or 1e-3"
    )
