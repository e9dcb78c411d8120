r"""Chapter "Bulk equivalence": the distance of every rung's bulk to the reference
:math:`\sqrt d A_\perp` (:math:`L_1` between histograms, Kolmogorov, Wasserstein-1) against the
noise floor, the reference's distance to independent repetitions of itself.

Its study, :class:`~.study.BulkEquivalence`, is imported on first use (importing the package stays
light); its claims are in :mod:`.claims`, its figures in :mod:`.figures`.
"""


def __getattr__(name: str):
    if name == "BulkEquivalence":
        from .study import BulkEquivalence

        return BulkEquivalence
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
