r"""Chapter "Normalizer concentration": the diagnostic :math:`D_i = Z_i/(d\,e^{\beta^2/2})`, its
exact mean :math:`(1 - \beta^2/d)^{-d/2} e^{-\beta^2/2}`, a test of the mean with the power to see
its excess over one, and its spread :math:`\sqrt{(e^{\beta^2} - 1 + \beta^4/2)/d}` across
:math:`\beta`."""


def __getattr__(name: str):
    """The study, imported on first use (PEP 562), so that importing the package stays light."""
    if name == "NormalizerConcentration":
        from .study import NormalizerConcentration

        return NormalizerConcentration
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
