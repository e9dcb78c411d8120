r"""Chapter "Causal attention in the canonical model": eigenvalues, norm and singular values of
the causal canonical attention, the upper bound's smallest constant, the lower-bound search and
the order of the diagonal (:mod:`.study`), its claims (:mod:`.claims`) and figures
(:mod:`.figures`). Importing the package is light: the study is imported when first named."""


def __getattr__(name: str):
    if name == "CanonicalCausal":
        from .study import CanonicalCausal

        return CanonicalCausal
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
