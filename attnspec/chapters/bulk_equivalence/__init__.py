r"""Chapter "Bulk equivalence": the distance of every rung's bulk to the reference
:math:`\sqrt d A_\perp` (:math:`L_1` between histograms, Kolmogorov, Wasserstein-1) against the
noise floor, the reference's distance to independent repetitions of itself."""


def __getattr__(name: str):
    """The study, imported on first use (PEP 562), so that importing the package stays light."""
    if name == "BulkEquivalence":
        from .study import BulkEquivalence

        return BulkEquivalence
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
