"""``attnspec ladder``: run the seven-model ladder; print (and optionally save) its diagnostics."""

from __future__ import annotations

import argparse
import math

from .options import add_output, add_parameter_options, output_option, parse_parameters

OPTIONS = ["d", "beta", "trials", "seed", "remove_top_k", "c_poly"]


def add_parser(sub) -> None:
    parser = sub.add_parser("ladder", help="run the seven-model ladder and print its diagnostics")
    add_parameter_options(parser, OPTIONS)
    add_output(
        parser,
        "also write the summary as JSON to PATH (written before anything is printed); "
        "an L1 distance is null when a bulk has no values inside the histogram range",
        aliases=("--json",),
    )
    parser.set_defaults(run=run)


def format_summary(s: dict) -> str:
    from ..models.ladder import MODEL_NAMES, REFERENCE

    lines = [
        f"d = {s['d']}, beta = {s['beta']:g}, trials = {s['trials']}, seed = {s['seed']}, "
        f"polynomial degree n_d = {s['poly_degree']}",
        "",
        "theta statistics             theta1      theta2",
        f"  f (exact)               {s['theta_f'][0]:9.6f}   {s['theta_f'][1]:9.6f}",
        f"  Q_n (exact)             {s['theta_q'][0]:9.6f}   {s['theta_q'][1]:9.6f}",
        f"  Q_n (Monte Carlo)       {s['theta_q_mc'][0]:9.6f}   {s['theta_q_mc'][1]:9.6f}",
        f"    standard error        {s['theta_q_mc_se'][0]:9.6f}   {s['theta_q_mc_se'][1]:9.6f}",
        "",
        f"rank-one mode: mean s1(A) = {s['s1_A_mean']:.6f} (-> 1)",
        f"normalizers D_i: mean = {s['D_mean']:.6f}, std = {s['D_std']:.6f}, "
        f"max|D-1| = {s['D_max_dev']:.6f}",
        "",
        f"{'model':>14}  {'L1 to ' + REFERENCE:>20}  {'top s^2':>10}",
    ]
    lines += [f"{m:>14}  {s['l1'][m]:20.4f}  {s['top_sq'][m][0]:10.3f}" for m in MODEL_NAMES]
    return "\n".join(lines)


def finite_or_null(value):
    """``value`` with every non-finite float replaced by None (JSON null), recursively."""
    if isinstance(value, dict):
        return {k: finite_or_null(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite_or_null(v) for v in value]
    return None if isinstance(value, float) and not math.isfinite(value) else value


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from ..core.atomic import check_writable, write_json
    from ..core.config import Config
    from ..experiments.trials import run_ladder

    cfg = Config(**parse_parameters(args, OPTIONS))
    if args.output is not None:
        check_writable(args.output, output_option(args))
    # an empty histogram range gives an undefined (NaN) L1 distance
    with np.errstate(invalid="ignore"):
        summary = run_ladder(cfg, progress=True).summary()
    if args.output is not None:
        write_json(args.output, finite_or_null(summary))
    print(format_summary(summary))
    return 0
