r"""The records measured on one pretrained model and text: per head and per layer.

Per head (:class:`HeadRecord`, :func:`head_record`): the eigen-angles of the rotation :math:`R(S)`
(:func:`attnspec.real.rotation.polar_rotation`), the nonzero score singular values, optionally the
singular values of the real map and of its canonical counterpart
(:mod:`attnspec.real.head_spectra`), and optionally the literal reading of the paper's diagnostic:
the circular :math:`W_1` of the eigen-angles of full :math:`n \times n` singular factors under
several seeded conventions (:func:`attnspec.real.rotation.seeded_full_factors`).

Per layer (:class:`LayerRecord`, :func:`layer_record`): the paper's isotropy diagnostic (Spectral
Degeneration of Self-Attention under Isotropic Score Geometry, 2025, empirical isotropy
diagnostics): the token matrix :math:`X` entering the layer, its token-space singular factor
:math:`U_X` (:func:`attnspec.real.rotation.token_factor`, seeded signs and null-space completion),
and the distances of the eigen-angles of :math:`U_X` to the uniform law
(:func:`attnspec.real.circular.angle_discrepancies`), one row per seeded convention.

:func:`pack` and :func:`unpack` turn a :class:`TextMeasurement` into flat arrays and back.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnspec.real import circular, head_spectra, rotation
from attnspec.real.models import MODELS, get_model
from attnspec.real.texts import TEXT_NAMES

#: Stream numbers (second spawn-key entry) of the seeded conventions.
LITERAL_STREAM, TOKEN_STREAM = 0, 1


@dataclass(frozen=True)
class HeadRecord:
    r"""What is measured on one head at one length.

    Attributes
    ----------
    model, text : str
        Registry name and text name.
    n, layer, head : int
        Number of tokens; zero-based layer and head.
    angles : numpy.ndarray
        Eigen-angles of :math:`R(S)`, :math:`r` values.
    sigma_S : numpy.ndarray
        The :math:`r` nonzero singular values of :math:`S`, descending.
    sv_real, sv_canonical : numpy.ndarray or None
        Singular values of the real map and of its canonical counterpart, n values each.
    literal_w1 : numpy.ndarray or None
        Shape ``(draws, 2)``: circular :math:`W_1` to the uniform law of the eigen-angles of the
        full factors U (column 0) and V (column 1), one row per seeded convention.
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
    literal_w1: np.ndarray | None = None

    @property
    def rank(self) -> int:
        """Numerical rank r of the score matrix."""
        return int(self.sigma_S.size)


@dataclass(frozen=True)
class LayerRecord:
    r"""The paper's isotropy diagnostic on one layer at one length.

    Attributes
    ----------
    model, text : str
        Registry name and text name.
    n, layer : int
        Number of tokens; zero-based layer.
    rank : int
        Number of columns of :math:`U_X` fixed (up to sign) by :math:`X`; the other
        :math:`n - r` are a seeded completion.
    distances : numpy.ndarray
        Shape ``(draws, 3)``: KL, Kolmogorov and circular :math:`W_1` of the eigen-angles of
        :math:`U_X` to the uniform law, one row per seeded convention.
    """

    model: str
    text: str
    n: int
    layer: int
    rank: int
    distances: np.ndarray


@dataclass(frozen=True)
class TextMeasurement:
    """All records of one model on one text: heads ordered by length, layer, head; layers by
    length, layer."""

    heads: list[HeadRecord]
    layers: list[LayerRecord]


def _distances(W: np.ndarray, bins: int) -> list[float]:
    d = circular.angle_discrepancies(rotation.symmetrized_eigen_angles(W), bins)
    return [d.kl, d.ks, d.w1]


def _key(model: str, text: str) -> tuple[int, int]:
    return list(MODELS).index(model), list(TEXT_NAMES).index(text)


def head_record(
    model: str,
    text: str,
    layer: int,
    head: int,
    A: np.ndarray,
    S: np.ndarray,
    spectra: bool = True,
    draws: int = 0,
    seed: int = 0,
) -> HeadRecord:
    r"""Measure one head: the rotation's eigen-angles, optionally spectra and the literal reading.

    Parameters
    ----------
    model, text : str
        Registry name (fixes the head dimension and the mask) and a shipped text name.
    layer, head : int
        Zero-based indices (also part of the seeded conventions' keys).
    A, S : numpy.ndarray
        The head's attention map and pre-softmax scores, shape ``(n, n)``.
    spectra : bool
        Compute ``sv_real`` and ``sv_canonical``.
    draws : int
        Number of seeded conventions for ``literal_w1`` (0: not measured). Draw k uses
        ``completion_rng(seed, 0, model, text, n, layer, head, k)``.
    seed : int
        Root seed of the conventions.
    """
    info = get_model(model)
    n = A.shape[0]
    sigma_S, U, V = rotation.score_factors(S, rank=info.head_dim)
    sv_real = sv_canonical = literal = None
    if spectra:
        sv_real = head_spectra.singular_values(A)
        sv_canonical = head_spectra.canonical_singular_values(sigma_S, n, causal=info.causal)
    if draws:
        literal = np.empty((draws, 2))
        for k in range(draws):
            rng = rotation.completion_rng(
                seed, LITERAL_STREAM, *_key(model, text), n, layer, head, k
            )
            full = rotation.seeded_full_factors(S, info.head_dim, rng)
            literal[k] = [
                circular.circular_w1_to_uniform(rotation.symmetrized_eigen_angles(F)) for F in full
            ]
    return HeadRecord(
        model,
        text,
        n,
        layer,
        head,
        rotation.eigen_angles(rotation.polar_rotation(U, V)),
        sigma_S,
        sv_real,
        sv_canonical,
        literal,
    )


