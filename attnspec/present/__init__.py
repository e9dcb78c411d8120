"""How the book shows what it computes: numbers as text (:mod:`~.formatting`), claims and their
verdict rule (:mod:`~.claims`), tables (:mod:`~.tables`), glue (:mod:`~.gluing`) and the record
of what a chapter glued and claimed (:mod:`~.record`), and figures in one style (:mod:`~.palette`,
:mod:`~.style`, :mod:`~.plotting`, :mod:`~.interactive`). It computes nothing: the mathematics, the
measurements and the Dask runner are below it, and none of them imports it.
"""
