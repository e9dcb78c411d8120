r"""Singular frames of a score matrix, the rotation between them, eigen-angles, Haar baselines.

The spectral-degeneration paper (Spectral Degeneration of Self-Attention under Isotropic Score
Geometry, 2025) motivates its canonical model with the eigen-angles of token-space singular
factors. This module makes the factors and angles well defined.

**Which rotation.** A head's score matrix :math:`S = Q K^\top / \sqrt{d_h} \in \mathbb R^{n \times
n}` has rank :math:`r \le \min(n, d_h)`. Its singular factors are defined only up to

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
model itself (:math:`S = \Sigma` diagonal, :math:`U_r = V_r`) has :math:`R = I`: the diagnostic
tests the isotropy premise, not the canonical representative. The literal reading, eigen-angles of
full factors, is made canonical by :func:`seeded_full_factors`.

**Seeded canonical frames.** Where a factor is not a function of the matrix (the sign of each
singular pair, the basis of a null space), :func:`orient` and :func:`haar_completion` fix it with
a random draw from a stated generator, never with LAPACK's choice: the sign of pair :math:`i` makes
:math:`\langle u_i, g_i\rangle > 0` for a Gaussian vector :math:`g_i`, and the null space is
completed by a Haar-random orthonormal basis. :func:`completion_rng` derives that generator from
the chapter's seed and the position of the matrix (model, text, length, layer, head, draw), so a
stored number depends only on the mathematics and the seed; several draws show how much a reading
depends on the convention.
"""

from __future__ import annotations

import math

import numpy as np

from attnspec.core import validate
from attnspec.core.errors import InvalidInput

#: Singular values of :math:`S` below this fraction of :math:`\sigma_1(S)` are round-off of the
#: float32 product :math:`Q K^\top` (about :math:`10^{-8}` relative) and count as zero.
RANK_RTOL = 1e-6
#: Singular values of a float32 token matrix :math:`X` below this fraction of :math:`\sigma_1(X)`
#: count as zero (float32 round-off is about :math:`10^{-7}` relative).
TOKEN_RTOL = 1e-5
#: Extra columns of the range finder of :func:`score_factors`.
OVERSAMPLE = 8
#: First entry of the spawn key of every :func:`completion_rng` stream.
COMPLETION_STREAM = 4


