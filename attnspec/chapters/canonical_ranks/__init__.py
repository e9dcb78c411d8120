r"""Chapter "Ranks of canonical attention": stable and effective ranks of bidirectional and causal
canonical attention against ℓ, the Cesàro matrix and the crossing of the causal stable rank with
k + 1 (:mod:`.study`), its claims (:mod:`.claims`) and figures (:mod:`.figures`). Importing the
package is light: the study is imported when first named."""


def __getattr__(name: str):
    if name == "CanonicalRanks":
        from .study import CanonicalRanks

        return CanonicalRanks
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
