r"""Spectral diagnostics of real attention heads against the canonical model (Part III).

Paper 004 motivates its canonical diagonal score model with measurements on pretrained
transformers: the token-space singular factors of the score matrix look randomly rotated (their
eigen-angles are nearly uniform on the unit circle), the singular-value distribution of a real
attention map is close to that of the canonical map built from the same score singular values, and
stable and effective ranks separate encoders from decoders. This module makes each measurement
precise.

**Which rotation.** A head's score matrix :math:`S = Q K^\top / \sqrt{d_h} \in \mathbb R^{n \times n}`
has rank :math:`r \le \min(n, d_h)`. Its singular factors are defined only up to

- joint sign changes (or rotations inside a repeated singular value) of the pairs
  :math:`(u_i, v_i)`, which change the eigenvalues of :math:`U` and of :math:`V`, and
- for :math:`n > r`, an arbitrary completion of the :math:`n - r` null-space columns of the full
  :math:`n \times n` factors, which then dominates the eigenvalues of :math:`U` and :math:`V`.

So the eigen-angles of :math:`U` or :math:`V` alone are not functions of :math:`S`. The product
:math:`U_r V_r^\top` is: it is the partial isometry of the polar decomposition of :math:`S`. This
module uses the :math:`r \times r` orthogonal matrix

.. math::

    R(S) = \operatorname{polar}(V_r^\top U_r), \qquad
    \operatorname{polar}(M) = P Q^\top \text{ for } M = P \Lambda Q^\top,

with :math:`U_r, V_r \in \mathbb R^{n \times r}` the left and right singular vectors of the
:math:`r` nonzero singular values (:func:`polar_rotation`). :math:`V_r^\top U_r` is the
compression of :math:`U_r V_r^\top` to the row space of :math:`S`; :math:`R` is its orthogonal
part. It is invariant under both ambiguities above. When :math:`S` is invertible
(:math:`n = r \le d_h`), :math:`R = V^\top U = V^\top (U V^\top) V` is similar to the orthogonal
polar factor :math:`U V^\top` of :math:`S`, so its eigen-angles are exactly those of that factor.
Under the isotropy hypothesis (:math:`U_r` and :math:`V_r` independent and Haar-distributed),
:math:`R` is Haar-distributed on :math:`O(r)`: for fixed :math:`O \in O(r)`, :math:`U_r O` has the
law of :math:`U_r`, and :math:`\operatorname{polar}(M O) = \operatorname{polar}(M) O`. The canonical
model itself (:math:`S = \Sigma` diagonal, :math:`U_r = V_r`) has :math:`R = I`: the diagnostic tests
the isotropy premise, not the canonical representative. The literal reading, eigen-angles of the
full factors as LAPACK returns them, is kept for comparison (:func:`full_factor_angles`).

**Distances to the uniform law** on the circle (:func:`angle_discrepancies`): KL divergence of a
histogram with 50 equal arcs (:func:`angle_histogram`), Kolmogorov distance on
:math:`(-\pi, \pi]`, and the Wasserstein-1 distance on the circle (arc length, radians). Each
has a finite-sample floor, measured with Haar-random orthogonal matrices of the same sizes
(:func:`haar_orthogonal`, :func:`haar_angles`).

**Canonical attention of a head** (:func:`canonical_singular_values`): softmax of
:math:`\Sigma = \operatorname{diag}(\sigma_1(S), \dots, \sigma_n(S))`, descending, without a mask
(encoder) or with the causal mask (decoder), from :mod:`attnspec.canonical`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from attnspec import canonical
from attnspec.real.models import get_model
from attnspec.real.texts import read_text
from attnspec.spectra import squared_singular_values

#: Singular values of :math:`S` below this fraction of :math:`\sigma_1(S)` are round-off of the
#: float32 product :math:`Q K^\top` (about :math:`10^{-8}` relative) and count as zero.
RANK_RTOL = 1e-6
#: Extra columns of the range finder of :func:`score_factors`.
OVERSAMPLE = 8
#: Angles this close to :math:`\pi` count as :math:`\pi` in :func:`symmetrized_eigen_angles`.
PI_SNAP = 1e-7
#: Bins of the eigen-angle histogram for the KL divergence (the paper's choice).
ANGLE_BINS = 50


# --- forward passes, one layer at a time --------------------------------------------------------


def layer_maps(model: str, text: str, max_tokens: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    r"""Attention maps and pre-softmax scores of a pretrained model, one layer at a time.

    The same computation as ``get_model(model).trace(text, max_tokens, scores=True)``, but each
    layer's arrays are handed over and released before the next layer runs, so memory stays at one
    layer's maps (the full trace of SmolLM2 at 512 tokens holds about 0.6 GB).

    Parameters
    ----------
    model : str
        ``"minilm"`` or ``"smollm"``.
    text : str
        The input text; its first ``max_tokens`` tokens are used.
    max_tokens : int
        Largest number of tokens :math:`n`.

    Yields
    ------
    attention, scores : numpy.ndarray
        Shape ``(heads, n, n)``, ``float32``: :math:`A^{(l,h)}` and
        :math:`S^{(l,h)} = Q K^\top/\sqrt{d_h}` (before any mask) for layer
        :math:`l = 0, 1, \dots`
    """
    info = get_model(model)
    if model == "minilm":
        from attnspec.real import minilm as module

        x = module.embed(np.asarray(info.encode(text, max_tokens).ids))
    else:
        from attnspec.real import smollm as module

        x = module.load().weights["token_embd.weight"][np.asarray(info.encode(text, max_tokens).ids)]
    for index in range(info.layers):
        x, attention, scores = module.layer(index, x)
        yield attention, scores


# --- singular factors and the rotation ----------------------------------------------------------


def score_factors(S: np.ndarray, rank: int | None = None, rtol: float = RANK_RTOL
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Nonzero singular values and singular vectors of a low-rank score matrix.

    For :math:`n \le` ``rank`` + :data:`OVERSAMPLE` a dense SVD; otherwise a range finder with a
    fixed Gaussian test matrix :math:`\Omega \in \mathbb R^{n \times k}`,
    :math:`k` = ``rank`` + :data:`OVERSAMPLE`: :math:`S \Omega = Q_Y R_Y`,
    :math:`Q_Y^\top S = \tilde U \Lambda V^\top`, :math:`U = Q_Y \tilde U`. It is exact (up to
    round-off) when :math:`\operatorname{rank} S \le k`, and costs :math:`O(n^2 k)` instead of
    :math:`O(n^3)`. Computed in float64.

    Parameters
    ----------
    S : numpy.ndarray
        Square score matrix, shape ``(n, n)``.
    rank : int, optional
        Upper bound on the rank (the head dimension :math:`d_h`); default :math:`n`.
    rtol : float
        Singular values at most ``rtol`` :math:`\sigma_1` count as zero.

    Returns
    -------
    sigma : numpy.ndarray
        The :math:`r` nonzero singular values, descending.
    U, V : numpy.ndarray
        Shape ``(n, r)``: :math:`S \approx U \operatorname{diag}(\sigma) V^\top`.
    """
    S = np.asarray(S, dtype=float)
    if S.ndim != 2 or S.shape[0] != S.shape[1] or S.shape[0] < 1:
        raise ValueError(f"S must be a square matrix, got shape {S.shape}")
    n = S.shape[0]
    rank = n if rank is None else int(rank)
    if not 1 <= rank:
        raise ValueError(f"rank={rank} is out of range: must be >= 1")
    k = rank + OVERSAMPLE
    if n <= k:
        U, sigma, Vt = np.linalg.svd(S)
    else:
        omega = np.random.default_rng(20250001).standard_normal((n, k))
        Q, _ = np.linalg.qr(S @ omega)
        Ut, sigma, Vt = np.linalg.svd(Q.T @ S, full_matrices=False)
        U = Q @ Ut
    keep = int(np.sum(sigma > rtol * sigma[0])) if sigma[0] > 0 else 0
    keep = min(keep, rank)
    return sigma[:keep], U[:, :keep], Vt[:keep].T


