r"""Chapter "The edge and the outliers": where each rung's spectrum ends against the law's edge
:math:`\lambda_+`, in edge spacings :math:`\varepsilon_d = (3/(2ad))^{2/3}`, and the localized
outliers beyond it, each from one large entry of :math:`e^{\beta S}`."""


def __getattr__(name: str):
    """The study, imported on first use (PEP 562), so that importing the package stays light."""
    if name == "LimitLawEdge":
        from .study import LimitLawEdge

        return LimitLawEdge
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
