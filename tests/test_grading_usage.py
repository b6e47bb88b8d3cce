"""The source check of grading.usage: the early warning check() prints in a notebook.

The grader decides by behaviour (tests/test_grading_behaviour.py); this analysis only
warns.  It must still find the plain ways of using a reference (so the warning comes
early) and report as "dynamic" what it cannot follow, and it must not flag honest
solutions, building blocks the exercises allow or look-alike code.
"""

import textwrap

import pytest

from grading import usage
from grading.cells import prepare_cell
from grading.registry import EXERCISES


def verdict(exercise_id, *cells):
    ex = EXERCISES[exercise_id]
    code = [(i + 1, prepare_cell(textwrap.dedent(c)) or "") for i, c in enumerate(cells)]
    return usage.analyze(code, ex.function, usage.forbidden_table(ex))


HONEST_SOFTMAX = """
import numpy as np

def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("masked_softmax: a row of allowed has no True entry")   # the name in a message is fine
    masked = np.where(allowed, scores, -np.inf)
    w = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return w / w.sum(axis=-1, keepdims=True)
"""


@pytest.mark.parametrize("cells", [
    (HONEST_SOFTMAX,),
    ("from lib.attention import masked_softmax", HONEST_SOFTMAX),              # imported first, then redefined
    ("import lib\nprint(lib.attention.masked_softmax([[0.0]], [[True]]))", HONEST_SOFTMAX),   # used outside
    (HONEST_SOFTMAX, "import sys\nprint(sys.version)"),
    (HONEST_SOFTMAX + "\nclass Box:\n    def __init__(self):\n        self.__cache = {}\n",),
    (HONEST_SOFTMAX, "%timeit masked_softmax([[0.0]], [[True]])", "!ls"),
], ids=["plain", "import-then-define", "used-elsewhere", "sys-version", "private-attribute", "magics"])
def test_honest_solutions_are_not_flagged(cells):
    assert verdict("mask-2", *cells) is None


def test_allowed_building_blocks_are_not_flagged():
    heads3 = """
    import numpy as np
    from lib.attention import causal_attention

    def split_heads(x, n_heads):
        return np.swapaxes(x.reshape(*x.shape[:-1], n_heads, -1), -3, -2)

    def merge_heads(x):
        x = np.swapaxes(x, -3, -2)
        return x.reshape(*x.shape[:-2], -1)

    def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
        q, k, v = (split_heads(x @ w, n_heads) for w in (w_q, w_k, w_v))
        return merge_heads(causal_attention(q, k, v)) @ w_o
    """
    assert verdict("heads-3", heads3) is None
    assert verdict("cache-1", "def continue_padded(model, inputs, targets, tokens):\n"
                              "    cache = model.new_cache()\n"
                              "    return [model.step(int(t), cache) for t in inputs[0]]") is None


@pytest.mark.parametrize("cells, name", [
    (("from lib.attention import masked_softmax",), "lib.attention.masked_softmax"),
    (("import lib.attention as A\nmasked_softmax = A.masked_softmax",), "lib.attention.masked_softmax"),
    (("import lib\ndef masked_softmax(s, a):\n    return lib.attention.masked_softmax(s, a)",), None),
    (("def masked_softmax(s, a):\n    import lib.attention as A\n    return A.masked_softmax(s, a)",), None),
    (("def masked_softmax(s, a):\n    from lib import attention\n    return attention.masked_softmax(s, a)",), None),
    (("from lib import attention as att\nms = att.masked_softmax\ndef masked_softmax(s, a):\n    return ms(s, a)",), None),
    (("import lib.attention as A\ndef masked_softmax(s, a, f=A.masked_softmax):\n    return f(s, a)",), None),
    (("import lib.attention as A\nTOOLS = {'f': A.masked_softmax}\ndef masked_softmax(s, a):\n"
      "    return TOOLS['f'](s, a)",), None),
    (("import lib.attention as A\ndef helper(s, a):\n    return A.masked_softmax(s, a)",
      "def masked_softmax(s, a):\n    return helper(s, a)"), None),
    (("import lib\ndef make():\n    f = lib.attention.masked_softmax\n    return lambda s, a: f(s, a)\n"
      "masked_softmax = make()",), None),                                       # the wrapper's closure
    (("import lib.attention as A\nclass Softmax:\n    def __call__(self, s, a):\n        return A.masked_softmax(s, a)\n"
      "masked_softmax = Softmax()",), None),
    (("import lib.attention as A\nimport functools\n@functools.wraps(A.masked_softmax)\n"
      "def masked_softmax(s, a):\n    return 0",), None),
    (("from lib.attention import *\ndef masked_softmax(s, a):\n    return 0", "from lib.attention import *"), None),
    (("import lib.attention as A\ndef masked_softmax(s, a):\n    return getattr(A, 'masked_softmax')(s, a)",), None),
    (("import lib.attention\nif True:\n    masked_softmax = lib.attention.masked_softmax\nelse:\n"
      "    def masked_softmax(s, a):\n        return 0",), None),
    (("import lib.attention as A\nms = None\ndef setup():\n    global ms\n    ms = A.masked_softmax\n"
      "def masked_softmax(s, a):\n    return ms(s, a)",), None),
], ids=["import", "alias", "attribute-chain", "local-import", "local-from-import", "module-alias", "default-argument",
        "container", "helper", "closure", "callable-object", "decorator", "star-import", "getattr-literal",
        "conditional", "global-statement"])
