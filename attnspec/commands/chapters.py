"""``attnspec chapters``: list the chapters by short name with their parameters and each one's valid
range in that chapter (:meth:`attnspec.chapters.parameters.ChapterParameters.range_text`), as
each notebook's ``parameters`` cell declares them."""

from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    parser = sub.add_parser("chapters", help="list the chapters and their parameters")
    parser.add_argument("--json", action="store_true", help="print the list as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import json

    from ..publish.chapters import chapters

    listed = chapters()
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "name": c.name,
                        "title": c.title,
                        "parameters": [
                            {
                                "name": p.name,
                                "type": p.type_name,
                                "default": p.default,
                                "help": p.help,
                                "range": c.parameters.range_text(p.name),
                            }
                            for p in c.parameters
                        ],
                    }
                    for c in listed
                ],
                indent=2,
            )
        )
        return 0
    for c in listed:
        print(f"{c.name}: {c.title}")
        for p in c.parameters:
            print(
                f"    {p.name}: {p.type_name} = {p.default!r}  # {p.help} "
                f"({c.parameters.range_text(p.name)})"
            )
    return 0