def polar_factor(M: np.ndarray) -> np.ndarray:
    r"""Orthogonal polar factor :math:`P Q^\top` of a square matrix :math:`M = P \Lambda Q^\top`.

    The orthogonal matrix nearest to :math:`M` in Frobenius norm (orthogonal Procrustes); unique
    when :math:`M` is invertible.
    """
    P, _, Qt = np.linalg.svd(np.asarray(M, dtype=float))
    return P @ Qt


def polar_rotation(U: np.ndarray, V: np.ndarray) -> np.ndarray:
    r"""The rotation :math:`R = \operatorname{polar}(V^\top U)` between left and right singular frames.

    See the module docstring: for :math:`S = U \operatorname{diag}(\sigma) V^\top` with
    :math:`U, V \in \mathbb R^{n \times r}` orthonormal, :math:`R` is invariant under
    :math:`(U, V) \to (U O, V O)` up to similarity (so under joint sign flips of singular pairs),
    does not depend on any completion of :math:`U, V` to :math:`n \times n` matrices, is similar to
    the polar factor :math:`U V^\top` of :math:`S` when :math:`r = n`, and is Haar on :math:`O(r)`
    when :math:`U` and :math:`V` are independent Haar frames.

    Parameters
    ----------
    U, V : numpy.ndarray
        Shape ``(n, r)``, orthonormal columns.

    Returns
    -------
    numpy.ndarray
        Shape ``(r, r)``, orthogonal.
    """
    U, V = np.asarray(U, dtype=float), np.asarray(V, dtype=float)
    if U.shape != V.shape or U.ndim != 2 or U.shape[1] > U.shape[0]:
        raise ValueError(f"U and V must have the same shape (n, r) with r <= n, got {U.shape} and {V.shape}")
    return polar_factor(V.T @ U)