def test_reference_use_is_found(cells, name):
    found = verdict("mask-2", *cells)
    assert found is not None and found.kind == "reference", found
    assert found.name == (name or "lib.attention.masked_softmax")


@pytest.mark.parametrize("cells, what", [
    (("import lib.attention as A\ndef masked_softmax(s, a):\n    return getattr(A, 'masked_' + 'softmax')(s, a)",),
     "getattr"),
    (("import sys\ndef masked_softmax(s, a):\n    return sys.modules['lib.attention'].masked_softmax(s, a)",),
     "sys.modules"),
    (("import importlib\ndef masked_softmax(s, a):\n    return importlib.import_module('lib.attention').masked_softmax(s, a)",),
     "importlib"),
    (("ns = {'__name__': 'lib.attention'}\nexec('def masked_softmax(s, a):\\n    return 0', ns)\n"
      "masked_softmax = ns['masked_softmax']",), "exec"),                       # a namespace that claims to be lib
    (("def masked_softmax(s, a):\n    return __import__('lib.attention').attention.masked_softmax(s, a)",), "__import__"),
    (("import numpy as np\ndef masked_softmax(s, a):\n    return np.asarray.__globals__['x']",), "__globals__"),
    (("import lib\ndef masked_softmax(s, a):\n    m = [lib][0]\n    return m.attention.masked_softmax(s, a)",), "lib"),
    (("def masked_softmax(s, a):\n    return 0", "globals()['masked_softmax'] = 1"), "globals"),
    (("import threading\ndef masked_softmax(s, a):\n    return 0\nthreading.Thread(target=print).start()",),
     "threading"),
    (("import os\nif os.fork() == 0:\n    pass\ndef masked_softmax(s, a):\n    return 0",), "os.fork"),
    (("import signal\nsignal.signal(signal.SIGALRM, print)\ndef masked_softmax(s, a):\n    return 0",), "signal"),
    (("from operator import attrgetter\nimport lib\ndef masked_softmax(s, a):\n"
      "    return attrgetter('attention.masked_softmax')(lib)(s, a)",), "attrgetter|module lib"),
    (("from operator import attrgetter\ndef masked_softmax(s, a):\n    return attrgetter('shape')(s)",), "attrgetter"),
    (("def masked_softmax(s, a):\n    return 0", "get_ipython().run_cell('x = 1')"), "get_ipython"),
], ids=["getattr-computed", "sys-modules", "importlib", "fake-lib-namespace", "dunder-import", "function-globals",
        "module-as-value", "globals", "thread", "fork", "signal-handler", "attrgetter", "attrgetter-alone",
        "get-ipython"])
def test_what_cannot_be_followed_is_refused(cells, what):
    found = verdict("mask-2", *cells)
    assert found is not None and found.kind == "dynamic", found
    assert any(w in str(found.name) for w in what.split("|")), found


def test_identity_catches_re_exports():
    """lib.model imports split_heads from lib.attention: the same object under another name."""
    found = verdict("heads-1", "import lib.model as M\ndef split_heads(x, n):\n    return M.split_heads(x, n)")
    assert found is not None and found.kind == "reference" and found.name == "lib.attention.split_heads"


def test_a_function_from_outside_the_notebook_is_refused():
    found = verdict("mask-2", "open('helper.py', 'w').write('x = 1')", "from helper import masked_softmax")
    assert found is not None and found.kind == "elsewhere" and found.name == "helper"
    assert verdict("mask-2", "def other():\n    return 1").kind == "undefined"


def test_findings_name_the_cell_and_line():
    found = verdict("mask-2", "x = 1", "import lib.attention as A\n\ndef masked_softmax(s, a):\n    return A.masked_softmax(s, a)")
    assert (found.cell, found.line) == (2, 4)


def test_the_analysis_is_bounded():
    """A notebook of thousands of mutually referring functions is followed to a fixed limit, quickly."""
    many = "\n".join(f"def f{i}(x):\n    return f{i + 1}(x)" for i in range(usage.MAX_UNITS + 50))
    found = verdict("mask-2", many, "def masked_softmax(s, a):\n    return f0(s)")
    assert found is not None and found.kind == "dynamic"
