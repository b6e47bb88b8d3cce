"""Benchmark: how fast the batch grader grades whole-course submissions, and how fairly it
shares the CPU between submissions graded side by side.

    python bench/grading_speed.py                        # 200 submissions at --jobs 1 and --jobs 2 (slow)
    python bench/grading_speed.py --count 20             # a quicker look
    python bench/grading_speed.py --count 0 --fairness   # only the noisy-neighbour measurement
    python bench/grading_speed.py --kernels warm         # without the fresh-kernel comparison
    python bench/grading_speed.py --count 0 --starts 40  # only the kernel start times, warm vs fresh

Throughput: ``--count`` copies of a whole course (every solved notebook, in
zh / en / ru in turn), graded with the same seed at each ``--jobs`` value.  For
each run it prints the wall time, the seconds per submission (wall time /
submissions: what a class of 200 costs), the median time one submission took
from its first kernel to its last row, and the speedup of the last --jobs
value over the first.  Each is measured with kernels forked from the warm
Python (root mode's default) and with fresh ones (``--fresh-kernels``),
taking turns, and the ratio printed.  Every row must pass.

Kernel starts (``--starts``, root only): the time from nothing to a kernel that has answered
its first request and imported NumPy (what every notebook pays before its first cell), and
the CPU time the machine spent on it (the submission's control group: bwrap, the kernel and
everything it started), for kernels forked from the warm Python and fresh ones, one of each in
turn, medians.  The whole course needs 12 kernels per submission, so this is the part of the
throughput figures above that the warm start (grading/batch/_warm.py) changes.

Fairness (``--fairness``): a correct one-notebook submission graded alone,
then beside a "noisy neighbour" whose notebook keeps 56 processes busy for 45 s,
with and without control groups, in ``--repeat`` interleaved rounds (the correct
notebook first sleeps 4 s, not counted, so that it is graded while the
neighbour is already busy).  It prints
the correct submission's time in each run and the median slowdown the neighbour
causes (with control groups the CPU is shared per submission, so it should stay
near 1 on a quiet machine; without them, near the neighbour's process count
over the cores).  Every batch beside the neighbour lasts about 45 s.  Everything is measured side by
side in one run; the numbers depend on the machine and its load.  Not a test.
"""

import argparse
import json
import os
import pathlib
import platform
import shutil
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from course_i18n import LANGUAGES as LANGS  # noqa: E402
from grading.batch import Limits, Options, grade_batch  # noqa: E402
from grading.batch.kernel import Kernel  # noqa: E402
from grading.batch.sandbox import Sandbox, SandboxError  # noqa: E402

NOISY_SECONDS = 45
NOISY = f"""import os, time
for _ in range(56):
    if os.fork() == 0:
        os.setsid()              # a session of its own: out of the kernel's scheduler autogroup
        end = time.time() + {NOISY_SECONDS}
        while time.time() < end:
            pass
        os._exit(0)
time.sleep({NOISY_SECONDS})      # busy for as long as its neighbour is graded, not just its own first seconds
"""
# the kernel's CPU time so far (a forked kernel counts from its fork, a fresh one from its exec)
CPU_SO_FAR = "import os\nt = os.times()\nopen('/grader/io/cpu.json', 'w').write(str(t.user + t.system))"
HEAD_START = 4      # the correct submission waits this long first, so that the neighbour is already busy
WAIT = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
        "source": f"import time\ntime.sleep({HEAD_START})"}


def make_course_batch(dest, count):
    notebooks = {lang: sorted((ROOT / "solutions" / lang).glob("ex0*.ipynb")) for lang in LANGS}
    if not all(notebooks.values()):
        sys.exit("no solutions/<lang>/*.ipynb to grade (run `make notebooks`)")
    for i in range(count):
        d = dest / f"student{i:03d}"
        d.mkdir(parents=True)
        for nb in notebooks[LANGS[i % len(LANGS)]]:
            shutil.copy(nb, d / nb.name)
    return len(notebooks["en"])


