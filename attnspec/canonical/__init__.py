"""The canonical diagonal score model of the spectral-degeneration paper: exact spectra, per-length
summaries, Cesàro asymptotics and the adversarial search.
"""