def score_rotation(S: np.ndarray, rank: int | None = None) -> np.ndarray:
    r"""The rotation :math:`R(S) = \operatorname{polar}(V_r^\top U_r)` of a score matrix.

    :func:`score_factors`, then :func:`polar_rotation`; ``rank`` bounds the rank (the head dimension).
    """
    _, U, V = score_factors(S, rank)
    return polar_rotation(U, V)


def eigen_angles(W: np.ndarray) -> np.ndarray:
    r"""Eigen-angles of an orthogonal matrix, ascending.

    :math:`\lambda_j = e^{i \varphi_j}` with :math:`\varphi_j \in (-\pi, \pi]`.

    For a real matrix LAPACK returns complex eigenvalues in exact conjugate pairs, so the angles
    of a real orthogonal matrix come in exact pairs :math:`\pm\varphi` (plus 0 and :math:`\pi` for
    the real eigenvalues :math:`\pm 1`).
    """
    W = np.asarray(W, dtype=float)
    if W.ndim != 2 or W.shape[0] != W.shape[1]:
        raise ValueError(f"W must be a square matrix, got shape {W.shape}")
    phi = np.angle(np.linalg.eigvals(W))
    return np.sort(np.where(phi <= -math.pi, math.pi, phi))


def symmetrized_eigen_angles(W: np.ndarray) -> np.ndarray:
    r"""The eigen-angle law of a real orthogonal matrix from a symmetric eigenproblem: 2n angles.

    W is normal, so its symmetric part :math:`(W + W^\top)/2` has eigenvalues :math:`\cos\varphi_j`,
    one per eigenvalue :math:`e^{i\varphi_j}` of W. The 2n values
    :math:`\pm\arccos \lambda_j((W + W^\top)/2)`, each of weight :math:`1/2n`, have exactly the
    empirical law of the :math:`\varphi_j`: a conjugate pair :math:`e^{\pm i\varphi}` gives
    :math:`|\varphi|` twice, hence :math:`\varphi` and :math:`-\varphi` with weight :math:`1/n`
    each, and a real eigenvalue :math:`\pm 1` gives 0 twice or :math:`\pi` twice. Every distance of
    :func:`angle_discrepancies` is a function of the empirical law, so it is the same on these
    angles as on :func:`eigen_angles`; a symmetric eigenproblem is some 40 times faster than a
    general one at n = 512. :math:`\arccos` is accurate to about :math:`10^{-8}` near
    :math:`\pm 1`, so angles within :data:`PI_SNAP` of :math:`\pi` are set to :math:`\pi` (the
    eigenvalue :math:`-1`); otherwise round-off would split that atom between the two ends of
    :math:`(-\pi, \pi]`, which changes the Kolmogorov distance.
    """
    W = np.asarray(W, dtype=float)
    if W.ndim != 2 or W.shape[0] != W.shape[1]:
        raise ValueError(f"W must be a square matrix, got shape {W.shape}")
    phi = np.arccos(np.clip(np.linalg.eigvalsh((W + W.T) / 2), -1.0, 1.0))
    phi[phi > math.pi - PI_SNAP] = math.pi  # eigenvalue -1: keep it at the cut, not at -pi + round-off
    return np.sort(np.concatenate([-phi[phi < math.pi], phi, [math.pi] * int(np.sum(phi >= math.pi))]))


