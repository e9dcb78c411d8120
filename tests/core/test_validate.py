"""The shared argument checks: converted values back, one-line messages naming the range."""

import numpy as np
import pytest

from attnspec.core import validate
from attnspec.core.errors import InvalidInput


def test_values_in_range_come_back_converted():
    assert validate.integer("ell", np.int64(5), 2) == 5 and type(validate.integer("n", 3)) is int
    assert validate.real("beta", np.float32(1.5), 0.0) == 1.5 and validate.real("x", 2) == 2.0
    assert validate.choice("metric", "ks", ["ks", "w1"]) == "ks"


@pytest.mark.parametrize(
    "check, args, message",
    [
        (validate.integer, ("ell", 1, 2), "ell=1 is out of range: must be an int >= 2"),
        (validate.integer, ("ell", True, 2), "ell=True is not an integer: must be an int >= 2"),
        (
            validate.integer,
            ("k", 3.0, 0, 5),
            "k=3.0 is not an integer: must be an int >= 0 and <= 5",
        ),
        (validate.integer, ("k", 6, 0, 5), "k=6 is out of range: must be an int >= 0 and <= 5"),
        (
            validate.real,
            ("beta", float("nan"), 0),
            "beta=nan is not finite: must be a finite real >= 0",
        ),
        (
            validate.real,
            ("beta", "1", 0),
            "beta='1' is not a real number: must be a finite real >= 0",
        ),
        (
            validate.real,
            ("c", -1.0, 0, 1),
            "c=-1.0 is out of range: must be a finite real >= 0 and <= 1",
        ),
        (
            validate.choice,
            ("metric", "x", ["ks", "w1"]),
            "metric='x' is out of range: must be one of ks, w1",
        ),
    ],
)
def test_bad_values_raise_one_line_naming_parameter_and_range(check, args, message):
    with pytest.raises(InvalidInput) as info:
        check(*args)
    assert str(info.value) == message
