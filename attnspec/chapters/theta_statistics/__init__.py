r"""Chapter "The θ statistics": :math:`\theta_1 = \mathbb E[g(\chi)^2]` and
:math:`\theta_2 = (\mathbb E[g'(\chi)])^2` of :math:`f` and of the Taylor polynomial :math:`Q_n`,
exact and by quadrature, and the scatter of their Monte-Carlo estimate."""


def __getattr__(name: str):
    """The study, imported on first use (PEP 562), so that importing the package stays light."""
    if name == "ThetaStatistics":
        from .study import ThetaStatistics

        return ThetaStatistics
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
