"""Mutation run: do the lib tests catch realistic bugs in lib?

    make mutants                                  (or: python tools/mutants.py)
    python tools/mutants.py --only top-left-mask scale-by-d
    python tools/mutants.py --list
    python tools/mutants.py --every lib.attention.causal_future     # every bug the catalogue can put there

Each mutant is one realistic bug from the catalogue of bug operators
(grading/bugs.py, the same catalogue the diagnoses and the corpus of wrong
answers draw on): an operator applied at one place of one lib function,
named by a selector (``"loose-for-strict@key_position > query_position"``: that comparison
made loose, `>` into `>=`).
Nothing here writes wrong code.  One at a time, the function's mutated source
is written over the function in its file, the lib tests alone run (LIB_TESTS:
no notebooks, no grading or site tests, stopping at the first failure), and
the file is restored, also on Ctrl-C or SIGTERM; a copy kept in
_build/mutants/ restores it even after a crash, at the start of the next run.
The table says which test caught each mutant, or SURVIVED (the tests that name the
mutated function run first, so a caught mutant costs seconds, not the whole run).  Hypothesis runs
derandomized and without its example database (profile "mutants" in
tests/conftest.py), so a run is reproducible.

This is not part of the test suite: it takes minutes, not seconds.  A mutant
whose selector no longer names exactly one place (lib changed) stops the run:
update it with the code.  A function that moved to another module is found by
its new dotted name: the selectors name code, not lines.
"""

import argparse
import ast
import importlib
import inspect
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parent.parent
BACKUP = ROOT / "_build" / "mutants"
sys.path.insert(0, str(ROOT))

# The lib tests, fastest and most telling first (the first failure names the catching test).
LIB_TESTS = [
    "tests/test_errors.py",
    "tests/test_validation.py",
    "tests/test_chapter_numbers.py",
    "tests/test_attention_speed_equivalence.py",
    "tests/test_dtypes.py",
    "tests/test_checks.py",
    "tests/test_costs.py",
    "tests/test_properties.py",
    "tests/test_torch_parity.py",
    "tests/test_decoder.py",
    "tests/test_decoder_torch.py",
]


@dataclass
class Mutant:
    name: str
    target: str               # the lib function, dotted: lib.attention.causal_future, lib.model.KVCache.append
    selector: str             # a bug of grading/bugs.py: "operator" or "operator@code of the place"

    @property
    def description(self):
        from grading import bugs
        return bugs.OPERATORS[self.selector.partition("@")[0]].description


def m(name, target, selector):
    return Mutant(name, target, selector)


A, P, M, D, C = "lib.attention", "lib.positions", "lib.model", "lib.data", "lib.checks"
B, K, V = "lib.blocked", "lib.costs", "lib.validate"

