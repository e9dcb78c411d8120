import math

from attnspec.present.formatting import format_power_of_ten, length_range, power_of_two, superscript


def test_exponents_are_superscripts_not_carets():
    assert superscript(-12) == "⁻¹²" and power_of_two(30) == "2³⁰"
    assert length_range(range(6, 31, 2)) == "ℓ = 2⁶ … 2³⁰"


def test_power_of_ten():
    assert format_power_of_ten(3.8e5) == "3.8 × 10⁵" and format_power_of_ten(math.inf) == "∞"
    assert format_power_of_ten(1.1e-5) == "1.1 × 10⁻⁵"
    assert format_power_of_ten(9.99e5) == "1.0 × 10⁶"
    assert format_power_of_ten(123.0, 2) == "1.23 × 10²"
    assert format_power_of_ten(4.2) == "4.2" and format_power_of_ten(math.nan) == "n/a"
