r"""The seven-model ladder from softmax attention to its linear Gaussian equivalent.

Each rung changes one thing (the Gaussian-equivalence paper, "Gaussian Equivalence for
Self-Attention", arXiv 2510.06685, and the model table of its seed notebook):
:math:`\sqrt d A \to \sqrt d A_\perp \to Y \to Y_f \to Y_Q \to Y_Q^{lin}`, and the final
theoretical model :math:`Y_f^{lin}`. :data:`LADDER` maps each name to its builder, LaTeX definition
and role; the book's model table is generated from it. Here
:math:`A_\perp = A - \mathbf 1\mathbf 1^\top/d` is attention with its uniform mode removed.

Three rungs also know their Gram matrix :math:`G = M M^\top` from the previous rung's, exactly:
:math:`G_{A_\perp} = G_A - \mathbf 1\mathbf 1^\top` (rows of A sum to 1),
:math:`(G_Y)_{ij} = D_i D_j (G_{A_\perp} + \mathbf 1\mathbf 1^\top)_{ij}` (:math:`Y =
\mathrm{diag}(D)\,\sqrt d A`) and :math:`(G_{Y_f})_{ij} = (G_Y)_{ij} - D_i - D_j + 1` (row sums of Y
are :math:`\sqrt d D_i`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .attention import row_normalizers, row_softmax
from .nonlinearity import Q, f


@dataclass
class TrialInputs:
    """What every rung of one trial is built from: S, W, beta, the Taylor degree and both thetas."""

    S: np.ndarray
    W: np.ndarray
    beta: float
    poly_n: int
    theta_f: tuple[float, float]
    theta_q: tuple[float, float]

    @property
    def d(self) -> int:
        return self.S.shape[0]

    @cached_property
    def D(self) -> np.ndarray:
        r"""Normalizer diagnostic :math:`D_i = Z_i / (d e^{\beta^2/2})`."""
        return row_normalizers(self.beta * self.S, self.beta)[1]


def gaussian_equivalent(S: np.ndarray, W: np.ndarray, theta: tuple[float, float]) -> np.ndarray:
    r"""Linear Gaussian-equivalent model :math:`\sqrt{\theta_2} S/\sqrt d +
    \sqrt{\theta_1-\theta_2} W/\sqrt d`."""
    theta1, theta2 = theta
    d = S.shape[0]
    out = np.sqrt(theta2 / d) * S
    out += np.sqrt(max(theta1 - theta2, 0.0) / d) * W
    return out


def _sqrt_d_A(x: TrialInputs) -> np.ndarray:
    A = row_softmax(x.beta * x.S)
    A *= np.sqrt(x.d)
    return A


def _sqrt_d_A_perp(x: TrialInputs) -> np.ndarray:
    M = _sqrt_d_A(x)
    M -= 1.0 / np.sqrt(x.d)
    return M


def _Y(x: TrialInputs) -> np.ndarray:
    return np.exp(x.beta * x.S - 0.5 * x.beta**2 - 0.5 * np.log(x.d))


def _Y_f(x: TrialInputs) -> np.ndarray:
    return f(x.S, x.beta) / np.sqrt(x.d)


def _Y_Q(x: TrialInputs) -> np.ndarray:
    return Q(x.S, x.beta, x.poly_n) / np.sqrt(x.d)


def _gram_A_perp(G: np.ndarray, x: TrialInputs) -> np.ndarray:
    G -= 1.0
    return G


def _gram_Y(G: np.ndarray, x: TrialInputs) -> np.ndarray:
    G += 1.0
    G *= x.D[:, None]
    G *= x.D[None, :]
    return G


def _gram_Y_f(G: np.ndarray, x: TrialInputs) -> np.ndarray:
    G -= x.D[:, None]
    G -= x.D[None, :]
    G += 1.0
    return G


@dataclass(frozen=True)
class Model:
    """One rung: its builder, LaTeX definition, role, and optionally its Gram update from
    `parent`."""

    name: str
    latex: str
    role: str
    build: Callable[[TrialInputs], np.ndarray]
    parent: str | None = None
    gram_from_parent: Callable[[np.ndarray, TrialInputs], np.ndarray] | None = None


LADDER: dict[str, Model] = {
    m.name: m
    for m in [
        Model(
            "sqrt_d_A", r"\sqrt{d}\,A", "attention itself; carries the rank-one outlier", _sqrt_d_A
        ),
        Model(
            "sqrt_d_A_perp",
            r"\sqrt{d}\,A_\perp = \sqrt{d}\,(A - \mathbf{1}\mathbf{1}^\top/d)",
            "uniform mode removed: the reference rung, the object of the theorem",
            _sqrt_d_A_perp,
            parent="sqrt_d_A",
            gram_from_parent=_gram_A_perp,
        ),
        Model(
            "Y",
            r"e^{\beta S}/(e^{\beta^2/2}\sqrt{d})",
            "deterministic normalizer",
            _Y,
            parent="sqrt_d_A_perp",
            gram_from_parent=_gram_Y,
        ),
        Model(
            "Y_f",
            r"f(S)/\sqrt{d}",
            r"centred nonlinear model, $f(x) = e^{\beta x - \beta^2/2} - 1$",
            _Y_f,
            parent="Y",
            gram_from_parent=_gram_Y_f,
        ),
        Model(
            "Y_Q",
            r"Q_n(S)/\sqrt{d}",
            r"Taylor polynomial $Q_n$ (degree $n - 1$, $n = n_d$) in place of $f$",
            _Y_Q,
        ),
        Model(
            "Y_Q_lin",
            r"\sqrt{\theta_2^Q}\,S/\sqrt{d} + \sqrt{\theta_1^Q-\theta_2^Q}\,W/\sqrt{d}",
            r"Gaussian equivalent of $Q_n$ (exact $\theta^Q$)",
            lambda x: gaussian_equivalent(x.S, x.W, x.theta_q),
        ),
        Model(
            "Y_f_lin",
            r"\beta\,S/\sqrt{d} + \sqrt{e^{\beta^2}-1-\beta^2}\,W/\sqrt{d}",
            r"Gaussian equivalent of $f$ (exact $\theta$); the model of the theorem",
            lambda x: gaussian_equivalent(x.S, x.W, x.theta_f),
        ),
    ]
}

MODEL_NAMES: list[str] = list(LADDER)
REFERENCE = "sqrt_d_A_perp"
