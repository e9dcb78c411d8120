r"""Predictions of the row normalizers and of the top singular value.

- :func:`normalizer_std`: the predicted standard deviation of the normalizer diagnostic
  :math:`D_i`;
- :func:`s1_excess`: the first-order excess of the top singular value of attention.

The limit laws of the bulk are :mod:`attnspec.laws.gaussian_equivalent` and
:mod:`attnspec.laws.marchenko_pastur`.
"""

from __future__ import annotations

import numpy as np

from ..core.errors import InvalidInput


def _real_array(name: str, value, rule: str) -> np.ndarray:
    """``value`` as a float array of finite numbers, else InvalidInput naming the parameter.

    The array counterpart of :func:`attnspec.core.validate.real`, which takes scalars only.
    """
    try:
        if isinstance(value, (bool, str, bytes)):
            raise TypeError
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise InvalidInput(
            f"{name}={value!r} is not a real number or an array of them: "
            f"must be a finite real {rule}"
        ) from None
    if not np.all(np.isfinite(arr)):
        raise InvalidInput(f"{name}={value!r} is not finite: must be a finite real {rule}")
    return arr


def normalizer_std(beta, d):
    r"""Predicted standard deviation of the normalizer diagnostic
    :math:`D_i = Z_i/(d\, e^{\beta^2/2})`.

    .. math::

        \operatorname{std}(D_i) \approx \sqrt{\frac{e^{\beta^2} - 1 + \beta^4/2}{d}},

    about 0.047 at :math:`d = 1000`, :math:`\beta = 1`. Vectorized over ``beta`` and ``d``.

    Parameters
    ----------
    beta : float or array_like
        Inverse temperature, finite and >= 0.
    d : float or array_like
        Matrix size :math:`d = \ell = d_{qk}`, finite and > 0.

    Returns
    -------
    float or numpy.ndarray
        The predicted standard deviation.

    Raises
    ------
    ValueError
        If ``beta`` or ``d`` is out of range; the message names it.

    Notes
    -----
    Derived in this book. The Gaussian-equivalence paper's abstract names precise control of the
    fluctuations of the normalization term as one ingredient of its proof; this is the leading
    fluctuation made explicit. Row i of the scores is
    :math:`S_{ij} = q_i \cdot k_j/\sqrt d`; given :math:`q_i` the :math:`S_{ij}` are independent
    :math:`N(0, \xi_i)` with :math:`\xi_i = |q_i|^2/d`. Hence
    :math:`E[e^{\beta S_{ij}} \mid q_i] = e^{\beta^2 \xi_i/2}` and

    .. math::

        D_i = \frac{1}{d}\sum_j e^{\beta S_{ij} - \beta^2/2}
        = e^{\beta^2 (\xi_i - 1)/2}\,(1 + \varepsilon_i),

    where :math:`\varepsilon_i` is the relative error of an average of d independent
    log-normals, :math:`\operatorname{Var}\varepsilon_i = (e^{\beta^2 \xi_i} - 1)/d \approx
    (e^{\beta^2} - 1)/d`, uncorrelated with :math:`\xi_i`. Since
    :math:`\operatorname{Var} \xi_i = 2/d`, the first factor contributes
    :math:`(\beta^2/2)^2 \cdot 2/d = \beta^4/(2d)`. The two add to the formula above, up to
    :math:`O(d^{-2})`; it needs :math:`e^{\beta^2} \ll d`.
    """
    b = _real_array("beta", beta, ">= 0")
    if np.any(b < 0):
        raise InvalidInput(f"beta={beta!r} is out of range: must be a finite real >= 0")
    dd = _real_array("d", d, "> 0")
    if np.any(dd <= 0):
        raise InvalidInput(f"d={d!r} is out of range: must be a finite real > 0")
    with np.errstate(over="ignore"):
        out = np.sqrt((np.expm1(b**2) + 0.5 * b**4) / dd)
    return float(out) if out.ndim == 0 else out


def s1_excess(beta: float, d: int) -> float:
    r"""First-order excess of the top singular value of attention, :math:`s_1(A) - 1`.

    .. math::

        s_1(A) - 1 \approx \frac{e^{\beta^2} - 1 + \beta^4/2}{2d}
        = \tfrac12 \operatorname{std}(D_i)^2 .

    Derived in this book (chapter *The rank-one mode*): :math:`s_1(A)^2 \ge \lVert A^\top u_d
    \rVert^2 = \frac1d \sum_j (A^\top\mathbf 1)_j^2` with column sums :math:`(A^\top\mathbf 1)_j
    = \sum_i A_{ij} = 1 + \delta_j`, :math:`u_d = \mathbf 1/\sqrt d`, and to first order
    :math:`\operatorname{Var}\delta_j = (e^{\beta^2} - 1 + \beta^4/2)/d` by the argument of
    :func:`normalizer_std` applied to the keys; the bound is attained to this order.
    """
    return 0.5 * float(normalizer_std(beta, d)) ** 2
