r"""Chapter "Convergence in the matrix size": every rung's Kolmogorov distance to the law against
:math:`d`, :math:`D_{\rm KS} \propto d^{-\rho}`, the series at scale of attention and its Gaussian
equivalent, and the linear model's distance against the rigidity scale :math:`\log d/(d\sqrt n)`.
Its study class is imported on first use (PEP 562), so that importing the package stays light."""


def __getattr__(name: str):
    if name != "Convergence":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from .study import Convergence

    return Convergence
