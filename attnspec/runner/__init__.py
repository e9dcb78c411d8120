"""The Dask runner: sweeps of seeded trials on an embedded LocalCluster or an existing (trusted,
TLS) scheduler; above the mathematics, below the presentation."""
