r"""Chapter "Real against canonical spectra": each head's singular values against those of its
canonical counterpart, in :math:`W_1` and in ranks, and one rank scale for random, canonical and
trained attention (:mod:`.study`), its claims (:mod:`.claims`) and figures (:mod:`.figures`).
Importing the package is light: the study is imported when first named."""


def __getattr__(name: str):
    if name == "RealSpectra":
        from .study import RealSpectra

        return RealSpectra
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
