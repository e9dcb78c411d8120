"""Validated run parameters of the mathematics (:class:`Config`), the memory a trial needs, and the
rules between parameters that hold wherever their parameters appear.

:data:`RULES` are those rules (``remove_top_k < d``, ``hist_min < hist_max``); a chapter adds
rules of its own (:mod:`attnspec.chapters.rules`). The kinds of parameter (type, range) are
:data:`attnspec.core.kinds.PARAMETERS`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from .errors import InvalidInput
from .kinds import PARAMETERS

BYTES_PER_FLOAT = 8
#: d x d float64 arrays alive at once while one trial is reduced (S, W, A, model, M M^T, workspace).
ARRAYS_ALIVE_PER_TRIAL = 6


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
