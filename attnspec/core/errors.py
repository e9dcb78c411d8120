"""The one exception type for invalid input.

Validation everywhere raises :class:`InvalidInput`, naming the parameter, the value and the valid
range. The command line turns it (and only it) into one line on stderr and exit status 2; any other
exception is a bug and keeps its traceback.
"""


class InvalidInput(ValueError):
    """A parameter, option or file given by the user is outside what can be computed."""


class RunFailed(RuntimeError):
    """The run stopped for a reason outside its input (a worker died repeatedly); finished work
    is kept."""
