"""``attnspec law``: the limit law of the Gaussian-equivalent model (edge, mean, pdf and cdf)."""

from __future__ import annotations

import argparse
import math
import sys
from typing import TYPE_CHECKING

from ..chapters.parameters import declared
from ..core.errors import InvalidInput
from ..core.parameter import parse_number, shown
from .options import Once, add_output, output_option

if TYPE_CHECKING:
    from ..laws.gaussian_equivalent import GaussianEquivalentLaw

#: fractions of the edge at which the law is evaluated when --at is not given (4 significant digits)
DEFAULT_FRACTIONS = (0.1, 0.25, 0.5, 0.75, 0.9)


#: smallest theta1: theta1^2, the scale of the law's variance, must be a normal float (below it the
#: law's numbers lose their digits to underflow)
THETA1_MIN = math.sqrt(sys.float_info.min)


def add_parser(sub) -> None:
    law = declared("limit-law")  # the chapter whose law this command computes: its bounds apply
    beta = law["beta"]
    parser = sub.add_parser(
        "law",
        help="limit law of the squared singular values of the Gaussian-equivalent model",
        description="Edge, mean, pdf and cdf of the limit law of the squared singular values of "
        "Y = sqrt(theta2) S/sqrt(d) + sqrt(theta1 - theta2) W/sqrt(d).",
    )
    parser.add_argument(
        "--beta",
        default=str(beta.default),
        action=Once,
        help=f"{beta.help}; theta = (e^(beta^2) - 1, beta^2) "
        f"({beta.type_name}, {law.range_text('beta')}; default {beta.default})",
    )
    parser.add_argument(
        "--theta1",
        help=f"override theta1 (float, >= {THETA1_MIN!r}; give together with --theta2)",
    )
    parser.add_argument(
        "--theta2",
        help="override theta2 (float, 0 <= theta2 <= theta1; give together with --theta1)",
    )
    parser.add_argument(
        "--at",
        metavar="X1,X2,...",
        help="points lambda at which to evaluate pdf and cdf "
        "(default: 0.1, 0.25, 0.5, 0.75, 0.9 times the edge, to 4 significant digits)",
    )
    add_output(
        parser,
        "also write theta1, theta2, edge, mean, pdf and cdf ({point: value}) as JSON to PATH; "
        "the infinite pdf at 0 is written as null",
        aliases=("--json",),
    )
    parser.set_defaults(run=run)


def _parse_float(name: str, text: str) -> float:
    try:
        return parse_number(text, float)
    except ValueError as exc:
        raise InvalidInput(f"{name}={shown(text)} is not of type float: {exc}") from None


def parse_points(text: str) -> list[float]:
    """Parse ``--at``: a comma-separated list of finite floats, no item empty."""
    parts = [part.strip() for part in text.split(",")]
    if not all(parts):
        raise InvalidInput(
            f"at={text!r} must be a comma-separated list of float with no empty item"
        )
    try:
        points = [parse_number(part, float) for part in parts]
    except ValueError as exc:
        raise InvalidInput(f"at={text!r} is not a comma-separated list of float: {exc}") from None
    bad = [p for p in points if not math.isfinite(p)]
    if bad:
        raise InvalidInput(f"at={text!r}: every point must be finite (got {bad[0]!r})")
    return points


def build_law(args: argparse.Namespace) -> tuple[GaussianEquivalentLaw, str]:
    """The law from ``--beta`` or ``--theta1``/``--theta2`` (both or neither), and its origin."""
    from ..laws.gaussian_equivalent import GaussianEquivalentLaw

    limit_law = declared("limit-law")
    beta = limit_law.validate({"beta": limit_law["beta"].read(args.beta)})["beta"]
    if (args.theta1 is None) != (args.theta2 is None):
        raise InvalidInput("--theta1 and --theta2 must be given together (or neither, to use beta)")
    if args.theta1 is not None:
        theta1 = _parse_float("theta1", args.theta1)
        if 0 < theta1 < THETA1_MIN:
            raise InvalidInput(
                f"theta1={theta1!r} is out of range: must be >= {THETA1_MIN!r} (theta1^2, the "
                "scale of the law's variance, must be a normal float)"
            )
        return GaussianEquivalentLaw(theta1, _parse_float("theta2", args.theta2)), "given"
    return GaussianEquivalentLaw.for_f(beta), f"f at beta = {beta!r}"


def summary(law: GaussianEquivalentLaw, points: list[float]) -> dict:
    """JSON-ready result: ``edge``, ``mean``, ``pdf`` and ``cdf`` as {point: value}."""
    pdf, cdf = law.pdf(points), law.cdf(points)
    keys = [repr(float(x)) for x in points]
    return {
        "theta1": law.theta1,
        "theta2": law.theta2,
        "edge": float(law.edge),
        "mean": float(law.mean()),
        # pdf(0) = inf -> null
        "pdf": {k: float(v) if math.isfinite(v) else None for k, v in zip(keys, pdf, strict=True)},
        "cdf": {k: float(v) for k, v in zip(keys, cdf, strict=True)},
    }


def _num(x: float) -> str:
    """Six fixed decimals; scientific notation (six decimals) beyond 1e7 and below 1e-4 in
    magnitude, so that a small law's numbers keep their digits."""
    return f"{x:.6f}" if x == 0 or 1e-4 <= abs(x) < 1e7 else f"{x:.6e}"


def _inf(x: float | None) -> float:
    return math.inf if x is None else x


def format_summary(s: dict, origin: str) -> str:
    from ..laws.marchenko_pastur import MarchenkoPastur

    var = s["theta1"] * s["theta1"] + s["theta2"] * s["theta2"]
    mp_edge = MarchenkoPastur(s["theta1"]).edge
    lines = [
        f"Gaussian-equivalent law: theta1 = {_num(s['theta1'])}, "
        f"theta2 = {_num(s['theta2'])} ({origin})",
        f"edge lambda_+ = {_num(s['edge'])} (operator norm {_num(math.sqrt(s['edge']))}); "
        f"Marchenko-Pastur with the same mean ends at {_num(mp_edge)}",
        f"mean = {_num(s['mean'])}, var = {_num(var)}",
        "",
        f"{'lambda':>14}  {'pdf':>12}  {'cdf':>10}",
    ]
    lines += [
        f"{_num(float(k)):>14}  {_num(_inf(s['pdf'][k])):>12}  {s['cdf'][k]:10.6f}"
        for k in s["pdf"]
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from ..core.atomic import check_writable, write_json

    points = parse_points(args.at) if args.at is not None else None
    law, origin = build_law(args)
    if args.output is not None:
        check_writable(args.output, output_option(args))
    if points is None:
        points = [float(f"{law.edge * frac:.4g}") for frac in DEFAULT_FRACTIONS]
    s = summary(law, points)
    if args.output is not None:
        write_json(args.output, s)
    print(format_summary(s, origin))
    return 0