def throughput(count, jobs_list, seed, kernels=("warm",), rounds=1):
    """Seconds per submission at each --jobs value, for each way of starting kernels (``warm``: forked
    from the warm Python, the default; ``fresh``: --fresh-kernels), the ways taking turns (in the
    opposite order every other time, so that a drift of the machine's load favours neither), the
    median of ``rounds`` runs each."""
    walls = {}
    with tempfile.TemporaryDirectory(prefix="grading-bench-") as tmp:
        batch = pathlib.Path(tmp) / "batch"
        per = make_course_batch(batch, count)
        print(f"throughput: {count} whole-course submissions ({per} notebooks each, zh/en/ru in turn), seed {seed}, "
              f"{rounds} round(s)")
        turn = 0
        for _ in range(rounds):
            for jobs in jobs_list:
                for how in (kernels if turn % 2 == 0 else kernels[::-1]):
                    start = time.perf_counter()
                    report = grade_batch([batch], group_by="top", options=Options(), jobs=jobs, seed=seed,
                                         progress=None, warm_start=how == "warm")
                    wall = time.perf_counter() - start
                    walls.setdefault((jobs, how), []).append(wall)
                    failed = [r for r in report["rows"] if r["status"] != "pass"]
                    latency = statistics.median(report["timing"]["submissions"].values())
                    iso = report["grader"]["isolation"]
                    print(f"  --jobs {jobs}, {how} kernels: wall {wall:8.1f} s   per submission "
                          f"{wall / count:6.2f} s   per notebook {wall / (count * per):5.2f} s   median latency of "
                          f"one {latency:6.2f} s   (load {_load()})")
                    print(f"             isolation {iso['mode']}, cgroups {iso.get('cgroups')}, kernels "
                          f"{iso['kernels']}, grader peak {report['timing']['grader_max_rss_mb']} MiB")
                    if failed:
                        print(f"  NOT ALL PASSED: {len(failed)} rows, e.g. {failed[0]['exercise']}: "
                              f"{failed[0]['message']}")
                        return [], False
                turn += 1
    wall = {key: statistics.median(values) for key, values in walls.items()}
    results = [(jobs, wall[jobs, kernels[0]]) for jobs in jobs_list]
    if len(results) > 1:
        (j0, w0), (j1, w1) = results[0], results[-1]
        print(f"  speedup --jobs {j1} over --jobs {j0}: {w0 / w1:.2f}x ({kernels[0]} kernels)")
    if "warm" in kernels and "fresh" in kernels:
        for jobs in jobs_list:
            print(f"  --jobs {jobs}: warm kernels take {wall[jobs, 'warm'] / wall[jobs, 'fresh']:.2f}x the time of "
                  f"fresh ones ({_cpu_model()}, {os.cpu_count()} CPU(s))")
    return results, True


def kernel_starts(count):
    """Median wall and CPU seconds of starting one kernel, forked from the warm Python and fresh, in turns."""
    if os.geteuid() != 0:
        print("kernel starts: skipped (the warm start exists in root mode only; run as root)")
        return
    sandboxes = {}
    try:
        for how in ("warm", "fresh"):
            sandboxes[how] = Sandbox("root", Limits(), jobs=1, warm=how == "warm")
            sandboxes[how].self_check()
            if (sandboxes[how].warm is not None) != (how == "warm"):
                print(f"kernel starts: skipped (no warm start here: {sandboxes[how].warm_note})")
                return
        wall, cpu = {"warm": [], "fresh": []}, {"warm": [], "fresh": []}
        for i in range(count + 1):
            for how in (("warm", "fresh") if i % 2 else ("fresh", "warm")):
                start = time.perf_counter()
                kernel = Kernel(sandboxes[how]).start()
                seconds = time.perf_counter() - start
                try:
                    kernel.execute(CPU_SO_FAR, 10)
                    used = float(kernel.io_path("cpu.json").read_text())
                finally:
                    kernel.kill()
                if i:                                   # the first round warms the caches of both
                    wall[how].append(seconds)
                    cpu[how].append(used)
    except SandboxError as exc:
        print(f"kernel starts: skipped ({exc})")
        return
    finally:
        for sandbox in sandboxes.values():
            sandbox.close()
    med = {how: statistics.median(v) for how, v in wall.items()}
    print(f"kernel starts ({count} of each, in turns, medians): warm {med['warm'] * 1000:.0f} ms, "
          f"fresh {med['fresh'] * 1000:.0f} ms: warm takes {med['warm'] / med['fresh']:.2f}x the time of fresh "
          f"({_cpu_model()}, {os.cpu_count()} CPU(s), load {_load()})")
    used = {how: statistics.median(v) for how, v in cpu.items()}
    print(f"  CPU time of the kernel's process until it was ready: warm {used['warm'] * 1000:.0f} ms, fresh "
          f"{used['fresh'] * 1000:.0f} ms; the whole course starts 12 kernels per submission: "
          f"{12 * (med['fresh'] - med['warm']):.2f} s of starts and {12 * (used['fresh'] - used['warm']):.2f} s of CPU "
          "saved per submission (a kernel started ahead overlaps part of its start with grading)")