def layer_record(
    model: str,
    text: str,
    layer: int,
    X: np.ndarray,
    draws: int,
    seed: int,
    bins: int = circular.ANGLE_BINS,
) -> LayerRecord:
    r"""The paper's diagnostic on one token matrix: distances of the eigen-angles of :math:`U_X` to
    uniform.

    Draw k uses ``completion_rng(seed, 1, model, text, n, layer, 0, k)`` for the signs and the
    completion of :math:`U_X` (:func:`attnspec.real.rotation.token_factor`).
    """
    n = X.shape[0]
    frame = rotation.token_frame(X)
    rows = [
        _distances(
            rotation.seeded_completion(
                frame,
                rotation.completion_rng(seed, TOKEN_STREAM, *_key(model, text), n, layer, 0, k),
            ),
            bins,
        )
        for k in range(draws)
    ]
    return LayerRecord(model, text, n, layer, frame.shape[1], np.array(rows).reshape(draws, 3))


#: the arrays of a cached text measurement (their shapes depend on the text and the lengths)
PACKED = (
    "head_meta",
    "angles",
    "angles_size",
    "sigma_S",
    "sv_real",
    "sv_canonical",
    "literal",
    "layer_meta",
    "layer_distances",
)


def pack(m: TextMeasurement) -> dict[str, np.ndarray]:
    """The records of ``m`` as the flat arrays :data:`PACKED` (for the cache)."""
    h = m.heads
    spec = [r for r in h if r.sv_real is not None]
    lit = [r for r in h if r.literal_w1 is not None]
    return {
        "head_meta": np.array(
            [[r.n, r.layer, r.head, r.sv_real is not None, r.literal_w1 is not None] for r in h],
            dtype=np.int64,
        ).reshape(-1, 5),
        "angles": np.concatenate([r.angles for r in h]) if h else np.zeros(0),
        "angles_size": np.array([r.angles.size for r in h], dtype=np.int64),
        "sigma_S": np.concatenate([r.sigma_S for r in h]) if h else np.zeros(0),
        "sv_real": np.concatenate([r.sv_real for r in spec]) if spec else np.zeros(0),
        "sv_canonical": np.concatenate([r.sv_canonical for r in spec]) if spec else np.zeros(0),
        "literal": np.stack([r.literal_w1 for r in lit]) if lit else np.zeros((0, 0, 2)),
        "layer_meta": np.array([[r.n, r.layer, r.rank] for r in m.layers], dtype=np.int64).reshape(
            -1, 3
        ),
        "layer_distances": (
            np.stack([r.distances for r in m.layers]) if m.layers else np.zeros((0, 0, 3))
        ),
    }


def unpack(model: str, text: str, a: dict[str, np.ndarray]) -> TextMeasurement:
    """The records of the arrays of :func:`pack`, for ``model`` on ``text``."""
    ends = np.cumsum(a["angles_size"])
    starts = ends - a["angles_size"]
    heads, sv_at, lit_at = [], 0, 0
    for (n, layer, head, has_spec, has_lit), s, e in zip(
        a["head_meta"].tolist(), starts, ends, strict=True
    ):
        sv_real = sv_can = literal = None
        if has_spec:
            sv_real, sv_can = a["sv_real"][sv_at : sv_at + n], a["sv_canonical"][sv_at : sv_at + n]
            sv_at += n
        if has_lit:
            literal, lit_at = a["literal"][lit_at], lit_at + 1
        heads.append(
            HeadRecord(
                model,
                text,
                n,
                layer,
                head,
                a["angles"][s:e],
                a["sigma_S"][s:e],
                sv_real,
                sv_can,
                literal,
            )
        )
    layers = [
        LayerRecord(model, text, n, layer, rank, d)
        for (n, layer, rank), d in zip(a["layer_meta"].tolist(), a["layer_distances"], strict=True)
    ]
    return TextMeasurement(heads, layers)
