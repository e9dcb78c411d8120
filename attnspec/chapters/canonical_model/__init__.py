r"""Chapter "The canonical model": the bidirectional softmax of the canonical scores, its
singular-value profile and stable rank (:mod:`.study`), its claims (:mod:`.claims`) and figures
(:mod:`.figures`). Importing the package is light: the study is imported when first named."""


def __getattr__(name: str):
    if name == "CanonicalModel":
        from .study import CanonicalModel

        return CanonicalModel
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
