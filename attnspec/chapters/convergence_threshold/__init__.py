r"""Chapter "The linearization threshold": the breakdown in :math:`\beta`, the :math:`(d, \beta)`
plane of attention's distance to the law with its bootstrap, the boundary
:math:`e^{\beta_\varepsilon^2} \propto d^\gamma` against the curve :math:`e^{\beta^2} = d` and
against a counter-model, the collapse on :math:`\beta^2 - \hat c \log d`, and the normalizers. Its
study class is imported on first use (PEP 562), so that importing the package stays light."""


def __getattr__(name: str):
    if name != "ConvergenceThreshold":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from .study import ConvergenceThreshold

    return ConvergenceThreshold