MUTANTS = [
    # ---- the mask (§1)
    m("diagonal-forbidden", f"{A}.causal_future", "loose-for-strict@key_position > query_position"),
    m("top-left-mask", f"{A}.causal_future", "top-left-alignment"),
    m("mask-one-ahead", f"{A}.causal_future", "one-more@key_position > query_position"),
    m("softmax-then-zero", f"{A}.masked_softmax", "mask-after-softmax"),
    m("zero-fill", f"{A}.masked_softmax", "zero-fill"),
    m("finite-fill", f"{A}.masked_softmax", "finite-fill"),
    m("mask-ignored", f"{A}.masked_softmax", "no-mask"),
    m("no-max-subtraction", f"{A}.masked_softmax", "no-max-subtraction"),
    m("softmax-wrong-axis", f"{A}.masked_softmax", "wrong-axis@=weights.sum(axis=-1, keepdims=True)"),
    m("max-over-the-wrong-axis", f"{A}.masked_softmax", "wrong-axis@=weights.max(axis=-1, keepdims=True)"),
    m("control-keys-are-queries", f"{A}.unmasked_attention", "one-argument-for-another@unmasked_attention:k"),
    # ---- scaled dot products (§1, §2)
    m("scores-missing-scale", f"{A}.attention_scores", "no-scale"),
    m("scale-by-d", f"{A}.attention_scores", "scale-by-d"),
    m("scale-by-full-width", f"{A}.attention_scores", "scale-by-full-width"),
    m("keys-not-transposed", f"{A}.attention_scores", "reshape-without-transpose"),
    # ---- heads (§2)
    m("plain-reshape-split", f"{A}.split_heads", "reshape-without-transpose"),
    m("split-fixed-rank", f"{A}.split_heads", "fixed-rank"),
    m("plain-reshape-merge", f"{A}.merge_heads", "reshape-without-transpose"),
    m("merge-interleaved", f"{A}.merge_heads", "interleaved-heads"),
    m("heads-summed", f"{A}.merge_heads", "heads-summed"),
    m("forgotten-w-o", f"{A}.multi_head_attention_forward", "dropped-product@=_product(merged, w_o)"),
    m("w-q-for-w-k", f"{A}.multi_head_attention_forward", "one-argument-for-another@=w_k"),
    m("causal-flag-ignored", f"{A}.multi_head_attention", "argument-ignored"),
    # ---- positions (§3)
    m("ignored-offset", f"{P}.embed", "slice-from-zero"),
    m("embed-offset-off-by-one", f"{P}.embed", "one-more@=offset:offset + ids.shape[-1]"),
    # (positions-wrapped and positions-clamped of embed's body are equivalent mutants now: the body only ever
    # sees rows of the table, lib.validate.positions refuses the rest; no-upper-position-check is their bug)
    m("assignment-not-scatter-add", f"{P}.embed_backward", "scatter-by-assignment"),
    m("backward-ignores-offset", f"{P}.embed_backward", "slice-from-zero"),
    m("position-gradient-of-one-sequence", f"{P}.embed_backward", "last-instead-of-sum"),
    # ---- the model and its cache (§5): lib's one cached step
    m("step-without-w-o", f"{M}._attend_step", "dropped-product@=merge_heads.plain(heads) @ w_o"),
    m("step-keys-from-w-q", f"{M}._attend_step", "one-argument-for-another@=w_k"),
    m("key-stored-as-value", f"{M}.KVCache.append", "one-argument-for-another@append:value"),
    # ---- the data protocol (§1)
    m("inputs-padded-with-ignore", f"{D}.collate", "swapped-padding@EOS"),
    m("eos-not-scored", f"{D}.collate", "dropped-write@targets[b, len(ids)] = EOS"),
    # ---- the checks (§4, §5)
    m("feature-norm-over-time", f"{C}.feature_normalization", "wrong-axis@x.mean"),
    m("random-model-scale", f"{C}.random_model", "scale-by-d@=np.sqrt(width)"),
    m("upper-right-loosened", f"{C}.upper_right_is_zero", "tolerance-for-exact-zero"),
    m("perturbation-in-place", f"{C}.perturb_future", "in-place-perturbation"),
    m("ids-not-perturbed", f"{C}.perturb_future", "dropped-write@(future + shift) % vocab_size"),
    m("check-skips-last-prefix-row", f"{C}.future_change", "prefix-drops-tail"),
    m("causal-boundary", f"{C}.CausalityCheck.causal", "strict-for-loose"),
    m("control-boundary", f"{C}.CausalityCheck.control_saw_change", "loose-for-strict"),
    m("incremental-ignores-positions", f"{C}.incremental_forward", "argument-ignored"),
    m("cache-error-signed", f"{C}.cache_error", "no-abs"),
    m("kv-bytes-one-tensor", f"{C}.kv_cache_bytes", "dropped-first-factor@=2 * n_layers"),
    m("row-changes-signed", f"{C}.row_changes", "no-abs"),
    # ---- blocks (§5.9)
    m("block-forgets-the-cache", f"{B}.blocked_causal_attention", "swapped-operands@=tk - tq"),
    m("block-values-unsliced", f"{B}.blocked_causal_attention", "whole-array@=v[..., :n_keys, :]"),
    m("blocks-miss-the-last-query", f"{B}.blocked_causal_attention", "one-less@=range(0, tq, BLOCK)"),
    m("work-counts-one-key-per-query", f"{B}.attention_work", "dropped-factor@(stop - start) * (tk"),
    m("work-allowed-off-by-one", f"{B}.attention_work", "one-less@=range(tq)"),
    # ---- costs (§2)
    m("score-flops-one-product", f"{K}.head_costs", "dropped-factor@=2 * 2"),
    m("entries-per-layer-not-head", f"{K}.head_costs", "dropped-factor@=B * heads"),
    m("bytes-per-number-ignored", f"{K}.head_costs", "dropped-factor@=attention_entries * bytes_per_number"),
    # ---- the checks where arguments enter (lib/validate.py)
    m("no-empty-row-check", f"{V}.masked_softmax", "dropped-check@if empty.any()"),
    m("no-finite-score-check", f"{V}.masked_softmax", "dropped-check@if bad.any()"),
    m("boolean-mask-unchecked", f"{V}.masked_softmax", "dropped-check@allowed.dtype != bool"),
    m("more-queries-than-keys", f"{V}.causal_lengths", "dropped-check"),
    m("no-finite-input-check", f"{V}._largest_magnitude", "dropped-check"),
    m("no-overflow-check", f"{V}.magnitudes", "dropped-check"),
    m("complex-accepted", f"{V}.float_arrays", "dropped-check"),
    m("n-heads-unchecked", f"{V}.head_width", "dropped-check"),
    m("no-upper-position-check", f"{V}.positions", "dropped-condition"),
    m("no-lower-position-check", f"{V}.positions", "dropped-first-condition"),
    m("negative-ids-accepted", f"{V}.token_ids", "loose-for-strict@=ids < 0"),
    m("id-vocab-size-accepted", f"{V}.token_ids", "strict-for-loose@=ids >= vocab_size"),
    m("truncate-past-length", f"{V}.truncate", "dropped-check"),
    m("cache-full-unchecked", f"{V}.room", "dropped-check"),
    m("cache-entry-shape-unchecked", f"{V}.cache_entry", "dropped-check@a.shape != cache.layout[:2]"),
    m("cache-entry-dtype-unchecked", f"{V}.cache_entry", "dropped-check@np.can_cast"),
    m("token-not-checked", f"{V}.token", "dropped-check"),
    m("model-table-rank-unchecked", f"{V}.attention_model", "dropped-check"),
]


