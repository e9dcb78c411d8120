"""A chapter's parameters, declared once (:class:`ChapterParameters`), and the kinds of parameter.

Each chapter declares its parameters in :mod:`attnspec.chapters.declarations`, one
:class:`ChapterParameters` per chapter: every name with the chapter's default and help, in the
order of its notebook's ``parameters`` cell, and the rules between them that are the chapter's
own. A name's type and valid range come from its kind: :data:`attnspec.core.config.PARAMETERS`
(the kinds the mathematics shares: ``d``, ``beta``, ``seed``, ...) or :data:`BOOK_KINDS` (the
kinds only the book's chapters use); the rules of :data:`attnspec.core.config.RULES` hold in every
chapter. ``attnspec chapters``, ``attnspec run``, :meth:`attnspec.publish.chapters.Chapter.resolve`
and :meth:`attnspec.chapters.base.ChapterStudy.run` (so the kernel) all read that one
declaration; a test checks that each notebook's ``parameters`` cell states the same names, types,
defaults and help.

These modules are apart from the chapters' studies, and import nothing but
:mod:`attnspec.core.config`: the studies import NumPy and the mathematics, and listing the
chapters (``attnspec chapters``, which should start in 0.3 s) or refusing a bad parameter before a
kernel starts must not.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..core.config import PARAMETERS, RULES, Parameter, Rule, check_memory, check_rules
from ..core.errors import InvalidInput

#: The kinds of parameter that only the book's chapters use: their type, valid range, a default
#: and a help text (a chapter declares its own default and help).
BOOK_KINDS: dict[str, Parameter] = {
    p.name: p
    for p in [
        Parameter(
            "d_scale",
            list,
            [250, 500, 1000, 2000, 4000, 8000],
            "matrix sizes of the convergence series of the reference and the Gaussian model",
            low=2,
            high=20000,
            item=int,
        ),
        Parameter(
            "resamples",
            int,
            400,
            "bootstrap resamples of the trials (the same resample at every beta of a size)",
            low=2,
            high=100000,
        ),
        Parameter(
            "d_qk_values",
            list,
            [1000, 500, 250, 125, 64, 32, 16],
            "head dimensions d_qk of W_Q, W_K (d x d_qk) at fixed d",
            low=1,
            high=20000,
            item=int,
        ),
        Parameter(
            "head_ratios",
            list,
            [1.0, 0.25, 0.0625],
            "fixed ratios d_qk/d of the series across d (d_qk = round(ratio d))",
            low=0.0,
            low_open=True,
            high=1.0,
            item=float,
        ),
        Parameter(
            "d_qk", int, 64, "the fixed head dimension of the series across d", low=1, high=20000
        ),
        Parameter(
            "half_heads",
            list,
            [16, 24, 32, 45],
            "head dimensions d_qk of the series at alpha = 1/2, at d = d_qk^2",
            low=2,
            high=100,
            item=int,
        ),
        Parameter(
            "fifth_heads",
            list,
            [9, 16],
            "head dimensions d_qk (squares) of the series at alpha = 2/5, at d = d_qk^(5/2)",
            low=4,
            high=36,
            item=int,
        ),
        Parameter(
            "k_max", int, 3, "largest number k of Hermite blocks kept in a model Y_k", low=1, high=4
        ),
        Parameter(
            "block_trials",
            int,
            4,
            "least trials per size of the Y_k series (more where ceil(pooled_values / d) is more)",
            low=2,
            high=100,
        ),
        Parameter(
            "real_contexts",
            list,
            [256, 4096],
            "contexts n of a real head, placed by (n, d_qk) in the phase diagram",
            low=2,
            high=10**7,
            item=int,
        ),
        Parameter(
            "ell_values",
            list,
            [256, 1024, 4096],
            "context lengths ell of the canonical score model",
            low=64,
            high=16384,
            item=int,
        ),
        Parameter(
            "spikes",
            int,
            4,
            "number k of spike scores in the canonical score model",
            low=1,
            high=32,
        ),
        Parameter(
            "bulk_max",
            float,
            2.0,
            "upper end B of the bounded bulk scores, drawn uniformly in [0, B]",
            low=0.0,
            high=5.0,
        ),
        Parameter(
            "dense_max",
            int,
            2048,
            "largest ell for dense eigenproblems (larger ell are computed at this size)",
            low=64,
            high=8192,
        ),
        Parameter(
            "lengths",
            list,
            [16, 32, 64, 128, 256, 512],
            "token counts n of the real-text excerpts",
            low=4,
            high=512,
            item=int,
        ),
        Parameter(
            "n_texts",
            int,
            4,
            "number of shipped texts used, the first of attnspec.real.TEXT_NAMES",
            low=1,
            high=4,
        ),
        Parameter(
            "max_heads",
            int,
            12,
            "heads per layer with full singular-value spectra, evenly spaced (all at 12)",
            low=1,
            high=12,
        ),
        Parameter(
            "angle_bins",
            int,
            50,
            "bins of the eigen-angle histogram for the KL divergence",
            low=2,
            high=1000,
        ),
        Parameter(
            "conventions",
            int,
            5,
            "seeded conventions (signs and null-space completions) per singular factor",
            low=2,
            high=100,
        ),
        Parameter(
            "band_lengths",
            list,
            [400, 448],
            "further token counts for the score-factor reading in the paper's 385-471 band",
            low=2,
            high=512,
            item=int,
        ),
    ]
}
#: Every kind a chapter may declare a parameter of, by name.
KINDS: dict[str, Parameter] = PARAMETERS | BOOK_KINDS


@dataclass(frozen=True)
class ChapterParameters:
    """The parameters of chapter ``chapter``, in the order of its ``parameters`` cell, and the
    rules between them that are the chapter's own (the rules of
    :data:`attnspec.core.config.RULES` hold too).

    Iterating gives each :class:`~attnspec.core.config.Parameter` (name, type, the chapter's
    default and help, valid range).
    """

    chapter: str
    parameters: tuple[Parameter, ...]
    rules: tuple[Rule, ...] = ()

    def __iter__(self) -> Iterator[Parameter]:
        return iter(self.parameters)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.parameters]

    @property
    def defaults(self) -> dict[str, Any]:
        """Every parameter at its default, in the declared order (lists copied)."""
        return {p.name: list(p.default) if p.kind is list else p.default for p in self}

    def __getitem__(self, name: str) -> Parameter:
        for p in self.parameters:
            if p.name == name:
                return p
        raise InvalidInput(
            f"chapter {self.chapter!r} has no parameter {name!r}; its parameters: "
            f"{', '.join(self.names)}"
        )

    def range_text(self, name: str) -> str:
        """The valid range of ``name`` in this chapter, in words: the ``bound`` of a rule of the
        chapter's that narrows it, else the parameter's own range, with the lower end of an int
        raised to the smallest value the chapter accepts at the defaults of the parameters it
        does not have (``d >= 4`` where ``remove_top_k``, not the chapter's, is 3)."""
        for rule in self.rules:
            if rule.bound and rule.culprit == name:
                return rule.bound
        p = self[name]
        low = self._lowest_int(p)
        if low == p.low:
            return p.range_text
        return p.range_text.replace(f">= {p.low}", f">= {low}", 1)

    #: how far above an int's own lower end :meth:`range_text` looks for the accepted one
    _LOOK_ABOVE = 64

    def _lowest_int(self, p: Parameter) -> float | None:
        """The smallest int from ``p.low`` up that the rules involving parameters this chapter
        does not have accept (their defaults fixed); ``p.low`` for anything else."""
        if p.kind is not int or p.low is None or p.low_open:
            return p.low
        fixed = tuple(
            rule
            for rule in RULES + self.rules
            if p.name in rule.given and any(n not in self.names for n in rule.given)
        )
        for value in range(int(p.low), int(p.low) + self._LOOK_ABOVE):
            try:
                check_rules({p.name: value}, fixed)
            except InvalidInput:
                continue
            return value
        return p.low

    def validate(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The full parameter set: the defaults updated by ``values``, checked.

        Each value is checked against its range, then every rule that applies (those of
        :data:`~attnspec.core.config.RULES` and the chapter's own, including rules against a
        parameter the chapter does not have, at its shared default), then the memory a trial at
        ``d`` needs.

        Raises
        ------
        InvalidInput
            in one line, naming the parameter, its value and the valid range (or the unknown name
            and the chapter's parameters).
        """
        for name in values:
            self[name]
        out = {name: self[name].check(value) for name, value in (self.defaults | values).items()}
        check_rules(out, RULES + self.rules, absent="is not a parameter of this chapter")
        if "d" in out:
            check_memory(out["d"])
        return out

    def read(self, namespace: Mapping[str, Any]) -> dict[str, Any]:
        """The value of every declared parameter in ``namespace`` (a notebook's ``globals()``)."""
        missing = [name for name in self.names if name not in namespace]
        if missing:
            raise NameError(
                f"the notebook of chapter {self.chapter!r} does not define its parameter "
                f"{missing[0]!r} (its parameters cell must declare {', '.join(self.names)})"
            )
        return {name: namespace[name] for name in self.names}


def declare(
    chapter: str, *parameters: tuple[str, Any, str], rules: tuple[Rule, ...] = ()
) -> ChapterParameters:
    """The parameters of ``chapter``, each given as ``(name, default, help)``: the name's kind
    (:data:`KINDS`) gives its type and range, and checks the default."""
    declared = []
    for name, default, help_text in parameters:
        kind = KINDS[name]
        declared.append(replace(kind, default=kind.check(default), help=help_text))
    return ChapterParameters(chapter, tuple(declared), rules)