def full_factor_angles(S: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Eigen-angles of the full :math:`n \times n` singular factors U and V of numpy's SVD of S.

    The literal reading of the paper's diagnostic. It is not a function of S: LAPACK fixes the
    signs of the singular pairs, and for :math:`\operatorname{rank} S = r < n` it completes
    :math:`n - r` columns of U and V with an arbitrary orthonormal basis of the null spaces; either
    choice changes the eigenvalues. Angles as in :func:`symmetrized_eigen_angles` (2n values each).

    Returns
    -------
    angles_U, angles_V : numpy.ndarray
    """
    U, _, Vt = np.linalg.svd(np.asarray(S, dtype=float))
    return symmetrized_eigen_angles(U), symmetrized_eigen_angles(Vt.T)


def haar_orthogonal(r: int, size: int, rng: np.random.Generator) -> np.ndarray:
    r"""Haar-distributed orthogonal matrices, shape ``(size, r, r)``.

    QR decomposition of a Gaussian matrix :math:`Z = Q R'`, then
    :math:`Q \operatorname{diag}(\operatorname{sign} R'_{ii})` (Mezzadri's correction; without it the
    law of :math:`Q` is not Haar).
    """
    if isinstance(r, bool) or not isinstance(r, (int, np.integer)) or r < 1:
        raise ValueError(f"r={r!r} is out of range: must be an int >= 1")
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
        raise ValueError(f"size={size!r} is out of range: must be an int >= 1")
    Z = rng.standard_normal((int(size), int(r), int(r)))
    Q, R = np.linalg.qr(Z)
    signs = np.sign(np.diagonal(R, axis1=1, axis2=2))
    signs[signs == 0] = 1.0
    return Q * signs[:, None, :]


# --- distances to the uniform law on the circle -------------------------------------------------


def _check_angles(phi) -> np.ndarray:
    phi = np.asarray(phi, dtype=float).ravel()
    if phi.size == 0 or not np.all(np.isfinite(phi)) or np.any(np.abs(phi) > math.pi + 1e-12):
        raise ValueError("angles must be a non-empty array of finite values in [-pi, pi]")
    return phi


def angle_histogram(phi, bins: int = ANGLE_BINS) -> np.ndarray:
    r"""Fractions of angles in B equal arcs of the circle, the first one centred at angle 0.

    Arc b is :math:`[(b - \tfrac12) \tfrac{2\pi}{B}, (b + \tfrac12) \tfrac{2\pi}{B})` modulo
    :math:`2\pi`, :math:`b = 0, \dots, B - 1`. Centring the arcs on 0 (and, for even B, on
    :math:`\pi`) keeps the atoms that real orthogonal matrices have at the eigenvalues
    :math:`\pm 1` away from arc boundaries, where round-off would decide the arc.
    """
    phi = _check_angles(phi)
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or bins < 1:
        raise ValueError(f"bins={bins!r} is out of range: must be an int >= 1")
    index = np.floor(phi / (2 * math.pi) * bins + 0.5).astype(int) % int(bins)
    return np.bincount(index, minlength=int(bins)) / phi.size


def kl_to_uniform(phi, bins: int = ANGLE_BINS) -> float:
    r"""KL divergence :math:`\sum_b \hat p_b \log(B \hat p_b)` of a B-bin angle histogram from the uniform law.

    :math:`\hat p_b` is the fraction of angles in arc b of :func:`angle_histogram`
    (:math:`0 \log 0 = 0`). It is 0 for equal counts and :math:`\log B` when all angles fall in one
    arc. For m uniform angles its mean is about :math:`(B - 1)/(2m)` (the chi-square bias), not 0.
    """
    p = angle_histogram(phi, bins)
    p = p[p > 0]
    return float(np.sum(p * np.log(p * bins)))


def kolmogorov_to_uniform(phi) -> float:
    r"""Kolmogorov distance :math:`\sup_\varphi |F_m(\varphi) - (\varphi + \pi)/(2\pi)|` on :math:`(-\pi, \pi]`.

    The cut of the circle at :math:`\pi` is natural here: angles of real matrices are symmetric
    about 0. Exact: with sorted :math:`u_{(i)} = (\varphi_{(i)} + \pi)/2\pi`,
    :math:`D = \max_i \max(i/m - u_{(i)}, u_{(i)} - (i-1)/m)`.
    """
    u = np.sort((_check_angles(phi) + math.pi) / (2 * math.pi))
    m = u.size
    i = np.arange(1, m + 1)
    return float(max(np.max(i / m - u), np.max(u - (i - 1) / m)))


def circular_w1_to_uniform(phi) -> float:
    r"""Wasserstein-1 distance on the circle (arc length, radians) to the uniform law.

    With :math:`t = \varphi / 2\pi \bmod 1` and :math:`g(t) = F_m(t) - t`,

    .. math::

        W_1 = 2\pi \min_{\alpha \in \mathbb R} \int_0^1 |g(t) - \alpha|\, dt

    (Rabin, Delon and Gousseau, 2011). Between consecutive sorted points g decreases with slope
    :math:`-1`, so under Lebesgue measure its values form a mixture of uniform laws on the intervals
    :math:`[g(t_{(k+1)}^-), g(t_{(k)})]`. The minimizing :math:`\alpha` is the median of that
    mixture, whose distribution function is piecewise linear (found exactly in
    :math:`O(m \log m)`), and the integral is exact. :math:`\pi/2` for a point mass,
    :math:`\pi/(2m)` for m equally spaced points.
    """
    t = np.sort(np.mod(_check_angles(phi) / (2 * math.pi), 1.0))
    m = t.size
    left = np.concatenate([[0.0], t])  # segment k is [left_k, right_k), where F = k/m
    right = np.concatenate([t, [1.0]])
    hi = np.arange(m + 1) / m - left  # g at the left end of segment k
    lo = hi - (right - left)  # g at its right end
    lo_s, hi_s = np.sort(lo), np.sort(hi)
    cum_lo, cum_hi = np.concatenate([[0.0], np.cumsum(lo_s)]), np.concatenate([[0.0], np.cumsum(hi_s)])

    def mass_below(a: np.ndarray) -> np.ndarray:
        # sum_k clip(a - lo_k, 0, hi_k - lo_k) = sum_k (a - lo_k)_+ - (a - hi_k)_+
        i, j = np.searchsorted(lo_s, a, side="right"), np.searchsorted(hi_s, a, side="right")
        return (i * a - cum_lo[i]) - (j * a - cum_hi[j])

    points = np.sort(np.concatenate([lo, hi]))
    mass = mass_below(points)
    p = int(np.searchsorted(mass, 0.5, side="left"))
    if p == 0:
        alpha = float(points[0])
    else:
        p = min(p, points.size - 1)
        rise = mass[p] - mass[p - 1]
        step = (0.5 - mass[p - 1]) / rise if rise > 0 else 1.0
        alpha = float(points[p - 1] + min(max(step, 0.0), 1.0) * (points[p] - points[p - 1]))
    integral = np.sum(((hi - alpha) * np.abs(hi - alpha) - (lo - alpha) * np.abs(lo - alpha)) / 2.0)
    return float(2 * math.pi * integral)


def angle_discrepancies(phi, bins: int = ANGLE_BINS) -> dict[str, float]:
    r"""The three distances of the paper to the uniform law: ``{"kl": …, "ks": …, "w1": …}``.

    :func:`kl_to_uniform` (B = ``bins``), :func:`kolmogorov_to_uniform`,
    :func:`circular_w1_to_uniform`.
    """
    return {"kl": kl_to_uniform(phi, bins), "ks": kolmogorov_to_uniform(phi), "w1": circular_w1_to_uniform(phi)}


# --- attention spectra and the canonical model --------------------------------------------------


def singular_values(A: np.ndarray) -> np.ndarray:
    r"""Singular values :math:`\sigma_i(A)`, descending, from :math:`\operatorname{eigvalsh}(A A^\top)`.

    Computed in float64 (:func:`attnspec.spectra.squared_singular_values`).
    """
    return np.sqrt(squared_singular_values(np.asarray(A, dtype=float)))


def canonical_scores(sigma_S, n: int) -> np.ndarray:
    r"""The canonical diagonal :math:`(\sigma_1(S), \dots, \sigma_r(S), 0, \dots, 0)` of length n.

    The nonzero singular values of the score matrix, descending, followed by :math:`n - r` zeros
    (the exact singular values of a rank-r matrix; float32 round-off is not carried over).
    """
    sigma = np.sort(np.asarray(sigma_S, dtype=float))[::-1]
    if sigma.ndim != 1 or sigma.size > n or np.any(sigma < 0):
        raise ValueError(f"sigma_S must hold at most n = {n} non-negative values, got shape {sigma.shape}")
    return np.concatenate([sigma, np.zeros(n - sigma.size)])


def canonical_singular_values(sigma_S, n: int, causal: bool) -> np.ndarray:
    r"""Singular values of the canonical attention of a head, descending.

    :math:`\operatorname{softmax}(\Sigma)` with :math:`\Sigma = \operatorname{diag}` of
    :func:`canonical_scores`, row-wise, with the causal mask if ``causal``: paper 004, the real
    against canonical comparison. Bidirectional: exact reduction by distinct scores
    (:func:`attnspec.canonical.bidirectional_singular_values`, :math:`O(r^3)`); causal: dense
    Gram eigenproblem (:func:`attnspec.canonical.causal_singular_values`, :math:`O(n^3)`).
    """
    s = canonical_scores(sigma_S, n)
    if causal:
        return canonical.causal_singular_values(s)
    return canonical.bidirectional_singular_values(s)


def spectrum_w1(a, b) -> float:
    r"""Wasserstein-1 distance :math:`\frac1n \sum_i |a_{(i)} - b_{(i)}|` between two spectra of equal size n.

    For samples of equal size the optimal coupling matches order statistics, so this equals
    :func:`attnspec.spectra.wasserstein1`. :math:`n W_1` is the :math:`\ell_1` distance between the
    sorted spectra.
    """
    a, b = np.sort(np.asarray(a, dtype=float)), np.sort(np.asarray(b, dtype=float))
    if a.shape != b.shape or a.ndim != 1 or a.size == 0:
        raise ValueError(f"spectra must be 1-d of equal size, got {a.shape} and {b.shape}")
    return float(np.mean(np.abs(a - b)))


def averaging_singular_values(n: int) -> np.ndarray:
    r"""Singular values :math:`(1, 0, \dots, 0)` of uniform averaging :math:`\mathbf 1 \mathbf 1^\top / n`.

    The rank-one reference with no free parameter.
    """
    return np.concatenate([[1.0], np.zeros(int(n) - 1)])


# --- baselines ----------------------------------------------------------------------------------


def haar_angles(ranks, rng: np.random.Generator) -> list[np.ndarray]:
    r"""Eigen-angles of one Haar-random orthogonal matrix per entry of ``ranks`` (sizes r).

    The isotropy baseline of a set of heads with score ranks ``ranks``: under the hypothesis each
    head's :math:`R(S)` is Haar on :math:`O(r)` (module docstring), so these samples carry the
    finite-size floor of every distance (the KL bias, the atoms of :math:`O(r)` at
    :math:`\pm 1`, the repulsion of Haar eigenvalues).
    """
    ranks = [int(r) for r in ranks]
    out: list[np.ndarray | None] = [None] * len(ranks)
    for r in sorted(set(ranks)):
        where = [i for i, x in enumerate(ranks) if x == r]
        for i, W in zip(where, haar_orthogonal(r, len(where), rng)):
            out[i] = eigen_angles(W)
    return out


# --- one head, one text -------------------------------------------------------------------------


@dataclass(frozen=True)
class HeadRecord:
    r"""Everything the chapter measures on one head at one length.

    Attributes
    ----------
    model : str
        Registry name.
    text : str
        Text name.
    n : int
        Number of tokens.
    layer, head : int
        Zero-based indices.
    angles : numpy.ndarray
        Eigen-angles of :math:`R(S)` (:func:`polar_rotation`), :math:`r` values.
    sigma_S : numpy.ndarray
        The :math:`r` nonzero singular values of :math:`S`, descending.
    sv_real, sv_canonical : numpy.ndarray or None
        Singular values of the real attention map and of its canonical counterpart
        (:func:`canonical_singular_values`), n values each, when spectra were requested.
    full_U, full_V, full_control : numpy.ndarray or None
        When requested: :func:`full_factor_angles` of S (U and V) and the U angles of the
        symmetric control :math:`S S^\top`, whose left and right frames coincide
        (:math:`R(S S^\top) = I`).
    """

    model: str
    text: str
    n: int
    layer: int
    head: int
    angles: np.ndarray
    sigma_S: np.ndarray
    sv_real: np.ndarray | None = None
    sv_canonical: np.ndarray | None = None
    full_U: np.ndarray | None = None
    full_V: np.ndarray | None = None
    full_control: np.ndarray | None = None

    @property
    def rank(self) -> int:
        """Numerical rank r of the score matrix."""
        return int(self.sigma_S.size)


def head_record(model: str, text: str, layer: int, head: int, A: np.ndarray, S: np.ndarray,
                spectra: bool = True, full: bool = False) -> HeadRecord:
    r"""Measure one head: the rotation's eigen-angles, and optionally spectra and full-factor angles.

    Parameters
    ----------
    model, text : str
        Registry name (fixes the head dimension and the mask) and a label.
    layer, head : int
        Labels.
    A, S : numpy.ndarray
        The head's attention map and pre-softmax scores, shape ``(n, n)``.
    spectra : bool
        Compute ``sv_real`` and ``sv_canonical``.
    full : bool
        Compute ``full_U``, ``full_V`` and ``full_control`` (:math:`O(n^3)` each).
    """
    info = get_model(model)
    n = A.shape[0]
    sigma_S, U, V = score_factors(S, rank=info.head_dim)
    record = {"angles": eigen_angles(polar_rotation(U, V)), "sigma_S": sigma_S}
    if spectra:
        record["sv_real"] = singular_values(A)
        record["sv_canonical"] = canonical_singular_values(sigma_S, n, causal=info.causal)
    if full:
        S64 = np.asarray(S, dtype=float)
        record["full_U"], record["full_V"] = full_factor_angles(S64)
        record["full_control"] = full_factor_angles(S64 @ S64.T)[0]
    return HeadRecord(model, text, n, layer, head, **record)


def measure_text(model: str, text: str, lengths, spectrum_heads: int | None = None,
                 full_heads=()) -> list[HeadRecord]:
    r"""Measure every head of a model on one shipped text at each length.

    The encoder runs once per length (bidirectional attention on n tokens depends on all n); the
    decoder runs once at the largest length and each length n uses the leading :math:`n \times n`
    blocks of its scores and attention maps, which by causality are those of a run on the first n
    tokens.

    Parameters
    ----------
    model : str
        ``"minilm"`` or ``"smollm"``.
    text : str
        Name of a shipped text (:data:`attnspec.real.texts.TEXT_NAMES`).
    lengths : list of int
        Token counts n, each from 2 to the model's ``max_tokens``; lengths beyond the text's token
        count are dropped.
    spectrum_heads : int, optional
        Full singular-value spectra (real and canonical, :math:`O(n^3)` each) for this many heads
        per layer, evenly spaced; default all. Eigen-angles are measured on every head.
    full_heads : collection of (layer, head)
        Heads on which :func:`full_factor_angles` is also measured.

    Returns
    -------
    list of HeadRecord
        Ordered by length, layer, head.
    """
    info = get_model(model)
    lengths = sorted({int(n) for n in lengths})
    if not lengths or lengths[0] < 2 or lengths[-1] > info.max_tokens:
        raise ValueError(f"lengths must be in [2, {info.max_tokens}] for {model}, got {lengths}")
    m = info.heads if spectrum_heads is None else max(1, min(int(spectrum_heads), info.heads))
    chosen = set(np.linspace(0, info.heads - 1, m).round().astype(int).tolist())
    full_heads = {(int(l), int(h)) for l, h in full_heads}
    body = read_text(text)

    def record(n, layer, head, A, S):
        return head_record(model, text, layer, head, A, S, spectra=head in chosen,
                           full=(layer, head) in full_heads)

    by_n: dict[int, list[HeadRecord]] = {n: [] for n in lengths}
    if info.causal:
        for layer, (attention, scores) in enumerate(layer_maps(model, body, lengths[-1])):
            for n in (n for n in lengths if n <= attention.shape[-1]):
                by_n[n] += [record(n, layer, h, attention[h, :n, :n], scores[h, :n, :n])
                            for h in range(info.heads)]
    else:
        total = len(info.encode(body, lengths[-1]).ids)
        for n in (n for n in lengths if n <= total):
            for layer, (attention, scores) in enumerate(layer_maps(model, body, n)):
                by_n[n] += [record(n, layer, h, attention[h], scores[h]) for h in range(info.heads)]
    return [r for n in lengths for r in by_n[n]]
