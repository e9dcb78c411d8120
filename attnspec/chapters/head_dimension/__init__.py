r"""Chapter "The head dimension": the gap between the bulks of :math:`\sqrt d A_\perp` and of its
linear model :math:`Y^{\rm lin} = (\sqrt{\theta_2}\,S + \sqrt{\theta_1 - \theta_2}\,W)/\sqrt d` at
a head dimension :math:`d_{qk} \ne d`, its causes, the limit law at :math:`d_{qk} = c\,d`, and
attention against the Hermite-block models :math:`Y_k` and their limit laws along
:math:`d_{qk} = d^\alpha`. Its study class is imported on first use (PEP 562), so that importing the
package stays light."""


def __getattr__(name: str):
    if name != "HeadDimension":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from .study import HeadDimension

    return HeadDimension
