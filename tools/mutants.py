"""Mutation run: do the lib tests catch realistic bugs in lib?

    make mutants                                  (or: python tools/mutants.py)
    python tools/mutants.py --only top-left-mask scale-by-d
    python tools/mutants.py --list

Each mutant is one realistic bug, written as an exact piece of lib's source
text and its replacement.  One at a time, the bug is written into the file,
the lib tests alone run (LIB_TESTS: no notebooks, no grading or site tests,
stopping at the first failure), and the file is restored, also on Ctrl-C or
SIGTERM; a copy kept in _build/mutants/ restores it even after a crash, at
the start of the next run.  The table says which test caught each mutant, or
SURVIVED.  Hypothesis runs derandomized and without its example database
(profile "mutants" in tests/conftest.py), so a run is reproducible.

This is not part of the test suite: it takes minutes, not seconds.  A mutant
whose text no longer occurs in lib stops the run: update it with the code.
"""

import argparse
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parent.parent
BACKUP = ROOT / "_build" / "mutants"

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
    path: str                 # relative to the project root
    edits: list               # [(exact old text, new text)], each old text occurring exactly once
    description: str


def m(name, path, old, new, description):
    return Mutant(name, path, [(old, new)], description)


A, P, M, D, C, K = "lib/attention.py", "lib/positions.py", "lib/model.py", "lib/data.py", "lib/checks.py", "lib/costs.py"
B, F, V = "lib/blocked.py", "bench/fast_attention.py", "lib/validate.py"

