r"""Chapter "The θ statistics": :math:`\theta_1 = \mathbb E[g(\chi)^2]` and
:math:`\theta_2 = (\mathbb E[g'(\chi)])^2` of :math:`f` and of the Taylor polynomial :math:`Q_n`,
exact and by quadrature, and the scatter of their Monte-Carlo estimate.

Its study, :class:`~.study.ThetaStatistics`, is imported on first use (importing the package stays
light); its claims are in :mod:`.claims`, its figures in :mod:`.figures`.
"""


def __getattr__(name: str):
    if name == "ThetaStatistics":
        from .study import ThetaStatistics

        return ThetaStatistics
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
