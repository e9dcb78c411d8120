"""Numerical tools with no model in them: squared singular values, bulks, empirical CDFs and
distances between spectra, power-law fits, and smooth CDFs by Chebyshev interpolation.
"""