def target_function(target):
    """The function a dotted name denotes (a module's function or a class's method)."""
    module_name, _, name = target.rpartition(".")
    try:
        owner = importlib.import_module(module_name)
    except ModuleNotFoundError:
        module_name, _, cls = module_name.rpartition(".")
        owner = getattr(importlib.import_module(module_name), cls)
    found = getattr(owner, name)
    return found.fget if isinstance(found, property) else found


def mutated_text(mutant, text=None):
    """The text of the target's file with the mutant's function replaced by its mutated source."""
    from grading import bugs
    func = target_function(mutant.target)
    base = bugs.Base(func, depth=0)
    found = [x for x in bugs.find(func, mutant.selector) if x.sites[0].function == func.__name__]
    fewest = min((len(x.sites[0].indices) for x in found), default=0)
    found = [x for x in found if len(x.sites[0].indices) == fewest]           # one place rather than all alike
    if len(found) != 1:
        raise SystemExit(f"mutant {mutant.name}: {mutant.selector!r} names {len(found)} places of {mutant.target}, "
                         f"not one; update MUTANTS")
    plain = inspect.unwrap(func)                                 # lib's checked function: its body
    path = pathlib.Path(inspect.getsourcefile(plain))
    text = path.read_text(encoding="utf-8") if text is None else text
    lines = text.splitlines(keepends=True)
    start = plain.__code__.co_firstlineno - 1
    while not lines[start].lstrip().startswith(("def ", "async def ")):
        start += 1                                               # after the decorators
    indent = lines[start][:len(lines[start]) - len(lines[start].lstrip())]
    end = start + len(inspect.getsource(plain).splitlines()) - (start - (plain.__code__.co_firstlineno - 1))
    tree = found[0].trees[func.__name__]
    tree.decorator_list = []
    new = textwrap.indent(ast.unparse(tree), indent) + "\n"
    return path, "".join(lines[:start]) + new + "".join(lines[end:])


# --------------------------------------------------------------------------

def applies(mutant):
    try:
        mutated_text(mutant)
        return True
    except (SystemExit, AttributeError, ImportError, KeyError):
        return False


def restore_leftovers():
    """Put back a file a crashed earlier run left mutated."""
    if not BACKUP.exists():
        return
    for saved in BACKUP.rglob("*.py"):
        target = ROOT / saved.relative_to(BACKUP)
        print(f"restoring {target.relative_to(ROOT)} from an interrupted run", file=sys.stderr)
        shutil.copyfile(saved, target)
        saved.unlink()


def tests_for(mutant):
    """LIB_TESTS, those that name the mutated function first (in LIB_TESTS' order), then the others: a
    caught mutant is caught in seconds, and a survivor still meets every lib test."""
    name = mutant.target.rsplit(".", 1)[1]
    tests = [path for path in LIB_TESTS if (ROOT / path).exists()]
    naming = [path for path in tests if re.search(rf"\b{re.escape(name)}\b", (ROOT / path).read_text(encoding="utf-8"))]
    return naming + [path for path in tests if path not in naming]


