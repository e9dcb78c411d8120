"""The foundation every layer uses: errors, argument checks, validated parameters, atomic writes,
the trial cache, clean-up on interrupt, local processes and the book's paths. Imports no other
layer.
"""