MUTANTS = [
    # ---- the mask (§1)
    m("diagonal-forbidden", A, "return key_position > query_position", "return key_position >= query_position",
      "the causal mask also forbids the diagonal: a query may not read itself"),
    m("top-left-mask", A, "query_position = np.arange(tk - tq, tk)[:, None]", "query_position = np.arange(tq)[:, None]",
      "the mask aligns queries top-left, ignoring the Tk - Tq cached positions"),
    m("block-top-left", F, "        first = tk - tq + start ", "        first = start ",
      "the fast attention places its diagonal tile top-left, ignoring the cache offset"),
    m("block-diagonal-forbidden", F, "-np.inf, dtype=q.dtype), -1)", "-np.inf, dtype=q.dtype), 0)",
      "the diagonal tile of the fast attention also forbids the diagonal"),
    m("future-tiles-not-masked", F, "        scores[:, first:] += future[:n_keys - first, :b]",
      "        scores[:, first:first + b] += future[:b, :b]",
      "with skip_future=False, the keys after a block's diagonal tile are computed but not masked"),
    m("diagonal-not-masked", F, "        scores[:, first:] += future[:n_keys - first, :b]", "        pass",
      "the fast form never masks its diagonal tile: every query of a block reads the whole block"),
    Mutant("max-over-all-entries", A, [(
        "    weights = np.where(allowed, scores, -np.inf)                # (..., Tk), forbidden -> -inf\n"
        "    weights -= weights.max(axis=-1, keepdims=True)",
        "    weights = np.where(allowed, scores, -np.inf)\n"
        "    weights -= scores.max(axis=-1, keepdims=True)")],
      "masked_softmax subtracts the max over all entries, forbidden ones included"),
    Mutant("block-max-over-all-entries", F, [(
        "        scores[:, first:] += future[:n_keys - first, :b]       # the diagonal tile, and any after it\n"
        "        shift = shifted[rows, None, start:stop]                 # (rows, 1, b)\n"
        "        if shift.any():\n"
        "            scores -= np.where(shift, scores.max(axis=1, keepdims=True), 0)     # each max -> 0\n",
        "        shift = shifted[rows, None, start:stop]\n"
        "        if shift.any():\n"
        "            scores -= np.where(shift, scores.max(axis=1, keepdims=True), 0)\n"
        "        scores[:, first:] += future[:n_keys - first, :b]\n")],
      "the fast form takes a query's max before masking, over future keys of the diagonal tile too"),
    m("never-shift", F, "        if shift.any():", "        if False:",
      "the fast form never shifts a query by its max, even when its scores could overflow exp"),
    m("shift-bound-ignores-values", F, "    if tk * v_longest > np.finfo(dtype).max / 4 / np.exp(SAFE_SCORE):",
      "    if False:", "the bound that lets exp go unshifted forgets that the weights multiply the values"),
    m("shift-bound-reads-every-key", F, "np.maximum.accumulate(k_len, axis=1)[:, tk - tq:]",
      "np.broadcast_to(k_len.max(axis=1, keepdims=True), (k_len.shape[0], tq))",
      "whether a query is shifted depends on keys in its future, so the future changes its bits"),
    Mutant("softmax-then-zero", A, [(
        "    weights = np.where(allowed, scores, -np.inf)                # (..., Tk), forbidden -> -inf\n",
        "    weights = np.array(np.broadcast_to(scores, np.broadcast_shapes(scores.shape, np.shape(allowed))))\n"),
        ("    weights /= weights.sum(axis=-1, keepdims=True)\n",
         "    weights /= weights.sum(axis=-1, keepdims=True)\n    weights = np.where(allowed, weights, 0.0)\n")],
      "softmax over every key first, then the forbidden weights set to 0 (rows no longer sum to 1)"),
    m("softmax-wrong-axis", A, "    weights /= weights.sum(axis=-1, keepdims=True)\n",
      "    weights /= weights.sum(axis=-2, keepdims=True)\n",
      "the softmax denominators sum over the queries instead of the keys"),
    m("no-empty-row-check", V, "    if empty.any():\n", "    if False:\n",
      "an all-forbidden row is not refused (it becomes nan)"),
    m("no-finite-score-check", V, "    if bad.any():\n", "    if False:\n",
      "a NaN or infinite allowed score is not refused (a silent nan row)"),
    m("no-finite-input-check", V, "    if not np.isfinite(largest):", "    if False:",
      "causal attention accepts NaN and infinities in q, k, v"),
    m("unmasked-is-masked", A, "    return causal_attention_forward.plain(q, k, v, causal=False)[0]",
      "    return causal_attention_forward.plain(q, k, v, causal=True)[0]",
      "the negative control keeps the causal mask, so it can never see a leak"),
    # ---- scaled dot products (§1, §2)
    m("missing-scale", F, "    scale = q.dtype.type(1.0 / np.sqrt(d))", "    scale = q.dtype.type(1.0)",
      "fast_causal_attention forgets the 1/sqrt(d) scale"),
    m("scores-missing-scale", A, "    return (q * q.dtype.type(1 / np.sqrt(q.shape[-1]))) @",
      "    return (q * q.dtype.type(1)) @",
      "attention_scores (the definition, the weights of §4) forgets the 1/sqrt(d) scale"),
    m("scale-by-d", F, "    scale = q.dtype.type(1.0 / np.sqrt(d))", "    scale = q.dtype.type(1.0 / d)",
      "scores divided by d instead of sqrt(d)"),
    # ---- blocks and threads (§5)
    m("keys-off-by-one", F, "        n_keys = tk - tq + stop if skip_future else tk",
      "        n_keys = tk - tq + stop - 1 if skip_future else tk",
      "each block of queries of the fast form computes one key too few (its last query may miss itself)"),
    m("readable-keys-off-by-one", B, "        n_keys = tk - tq + stop if skip_future else tk",
      "        n_keys = tk - tq + stop - 1 if skip_future else tk",
      "each block of queries of the readable blocked form computes one key too few"),
    m("readable-mask-of-the-first-block", B, "~future[start:stop, :n_keys]", "~future[:stop - start, :n_keys]",
      "every block of the readable blocked form takes the mask rows of the first block"),
    m("readable-values-unsliced", B, "        out[..., start:stop, :] = weights @ v[..., :n_keys, :]",
      "        out[..., start:stop, :] = weights @ v[..., -n_keys:, :]",
      "the readable blocked form weighs the last n_keys values instead of the first"),
    m("no-division-after-product", F, "        weighted /= sums", "        pass",
      "the fast attention forgets to divide by the sums after the product"),
    m("tasks-miss-the-remainder", F, "for row in range(0, n, group)]", "for row in range(0, n - n % group, group)]",
      "the rows grouped into tasks for the threads leave the last N mod group (batch, head) rows uncomputed"),
    m("work-counts-everything", B, "    computed = sum((stop - start) * (tk - tq + stop if skip_future else tk)",
      "    computed = tq * tk + 0 * sum((stop - start)",
      "attention_work reports the whole table, hiding the saving"),
    # ---- dtypes
    m("dtype-of-first-argument", V, "    dtype = np.result_type(*converted)", "    dtype = converted[0].dtype",
      "the result has the dtype of the first argument, not the common dtype"),
    m("integers-kept", V, "            a = a.astype(np.float64)\n", "            pass\n",
      "integer arrays are not converted to float64"),
    # ---- heads (§2)
    m("plain-reshape-split", A, "    return np.swapaxes(heads, -3, -2)                                   # (B, H, T, d)",
      "    return heads.reshape(*x.shape[:-2], n_heads, x.shape[-2], x.shape[-1] // n_heads)",
      "split_heads reshapes (B, T, D) straight to (B, H, T, d) without moving the head axis"),
    m("plain-reshape-merge", A, "    heads_last = np.swapaxes(x, -3, -2)                         # (B, T, H, d)",
      "    heads_last = x.reshape(*x.shape[:-3], x.shape[-2], x.shape[-3], x.shape[-1])",
      "merge_heads reshapes back without swapping the head and time axes"),
    m("forgotten-w-o", A, "    return merged @ w_o, MultiHeadSaved(", "    return merged, MultiHeadSaved(",
      "multi_head_attention forgets the output projection W_O"),
    m("w-o-before-merge", A, "for w in (w_q, w_k, w_v))   # 3 x (B, H, T, d)",
      "for w in (w_q, w_k, w_v @ w_o))", "W_O applied to the values before the heads are merged (and again after)"),
    m("w-q-for-w-k", A, "for w in (w_q, w_k, w_v))   # 3 x (B, H, T, d)", "for w in (w_q, w_q, w_v))",
      "the keys are projected with W_Q"),
    m("n-heads-unchecked", V, "    n_heads = integer(n_heads, \"n_heads\")\n", "",
      "n_heads is not checked where it enters (2.0 or -2 fail late, deep in reshape)"),
    # ---- positions (§3)
    m("ignored-offset", P, "    return token_table[ids] + position_table[offset:offset + ids.shape[-1]]",
      "    return token_table[ids] + position_table[:ids.shape[-1]]",
      "embed ignores the offset: every chunk starts at position 0"),
    m("assignment-not-scatter-add", P, "    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))",
      "    d_token[ids.reshape(-1)] = grad.reshape(-1, D)",
      "the token gradient is assigned, so a repeated id keeps only its last gradient"),
    m("float64-position-gradient", P, "    d_position = np.zeros((context_size, D), dtype=grad.dtype)",
      "    d_position = np.zeros((context_size, D))",
      "the position gradient is float64 for float32 input"),
    m("backward-ignores-offset", P, "    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)",
      "    d_position[:T] = grad.reshape(-1, T, D).sum(axis=0)",
      "the position gradient lands on rows 0..T-1 whatever the offset"),
    m("position-gradient-mean", P, "grad.reshape(-1, T, D).sum(axis=0)", "grad.reshape(-1, T, D).mean(axis=0)",
      "the position gradient averages over the batch instead of summing"),
    m("no-upper-position-check", V, "    if offset < 0 or offset + length > context_size:", "    if offset < 0:",
      "positions past the table are not refused"),
    m("negative-ids-accepted", V, "    bad = ids[(ids < 0) | (ids >= vocab_size)]", "    bad = ids[ids >= vocab_size]",
      "a negative id (IGNORE = -100) silently reads a row from the end of the table"),
    # ---- the model and its cache (§5)
    m("cache-at-position-0", V, "    position = len(cache) if position is None else position",
      "    position = 0 if position is None else position", "every cached step takes position 0"),
    m("step-reads-before-storing", M, "    heads = causal_attention.plain(q, cache.keys, cache.values)",
      "    heads = causal_attention.plain(q, cache.keys[:, :-1], cache.values[:, :-1])",
      "the new query reads the cache without its own key and value"),
    m("key-stored-as-value", M, "    cache._store(k[:, 0], v[:, 0])", "    cache._store(k[:, 0], k[:, 0])",
      "step stores the key in the value slot"),
    m("truncate-up-to-capacity", V, "    if length > len(cache):", "    if length > cache.capacity:",
      "KVCache.truncate accepts any length up to the capacity, 'keeping' positions never stored"),
    m("cache-full-off-by-one", V, "    if len(cache) == cache.capacity:", "    if len(cache) > cache.capacity:",
      "append into a full cache is not refused clearly"),
    m("token-not-checked", V,
      "    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):\n        shaped",
      "    if False:\n        shaped", "step accepts [3] or [3, 4] and stores head 0's key in every head"),
    m("cache-dtype-float64", M, "        return KVCache(*self.cache_layout)", "        return KVCache(*self.cache_layout[:3], np.float64)",
      "the cache is always float64"),
    m("model-heads-unchecked", V, "    head_width(E.shape[1], n_heads)\n", "",
      "the model constructor accepts any n_heads (it fails later)"),
    # ---- the data protocol (§1)
    m("wrong-padding-id", D, "    inputs = np.full((len(texts), T), EOS, dtype=np.int64)", "    inputs = np.full((len(texts), T), UNK, dtype=np.int64)",
      "inputs are padded with UNK instead of EOS"),
    m("inputs-padded-with-ignore", D, "    inputs = np.full((len(texts), T), EOS, dtype=np.int64)",
      "    inputs = np.full((len(texts), T), IGNORE, dtype=np.int64)",
      "inputs are padded with IGNORE = -100, which is not a token"),
    Mutant("targets-not-shifted", D, [(
        "        targets[b, :len(ids)] = ids\n        targets[b, len(ids)] = EOS\n",
        "        targets[b, :len(ids) + 1] = inputs[b, :len(ids) + 1]\n")],
      "targets are the inputs themselves, not shifted by one"),
    m("eos-not-scored", D, "        targets[b, len(ids)] = EOS\n", "        targets[b, len(ids)] = IGNORE\n",
      "the real end of a text is not scored"),
    m("vocab-not-sorted", D, "    return SPECIAL_TOKENS + sorted(set(\"\".join(texts)))",
      "    return SPECIAL_TOKENS + list(dict.fromkeys(\"\".join(texts)))",
      "the vocabulary keeps first-appearance order instead of code-point order"),
    # ---- the checks (§4, §5)
    m("check-skips-last-prefix-row", C, "    return float(row_changes.plain(forward, inputs, perturbed)[:prefix_length].max())",
      "    return float(row_changes.plain(forward, inputs, perturbed)[:max(prefix_length - 1, 1)].max())",
      "the causality check skips the last row of the prefix"),
    m("upper-right-loosened", C, "    return bool(np.all(weights[..., future] == 0))",
      "    return bool(np.all(np.abs(weights[..., future]) < 1e-6))",
      "'upper right is zero' loosened to 'below 1e-6'"),
    m("random-model-scale", C, "(rng.standard_normal((width, width)) / np.sqrt(width)).astype(dtype)",
      "(rng.standard_normal((width, width)) / width).astype(dtype)",
      "random_model's projections have variance 1/width^2 instead of 1/width"),
    m("perturbation-may-keep-ids", C, "        shift = rng.integers(1, vocab_size, size=future.shape)",
      "        shift = rng.integers(0, vocab_size, size=future.shape)",
      "perturb_future may leave a future id unchanged"),
    m("passed-ignores-control", C, "        return self.causal and self.control_saw_change", "        return self.causal",
      "a causality check passes without its negative control"),
    m("control-boundary", C, "        return self.control_change > self.tolerance", "        return self.control_change >= self.tolerance",
      "a control change equal to the tolerance counts as seeing the change"),
    m("feature-norm-over-time", C, "    mean = x.mean(axis=-1, keepdims=True)                             # (..., T, 1)",
      "    mean = x.mean(axis=-2, keepdims=True)",
      "feature_normalization takes its mean over time, which leaks the future"),
    m("cache-error-last-row-only", C, "    return float(np.abs(incremental_forward(model, ids) - full).max())",
      "    return float(np.abs(incremental_forward(model, ids) - full)[-1].max())",
      "cache_error compares only the last position"),
    m("incremental-ignores-positions", C, "position=None if positions is None else int(positions[t]))",
      "position=None)", "incremental_forward ignores the positions it is given (the reset bug cannot be shown)"),
    m("kv-bytes-one-tensor", C, "    return 2 * n_layers * n_heads * length * head_width * batch * itemsize",
      "    return n_layers * n_heads * length * head_width * batch * itemsize",
      "kv_cache_bytes counts keys but not values"),
    # ---- added after the first full run scored 100 %: bugs no test was written against
    m("no-max-subtraction", A, "    weights -= weights.max(axis=-1, keepdims=True)", "    weights -= 0",
      "the softmax does not subtract the row maximum: large scores overflow to inf / inf = nan"),
    m("split-h-and-d-swapped", A, "    heads = x.reshape(*x.shape[:-1], n_heads, x.shape[-1] // n_heads)",
      "    heads = x.reshape(*x.shape[:-1], x.shape[-1] // n_heads, n_heads)",
      "split_heads swaps H and d in the reshape (invisible whenever H == d, as in the chapter's model)"),
    m("embed-offset-off-by-one", P, "    return token_table[ids] + position_table[offset:offset + ids.shape[-1]]",
      "    return token_table[ids] + position_table[offset + 1:offset + ids.shape[-1] + 1]",
      "embed starts one row after the offset (the cached token reads the next position's row)"),
    m("cache-keys-one-too-many", M, "        return self._keys[:, :self._length]                     # (H, n, d)",
      "        return self._keys[:, :self._length + 1]",
      "the cache exposes one unwritten (zero) key slot past its length"),
    m("perturbation-from-prefix-row", C, "    future = np.moveaxis(inputs, axis, 0)[prefix_length:]",
      "    future = np.moveaxis(inputs, axis, 0)[prefix_length - 1:-1]",
      "perturb_future computes the new future from ids shifted by one position (the last prefix id)"),
    # ---- costs (§2)
    m("score-flops-one-product", K, "    score_flops = 2 * 2 * B * heads * T * T * head_width",
      "    score_flops = 2 * B * heads * T * T * head_width",
      "head_costs counts q k^T but not weights @ v"),
    m("entries-per-layer-not-head", K, "    attention_entries = B * heads * T * T", "    attention_entries = B * T * T * ones",
      "head_costs counts one attention table per layer instead of one per head"),
]


