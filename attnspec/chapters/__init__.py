"""The book's chapters, one module each: a :class:`~attnspec.chapters.base.ChapterStudy` that
computes once and gives the chapter's glued values, tables, figures and claims.

This layer sits above the mathematics (``experiments``, ``laws``, ``canonical``, ``real``), the
Dask runner (``runner``) and the presentation (``present``), and below the book machinery
(``publish``). Each chapter's parameters are declared once, in the light
:mod:`~attnspec.chapters.declarations` (read by the study, the command line and the notebook's
checks alike). A notebook holds its parameters cell, one ``study = <Chapter>.run_from(globals())``,
the prose, and the calls that show what the study gives.
"""
