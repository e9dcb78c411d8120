r"""Chapter "Setup": the model :math:`A = \mathrm{softmax}(\beta S)` with
:math:`S = W_Q W_K^\top/\sqrt d`, the shared parameters, the seven-model ladder, and one trial's
elementary facts (rows sum to one, :math:`\mathbb E\, S_{ij}^2 = 1` with standard deviation
:math:`\sqrt{6 + 2/d}/d`, :math:`s_1(A) \ge 1`)."""


def __getattr__(name: str):
    """The study, imported on first use (PEP 562), so that importing the package stays light."""
    if name == "Setup":
        from .study import Setup

        return Setup
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