def fairness(seed, repeat):
    solved = ROOT / "solutions" / "en" / "ex01_allowed_set.ipynb"
    noisy = json.loads(solved.read_text(encoding="utf-8"))
    noisy["cells"].insert(2, {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                              "source": NOISY})
    print(f"fairness: one correct submission ({solved.name}, timed after a {HEAD_START} s head start that lets the "
          f"neighbour get busy), alone and beside a neighbour running 56 busy processes for {NOISY_SECONDS} s; "
          f"{repeat} interleaved round(s), medians")
    times = {}
    with tempfile.TemporaryDirectory(prefix="grading-fair-") as tmp:
        alone, pair = pathlib.Path(tmp) / "alone", pathlib.Path(tmp) / "pair"
        correct = json.loads(solved.read_text(encoding="utf-8"))
        correct["cells"].insert(0, WAIT)
        for folder in (alone / "a_correct", pair / "a_correct"):
            folder.mkdir(parents=True)
            (folder / solved.name).write_text(json.dumps(correct), encoding="utf-8")
        (pair / "0_noisy").mkdir()
        (pair / "0_noisy" / solved.name).write_text(json.dumps(noisy), encoding="utf-8")
        limits = Limits(max_procs=128, cpu_seconds=600)
        for round_ in range(repeat):
            for label, batch, cgroups in (("alone", alone, True), ("beside it, cgroups", pair, True),
                                          ("beside it, no cgroups", pair, False)):
                report = grade_batch([batch], group_by="top", options=Options(cell_timeout=NOISY_SECONDS + 30),
                                     limits=limits, jobs=2, seed=seed, progress=None, cgroups=cgroups)
                seconds = next(v for k, v in report["timing"]["submissions"].items()
                               if k.endswith("a_correct")) - HEAD_START
                times.setdefault(label, []).append(seconds)
                iso = report["grader"]["isolation"]
                print(f"  round {round_ + 1}: {label:<22} {seconds:6.2f} s   (cpu: {iso['cpu']}; load {_load()})")
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"  median: alone {med['alone']:.2f} s; slowdown beside the neighbour with cgroups "
          f"{med['beside it, cgroups'] / med['alone']:.2f}x, without {med['beside it, no cgroups'] / med['alone']:.2f}x")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=200, help="whole-course submissions (default 200; 0 skips)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="--jobs values to compare (default 1 2)")
    parser.add_argument("--fairness", action="store_true", help="also measure the noisy-neighbour slowdown")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved rounds of the fairness runs (default 3)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="runs of each throughput measurement, in alternating order (default 1; medians)")
    parser.add_argument("--starts", type=int, default=0,
                        help="also time this many kernel starts of each kind, warm and fresh (root only)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kernels", nargs="+", choices=("warm", "fresh"), default=["warm", "fresh"],
                        help="how kernels start: forked from the warm Python (root mode's default) and/or each a "
                             "fresh Python (--fresh-kernels); default both, side by side")
    args = parser.parse_args(argv)
    print(f"machine: {_cpu_model()}, {os.cpu_count()} CPU(s), load average {_load()} at the start "
          "(a loaded machine makes every figure below slower; compare runs on a quiet one); "
          f"scheduler autogroup {_autogroup()}")
    ok = True
    if args.starts:
        kernel_starts(args.starts)
    if args.count:
        _, ok = throughput(args.count, args.jobs, args.seed, tuple(dict.fromkeys(args.kernels)), max(1, args.rounds))
    if args.fairness:
        fairness(args.seed, max(1, args.repeat))
    print(f"machine: load average {_load()} at the end")
    return 0 if ok else 1


def _cpu_model():
    """The processor's name (/proc/cpuinfo), which every ratio above depends on."""
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Model")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _autogroup():
    """Linux's per-session CPU fairness, which shares the CPU between kernels even without control
    groups, until a process starts a session of its own (the neighbour's processes do)."""
    try:
        return {"1": "on", "0": "off"}.get(pathlib.Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip(),
                                          "unknown")
    except OSError:
        return "absent"


def _load():
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


if __name__ == "__main__":
    sys.exit(main())
