"""``attnspec chapters``: list the chapters by short name with their parameters and each one's valid
range in that chapter (:func:`attnspec.core.config.range_in`)."""

from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    parser = sub.add_parser("chapters", help="list the chapters and their parameters")
    parser.add_argument("--json", action="store_true", help="print the list as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import json

    from ..core.config import range_in
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
                            p.as_dict() | {"range": range_in(p.name, c.name)} for p in c.parameters
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
                f"({range_in(p.name, c.name)})"
            )
    return 0
