"""The book's chapters, one folder each: a :class:`~attnspec.chapters.base.ChapterStudy` that
computes once and gives the chapter's glued values, tables, figures and claims.

This layer sits above the mathematics (``experiments``, ``laws``, ``canonical``, ``real``), the
Dask runner (``runner``) and the presentation (``present``), and below the book machinery
(``publish``). Each chapter is a folder: its study, claims and figures. Its parameters are declared
once, in its notebook's ``parameters`` cell (:mod:`~attnspec.chapters.parameters`, read by the study
and the command line alike; the chapter's own rules in :mod:`~attnspec.chapters.rules`). A notebook
holds its parameters cell, one ``study = <Chapter>.run_from(globals())``, the prose, and the calls
that show what the study gives.
"""
