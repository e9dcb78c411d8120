r"""Chapter "The ladder": each step between consecutive rungs, its rank-one interlacing and the
Kolmogorov distance :math:`\sup_\lambda |F_{\rm after}(\lambda) - F_{\rm before}(\lambda)|` between
the two rungs' bulks, against the noise floor of the reference bulk."""


def __getattr__(name: str):
    """The study, imported on first use (PEP 562), so that importing the package stays light."""
    if name == "Ladder":
        from .study import Ladder

        return Ladder
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
