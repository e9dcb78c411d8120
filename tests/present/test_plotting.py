"""Every figure function of the figure modules (:mod:`attnspec.present.plotting`, and the plots of
the chapters' ``figures`` modules) meets the book's figure standard.

Each public function draws from small synthetic input shaped like its chapter's (as many series and
panels), and the figure is checked mechanically, as the page will show it:

- **width**: the saved figure (tight bounding box, 0.1 in padding) is at most the page's figure
  width, 672 CSS px at 96 px per inch (``style.CONTENT_PX``), so it is not scaled down;
- **text**: every visible text (ticks, labels, titles, legends, annotations) is at least 9 pt;
- **series**: the entries of every legend differ by more than colour (line style, marker, hatch or
  kind of mark);
- **legends**: no legend's box covers a plotted point (``style.hidden_points``).

The functions are discovered: a new public function without a case in ``CASES`` fails
``test_every_figure_function_has_a_case``. ``KNOWN`` lists the functions that do not meet the
standard yet, with why; their cases are strict expected failures, so fixing one fails the test
until its entry is removed.
"""

import inspect
from types import SimpleNamespace

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text

from attnspec.chapters.bulk_equivalence import figures as bulk_figures
from attnspec.chapters.canonical_causal import figures as canonical_causal
from attnspec.chapters.canonical_model import figures as canonical_model
from attnspec.chapters.canonical_ranks import figures as canonical_ranks
from attnspec.chapters.convergence import figures as convergence_figures
from attnspec.chapters.convergence_threshold import figures as threshold_figures
from attnspec.chapters.head_dimension import figures as head_dimension_figures
from attnspec.chapters.limit_law import figures as limit_law_figures
from attnspec.chapters.limit_law_edge import figures as edge_figures
from attnspec.chapters.normalizer_concentration import figures as norm_figures
from attnspec.chapters.rank_one_mode import figures as rank_one_figures
from attnspec.chapters.real_attention import figures as real_attention
from attnspec.chapters.real_spectra import figures as real_spectra
from attnspec.chapters.setup import figures as setup_figures
from attnspec.experiments.limit_law import SliderFrame
from attnspec.models.ladder import MODEL_NAMES
from attnspec.models.notation import symbol
from attnspec.present import plotting, style
from attnspec.real.circular import AngleDistances
from attnspec.real.models import MODELS
from attnspec.real.rank_scale import Point, RankScale
from attnspec.real.uncertainty import Interval

RUNGS = [symbol(name) for name in MODEL_NAMES]
RNG = np.random.default_rng(0)
MIN_PT = 9.0


def bulk(n=600, scale=1.0):
    """A bulk-like sample on (0, 4): squares of uniform values (dense at 0, like Marchenko–Pastur),
    scaled; cheap, where a spectrum would cost a decomposition."""
    return scale * RNG.uniform(0.0, 2.0, n) ** 2


def mp_density(x):
    """Marchenko–Pastur density at ratio 1."""
    x = np.asarray(x, float)
    return np.where((x > 0) & (x < 4), np.sqrt(np.clip(x * (4 - x), 0, None)) / (2 * np.pi * x), 0)