def run_tests(timeout, tests=None):
    """Run the lib tests (``tests``: in this order; default LIB_TESTS); return (None, seconds) if all pass,
    else (the first failing test, seconds)."""
    with tempfile.TemporaryDirectory() as pycache:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=pycache, PYTHONDONTWRITEBYTECODE="1")
        tests = tests or [path for path in LIB_TESTS if (ROOT / path).exists()]
        command = [sys.executable, "-m", "pytest", *tests, "-x", "-q", "-n", "0", "-p", "no:randomly",
                   "-p", "no:cacheprovider", "--hypothesis-profile=mutants", "-rfE", "--no-header"]
        start = time.perf_counter()
        try:
            result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return f"(timeout after {timeout} s)", time.perf_counter() - start
    seconds = time.perf_counter() - start
    if result.returncode == 0:
        return None, seconds
    found = re.search(r"^(?:FAILED|ERROR) (\S+)", result.stdout, re.MULTILINE)
    return (found.group(1) if found else f"(pytest exit {result.returncode})"), seconds


def run_mutant(mutant, timeout):
    path, mutated = mutated_text(mutant)
    original = path.read_text(encoding="utf-8")
    backup = BACKUP / path.relative_to(ROOT)
    backup.parent.mkdir(parents=True, exist_ok=True)
    backup.write_text(original, encoding="utf-8")
    try:
        path.write_text(mutated, encoding="utf-8")
        return run_tests(timeout, tests_for(mutant))
    finally:
        path.write_text(original, encoding="utf-8")
        backup.unlink()


def interrupt(signum, frame):
    raise KeyboardInterrupt


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these mutants")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--timeout", type=int, default=900, help="seconds for the lib tests on one mutant")
    parser.add_argument("--skip-missing", action="store_true",
                        help="leave out mutants whose place is not in lib (to score an older lib) instead of stopping")
    parser.add_argument("--every", nargs="+", metavar="FUNCTION",
                        help="instead of MUTANTS, every bug the catalogue puts into these lib functions (dotted names)")
    args = parser.parse_args()
    if args.every:
        from grading import bugs
        MUTANTS[:] = [Mutant(f"{target.rsplit('.', 1)[1]}-{i}", target, f"{x.sites[0].operator}@={x.sites[0].code}")
                      for target in args.every
                      for i, x in enumerate(x for x in bugs.Base(target_function(target), depth=0).sites()
                                            if x.index >= 0 and len(x.indices) == 1)
                      for x in [bugs.Mutant(bugs.Base(target_function(target), depth=0), (x,))]]

    names = [mutant.name for mutant in MUTANTS]
    assert len(set(names)) == len(names), "two mutants share a name"
    unknown = set(args.only or []) - set(names)
    if unknown:
        parser.error(f"unknown mutants: {sorted(unknown)}")
    restore_leftovers()
    chosen = [mutant for mutant in MUTANTS if not args.only or mutant.name in args.only]
    if args.skip_missing:
        missing = [mutant.name for mutant in chosen if not applies(mutant)]
        chosen = [mutant for mutant in chosen if mutant.name not in missing]
        if missing:
            print(f"left out, their text is not in lib: {', '.join(missing)}")
    for mutant in chosen:                                       # every mutant still applies: fail before starting
        mutated_text(mutant)
    if args.list:
        for mutant in chosen:
            print(f"{mutant.name:<36} {mutant.target:<40} {mutant.selector}")
        return 0

    signal.signal(signal.SIGTERM, interrupt)                  # kill PID restores the file like Ctrl-C
    caught_by, seconds = run_tests(args.timeout)
    if caught_by is not None:
        print(f"the lib tests fail without any mutant ({caught_by}); fix them first", file=sys.stderr)
        return 2
    print(f"lib tests pass unmutated in {seconds:.0f} s; {len(chosen)} mutants, tests: {' '.join(LIB_TESTS)}\n")
    print(f"{'mutant':<36} {'function':<40} {'caught by':<70} bug")
    survivors = []
    try:
        for mutant in chosen:
            caught_by, seconds = run_mutant(mutant, args.timeout)
            if caught_by is None:
                survivors.append(mutant)
            print(f"{mutant.name:<36} {mutant.target:<40} {caught_by or 'SURVIVED':<70} {mutant.selector}", flush=True)
    except KeyboardInterrupt:
        print("\ninterrupted: the mutated file has been restored", file=sys.stderr)
        return 130
    caught = len(chosen) - len(survivors)
    print(f"\ncaught {caught} of {len(chosen)} mutants ({100 * caught / len(chosen):.0f} %) by the lib tests alone")
    if survivors:
        print("survivors: " + ", ".join(mutant.name for mutant in survivors))
    return 0


if __name__ == "__main__":
    sys.exit(main())
