"""What the Reproduce page shows, read from the files that hold it: the measured run time and memory
of every chapter (``benchmarks/chapters.json``, written by ``benchmarks/bench_chapters.py``), the
weight packages of the real-attention chapter with their versions in the data lock
(``requirements-data.lock``), and a copy-paste ``attnspec run`` line per chapter (its parameters
at their defaults, from the chapter registry).

And the facts of its artifact checklist (ACM's artifact review and badging): what the locks pin
and how ``make install`` installs them, the seeds of the chapters, the tolerances of the
re-execution tests (nbval's sanitizers, the numeric check of glued values and any key a chapter
loosens), the claims the chapters check, the licenses the project and the packages it installs
declare, and the DOI of a deposited archive, if one is recorded.
"""

from __future__ import annotations

import ast
import configparser
import json
import re
import shlex
import tomllib
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

from ..present.claims import verdict
from ..present.tables import markdown_table
from .archive import TOP_FILES, folder, in_archive, name
from .chapters import chapters
from .pages import PAGES
from .paths import EXECUTED, ROOT
from .pdf import release_date

TIMES = ROOT / "benchmarks" / "chapters.json"
DATA_LOCK = ROOT / "requirements-data.lock"
#: The lock files in the repository's root, in the order ``make install`` installs them.
LOCKS = (ROOT / "requirements.lock", DATA_LOCK)
MAKEFILE = ROOT / "Makefile"
PYPROJECT = ROOT / "pyproject.toml"
CITATION = ROOT / "CITATION.cff"
ZENODO = ROOT / ".zenodo.json"
#: nbval's output sanitizers and the numeric check of glued values (``make test`` uses both).
SANITIZE = ROOT / "tests" / "sanitize.cfg"
GLUE_CHECK = ROOT / "tests" / "nbval_glue.py"


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
    """``{package: version}`` of every ``name==version`` line of a lock file (:func:`lock_pins`)."""
    return {package: version for package, (version, _) in lock_pins(path).items()}


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


def lock_pins(path: Path) -> dict[str, tuple[str, int]]:
    """``{package: (version, number of --hash options)}`` of a pip lock file (``name==version``
    lines, each followed by its indented ``--hash=sha256:…`` lines)."""
    pins: dict[str, tuple[str, int]] = {}
    current = None
    for line in Path(path).read_text().splitlines():
        pin = re.match(r"([A-Za-z0-9._-]+)==([^\s\\]+)", line)
        if pin:
            current = pin.group(1)
            pins[current] = (pin.group(2), 0)
            continue
        hashes = len(re.findall(r"--hash=sha256:[0-9a-fA-F]+", line))
        if current and hashes:
            version, count = pins[current]
            pins[current] = (version, count + hashes)
        elif line.strip() and not line[0].isspace():
            current = None  # a comment or another option at the line's start ends the pin
    return pins


def install_flags(lock: str, makefile: Path = MAKEFILE) -> list[str]:
    """The options of the ``pip install … -r LOCK`` line of ``makefile`` that decide what is
    installed (``--quiet`` and ``--no-compile`` left out)."""
    for line in Path(makefile).read_text().splitlines():
        words = line.split()
        pairs = list(zip(words, words[1:], strict=False))
        if "install" in words and ("-r", lock) in pairs:
            drop = {"--quiet", "--no-compile", "-r", lock}
            return [w for w in words[words.index("install") + 1 :] if w not in drop]
    raise ValueError(f"{Path(makefile).name} installs no {lock}")


def lock_table(locks: Iterable[Path] = LOCKS, makefile: Path = MAKEFILE) -> str:
    """Each lock file: how many packages it pins, how many of them with a SHA-256 hash, and the
    options ``make install`` gives pip for it."""
    rows = []
    for path in locks:
        pins = lock_pins(path)
        hashed = sum(count > 0 for _, count in pins.values())
        flags = " ".join(f"`{f}`" for f in install_flags(Path(path).name, makefile))
        rows.append([f"`{Path(path).name}`", len(pins), hashed, flags])
    return markdown_table(["lock", "packages", "with hashes", "pip options"], rows)


def lock_target(makefile: Path = MAKEFILE) -> dict[str, str]:
    """The Python version and platform ``make lock`` resolves the locks for (``--python-version``,
    ``--python-platform``)."""
    text = Path(makefile).read_text()
    found = {}
    for key in ("python-version", "python-platform"):
        match = re.search(rf"--{key}\s+(\S+)", text)
        if not match:
            raise ValueError(f"{Path(makefile).name}: make lock states no --{key}")
        found[key] = match.group(1)
    return found


def seeds() -> dict[str, object]:
    """``{chapter: default seed}`` of every chapter that has a ``seed`` parameter."""
    return {c.name: c.defaults["seed"] for c in chapters() if "seed" in c.defaults}


