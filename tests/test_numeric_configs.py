"""The numerical configurations that strict nbval runs the notebooks under (tools/numeric_configs.py).

The notebooks themselves are checked under them by the suite's nbval run (the root conftest.py
starts each kernel in its folder's configuration and fails the notebook if the kernel reports
another one).  These tests check the table and the check: each configuration really selects the
OpenBLAS kernel, NumPy dispatch and thread count it names, they differ from the machine's default,
and a kernel that runs something else is refused.
"""

import json
import os
import pathlib
import subprocess
import sys

import pytest
from nbval.kernel import CURRENT_ENV_KERNEL_NAME, RunningKernel

from course_i18n import LANGUAGES
from tools import numeric_configs

ROOT = pathlib.Path(__file__).resolve().parent.parent
REPORT = f"from tools import numeric_configs; import json; print(json.dumps(numeric_configs.report_of_this_process()))"


def report_under(env):
    out = subprocess.run([sys.executable, "-c", REPORT], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True, timeout=120)
    return json.loads(out.stdout)


def default_environment():
    env = dict(os.environ)
    for name in ("NPY_DISABLE_CPU_FEATURES", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env.pop(name, None)
    return env


def test_every_language_folder_has_its_own_configuration_with_one_and_two_threads():
    table = numeric_configs.configs()
    assert set(table) == set(LANGUAGES)
    assert len({config.name for config in table.values()}) == len(table)
    assert {config.blas_threads for config in table.values()} == {1, 2}
    for folder in ("chapters", "solutions"):
        for lang, config in table.items():
            assert numeric_configs.config_for(ROOT / folder / lang) == config
    for elsewhere in (ROOT / "exercises" / "en", ROOT / "chapters", ROOT / "tests", None):
        assert numeric_configs.config_for(elsewhere) is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_configuration_runs_what_it_names(lang):
    config = numeric_configs.configs()[lang]
    report = report_under(numeric_configs.environment(config))
    assert config.problems(report) == [], report
    for lib in report["blas"]:
        assert lib["threads"] == config.blas_threads
        if config.openblas_core:
            assert lib["architecture"] == config.openblas_core


def test_at_least_two_configurations_differ_from_the_machine_default():
    default = report_under(default_environment())
    differ = [config.name for config in numeric_configs.configs().values()
              if report_under(numeric_configs.environment(config)) != default]
    assert len(differ) >= 2, (default, differ)


def test_a_report_of_another_kernel_is_refused():
    config = numeric_configs.Config("test", "Haswell", "X86_V3", 1)
    wrong = {"blas": [{"api": "openblas", "architecture": "SkylakeX", "threads": 2}],
             "numpy": ["AVX512_SPR", "X86_V3", "baseline(X86_V2)"]}
    problems = config.problems(wrong)
    assert any("SkylakeX" in p for p in problems)
    assert any("2 threads" in p for p in problems)
    assert any("AVX512_SPR" in p for p in problems)
    assert config.problems({"blas": [], "numpy": []}) == ["no BLAS library is loaded"]
    right = {"blas": [{"api": "openblas", "architecture": "Haswell", "threads": 1}],
             "numpy": ["X86_V3", "baseline(X86_V2)"]}
    assert config.problems(right) == []


def test_nbvals_kernel_in_a_chapter_folder_starts_in_its_configuration(monkeypatch, tmp_path):
    """The hook of the root conftest.py: a kernel started for chapters/en runs en's configuration,
    and one whose configuration names a kernel it cannot run is refused before any cell runs."""
    folder = ROOT / "chapters" / "en"
    monkeypatch.setenv("COURSE_NUMERIC_REPORTS", str(tmp_path))     # keep the run's summary to real notebooks
    kernel = RunningKernel(CURRENT_ENV_KERNEL_NAME, cwd=str(folder))
    try:
        assert kernel.km.numeric_config == numeric_configs.configs()["en"]
        [record] = [json.loads(p.read_text()) for p in tmp_path.glob("*.json")]
        assert record["config"] == numeric_configs.configs()["en"].name and record["problems"] == []
    finally:
        kernel.stop()
    class SaysTwoRunsOne(numeric_configs.Config):
        def env(self):
            return {**super().env(), "OPENBLAS_NUM_THREADS": "1"}

    mislabelled = SaysTwoRunsOne("mislabelled", None, None, 2)
    monkeypatch.setattr(numeric_configs, "config_for", lambda cwd: mislabelled)
    with pytest.raises(RuntimeError, match="does not run configuration mislabelled: .*1 threads, not 2"):
        RunningKernel(CURRENT_ENV_KERNEL_NAME, cwd=str(folder))