# --------------------------------------------------------------------------

def applies(mutant):
    text = (ROOT / mutant.path).read_text(encoding="utf-8")
    return all(text.count(old) == 1 for old, _ in mutant.edits)


def apply(mutant, text):
    for old, new in mutant.edits:
        count = text.count(old)
        if count != 1:
            raise SystemExit(f"mutant {mutant.name}: its text occurs {count} times in {mutant.path} "
                             f"(expected once); update MUTANTS:\n{old}")
        text = text.replace(old, new)
    return text


def restore_leftovers():
    """Put back a file a crashed earlier run left mutated."""
    if not BACKUP.exists():
        return
    for saved in BACKUP.rglob("*.py"):
        target = ROOT / saved.relative_to(BACKUP)
        print(f"restoring {target.relative_to(ROOT)} from an interrupted run", file=sys.stderr)
        shutil.copyfile(saved, target)
        saved.unlink()


def run_tests(timeout):
    """Run the lib tests; return (None, seconds) if all pass, else (the first failing test, seconds)."""
    with tempfile.TemporaryDirectory() as pycache:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=pycache, PYTHONDONTWRITEBYTECODE="1")
        tests = [path for path in LIB_TESTS if (ROOT / path).exists()]
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
    path = ROOT / mutant.path
    original = path.read_text(encoding="utf-8")
    mutated = apply(mutant, original)
    backup = BACKUP / mutant.path
    backup.parent.mkdir(parents=True, exist_ok=True)
    backup.write_text(original, encoding="utf-8")
    try:
        path.write_text(mutated, encoding="utf-8")
        return run_tests(timeout)
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
                        help="leave out mutants whose text is not in lib (to score an older lib) instead of stopping")
    args = parser.parse_args()

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
        apply(mutant, (ROOT / mutant.path).read_text(encoding="utf-8"))
    if args.list:
        for mutant in chosen:
            print(f"{mutant.name:<30} {mutant.path:<18} {mutant.description}")
        return 0

    signal.signal(signal.SIGTERM, interrupt)                  # kill PID restores the file like Ctrl-C
    caught_by, seconds = run_tests(args.timeout)
    if caught_by is not None:
        print(f"the lib tests fail without any mutant ({caught_by}); fix them first", file=sys.stderr)
        return 2
    print(f"lib tests pass unmutated in {seconds:.0f} s; {len(chosen)} mutants, tests: {' '.join(LIB_TESTS)}\n")
    print(f"{'mutant':<30} {'file':<18} {'caught by':<70} description")
    survivors = []
    try:
        for mutant in chosen:
            caught_by, seconds = run_mutant(mutant, args.timeout)
            if caught_by is None:
                survivors.append(mutant)
            print(f"{mutant.name:<30} {mutant.path:<18} {caught_by or 'SURVIVED':<70} {mutant.description}", flush=True)
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