def sanitizers(path: Path = SANITIZE) -> list[str]:
    """The names of nbval's output sanitizers (the sections of its sanitize file)."""
    parser = configparser.ConfigParser()
    parser.read_string(Path(path).read_text())
    return parser.sections()


def glue_rtol(path: Path = GLUE_CHECK) -> float:
    """``DEFAULT_RTOL`` of the numeric check of glued values (read, not imported: the check is a
    test plugin, not part of the package)."""
    for node in ast.parse(Path(path).read_text()).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "DEFAULT_RTOL" for t in node.targets
        ):
            return float(ast.literal_eval(node.value))
    raise ValueError(f"{Path(path).name} defines no DEFAULT_RTOL")


def loosened_tolerances(folder: Path = EXECUTED) -> dict[str, float]:
    """``{"CHAPTER: KEY": rtol}`` of every glued value whose tolerance a stored chapter loosens
    (``attnspec.glue_tolerance`` in its notebook metadata)."""
    found = {}
    for path in sorted(Path(folder).glob("*.ipynb")):
        meta = json.loads(path.read_text()).get("metadata", {}).get("attnspec", {})
        for key, spec in (meta.get("glue_tolerance") or {}).items():
            found[f"{path.stem}: {key}"] = float(spec["rtol"])
    return found


def claim_counts(folder: Path = EXECUTED) -> dict[str, int]:
    """How many claims the stored chapters check (``CHAPTER.results.json``), by verdict: ``{"✓":
    …, "✗": …, "○": …}``."""
    counts = {verdict(True): 0, verdict(False): 0, verdict(None): 0}
    for path in sorted(Path(folder).glob("*.results.json")):
        for claim in json.loads(path.read_text())["claims"]:
            counts[verdict(claim["holds"])] += 1
    return counts


def project_license(pyproject: Path = PYPROJECT) -> str:
    """The ``license`` pyproject.toml declares for the package."""
    with Path(pyproject).open("rb") as f:
        return tomllib.load(f)["project"]["license"]


def declared_license(distribution: str) -> str:
    """The license an installed distribution declares in its metadata (``License-Expression``,
    ``License``, or its one license classifier), or ``not installed``."""
    try:
        meta = metadata.metadata(distribution)
    except metadata.PackageNotFoundError:
        return "not installed"
    for field in ("License-Expression", "License"):
        value = (meta.get(field) or "").strip()
        if value and "\n" not in value and value.upper() != "UNKNOWN":
            return value
    classifiers = [
        c.split(" :: ")[-1]
        for c in meta.get_all("Classifier") or []
        if c.startswith("License :: OSI Approved :: ")
    ]
    return ", ".join(classifiers) or "not stated"


def deposit_doi(citation: Path = CITATION, zenodo: Path = ZENODO) -> str | None:
    """The DOI of the deposited archive, if the citation files record one: ``doi`` or a ``doi``
    identifier at the top of CITATION.cff (not in its references), or ``doi`` in .zenodo.json."""
    import yaml

    cff = yaml.safe_load(Path(citation).read_text()) or {}
    if cff.get("doi"):
        return str(cff["doi"])
    for ident in cff.get("identifiers") or []:
        if ident.get("type") == "doi" and ident.get("value"):
            return str(ident["value"])
    if Path(zenodo).is_file():
        doi = json.loads(Path(zenodo).read_text()).get("doi")
        if doi:
            return str(doi)
    return None


def peak_memory(times: dict) -> int:
    """The largest peak memory [MiB] of any chapter, cold or warm."""
    return max(r[kind]["peak_rss_mib"] for r in times["chapters"] for kind in ("cold", "warm"))


def archive_facts() -> dict[str, object]:
    """What the supplement archive is called and holds beside the site, the PDF, the sources, the
    executed chapters and the packages: its file and folder names, the date that stamps it, the
    generated pages whose executed notebooks it holds, and the files it takes from the tree's top
    (:mod:`attnspec.publish.archive`)."""
    return {
        "name": name(),
        "folder": folder(),
        "date": release_date(CITATION),
        "pages": [p for p in PAGES if in_archive(f"book/{p}.ipynb")],
        "top_files": list(TOP_FILES),
    }


def deposit_text(doi: str | None) -> str:
    """Where the archive is deposited, in Markdown: its DOI as a link, or that it is not."""
    if doi:
        return f"deposited with DOI [{doi}](https://doi.org/{doi})"
    return "not deposited yet (no DOI)"


def weight_licenses() -> list[str]:
    """The licenses of the pretrained checkpoints of the real-attention chapter, each once."""
    from ..real.models import MODELS

    return sorted({model.license for model in MODELS.values()})