def score_factors(
    S: np.ndarray, rank: int | None = None, rtol: float = RANK_RTOL
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
        raise InvalidInput(f"S must be a square matrix, got shape {S.shape}")
    n = S.shape[0]
    rank = n if rank is None else validate.integer("rank", rank, 1)
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
    r"""The rotation :math:`R = \operatorname{polar}(V^\top U)` between left and right singular
    frames.

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
        raise InvalidInput(
            f"U and V must have the same shape (n, r) with r <= n, got {U.shape} and {V.shape}"
        )
    return polar_factor(V.T @ U)


def score_rotation(S: np.ndarray, rank: int | None = None) -> np.ndarray:
    r"""The rotation :math:`R(S) = \operatorname{polar}(V_r^\top U_r)` of a score matrix.

    :func:`score_factors`, then :func:`polar_rotation`; ``rank`` bounds the rank (the head
    dimension).
    """
    _, U, V = score_factors(S, rank)
    return polar_rotation(U, V)


def _real_atoms(W: np.ndarray, det_sign: float) -> tuple[int, int]:
    r"""How many eigenvalues :math:`-1` and :math:`+1` a generic real orthogonal W must have.

    Its eigenvalues are conjugate pairs, :math:`+1`'s and :math:`-1`'s, so
    :math:`\det W = (-1)^{m_-}` and :math:`n - m_+ - m_-` is even: with no further :math:`\pm 1`,
    :math:`m_- = [\det W < 0]` and :math:`m_+ = (n - m_-) \bmod 2`.
    """
    minus = 1 if det_sign < 0 else 0
    return minus, (W.shape[0] - minus) % 2


def eigen_angles(W: np.ndarray) -> np.ndarray:
    r"""Eigen-angles of an orthogonal matrix, ascending.

    :math:`\lambda_j = e^{i \varphi_j}` with :math:`\varphi_j \in (-\pi, \pi]`.

    For a real matrix LAPACK returns complex eigenvalues in exact conjugate pairs, so the angles
    of a real orthogonal matrix come in exact pairs :math:`\pm\varphi`, plus 0 and :math:`\pi` for
    the real eigenvalues :math:`\pm 1`. Those that the determinant forces (:func:`_real_atoms`)
    are set exactly: a computed :math:`-1 - 10^{-17} i` would otherwise land at :math:`-\pi`, the
    other end of :math:`(-\pi, \pi]`, and move the Kolmogorov distance by :math:`1/n`.
    """
    W = np.asarray(W, dtype=float)
    if W.ndim != 2 or W.shape[0] != W.shape[1]:
        raise InvalidInput(f"W must be a square matrix, got shape {W.shape}")
    lam = np.linalg.eigvals(W)
    phi = np.angle(lam)
    minus, plus = _real_atoms(W, float(np.prod(lam).real))
    phi[np.argsort(-np.abs(phi), kind="stable")[:minus]] = math.pi
    phi[np.argsort(np.abs(phi), kind="stable")[:plus]] = 0.0
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
    angles as on :func:`eigen_angles`, and a symmetric eigenproblem is much cheaper than a general
    one. :math:`\arccos` loses half the digits near :math:`\pm 1`, so the eigenvalues :math:`\pm 1`
    that the determinant forces (:func:`_real_atoms`, from the sign of an LU determinant) are set
    exactly; otherwise round-off would split the atom at :math:`-1` between the two ends of
    :math:`(-\pi, \pi]`, which changes the Kolmogorov distance by :math:`1/n`.
    """
    W = np.asarray(W, dtype=float)
    if W.ndim != 2 or W.shape[0] != W.shape[1]:
        raise InvalidInput(f"W must be a square matrix, got shape {W.shape}")
    lam = np.linalg.eigvalsh((W + W.T) / 2)  # ascending
    minus, plus = _real_atoms(W, float(np.linalg.slogdet(W)[0]))
    lam[:minus] = -1.0
    lam[lam.size - plus :] = 1.0
    phi = np.arccos(np.clip(lam, -1.0, 1.0))
    return np.sort(
        np.concatenate([-phi[phi < math.pi], phi, [math.pi] * int(np.sum(phi >= math.pi))])
    )


def haar_orthogonal(r: int, size: int, rng: np.random.Generator) -> np.ndarray:
    r"""Haar-distributed orthogonal matrices, shape ``(size, r, r)``.

    QR decomposition of a Gaussian matrix :math:`Z = Q R'`, then
    :math:`Q \operatorname{diag}(\operatorname{sign} R'_{ii})` (Mezzadri's correction; without it
    the law of :math:`Q` is not Haar).
    """
    r, size = validate.integer("r", r, 1), validate.integer("size", size, 1)
    Z = rng.standard_normal((int(size), int(r), int(r)))
    Q, R = np.linalg.qr(Z)
    signs = np.sign(np.diagonal(R, axis1=1, axis2=2))
    signs[signs == 0] = 1.0
    return Q * signs[:, None, :]


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
        for i, W in zip(where, haar_orthogonal(r, len(where), rng), strict=True):
            out[i] = eigen_angles(W)
    return out


def completion_rng(seed: int, *key: int) -> np.random.Generator:
    r"""The generator of one seeded convention: ``SeedSequence(seed, spawn_key=(COMPLETION_STREAM,
    *key))``.

    ``key`` names the matrix and the draw (e.g. model, text, length, layer, head, draw index), so
    every matrix gets the same convention whatever else is computed, in any order.
    """
    seed = validate.integer("seed", seed, 0)
    ss = np.random.SeedSequence(int(seed), spawn_key=(COMPLETION_STREAM, *(int(k) for k in key)))
    return np.random.default_rng(ss)


def orient(U: np.ndarray, V: np.ndarray | None, rng: np.random.Generator):
    r"""Seeded signs of singular pairs: flip :math:`(u_i, v_i)` jointly so that :math:`\langle u_i,
    g_i\rangle > 0`.

    :math:`g_i` are independent standard Gaussian vectors from ``rng``. Since :math:`-g_i` has the
    law of :math:`g_i`, each sign is a fair coin given the pair; it depends only on the line of
    :math:`u_i` and on the seed, not on LAPACK's sign. ``V`` may be ``None`` (left factor only).
    """
    U = np.asarray(U, dtype=float)
    g = rng.standard_normal(U.shape)
    signs = np.where(np.sum(U * g, axis=0) < 0, -1.0, 1.0)
    return U * signs, (None if V is None else np.asarray(V, dtype=float) * signs)


def haar_completion(F: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    r"""A Haar-random orthonormal basis of the orthogonal complement of the columns of ``F``.

    For :math:`F \in \mathbb R^{n \times r}` with orthonormal columns: a Gaussian
    :math:`G \in \mathbb R^{n \times (n - r)}` from ``rng``, projected,
    :math:`M = (I - F F^\top) G` (twice, for round-off), then :math:`M = Q R` with the signs of
    :math:`\operatorname{diag} R` moved into :math:`Q` (Mezzadri). Writing :math:`M = B (B^\top G)`
    for any basis :math:`B` of the complement, :math:`Q = B H` with :math:`H` Haar on
    :math:`O(n - r)`: the completion depends on the subspace and the seed only.

    Returns
    -------
    numpy.ndarray
        Shape ``(n, n - r)``.
    """
    F = np.asarray(F, dtype=float)
    n, r = F.shape
    if r > n:
        raise InvalidInput(f"F must have at most n = {n} columns, got {r}")
    if r == n:
        return np.zeros((n, 0))
    M = rng.standard_normal((n, n - r))
    for _ in range(2):
        M -= F @ (F.T @ M)
    Q, R = np.linalg.qr(M)
    signs = np.sign(np.diagonal(R))
    signs[signs == 0] = 1.0
    return Q * signs


def seeded_full_factors(
    S: np.ndarray, rank: int | None, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    r"""Full :math:`n \times n` singular factors of a score matrix under a seeded convention.

    The literal reading of the paper's diagnostic made canonical: the :math:`r` nonzero singular
    pairs of :func:`score_factors` (descending), signed by :func:`orient`, then each factor
    completed by :func:`haar_completion`. Different draws of ``rng`` give different, equally valid,
    factors: their eigen-angles are a property of the convention, not of :math:`S`.

    Returns
    -------
    U, V : numpy.ndarray
        Orthogonal, shape ``(n, n)``.
    """
    _, U, V = score_factors(S, rank)
    U, V = orient(U, V, rng)
    return (np.hstack([U, haar_completion(U, rng)]), np.hstack([V, haar_completion(V, rng)]))


def token_frame(X: np.ndarray, rtol: float = TOKEN_RTOL) -> np.ndarray:
    r"""The columns of the token-space factor :math:`U_X` that :math:`X` determines (up to sign).

    :math:`X = U_X \Sigma_X V_X^\top` with :math:`X \in \mathbb R^{n \times p}` (tokens by hidden
    size), computed in float64: the left singular vectors of the :math:`r` singular values above
    ``rtol`` :math:`\sigma_1(X)`, shape ``(n, r)``. The other :math:`n - r` columns (always some
    when
    :math:`n > p`) are not determined by :math:`X`.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] < 1:
        raise InvalidInput(f"X must be a non-empty 2-d token matrix, got shape {X.shape}")
    U, sigma, _ = np.linalg.svd(X, full_matrices=False)
    r = int(np.sum(sigma > rtol * sigma[0])) if sigma[0] > 0 else 0
    return U[:, :r]


def seeded_completion(F: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    r"""An orthogonal :math:`n \times n` matrix from an orthonormal frame :math:`F`:
    :func:`orient`, then :func:`haar_completion`."""
    F, _ = orient(F, None, rng)
    return np.hstack([F, haar_completion(F, rng)])


def token_factor(X: np.ndarray, rng: np.random.Generator, rtol: float = TOKEN_RTOL) -> np.ndarray:
    r"""The token-space singular factor :math:`U_X` of a token matrix, made canonical with a seed.

    :func:`token_frame` (the determined columns, by descending singular value), signed by
    :func:`orient` and completed by :func:`haar_completion`: orthogonal, shape ``(n, n)``. This is
    the matrix whose eigen-angles the paper's isotropy diagnostic compares with the uniform law.
    """
    return seeded_completion(token_frame(X, rtol), rng)
