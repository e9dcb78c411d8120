"""Mathematics in plain text (claim details, table cells, printed checks): exponents as Unicode
superscripts, so that no caret shows outside typeset math."""

from __future__ import annotations

import math

_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def superscript(n: int) -> str:
    """The integer ``n`` in superscript digits, e.g. ``-12`` → ``⁻¹²``."""
    return str(int(n)).translate(_SUPERSCRIPTS)


def power_of_two(k: int) -> str:
    """:math:`2^k` in plain text, e.g. ``2³⁰``."""
    return f"2{superscript(k)}"


def length_range(exponents) -> str:
    """The lengths :math:`\\ell = 2^{k}` over ``exponents`` as ``ℓ = 2⁶ … 2³⁰``."""
    exponents = list(exponents)
    return f"ℓ = {power_of_two(exponents[0])} … {power_of_two(exponents[-1])}"


def format_power_of_ten(x: float, digits: int = 1) -> str:
    """``x`` as a mantissa with ``digits`` decimals times a power of ten, e.g. ``3.8 × 10⁵``.

    The book's one such formatter. The mantissa alone when the power is :math:`10^0`; ∞ if
    infinite, n/a if not a number.
    """
    if not math.isfinite(x):
        return "∞" if x > 0 else "n/a"
    mantissa, exponent = f"{x:.{digits}e}".split("e")
    if int(exponent) == 0:
        return mantissa
    return f"{mantissa} × 10{superscript(int(exponent))}"
