"""The book machinery: chapter registry and execution, provenance and diff, generated pages, the
re-run page, the PDF, the publication gate and the supplement archive.
"""
