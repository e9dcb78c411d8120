"""The claims of "Normalizer concentration"."""

from __future__ import annotations

from ...present.claims import Claim


def chapter_claims(study) -> list[Claim]:
    """The normalizer's claims: the exact mean of D_i at the chapter's d and, powered, its
    excess over one; the first-order spread at the chapter's β and across β."""
    here, powered, mean_resolved = study.here, study.powered, study.mean_resolved
    if powered is None:
        powered_measured = "not run"
        why_open = "at this β there is no finite excess to resolve."
    else:
        powered_measured = (
            f"d = {powered.d}, {powered.trials} trials: z = {powered.z_exact:+.1f}, "
            f"{powered.z_one:.1f} se above 1"
        )
        why_open = (
            f"with {powered.trials} trials the test detects only deviations ≥ "
            f"{powered.detectable:.2g}, not the predicted excess {powered.deviation:.2g}."
        )
    return [
        Claim(
            "$\\mathbb E D_i = (1 - \\beta^2/d)^{-d/2} e^{-\\beta^2/2}$, at the chapter's $d$",
            f"z = {here.z_exact:+.1f}; detects ≥ {here.detectable:.2g}",
            "|mean D − exact| < 3 se",
            bool(abs(here.z_exact) < 3),
            "the mean normalizer is more than three standard errors from its exact mean.",
            provenance="derived here",
        ),
        Claim(
            "$\\mathbb E D_i$ exceeds one by its exact excess $\\approx \\beta^4/(4d)$",
            powered_measured,
            "|mean − exact| < 3 se, and 3 se < exact excess",
            bool(abs(powered.z_exact) < 3) if mean_resolved else None,
            "the mean is more than three standard errors from its exact value."
            if mean_resolved
            else why_open,
            provenance="derived here",
        ),
        Claim(
            "$\\mathrm{std}\\, D_i \\approx \\sqrt{(e^{\\beta^2} - 1 + \\beta^4/2)/d}$",
            f"z = {study.z_std:+.1f}",
            "|std D − first order| < 3 se",
            bool(abs(study.z_std) < 3),
            "the first-order spread misses by more than three standard errors: higher orders "
            "in $e^{\\beta^2}/d$ matter.",
            provenance="derived here",
        ),
        Claim(
            "first-order spread across $\\beta$",
            f"max |z| = {max(abs(z) for z in study.z_b):.1f}",
            "|z| < 3 at every β of the grid",
            bool(all(abs(z) < 3 for z in study.z_b)),
            "at some temperature of the grid the first-order spread misses by more than three "
            "standard errors.",
            provenance="derived here",
        ),
    ]
