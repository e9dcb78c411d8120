"""Validated run parameters: the shared kinds of parameter, the rules between them, and the
error messages.

:data:`PARAMETERS` gives each shared parameter (``d``, ``beta``, ``seed``, ...) its type, valid
range, a default and a help text once, so that it has the same range wherever it is used: in
:class:`Config`, on the command line, and in every set of parameters declared from it (a set may
give its own default and help). :data:`RULES` are the rules between them that hold wherever their
parameters appear (``remove_top_k < d``, ``hist_min < hist_max``); a set of parameters may add
rules of its own.
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from .errors import InvalidInput

BYTES_PER_FLOAT = 8
#: d x d float64 arrays alive at once while one trial is reduced (S, W, A, model, M M^T, workspace).
ARRAYS_ALIVE_PER_TRIAL = 6


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
        """Parse a command-line string into this parameter's type (:func:`parse_number`: ASCII
        decimal only), then check it."""
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
        return self.check(value)

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


#: Largest beta: theta1 = e^{beta^2} - 1 stays below sqrt(max float / 2), so theta1^2 (the law's
#: variance) and E[Q_n(beta chi)^2] <= 2 e^{2 beta^2} are finite floats (the bound is at 18.82).
BETA_MAX = 18.8
_BETA_WHY = "theta1^2 = (e^(beta^2) - 1)^2 must be a finite float, which ends at beta = 18.82"


PARAMETERS: dict[str, Parameter] = {
    p.name: p
    for p in [
        Parameter("d", int, 1000, "matrix size d = ell = d_qk", low=2, high=20000),
        Parameter(
            "beta",
            float,
            1.0,
            "inverse temperature of the softmax",
            low=0.0,
            high=BETA_MAX,
            why=_BETA_WHY,
        ),
        Parameter("trials", int, 10, "independent draws of W_Q, W_K, W", low=1, high=10000),
        Parameter(
            "seed",
            int,
            0,
            "root seed; trial k uses child k of SeedSequence(seed)",
            low=0,
            high=2**32 - 1,
        ),
        Parameter(
            "remove_top_k",
            int,
            3,
            "largest squared singular values removed to form the bulk",
            low=0,
        ),
        Parameter(
            "c_poly",
            float,
            2.0,
            "constant c of the Taylor degree n = ceil(c log d / log log d)",
            low=0.0,
            low_open=True,
            high=100.0,
        ),
        Parameter("hist_bins", int, 120, "bins of the bulk histograms", low=1, high=100000),
        Parameter("hist_min", float, 0.0, "left end of the bulk histogram range", low=0.0),
        Parameter(
            "hist_max", float, 8.0, "right end of the bulk histogram range", low=0.0, low_open=True
        ),
        Parameter(
            "d_values",
            list,
            [250, 500, 1000],
            "matrix sizes compared across d",
            low=2,
            high=20000,
            item=int,
        ),
        Parameter(
            "betas",
            list,
            [0.5, 1.0, 1.5, 2.0],
            "inverse temperatures compared across beta",
            low=0.0,
            high=BETA_MAX,
            item=float,
            why=_BETA_WHY,
        ),
        Parameter(
            "mc_samples",
            int,
            200_000,
            "Monte-Carlo samples for the estimated theta statistics",
            low=100,
            high=10**8,
        ),
        Parameter(
            "pooled_values",
            int,
            8000,
            "pooled bulk values per size of a series: trials = ceil(pooled_values / d)",
            low=1,
            high=10**7,
        ),
    ]
}


def available_memory_bytes() -> int:
    """Memory the kernel reports as available (MemAvailable), or total physical memory."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def trial_memory_bytes(d: int) -> int:
    """Peak memory of one trial: :data:`ARRAYS_ALIVE_PER_TRIAL` float64 arrays of size d x d."""
    return ARRAYS_ALIVE_PER_TRIAL * BYTES_PER_FLOAT * d * d


