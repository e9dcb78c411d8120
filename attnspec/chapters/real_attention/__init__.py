r"""Chapter "Real pretrained attention": the isotropy diagnostic on the eigen-angles of
:math:`U_X` against Haar :math:`O(n)`, the rotation :math:`R(S)`, the literal reading and the
length bands (:mod:`.study`), its claims (:mod:`.claims`) and figures (:mod:`.figures`).
Importing the package is light: the study is imported when first named."""


def __getattr__(name: str):
    if name == "RealAttention":
        from .study import RealAttention

        return RealAttention
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
