"""What the Reproduce page shows, read from the files that hold it: the measured run time and memory
of every chapter (``benchmarks/chapters.json``, written by ``benchmarks/bench_chapters.py``), the
weight packages of the real-attention chapter with their versions in the data lock
(``requirements-data.lock``), and a copy-paste ``attnspec run`` line per chapter (its parameters
at their defaults, from the chapter registry).
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from ..core.paths import ROOT
from ..present.tables import markdown_table
from .chapters import chapters

TIMES = ROOT / "benchmarks" / "chapters.json"
DATA_LOCK = ROOT / "requirements-data.lock"


def read_times(path: Path = TIMES) -> dict:
    """The chapter benchmark: ``measured``, ``note``, ``machine`` and one row per chapter."""
    return json.loads(Path(path).read_text())


def times_table(times: dict) -> str:
    """Cold and warm wall time, CPU time and peak memory of every chapter, as a Markdown table,
    with the share of the machine other processes used during the cold run."""
    rows = [
        [
            f"`{row['chapter']}`",
            f"{row['cold']['wall_s']:.0f}",
            f"{row['cold']['cpu_s']:.0f}",
            f"{row['warm']['wall_s']:.0f}",
            f"{row['warm']['cpu_s']:.0f}",
            f"{max(row['cold']['peak_rss_mib'], row['warm']['peak_rss_mib'])}",
            f"{100 * row['cold']['others']:.0f} %",
        ]
        for row in times["chapters"]
    ]
    header = ["chapter", "cold wall [s]", "cold CPU [s]", "warm wall [s]", "warm CPU [s]"]
    header += ["peak memory [MiB]", "others' CPU share"]
    return markdown_table(header, rows)


def locked_versions(path: Path = DATA_LOCK) -> dict[str, str]:
    """``{package: version}`` of every ``name==version`` line of a lock file."""
    found = re.findall(r"^([A-Za-z0-9._-]+)==([^\s\\]+)", Path(path).read_text(), re.M)
    return dict(found)


def weight_packages(path: Path = DATA_LOCK) -> str:
    """The pretrained models of the real-attention chapter: checkpoint, license, the package that
    ships the weights and its version in the data lock (with the version the code asks for when
    the two differ)."""
    from ..real.models import MODELS

    locked = locked_versions(path)
    rows = []
    for model in MODELS.values():
        package, wanted = model.requirement.split("==")
        version = locked.get(package, "not in the lock")
        if version != wanted:
            version += f" (the code asks for {wanted})"
        rows.append([model.title, model.license, f"`{package}`", version])
    return markdown_table(["checkpoint", "license", "package", "version"], rows)


def run_command(name: str, parameters: dict, width: int = 88) -> str:
    """``.venv/bin/attnspec run NAME -p KEY VALUE … -o runs/NAME --html``, every parameter, broken
    into shell lines of at most ``width`` characters (`` \\`` continuations) where it is longer."""
    words = [".venv/bin/attnspec run", name]
    for key, value in parameters.items():
        text = ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)
        words.append(f"-p {key} {shlex.quote(text)}")
    words.append(f"-o runs/{name} --html")
    lines = [words[0]]
    for word in words[1:]:
        if len(lines[-1]) + len(word) + 3 > width:
            lines.append("    " + word)
        else:
            lines[-1] += " " + word
    return " \\\n".join(lines)


def run_commands() -> str:
    """A Markdown code block: one ``attnspec run`` line per chapter, at its defaults."""
    lines = [run_command(chap.name, chap.defaults) for chap in chapters()]
    return "```bash\n" + "\n".join(lines) + "\n```"
