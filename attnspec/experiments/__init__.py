"""Seeded trials of the ladder and what the chapters measure with them: convergence in d, the
rank-one mode, the normalizer and the noise floor.
"""
