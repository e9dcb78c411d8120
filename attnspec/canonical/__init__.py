"""The canonical diagonal score model of the spectral-degeneration paper: exact spectra, per-length
summaries, Cesàro asymptotics, scaling-rate tests and the adversarial search: mathematics only
(how a rate test is printed is :mod:`attnspec.present.rate_texts`).
"""