def softmax_rows(S, beta):
    E = np.exp(beta * S - (beta * S).max(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)


def log_panels():
    d = np.array([256.0, 512, 1024, 2048, 4096])
    return [
        {
            "title": "profile error",
            "xlabel": r"$\ell$",
            "ylabel": "error",
            "logx": True,
            "logy": True,
            "lines": [
                plotting.series_line(d, 1 / np.log(d), r"$f = \log \ell$", 0),
                plotting.series_line(d, 1 / d, r"$f = \ell$", 1),
                plotting.guide_line(d, 1.1 / np.log(d), r"$1/\log \ell$"),
            ],
        },
        {
            "title": "stable rank",
            "xlabel": r"$\ell$",
            "ylabel": "srank",
            "logx": True,
            "lines": [
                plotting.series_line(d, 4 + 0.2 * np.log(d), "causal", 2),
                plotting.series_line(d, 0 * d + 5, "bidirectional", 3),
            ],
        },
    ]


def too_wide_figure():
    """Two panels 10 in wide with 7 pt text: what
    :func:`~attnspec.chapters.head_dimension.figures.legible` must fix."""
    fig, axes = plotting.plt.subplots(1, 2, figsize=(10.0, 4.0))
    for ax in axes:
        ax.plot(D, 1 / D, "o-", label="measured")
        ax.plot(D, 1.2 / D, "s--", label="predicted")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("$d$", fontsize=7)
        ax.tick_params(labelsize=7)
    axes[0].legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    return fig


def interval(v, half=0.1):
    """An :class:`attnspec.real.uncertainty.Interval` of relative half-width ``half``."""
    v = float(v)
    return Interval(v, v * (1 - half), v * (1 + half), n_texts=4, n_heads=72)


REAL_N = [16, 32, 64, 128, 256, 512]
REAL_MODELS = ("minilm", "smollm")
ANGLE_BINS = 50


def real_study():
    """A :class:`attnspec.real.study.Study`-shaped namespace: both models at the chapter's lengths,
    with synthetic summaries."""
    lengths = {m: list(REAL_N) for m in REAL_MODELS}
    tokens, rotation, spectra, heads = {}, {}, {}, {}
    for j, m in enumerate(REAL_MODELS):
        layers = MODELS[m].layers
        for n in REAL_N:
            dist = {"kl": 2.0 / n, "ks": 1.0 / np.sqrt(n), "w1": 0.8 / np.sqrt(n)}
            haar = AngleDistances(*(1.1 * dist[k] for k in ("kl", "ks", "w1")))
            q95 = AngleDistances(*(1.5 * dist[k] for k in ("kl", "ks", "w1")))
            tokens[(m, n)] = SimpleNamespace(
                intervals={k: interval(v * (1 + 0.1 * j)) for k, v in dist.items()},
                haar=SimpleNamespace(median=haar, q95=q95),
                per_layer=0.8 / np.sqrt(n) * (1 + 0.1 * RNG.random((layers, 4, 3))),
            )
            rotation[(m, n)] = SimpleNamespace(
                real=AngleDistances(*(5 * v for v in dist.values())),
                haar=AngleDistances(*(0.9 * v for v in dist.values())),
                pooled=np.concatenate([RNG.uniform(-np.pi, np.pi, 2000), np.zeros(300)]),
            )
            stats = {
                "w1": interval(0.5 / np.sqrt(n)),
                "w1_avg": interval(0.3 / np.sqrt(n)),
                "srank": interval(1.3 + 0.05 * j * np.log(n)),
                "srank_c": interval(2 + 4 * np.log(n)),
                "erank1": interval(np.sqrt(n)),
                "erank1_c": interval(0.6 * np.sqrt(n)),
            }
            spectra[(m, n)] = SimpleNamespace(
                stats=stats, n_layers=layers, layer_w1=0.5 / np.sqrt(n) * (1 + RNG.random(layers))
            )
        top = REAL_N[-1]
        sv = np.r_[1.0, 0.3 / np.arange(1, top)]
        heads[(m, top)] = [
            SimpleNamespace(
                sv_real=sv,
                sv_canonical=np.r_[np.ones(32), 1e-3 * np.ones(top - 32)],
                layer=layers - 1,
                head=0,
                text="text 1",
                n=top,
            )
        ]
    return SimpleNamespace(
        lengths=lengths,
        tokens=tokens,
        rotation=rotation,
        spectra=spectra,
        heads=heads,
        texts=("text 1", "text 2", "text 3", "text 4"),
        top=lambda m: lengths[m][-1],
    )


def scale():
    """A :class:`attnspec.real.rank_scale.RankScale` with the chapter's series, synthetic."""
    names = [
        "random init, bidirectional",
        "random init, causal",
        "canonical $A_b$",
        "canonical $A_c$",
        r"canonical $A_c$, $\Sigma = 0$",
        *(
            f"{kind}, {MODELS[m].display}"
            for m in REAL_MODELS
            for kind in ("trained", "canonical of trained")
        ),
    ]

    def series(f):
        return {
            name: {n: Point(f(n, i), 0.02 * f(n, i)) for n in REAL_N}
            for i, name in enumerate(names)
        }

    return RankScale(
        lengths=REAL_N,
        k=4,
        srank=series(lambda n, i: (1 + 0.5 * i) * (1 + 0.1 * np.log(n))),
        erank1=series(lambda n, i: (1 + 0.3 * i) * np.sqrt(n)),
        beta=1.0,
        trials=8,
    )


ELLS = [256, 1024, 4096]
K = 4


def bidirectional():
    """A :class:`attnspec.chapters.canonical_model.study.CanonicalModel`-shaped namespace."""
    from attnspec.canonical.model import bidirectional_profile

    def at(ell, f):
        sigma = bidirectional_profile(ell, K) - 1 / f
        return SimpleNamespace(ell=ell, c=K / ell, sigma=sigma, profile_error=1 / f)

    roots = [2**j for j in range(6, 31, 2)]
    return SimpleNamespace(
        k=K,
        ells=ELLS,
        at={
            "log": [at(e, np.log(e)) for e in ELLS],
            "lin": [at(e, float(e)) for e in ELLS],
        },
        root_srank={e: np.sqrt(e) + 1 - 0.9 * e**0.25 for e in roots},
    )


def causal():
    """A :class:`attnspec.chapters.canonical_causal.study.CanonicalCausal`-shaped namespace."""
    from attnspec.canonical.order import ORDERS

    def spectrum(ell):
        return np.r_[np.ones(K), 1 / np.arange(K + 1, ell + 1)]

    names = ["bulk uniform in [0, B]", "bulk constant B", *(f"family {j}" for j in range(7))]
    grid = [64, 128, 256, 512, 1024, 2048]
    bs = (0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0)
    dense = [2**j for j in range(4, 12)]
    orders = {
        o: {
            e: SimpleNamespace(
                srank=2 + (1 + 0.2 * j) * np.log(e),
                erank1=1.0 if e <= 1024 else None,
                eigenvalues=(1 + 0.1 * j) * spectrum(e),
            )
            for e in dense + [4096, 16384]
        }
        for j, o in enumerate(ORDERS)
    }
    return SimpleNamespace(
        ells=ELLS,
        k=K,
        bulk_max=2.0,
        diagonals={e: np.r_[np.ones(K), 3 / np.arange(K + 1, e + 1)] for e in ELLS},
        sigma_zero={e: 1 / np.arange(1, e + 1) for e in ELLS},
        spectra={e: spectrum(e) for e in ELLS},
        families=[SimpleNamespace(name=n) for n in names],
        bounds={
            n: {e: SimpleNamespace(constant=1 + 0.1 * j * np.log(e)) for e in grid}
            for j, n in enumerate(names)
        },
        testable=lambda fam: fam.name < "family 3",
        by_b={
            "constant": {b: SimpleNamespace(constant=np.exp(b)) for b in bs},
            "uniform": {b: SimpleNamespace(constant=1 + b**2 / 9) for b in bs},
        },
        b_ell=2048,
        orders=orders,
    )


def ranks():
    """A :class:`attnspec.chapters.canonical_ranks.study.CanonicalRanks`-shaped namespace."""
    from attnspec.canonical.cesaro import CesaroPoint

    g = np.array([2.0**j for j in range(6, 15)])
    return SimpleNamespace(
        k=K,
        grid=list(g),
        b_srank={"lin": K + 1 - 0.1 / np.log(g), "log": K + 1 - 1 / np.log(g)},
        b_erank1=K + 1 + 0 * g,
        b_erank2=K + 1 + 0 * g,
        c_srank=list(2 + np.log(g)),
        cb_srank=list(1.5 + np.log(g)),
        z_srank=list(0.25 * np.log(g) + 0.6),
        z_erank1=list(0.5 * np.sqrt(g) * np.log(g)),
        cesaro=[
            CesaroPoint(ell=e, norm=2 - 1 / np.log(e), frobenius_sq=np.log(e))
            for e in (2**12, 2**16, 2**20, 2**22)
        ],
    )


def slider_frames():
    """Five :class:`attnspec.experiments.limit_law.SliderFrame` s (every second of the slider)."""
    x = np.linspace(0.0, 6.0, 351)[1:]
    edges = np.linspace(0.0, 6.0, 71)
    frames = []
    for beta in (0.5, 1.0, 1.5, 2.0, 2.5):
        law = mp_density(x / (1 + 0.1 * beta)) / (1 + 0.1 * beta)
        hist, _ = np.histogram(bulk(300), edges, density=True)
        frames.append(
            SliderFrame(beta, 1.0, x, law, mp_density(x), edges, hist, 0.01, 0.02, 4.0 + 0.1 * beta)
        )
    return frames


S40 = RNG.standard_normal((40, 40))
X = np.linspace(0.0, 4.0, 200)
D = np.array([250, 500, 1000, 2000])
BETAS = np.array([0.5, 1.0, 1.5, 2.0, 2.5])

CASES = {
    "rank_one_mode.top_singular_values": lambda: rank_one_figures.top_singular_values(
        {r: np.sort(RNG.uniform(1, 1e3, 6))[::-1] for r in RUNGS}
    ),
    "normalizer_concentration.histogram_with_normal": lambda: norm_figures.histogram_with_normal(
        1 + 0.047 * RNG.standard_normal(2000), 1.0, 0.047, r"$D_i$"
    ),
    "normalizer_concentration.measured_vs_predicted": lambda: norm_figures.measured_vs_predicted(
        BETAS[:4],
        0.04 * np.exp(BETAS[:4] ** 2 / 2),
        0.041 * np.exp(BETAS[:4] ** 2 / 2),
        "b",
        "s",
    ),
    "curves": lambda: plotting.curves(
        np.arange(2, 17),
        {r"$\theta_1$ gap": 0.5 ** np.arange(2, 17), r"$\theta_2$ gap": 0.3 ** np.arange(2, 17)},
        "$n$",
        "relative gap",
        logy=True,
    ),
    "setup.scores_and_entries": lambda: setup_figures.scores_and_entries(
        S40, softmax_rows(S40, 1.0), 1.0
    ),
    "limit_law.law_histogram_grid": lambda: limit_law_figures.law_histogram_grid(
        {r: bulk(300) for r in RUNGS},
        40,
        (0.0, 6.0),
        {"exact law": mp_density, "Marchenko–Pastur": lambda x: 0.9 * mp_density(x)},
        edges={r"$\lambda_+$": 4.0, r"$4\theta_1$": 3.6},
        logy=True,
    ),
    "limit_law_edge.per_trial_points": lambda: edge_figures.per_trial_points(
        {r: 3.6 + 0.1 * RNG.standard_normal(10) for r in RUNGS},
        {r"$\lambda_+$": 3.9, "MP edge": 3.5},
        "largest bulk value",
    ),
    "limit_law.cdf_differences": lambda: limit_law_figures.cdf_differences(
        X,
        {r: 0.01 * np.sin(X + i) for i, r in enumerate(RUNGS)},
        "$s^2$",
        r"$\Delta F$",
        dashed=(RUNGS[-1],),
    ),
    "loglog_fits": lambda: plotting.loglog_fits(
        D,
        {
            r: (0.5 * D**-0.5 * (1 + 0.1 * i), 0.02 * D**-0.5, -0.5, np.log(0.5))
            for i, r in enumerate(RUNGS)
        },
        "$d$",
        r"$D_{\rm KS}$",
    ),
    "convergence_threshold.phase_diagram": lambda: threshold_figures.phase_diagram(
        BETAS,
        D,
        0.005 * np.exp(np.outer(1 / np.log(D), BETAS**2)),
        r"$\beta$",
        "$d$",
        r"$D_{\rm KS}$",
        curves={
            r"$e^{\beta^2} = d$": (
                np.linspace(0.3, 2.8, 50),
                np.exp(np.linspace(0.3, 2.8, 50) ** 2),
            )
        },
        points={r"$\beta_{\rm tol}$": (np.array([1.2, 1.4, 1.6, 1.8]), D)},
    ),
    "rank_one_mode.power_law_with_prediction": lambda: rank_one_figures.power_law_with_prediction(
        D, 0.9 / D, 0.05 / D, -1.0, np.log(0.9), "-1.00", 0.93 / D, "$d$", r"$s_1(A) - 1$"
    ),
    "cdf_differences_with_noise": lambda: plotting.cdf_differences_with_noise(
        X,
        {
            f"{a} → {b}": 0.004 * np.sin(X * (i + 1))
            for i, (a, b) in enumerate(zip(RUNGS, RUNGS[1:], strict=False))
        },
        0.002 * np.sin(7 * X),
        r"$\lambda$",
        r"$\Delta F$",
        "independent repetition",
    ),
    "head_dimension.legible": lambda: head_dimension_figures.legible(too_wide_figure()),
    "panel_grid": lambda: plotting.panel_grid(log_panels()),
    "bulk_equivalence.bulk_against_laws": lambda: bulk_figures.bulk_against_laws(
        {r"bulk of $\sqrt{d}A_\perp$": bulk(), r"bulk of $Y_f^{\rm lin}$": bulk(scale=1.05)},
        {"limit law (Pennington–Worah)": mp_density, "Marchenko–Pastur, same mean": mp_density},
        (0.0, 4.5),
        60,
        edges={r"$4\theta_1$": 3.6, r"$\lambda_+$": 4.0},
    ),
    "limit_law.law_frames_grid": lambda: limit_law_figures.law_frames_grid(slider_frames()),
    "canonical_model.fig_profile": lambda: canonical_model.fig_profile(bidirectional()),
    "canonical_model.fig_forms": lambda: canonical_model.fig_forms(bidirectional()),
    "canonical_causal.fig_causal": lambda: canonical_causal.fig_causal(causal()),
    "canonical_causal.fig_bound": lambda: canonical_causal.fig_bound(causal()),
    "canonical_causal.fig_order": lambda: canonical_causal.fig_order(causal()),
    "canonical_ranks.fig_sigma0": lambda: canonical_ranks.fig_sigma0(ranks()),
    "canonical_ranks.fig_ranks": lambda: canonical_ranks.fig_ranks(ranks()),
    "real_attention.fig_tokens": lambda: real_attention.fig_tokens(real_study()),
    "real_attention.fig_angles": lambda: real_attention.fig_angles(real_study(), ANGLE_BINS),
    "real_spectra.fig_spectra": lambda: real_spectra.fig_spectra(real_study()),
    "real_spectra.fig_ranks": lambda: real_spectra.fig_ranks(real_study()),
    "real_spectra.rank_scale_fig": lambda: real_spectra.rank_scale_fig(scale()),
}

#: Functions that do not meet the standard yet, and why (measured by this test); each chapter's
#: helper fixes its own and removes the entry.
KNOWN: dict[str, str] = {}


FIGURE_MODULES = (
    plotting,
    bulk_figures,
    limit_law_figures,
    edge_figures,
    norm_figures,
    rank_one_figures,
    setup_figures,
    convergence_figures,
    threshold_figures,
    head_dimension_figures,
    canonical_model,
    canonical_causal,
    canonical_ranks,
    real_attention,
    real_spectra,
)


def public_figure_functions() -> set[str]:
    """The public functions of the figure modules that return a figure (not the style helpers, nor
    a chapter's glued figures ``fig_*``, which its test draws from its study), a chapter's as
    ``<chapter>.<name>``."""
    return {
        name if module is plotting else f"{module.__name__.split('.')[-2]}.{name}"
        for module in FIGURE_MODULES
        for name, f in inspect.getmembers(module, inspect.isfunction)
        if f.__module__ == module.__name__
        and not name.startswith(("_", "fig_"))
        and inspect.signature(f).return_annotation == "plt.Figure"
    }


def test_every_figure_function_has_a_case():
    assert public_figure_functions() <= set(CASES), "add a case (and a chapter-shaped input)"
    assert set(KNOWN) <= set(CASES)


def mark_kind(handle) -> tuple:
    """What tells a legend entry apart besides its colour."""
    if isinstance(handle, ErrorbarContainer):
        handle = handle.lines[0]
    if isinstance(handle, BarContainer):
        handle = handle.patches[0]
    if isinstance(handle, Line2D):
        style_ = handle.get_linestyle() if handle.get_linestyle() not in ("", " ") else "None"
        return ("line", style_, handle.get_marker() or "None")
    if isinstance(handle, Patch):
        return ("patch", handle.get_hatch(), handle.get_fill(), handle.get_linestyle())
    return (type(handle).__name__, str(getattr(handle, "get_hatch", lambda: None)()))


def problems(fig) -> list[str]:
    """Every way ``fig`` misses the standard, as sentences; empty when it meets it."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    found = []
    width = (fig.get_tightbbox(renderer).width + 2 * 0.1) * style.PX_PER_INCH
    if width > style.CONTENT_PX + 0.5:
        found.append(f"{width:.0f} px wide, the page shows {style.CONTENT_PX} px")
    small = sorted(
        {
            (t.get_fontsize(), t.get_text()[:30])
            for t in fig.findobj(Text)
            if t.get_visible()
            and (t.axes is None or t.axes.get_visible())
            and t.get_text().strip()
            and t.get_fontsize() < MIN_PT
        }
    )
    if small:
        found.append(
            f"{len(small)} texts below {MIN_PT:g} pt, e.g. {small[0][1]!r} at {small[0][0]}"
        )
    # the plotted artists behind each legend (a legend's own handles are drawn copies)
    legends = [(ax.get_legend(), ax.get_legend_handles_labels()) for ax in fig.axes]
    legends += [
        (leg, (leg.legend_handles, [t.get_text() for t in leg.texts])) for leg in fig.legends
    ]
    for leg, (handles, labels) in legends:
        if leg is None:
            continue
        kinds = [mark_kind(h) for h in handles]
        same = len(kinds) - len(set(kinds))
        if same:
            found.append(f"{same + 1} legend entries differ by colour only ({labels[:4]})")
        hidden = style.hidden_points(leg)
        if hidden:
            found.append(f"a legend covers {hidden} plotted points")
    return found


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=pytest.mark.xfail(reason=KNOWN[name], strict=True))
        if name in KNOWN
        else name
        for name in sorted(CASES)
    ],
)
def test_figure_meets_the_standard(name):
    fig = CASES[name]()
    try:
        assert problems(fig) == []
    finally:
        plotting.plt.close(fig)


def test_the_checks_see_each_failure():
    """A figure that breaks each rule is caught, and one that keeps them passes."""
    fig, ax = plotting.plt.subplots(figsize=(9, 3))
    x = np.linspace(0, 1, 50)
    ax.plot(x, x, "-", color="C0", label="a")
    ax.plot(x, 1 - x, "-", color="C1", label="b")
    ax.set_xlabel("x", fontsize=7)
    ax.legend(loc="center")  # over the crossing of the two lines
    found = " ".join(problems(fig))
    plotting.plt.close(fig)
    assert "wide" in found and "below 9 pt" in found
    assert "colour only" in found and "covers" in found
    fig, ax = plotting.plt.subplots(figsize=(6, 3))
    ax.plot(x, x, label="a")
    ax.plot(x, 1 - x, label="b")
    ax.set_xlabel("x")
    style.legend(ax)
    assert problems(fig) == []
    plotting.plt.close(fig)


def test_a_legend_over_a_heat_map_hides_it():
    fig, ax = plotting.plt.subplots(figsize=(5, 3.5))
    ax.pcolormesh(np.arange(6.0), np.arange(5.0), np.ones((4, 5)))
    ax.plot([1, 4], [1, 3], "o-", label="points")
    leg = ax.legend(loc="upper right")
    assert style.hidden_points(leg) > 0
    plotting.plt.close(fig)


def test_legend_moves_outside_when_no_place_inside_is_free():
    fig, ax = plotting.plt.subplots(figsize=(6, 3.5))
    x = np.linspace(0, 1, 400)
    for k in range(9):  # curves everywhere in the axes
        ax.plot(x, np.sin(6 * x + k) + k / 4, label=f"series {k}", marker="")
    leg = style.legend(ax)
    assert style.hidden_points(leg) == 0
    assert leg.get_window_extent().x0 >= ax.get_window_extent().x1  # to the right of the axes
    plotting.plt.close(fig)


def test_style_is_applied_with_distinguishable_cycle():
    cycle = matplotlib.rcParams["axes.prop_cycle"].by_key()
    assert {"color", "linestyle", "marker"} <= set(cycle)
    kinds = list(zip(cycle["linestyle"], cycle["marker"], strict=True))
    assert len(set(kinds)) == len(kinds) == len(set(cycle["color"]))
    assert matplotlib.rcParams["figure.figsize"][0] <= style.WIDTH
    sizes = ("font.size", "xtick.labelsize", "ytick.labelsize", "legend.fontsize")
    assert min(matplotlib.rcParams[k] for k in sizes) >= MIN_PT


def test_dense_curves_keep_a_dozen_markers_and_points_keep_all():
    fig, ax = plotting.plt.subplots()
    (curve,) = ax.plot(np.linspace(0, 1, 600), np.linspace(0, 1, 600))  # the cycle's marker
    (points,) = ax.plot(np.arange(100), np.arange(100), "o")
    style.thin_markers(fig)
    assert curve.get_markevery() == 50 and points.get_markevery() is None
    plotting.plt.close(fig)


def test_png_is_stored_at_twice_its_display_width():
    fig, ax = plotting.plt.subplots(figsize=(5, 3))
    ax.plot([0, 1], [0, 1])
    data, meta = style.png_at_twice(fig)
    plotting.plt.close(fig)
    import base64

    png = base64.b64decode(data)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pixels = int.from_bytes(png[16:20], "big")
    assert meta == {"width": pixels // 2}
    assert 4.0 * style.PX_PER_INCH < meta["width"] <= 5.2 * style.PX_PER_INCH  # tight box of 5 in


def test_panels_and_labels_are_what_the_chapters_ask_for():
    x = np.linspace(0.0, 1.0, 50)
    fig = plotting.cdf_differences_with_noise(
        x,
        {"$a$": 0.01 * x, "$b$": -0.01 * x},
        0.002 * np.sin(9 * x),
        r"$\lambda$",
        r"$\Delta F$",
        "repetition",
        ncols=2,
        vlines={"edge": 0.8},
    )
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert len(axes) == 2 and axes[0].get_title() == "$a$"
    assert len(axes[0].lines) == 4  # zero line, noise, curve, vline
    plotting.plt.close(fig)
    d = np.array([100, 200, 400])
    fig = rank_one_figures.power_law_with_prediction(
        d, 1.0 / d, 0.05 / d, -1.0, 0.0, "-1.00", 1.1 / d, "$d$", "$y$"
    )
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert any("d^{-1.00}" in label for label in labels)
    plotting.plt.close(fig)


def test_the_first_eleven_series_never_share_a_colour_static_or_interactive():
    """Intro Fig. 2 (10 series) and convergence's interactive figure (11) reused the
    first series' colour and style past the cycle's seven."""
    from attnspec.present import interactive
    from attnspec.present.palette import COLORS

    cycle = [c.upper() for c in plotting.plt.rcParams["axes.prop_cycle"].by_key()["color"]]
    assert [c.upper() for c in COLORS[: len(cycle)]] == [c.upper() for c in cycle]
    styles = [plotting.series_style(i) for i in range(len(COLORS))]
    assert len({s["color"] for s in styles}) == len(COLORS)
    assert len({s["marker"] for s in styles}) == len(COLORS)
    assert interactive.PALETTE == COLORS and len(set(interactive.MARKERS)) >= len(COLORS)
