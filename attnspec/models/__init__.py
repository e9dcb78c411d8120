"""The random matrices of the Gaussian-equivalence paper: scores and softmax attention, the
nonlinearity f and its Taylor polynomial with their θ statistics, and the seven-model ladder.
"""
