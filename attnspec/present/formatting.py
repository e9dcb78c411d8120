"""Numbers as the book prints them: the one formatting module of every chapter, table and claim.

One rule per kind of number:

- a statistic with a standard error shows the decimals its error supports (:func:`decimals_for`,
  :func:`format_uncertain`); a ``±`` never prints as zero (:func:`plus_minus`);
- a fixed-decimal value never prints ``-0`` (:func:`fixed`); a missing or non-finite one is a dash;
- an error that is round-off in exact arithmetic prints as its bound (:func:`round_off_bound`), so
  stored outputs do not depend on the BLAS or the CPU;
- exponents outside typeset mathematics are Unicode superscripts (:func:`format_power_of_ten`,
  :func:`length_range`), so no caret shows in plain text.
"""

from __future__ import annotations

import math
import re

#: The mark :func:`fixed` prints for a missing value.
DASH = "–"
#: ``significant`` value of :func:`decimals_for` for the one-or-two-digit rule.
ONE_OR_TWO = "1-2"
_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _finite(x) -> bool:
    return x is not None and math.isfinite(float(x))


def fixed(x, digits: int = 4, *, missing: str = DASH) -> str:
    """``x`` rounded to ``digits`` decimals, a value that rounds to zero without a sign (``0.0000``,
    never ``-0.0000``); ``missing`` for None or a non-finite value."""
    if not _finite(x):
        return missing
    return f"{round(float(x), digits) + 0.0:.{digits}f}"


def per_length(values, digits: int = 3) -> str:
    """Values at successive grid points (context lengths, sizes), ``a / b / c``, each
    :func:`fixed`."""
    return " / ".join(fixed(v, digits) for v in values)


def plus_minus(value, se, digits: int = 3) -> str:
    """``value ± se`` with ``digits`` decimals; ``value (se < 0.0005)`` when se rounds to zero at
    those decimals, so that no ``± 0.000`` is printed; ``value`` alone when se is not finite."""
    if not _finite(se):
        return fixed(value, digits)
    if round(float(se), digits) == 0:
        return f"{fixed(value, digits)} (se < {0.5 * 10.0**-digits:.{digits + 1}f})"
    return f"{fixed(value, digits)} ± {fixed(se, digits)}"


def round_off_bound(x: float, bound: float = 1e-12) -> str:
    """An error that is round-off in exact arithmetic: ``≤ 1e-12`` (``≤ 1e-8``) when within
    ``bound``, else its value (``2.00e-09``)."""
    mantissa, exponent = f"{bound:.0e}".split("e")
    return f"≤ {mantissa}e{int(exponent)}" if x <= bound else f"{x:.2e}"


def significant(value: float, digits: int = 2) -> float:
    """``value`` rounded to ``digits`` significant digits, as a Python float (for glue)."""
    return float(f"{float(value):.{int(digits)}g}")


def decimals_for(
    se: float, significant: int | str = 2, *, fallback: int = 6, most: int | None = None
) -> int:
    """Decimals that show ``significant`` significant digits of a standard error ``se``: with
    exponent :math:`e = \\lfloor \\log_{10} se \\rfloor`, :math:`\\max(0, s - 1 - e)`, at most
    ``most``.

    With ``significant=ONE_OR_TWO`` (``"1-2"``): one significant digit, two when the first is 1
    (0.023 gives 2 decimals, 0.013 gives 3). ``fallback`` when ``se`` is None, not finite or not
    positive.
    """
    if not _finite(se) or se <= 0:
        return fallback
    exponent = math.floor(math.log10(se))
    if significant == ONE_OR_TWO:
        significant = 2 if int(se / 10.0**exponent) == 1 else 1
    n = max(0, int(significant) - 1 - exponent)
    return n if most is None else min(most, n)


def format_uncertain(
    value: float,
    se: float,
    significant: int | str = 2,
    *,
    fallback: int = 6,
    most: int | None = None,
    missing: str = "n/a",
) -> str:
    """``'value ± se'`` with the decimals :func:`decimals_for` supports (:func:`plus_minus`).

    E.g. ``'0.04703 ± 0.00041'`` (two significant digits of se), ``'0.0470 ± 0.0004'`` with
    ``significant=1``, ``'1.012 ± 0.013'`` with ``significant=ONE_OR_TWO``. Just ``value`` (with
    ``fallback`` decimals) when ``se`` is None, not finite or not positive; ``missing`` when
    ``value`` is None or not finite.
    """
    if not _finite(value):
        return missing
    n = decimals_for(se, significant, fallback=fallback, most=most)
    return plus_minus(value, se if _finite(se) and se > 0 else None, n)


def with_interval(value, low, high, digits: int = 4) -> str:
    """``value [low, high]`` with :func:`fixed` decimals (an estimate and its interval)."""
    return f"{fixed(value, digits)} [{fixed(low, digits)}, {fixed(high, digits)}]"


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
    """``x`` as a mantissa with ``digits`` decimals times a power of ten, e.g. ``3.8 × 10⁵``; the
    mantissa alone when the power is :math:`10^0`; ∞ if infinite, n/a if not a number."""
    if not math.isfinite(x):
        return "∞" if x > 0 else "n/a"
    mantissa, exponent = f"{x:.{digits}e}".split("e")
    if int(exponent) == 0:
        return mantissa
    return f"{mantissa} × 10{superscript(int(exponent))}"


def exponent_text(x: float) -> str:
    """``x`` in the short form the book prints tolerances in: ``1e-9``, ``2.5e-7``, ``0.001``."""
    return re.sub(r"e([+-])0*(\d)", r"e\1\2", f"{x:g}").replace("e+", "e")


def size_text(size: int) -> str:
    """A file size for readers: ``12.3 MB`` (10⁶ bytes), ``456 kB`` (10³) or ``789 bytes``."""
    if size >= 10**6:
        return f"{size / 10**6:.1f} MB"
    return f"{size / 10**3:.0f} kB" if size >= 10**3 else f"{size} bytes"
