"""Pennington and Worah's form of the law agrees with the book's free-probability quartic."""

import numpy as np
import pytest

from attnspec.core.errors import InvalidInput
from attnspec.laws.gaussian_equivalent import GaussianEquivalentLaw
from attnspec.laws.marchenko_pastur import MarchenkoPastur
from attnspec.laws.pennington_worah import pennington_worah_pdf

POINTS = [0.2, 0.5, 1, 2, 4, 6, 8, 8.9]


@pytest.mark.parametrize("theta", [(np.e - 1, 1.0), (2.0, 0.5), (1.0, 1.0)])
def test_the_two_forms_have_the_same_density(theta):
    law = GaussianEquivalentLaw(*theta)
    x = np.array([p for p in POINTS if p < law.edge])
    assert np.max(np.abs(pennington_worah_pdf(x, *theta) - law.pdf(x))) < 1e-10


def test_zeta_zero_is_marchenko_pastur_and_nothing_lies_beyond_the_edge():
    x = np.array([0.3, 1.0, 3.0, 5.0])
    assert np.allclose(pennington_worah_pdf(x, 1.5, 0.0), MarchenkoPastur(1.5).pdf(x), atol=1e-10)
    law = GaussianEquivalentLaw.for_f(1.0)
    assert pennington_worah_pdf([law.edge * 1.01, 20.0], law.theta1, law.theta2).tolist() == [0, 0]


def test_out_of_range_parameters_are_one_line_errors():
    with pytest.raises(InvalidInput, match="zeta"):
        pennington_worah_pdf(1.0, 1.0, 2.0)
    with pytest.raises(InvalidInput, match="lam"):
        pennington_worah_pdf([0.0], 1.0, 0.5)
