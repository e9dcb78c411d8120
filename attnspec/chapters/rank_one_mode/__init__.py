r"""Chapter "The rank-one mode": :math:`s_1(A) \to 1`, its excess
:math:`(e^{\beta^2} - 1 + \beta^4/2)/(2d)`, the uniform mode's tilt and the stable rank
:math:`\mathrm{srank}(A) \approx e^{\beta^2}`."""


def __getattr__(name: str):
    """The study, imported on first use (PEP 562), so that importing the package stays light."""
    if name == "RankOneMode":
        from .study import RankOneMode

        return RankOneMode
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
