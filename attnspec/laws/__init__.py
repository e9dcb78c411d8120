"""Limit laws of the squared singular values (the Gaussian-equivalent law of Pennington and Worah,
Marchenko–Pastur), their finite-d edge, the distance of a bulk to a law, and first-order
predictions.
"""
