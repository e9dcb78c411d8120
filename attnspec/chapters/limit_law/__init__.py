r"""Chapter "The limit law": the law of :math:`\mathcal G_\theta`, whose Cauchy transform solves
:math:`(z - (\theta_1 - \theta_2)\,G)\,G\,(1 - \theta_2 G^2) = 1`, against Pennington and Worah's
form, moved with :math:`\beta`, and every rung's bulk against it and against Marchenko–Pastur."""


def __getattr__(name: str):
    """The study, imported on first use (PEP 562), so that importing the package stays light."""
    if name == "LimitLaw":
        from .study import LimitLaw

        return LimitLaw
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
