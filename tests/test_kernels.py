"""Every notebook the project runs talks to its kernel over Unix sockets (tools/kernels.py): nbval's
kernels (conftest.py), the notebook builder's and the benchmark's."""

import importlib
import pathlib
import sys

import nbformat

from tools import build_notebooks

ROOT = pathlib.Path(__file__).resolve().parent.parent
ASK_TRANSPORT = "from ipykernel.kernelapp import IPKernelApp\nprint(IPKernelApp.instance().transport)"


def transport_notebook():
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(ASK_TRANSPORT)])


def test_the_notebook_builder_runs_its_kernels_over_unix_sockets(tmp_path, capfd):
    nb = transport_notebook()
    build_notebooks.execute(nb, tmp_path)
    assert nb.cells[0].outputs[0]["text"].strip() == "ipc"
    assert "without encryption" not in capfd.readouterr().err      # ipykernel's warning for TCP


def test_the_notebook_benchmark_runs_its_kernels_over_unix_sockets(tmp_path, capfd, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    notebook_times = importlib.import_module("notebook_times")
    path = tmp_path / "transport.ipynb"
    nbformat.write(transport_notebook(), path)
    wall, kernel_cpu = notebook_times.run(path)           # seconds: the run, and the kernel's own CPU time
    assert wall > 0 and kernel_cpu >= 0
    assert "without encryption" not in capfd.readouterr().err
    sys.modules.pop("notebook_times", None)
