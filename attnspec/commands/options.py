"""Options shared by the sub-commands: one spelling for every written path and every parameter.

- Every written path is ``-o/--output``. The spellings of the previous release (``--json PATH`` for
  ``ladder``, ``law`` and ``diff``; ``--out PATH`` for ``sweep``) still work as hidden, deprecated
  aliases; an error about the path names the spelling that was typed.
- A parameter of :data:`attnspec.core.kinds.PARAMETERS` is ``--remove-top-k`` or
  ``--remove_top_k`` on the command line, and a chapter's parameter
  (its notebook's ``parameters`` cell) is ``-p remove_top_k`` or ``-p remove-top-k`` in
  ``attnspec run``.

Only :mod:`argparse` and the light :mod:`attnspec.core.kinds` are imported here, so that building
the parser stays fast; each sub-command imports what it computes with when it runs.
"""

from __future__ import annotations

import argparse

from ..core.kinds import PARAMETERS

#: The attribute of the parsed arguments that records how the output path was spelled.
OUTPUT_OPTION = "output_option"


def parameter_name(text: str) -> str:
    """A parameter's name as :data:`~attnspec.core.kinds.PARAMETERS` spells it (``_``, not
    ``-``)."""
    return text.replace("-", "_")


def add_parameter_options(parser: argparse.ArgumentParser, names: list[str]) -> None:
    """One ``--name`` option per parameter, parsed and range-checked by :data:`PARAMETERS`.

    A name with underscores is shown with dashes (``--remove-top-k``); the underscore spelling is
    accepted too, without being listed in ``--help``.
    """
    for name in names:
        p = PARAMETERS[name]
        dashed = f"--{name.replace('_', '-')}"
        parser.add_argument(
            dashed,
            dest=name,
            default=p.default,
            type=str,
            action=Once,
            help=f"{p.help} ({p.type_name}, {p.range_text}; default {p.default})",
        )
        if "_" in name:
            parser.add_argument(
                f"--{name}",
                dest=name,
                default=argparse.SUPPRESS,
                type=str,
                action=Once,
                help=argparse.SUPPRESS,
            )


def parse_parameters(args: argparse.Namespace, names: list[str]) -> dict:
    """Parse each option's text (or keep its default); raises InvalidInput naming the parameter."""
    values = {}
    for name in names:
        raw = getattr(args, name)
        values[name] = PARAMETERS[name].parse(raw) if isinstance(raw, str) else raw
    return values


def parameter_pairs(pairs: list[list[str]] | list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``-p NAME VALUE`` pairs with each name in the underscore spelling; a name given twice (in
    either spelling) is InvalidInput, since only one of its values could be used."""
    from ..core.errors import InvalidInput

    named = [(parameter_name(name), value) for name, value in pairs]
    seen: dict[str, str] = {}
    for (name, value), (given, _) in zip(named, pairs, strict=True):
        if name in seen:
            raise InvalidInput(
                f"-p {given}: the parameter {name} is given twice ({seen[name]!r} and "
                f"{value!r}); give it once"
            )
        seen[name] = value
    return named


class Once(argparse.Action):
    """Store a parameter's value; the parameter given twice (in either spelling) is an error, as
    for ``-p`` (:func:`parameter_pairs`)."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = namespace.__dict__.setdefault("_given_once", {})
        if self.dest in given:
            parser.error(
                f"{option_string} {values}: the parameter {self.dest} is given twice "
                f"({given[self.dest]!r} and {values!r}); give it once"
            )
        given[self.dest] = values
        setattr(namespace, self.dest, values)


class _Output(argparse.Action):
    """Store the path and the option string it was given with (for error messages); ``-`` is no
    path (it would be a file named ``-``, where ``-`` usually means stdout)."""

    def __call__(self, parser, namespace, values, option_string=None):
        if values == "-":
            parser.error(
                f"{option_string} '-': names no file here (it is not stdout either): give a path, "
                "such as ./-"
            )
        setattr(namespace, self.dest, values)
        setattr(namespace, OUTPUT_OPTION, option_string)


def add_output(
    parser: argparse.ArgumentParser,
    help: str,
    *,
    metavar: str = "PATH",
    aliases: tuple[str, ...] = (),
    required: bool = False,
    default: str | None = None,
) -> None:
    """Add ``-o/--output`` (``dest="output"``) and the deprecated ``aliases`` of the same option.

    The aliases are hidden from ``--help`` (its text names them as deprecated) and exclusive with
    ``-o/--output``; ``required`` means one of the spellings must be given.
    """
    group = parser.add_mutually_exclusive_group(required=required)
    if aliases:
        help += f" (formerly {', '.join(aliases)}: deprecated, still accepted)"
    group.add_argument(
        "-o", "--output", dest="output", metavar=metavar, default=default, action=_Output, help=help
    )
    for alias in aliases:
        group.add_argument(
            alias,
            dest="output",
            metavar=metavar,
            default=default,
            action=_Output,
            help=argparse.SUPPRESS,
        )
    parser.set_defaults(**{OUTPUT_OPTION: "--output"})


def output_option(args: argparse.Namespace) -> str:
    """The spelling of the output option as typed (``-o``, ``--output`` or a deprecated alias)."""
    return getattr(args, OUTPUT_OPTION, "--output")
