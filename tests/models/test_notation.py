"""The rungs' symbols."""

import pytest

from attnspec.core.errors import InvalidInput
from attnspec.models.ladder import MODEL_NAMES
from attnspec.models.notation import SYMBOLS, symbol


def test_every_rung_has_a_symbol():
    assert set(SYMBOLS) == set(MODEL_NAMES)
    assert symbol("Y_f_lin") == r"$Y_f^{\mathrm{lin}}$"
    with pytest.raises(InvalidInput, match="not a rung"):
        symbol("A")
