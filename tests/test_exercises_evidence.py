"""The exercises of the second edition against hostile answers: what the source check
(grading.usage) must refuse, and what it must let through.

evidence-1 is an independent check only if it is written in plain Python, so its
``forbidden_modules`` are ``numpy`` and ``lib``: every way of reaching them from the
function (a module-level alias, an import inside it, ``from numpy import ...``, a helper
that uses NumPy, a value bound to ``np``) gets no points.  data-1, cost-1 and cache-1
must not call the library's answer (``collate``, the two cost functions, the full
forward pass instead of the cache).
"""

import json
import pathlib
import textwrap

import numpy as np
import pytest

from course_i18n import LANGUAGES
from grading import usage
from grading.cells import prepare_cell
from grading.exercises import EXERCISES, check
from grading.feedback import message

ROOT = pathlib.Path(__file__).resolve().parent.parent
SETUP = "import math\nimport numpy as np\nfrom lib import checks\n"

def solution_source(stem, name):
    """The solved notebook's definition of ``name`` (the answer the course ships)."""
    nb = json.loads((ROOT / "solutions" / "en" / f"{stem}.ipynb").read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and source.startswith(f"def {name}("):
            return source + "\n"
    raise LookupError(name)


HONEST = solution_source("ex06_evidence", "attention_py")
DOT = "sum(a * b for a, b in zip(query, k[j][lo:hi]))"
assert DOT in HONEST and "math.exp" in HONEST

NUMPY_BODY = '''
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    {imports}x = {np}.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError("width")
    d = D // n_heads
    q, k, v = ((x @ {np}.asarray(w)).reshape(-1, n_heads, d).swapaxes(0, 1) for w in (w_q, w_k, w_v))
    s = q @ k.swapaxes(-1, -2) / math.sqrt(d)
    if causal:
        s = {np}.where({np}.tril({np}.ones(s.shape[-2:], dtype=bool)), s, -{np}.inf)
    e = {np}.exp(s - s.max(-1, keepdims=True))
    heads = (e / e.sum(-1, keepdims=True)) @ v
    return (heads.swapaxes(0, 1).reshape(len(x), D) @ {np}.asarray(w_o)).tolist()
'''


def verdict(exercise_id, *cells):
    ex = EXERCISES[exercise_id]
    code = [(i + 1, prepare_cell(textwrap.dedent(c)) or "") for i, c in enumerate(cells)]
    return usage.analyze(code, ex.function, usage.forbidden_table(ex))


def run(exercise_id, func):
    ex = EXERCISES[exercise_id]
    cases = ex.public_cases() + ex.hidden_cases(5)
    return [ex.compare(ex.expected(c), ex.call(func, c))[0] for c in cases]


def define(source, name):
    scope = {"np": np, "math": __import__("math"), "__name__": "__main__"}
    exec(source, scope)
    return scope[name]


def test_the_plain_python_answer_passes_and_is_not_flagged():
    assert verdict("evidence-1", SETUP, HONEST) is None
    assert all(run("evidence-1", define(HONEST, "attention_py")))


@pytest.mark.parametrize("cells", [
    (SETUP, NUMPY_BODY.format(imports="", np="np")),                                  # the notebook's np
    (SETUP, NUMPY_BODY.format(imports="import numpy\n    ", np="numpy")),              # imported inside
    (SETUP, "xp = np\n" + NUMPY_BODY.format(imports="", np="xp")),                     # an alias of np
    (SETUP, "from numpy import exp as np_exp\n" + HONEST.replace("math.exp", "np_exp")),  # one numpy function
    (SETUP, "def _dot(a, b):\n    return float(np.dot(a, b))\n" +                      # a helper that uses numpy
     HONEST.replace(DOT, "_dot(query, k[j][lo:hi])")),
    (SETUP, '''
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    from lib.attention import multi_head_attention
    import numpy
    return multi_head_attention(numpy.asarray(x)[None], *map(numpy.asarray, (w_q, w_k, w_v, w_o)),
                                n_heads, causal=causal)[0].tolist()
'''),
    (SETUP, '''
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    model = checks.chapter_model()                  # anything of lib, even a building block
    return HONEST_RESULT
'''),
    (SETUP, '''
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    from lib import plain_python                    # §6.2's own plain-Python route is lib too
    return [plain_python.read(row, x[:i + 1] if causal else x, n_heads, w_o) for i, row in enumerate(x)]
'''),
], ids=["np", "import-inside", "alias", "from-numpy", "helper", "lib-reference", "lib-building-block",
        "lib-plain-python"])
def test_numpy_or_lib_in_the_pure_python_exercise_gets_no_points(cells):
    found = verdict("evidence-1", *cells)
    assert found is not None and found.kind == "module" and found.name in ("numpy", "lib"), found
    assert found.line > 0


def test_the_numpy_answer_is_right_but_refused():
    # the values agree with lib: only the source check stands between it and full marks
    numpy_answer = define(NUMPY_BODY.format(imports="", np="np"), "attention_py")
    assert all(run("evidence-1", numpy_answer))
    assert verdict("evidence-1", SETUP, NUMPY_BODY.format(imports="", np="np")).kind == "module"


def numpy_attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    d = len(w_q) // n_heads
    q, k, v = (np.asarray(x) @ np.asarray(w) for w in (w_q, w_k, w_v))
    rows = []
    for i in range(len(x)):
        keys = i + 1 if causal else len(x)
        row = []
        for h in range(n_heads):
            s = q[i, h * d:(h + 1) * d] @ k[:keys, h * d:(h + 1) * d].T / np.sqrt(d)
            e = np.exp(s - s.max())
            row.append(e / e.sum() @ v[:keys, h * d:(h + 1) * d])
        rows.append(np.concatenate(row) @ np.asarray(w_o))
    return np.array(rows).tolist()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_refusal_is_explained_in_the_notebook_language(lang, capsys):
    check("evidence-1", numpy_attention_py, lang=lang)
    out = capsys.readouterr().out
    marker = {"zh": "不计分", "en": "no points", "ru": "не получает баллов"}[lang]
    assert "numpy" in out and marker in out, out
    assert message("uses_module", lang, function="f", name="numpy", where="x").count("numpy") == 1


def test_other_exercises_may_still_use_numpy():
    assert verdict("mask-2", "import numpy as np", '''
def masked_softmax(scores, allowed):
    masked = np.where(allowed, scores, -np.inf)
    e = np.exp(masked - masked.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)
''') is None


@pytest.mark.parametrize("exercise_id, cells, culprit", [
    ("data-1", ("from lib.data import collate as lib_collate",
                "def collate(texts, vocab):\n    return lib_collate(texts, vocab)\n"), "lib.data.collate"),
    ("data-1", ("import lib.data as D", "def collate(texts, vocab):\n    return D.collate(list(texts), vocab)\n"),
     "lib.data.collate"),
    ("cost-1", ("from lib import checks, costs",
                "def attention_costs(batch, length, width, n_heads, n_layers, dtype):\n"
                "    import numpy as np\n    i = np.dtype(dtype).itemsize\n"
                "    return (n_layers * int(costs.head_costs(n_heads, width, length)['parameters']),\n"
                "            checks.kv_cache_bytes(n_layers, n_heads, width // n_heads, length, batch, i))\n"),
     "lib.c"),                               # head_costs or kv_cache_bytes, whichever the check meets first
    ("cache-1", ("import numpy as np",
                 "def continue_padded(model, inputs, targets, tokens):\n"
                 "    rows = []\n    for b in range(len(inputs)):\n"
                 "        n = int((targets[b] != -100).sum())\n"
                 "        rows.append(model.forward(np.append(inputs[b, :n], tokens[b]))[-1])\n"
                 "    return np.stack(rows)\n"), "forward()"),
])
def test_the_library_answer_is_refused(exercise_id, cells, culprit):
    found = verdict(exercise_id, *cells)
    assert found is not None and found.kind == "reference" and culprit in found.name, found


def test_a_shared_cache_is_caught():
    """cache-1: one cache for the whole batch makes later rows read the earlier rows' keys."""
    shared = define('''
def continue_padded(model, inputs, targets, tokens):
    cache = model.new_cache()
    out = []
    for b in range(len(inputs)):
        for token in inputs[b][targets[b] != -100]:
            model.step(int(token), cache)
        out.append(model.step(int(tokens[b]), cache))
    return np.stack(out)
''', "continue_padded")
    results = run("cache-1", shared)
    assert not all(results) and any(results)


def test_the_eos_as_padding_mistake_is_caught():
    """data-1: treating every EOS target as padding loses the scored EOS."""
    wrong = define('''
def collate(texts, vocab):
    from lib.data import collate as c
    inputs, targets = c(texts, vocab)
    return inputs, np.where(targets == 2, -100, targets)
''', "collate")
    assert not any(ok for ok in run("data-1", wrong)[:4])
