r"""Short mathematical symbols of the ladder's rungs, for figure legends and table headers.

:data:`attnspec.models.ladder.LADDER` holds each rung's full LaTeX definition; figures and tables
need a short label. :math:`A_\perp = A - \mathbf 1\mathbf 1^\top/d` is attention with its uniform
mode removed.
"""

from __future__ import annotations

from ..core.errors import InvalidInput
from .ladder import MODEL_NAMES

SYMBOLS: dict[str, str] = {
    "sqrt_d_A": r"\sqrt{d}\,A",
    "sqrt_d_A_perp": r"\sqrt{d}\,A_\perp",
    "Y": r"Y",
    "Y_f": r"Y_f",
    "Y_Q": r"Y_Q",
    "Y_Q_lin": r"Y_Q^{\mathrm{lin}}",
    "Y_f_lin": r"Y_f^{\mathrm{lin}}",
}


def symbol(name: str) -> str:
    """The rung's short symbol as inline math, e.g. ``'$Y_f^{\\mathrm{lin}}$'`` for
    ``'Y_f_lin'``."""
    if name not in SYMBOLS:
        raise InvalidInput(
            f"name={name!r} is not a rung of the ladder: must be one of {', '.join(MODEL_NAMES)}"
        )
    return f"${SYMBOLS[name]}$"
