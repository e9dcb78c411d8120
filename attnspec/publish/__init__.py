"""The book machinery: chapter registry and execution, provenance and diff, executed notebooks,
generated pages, tables and claims, figures, the re-run page, the PDF, the publication gate and the
supplement archive.
"""
