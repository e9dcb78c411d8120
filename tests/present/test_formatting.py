"""Numbers as the book prints them: supported digits, superscript exponents, powers of ten."""

import math

from attnspec.present.formatting import (
    decimals_for,
    format_power_of_ten,
    format_uncertain,
    length_range,
    power_of_two,
    significant,
    superscript,
)


def test_exponents_are_superscripts_not_carets():
    assert superscript(-12) == "⁻¹²" and power_of_two(30) == "2³⁰"
    assert length_range(range(6, 31, 2)) == "ℓ = 2⁶ … 2³⁰"


def test_power_of_ten():
    assert format_power_of_ten(3.8e5) == "3.8 × 10⁵" and format_power_of_ten(math.inf) == "∞"
    assert format_power_of_ten(1.1e-5) == "1.1 × 10⁻⁵"
    assert format_power_of_ten(9.99e5) == "1.0 × 10⁶"
    assert format_power_of_ten(123.0, 2) == "1.23 × 10²"
    assert format_power_of_ten(4.2) == "4.2" and format_power_of_ten(math.nan) == "n/a"


def test_uncertain_numbers_print_the_supported_digits():
    assert decimals_for(0.00037) == 5
    assert decimals_for(0.012) == 3
    assert decimals_for(3.0) == 1
    assert decimals_for(0.0) == 6
    assert format_uncertain(0.046958, 0.00037) == "0.04696 ± 0.00037"
    assert format_uncertain(-0.98689, 0.0121) == "-0.987 ± 0.012"
    assert significant(0.0153471) == 0.015 and significant(0.0010031) == 0.001
