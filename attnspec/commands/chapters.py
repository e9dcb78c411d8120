"""``attnspec chapters``: list the chapters by short name with their parameters."""

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
                        "parameters": [p.as_dict() for p in c.parameters],
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
            print(f"    {p.name}: {p.type_name} = {p.default!r}  # {p.help}")
    return 0
