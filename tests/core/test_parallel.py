"""Local process pool: results in order, BLAS threads per process within the cores."""

import operator
import os

from attnspec.core import parallel


def _blas_threads_here(_):
    return os.environ.get("OPENBLAS_NUM_THREADS")


def test_results_come_back_in_the_order_of_the_arguments():
    args = [(n,) for n in range(7)]
    assert parallel.map_processes(abs, [(-n,) for (n,) in args]) == list(range(7))


def test_each_process_gets_its_share_of_the_cores(monkeypatch):
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "7")
    seen = parallel.map_processes(_blas_threads_here, [(0,), (1,)])
    assert seen == ["1", "1"]
    assert os.environ["OPENBLAS_NUM_THREADS"] == "7"  # restored after


def test_one_core_runs_in_this_process(monkeypatch):
    monkeypatch.setattr(parallel, "cores", lambda: 1)
    pid = os.getpid()
    assert parallel.map_processes(os.getpid, [(), ()]) == [pid, pid]


def test_spawned_processes_never_import_from_the_working_folder(tmp_path, monkeypatch):
    """``python -c`` (how spawn starts a process) would put the current folder first on
    ``sys.path``, so that a ``multiprocessing.py`` there would run in every process."""
    (tmp_path / "multiprocessing.py").write_text(
        "import os\nopen(os.path.join(os.path.dirname(__file__), 'RAN'), 'w').close()\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    assert parallel.map_processes(operator.add, [(1, 2), (3, 4)]) == [3, 7]
    assert not (tmp_path / "RAN").exists()