@dataclass(frozen=True)
class Config:
    """Parameters of one ladder run, validated on construction.

    Raises
    ------
    InvalidInput
        naming the parameter, its value and the valid range.
    """

    d: int = PARAMETERS["d"].default
    beta: float = PARAMETERS["beta"].default
    trials: int = PARAMETERS["trials"].default
    seed: int = PARAMETERS["seed"].default
    remove_top_k: int = PARAMETERS["remove_top_k"].default
    c_poly: float = PARAMETERS["c_poly"].default
    hist_bins: int = PARAMETERS["hist_bins"].default
    hist_min: float = PARAMETERS["hist_min"].default
    hist_max: float = PARAMETERS["hist_max"].default
    mc_samples: int = PARAMETERS["mc_samples"].default

    def __post_init__(self) -> None:
        for field in fields(self):
            object.__setattr__(
                self, field.name, PARAMETERS[field.name].check(getattr(self, field.name))
            )
        check_rules({field.name: getattr(self, field.name) for field in fields(self)})
        check_memory(self.d)

    @classmethod
    def of(cls, values: dict[str, Any]) -> Config:
        """The config of the ladder parameters among ``values`` (the others at their defaults)."""
        names = {field.name for field in fields(cls)}
        return cls(**{name: value for name, value in values.items() if name in names})

    @property
    def hist_range(self) -> tuple[float, float]:
        return (self.hist_min, self.hist_max)


def check_memory(d: int) -> None:
    """Refuse a matrix size whose trial would not fit in the available memory."""
    need, have = trial_memory_bytes(d), available_memory_bytes()
    if need > have:
        raise InvalidInput(
            f"d={d} needs about {need / 2**30:.1f} GiB per trial "
            f"but only {have / 2**30:.1f} GiB is available"
        )


@dataclass(frozen=True)
class Rule:
    """A rule between parameters, or a narrower bound on one, checked before any kernel starts.

    It applies where any parameter of ``given`` is set; a parameter it reads that is not set takes
    its default. ``culprit`` is the parameter the message names first. A rule that only narrows
    the culprit's range states the narrower range in ``bound``, for listings of the valid ranges.
    """

    given: tuple[str, ...]
    culprit: str
    holds: Callable[[dict[str, Any]], bool]
    message: Callable[[dict[str, Any]], str]
    bound: str = ""


#: Narrowest histogram bin, relative to max(1, hist_max): the computed squared singular values are
#: accurate to about 1e-13 of the largest one, so narrower bins resolve only round-off.
BIN_WIDTH_MIN = 1e-12


def _bins_resolve_the_spectrum(v: dict[str, Any]) -> bool:
    """(hist_max - hist_min)/hist_bins >= BIN_WIDTH_MIN * max(1, hist_max)."""
    width = (v["hist_max"] - v["hist_min"]) / v["hist_bins"]
    return width >= BIN_WIDTH_MIN * max(1.0, v["hist_max"])


#: The rules that hold wherever their parameters appear: :class:`Config` and every caller of
#: :func:`check_rules` check these. A set of parameters may add its own rules.
RULES: tuple[Rule, ...] = (
    Rule(
        ("d", "remove_top_k"),
        "remove_top_k",
        lambda v: v["remove_top_k"] < v["d"],
        lambda v: (
            f"remove_top_k={v['remove_top_k']} is out of range: must be >= 0 and < d = {v['d']}"
        ),
    ),
    Rule(
        ("d_values",),
        "d_values",
        lambda v: min(v["d_values"]) > v["remove_top_k"],
        lambda v: (
            f"d_values={v['d_values']} is out of range: "
            f"each d must be > remove_top_k = {v['remove_top_k']}"
        ),
    ),
    Rule(
        ("hist_min", "hist_max"),
        "hist_min",
        lambda v: v["hist_min"] < v["hist_max"],
        lambda v: (
            f"hist_min={v['hist_min']!r} is out of range: must be < hist_max = {v['hist_max']!r}"
        ),
    ),
    Rule(
        ("hist_min", "hist_max", "hist_bins"),
        "hist_max",
        _bins_resolve_the_spectrum,
        lambda v: (
            f"hist_max={v['hist_max']!r} is out of range: the bins, (hist_max - hist_min)/hist_bins"
            f" = {(v['hist_max'] - v['hist_min']) / v['hist_bins']:.3g} wide, must be at least"
            f" {BIN_WIDTH_MIN:g} x max(1, hist_max) (the spectra's round-off)"
        ),
    ),
)


def check_rules(
    values: dict[str, Any], rules: tuple[Rule, ...] = RULES, absent: str = "is not given"
) -> None:
    """Raise InvalidInput for the first of ``rules`` that ``values`` break.

    A rule reads the default of :data:`PARAMETERS` for a parameter not in ``values``; when the
    parameter a message names is one of these, the message says so: ``(NAME {absent}: its
    default ... applies)``.
    """
    full = {name: p.default for name, p in PARAMETERS.items()} | dict(values)
    for rule in rules:
        if any(name in values for name in rule.given) and not rule.holds(full):
            message = rule.message(full)
            if rule.culprit not in values:
                message += f" ({rule.culprit} {absent}: its default {full[rule.culprit]!r} applies)"
            raise InvalidInput(message)
