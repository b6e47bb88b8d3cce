"""§5.1's statement about PyTorch, checked against the torch that is installed.

The page says, in NumPy and in words, that ``scaled_dot_product_attention(..., is_causal=True)``
builds its mask top-left (``torch.ones(L, S).tril(diagonal=0)``), so that with one new query and
three cached keys the query reads key 0 only, and that the allowed set passed as ``attn_mask``
makes torch agree with ``lib.attention.causal_attention``.  These tests run the real torch on the
page's own arrays (the code cells of src/chapters/05_cache.py, executed here) and run the
side-by-side code block the page shows, so a torch release that changed its rule would fail them.
torch is optional for learners: the tests skip without it, and fail under CI=true.
"""

import json
import pathlib
import re
import sys

import numpy as np
import pytest

from conftest import require_or_skip

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from course_i18n import LANGUAGES  # noqa: E402
from lib.attention import causal_allowed, causal_attention, masked_softmax, attention_scores  # noqa: E402
from tools.nbsource import load  # noqa: E402

SOURCE = ROOT / "src" / "chapters" / "05_cache.py"
BLOCK = re.compile(r"```python\n(.*?)```", re.S)


@pytest.fixture(scope="module")
def torch():
    return require_or_skip("torch", "§5.1 states how torch.nn.functional.scaled_dot_product_attention aligns "
                                    "is_causal=True when there are fewer queries than keys")


@pytest.fixture(scope="module")
def page():
    """The names §5's code cells define, up to the cell that writes PyTorch's rule in NumPy."""
    space = {"__name__": "chapter_05"}
    for cell in load(SOURCE):
        if cell.kind == "code":
            exec(compile(cell.text["en"], str(SOURCE), "exec"), space)
            if "def torch_is_causal" in cell.text["en"]:
                return space
    pytest.fail(f"{SOURCE.relative_to(ROOT)} no longer writes PyTorch's rule (def torch_is_causal)")


def side_by_side(lang):
    """The torch code block of §5.1's prose in the committed notebook of ``lang``."""
    cells = json.loads((ROOT / "chapters" / lang / "05_cache.ipynb").read_text(encoding="utf-8"))["cells"]
    blocks = [b for c in cells if c["cell_type"] == "markdown"
              for b in BLOCK.findall("".join(c["source"])) if "scaled_dot_product_attention" in b]
    assert len(blocks) == 1, f"chapters/{lang}/05_cache.ipynb shows {len(blocks)} torch blocks"
    return blocks[0]


def code_lines(block):
    return [line.split("#")[0].rstrip() for line in block.splitlines() if line.split("#")[0].strip()]


def test_the_block_is_the_same_code_in_every_language():
    en = code_lines(side_by_side("en"))
    assert any("is_causal=True" in line for line in en) and any("attn_mask" in line for line in en)
    for lang in LANGUAGES:
        assert code_lines(side_by_side(lang)) == en, lang


@pytest.mark.parametrize("L, S", [(1, 3), (2, 5), (3, 3), (4, 9)])
def test_is_causal_is_the_top_left_rule_the_page_writes(torch, page, L, S):
    rng = np.random.default_rng(L * 10 + S)
    q, k, v = rng.standard_normal((L, 4)), rng.standard_normal((S, 4)), rng.standard_normal((S, 3))
    got = torch.nn.functional.scaled_dot_product_attention(
        *(torch.from_numpy(a) for a in (q, k, v)), is_causal=True).numpy()
    rule = page["torch_is_causal"](L, S)
    np.testing.assert_allclose(got, masked_softmax(attention_scores(q, k), rule) @ v, rtol=0, atol=1e-12)
    assert (rule == causal_allowed(L, S)).all() == (L == S)       # top-left and bottom-right meet only when square


def test_the_cached_step_of_the_page_reads_key_0_only_with_is_causal(torch, page):
    """One query (雨) and the three keys of the cache <bos> 春 雨: torch's is_causal reads key 0 only, and the
    output merged through W_O is the page's torch_yu, the output of <bos>; attn_mask=allowed gives lib's."""
    q = torch.from_numpy(page["q_yu"])                          # (H, 1, d)
    k, v = torch.from_numpy(page["cache"].keys), torch.from_numpy(page["cache"].values)   # (H, 3, d)
    assert (q.shape[-2], k.shape[-2]) == (1, 3)
    F = torch.nn.functional
    top_left = F.scaled_dot_product_attention(q, k, v, is_causal=True).numpy()
    np.testing.assert_allclose(top_left, page["cache"].values[:, :1], rtol=0, atol=1e-12)   # key 0 only
    merge = page["merge_heads"]
    w_o = page["model"].w_o
    np.testing.assert_allclose(merge(top_left[None])[0] @ w_o, page["torch_yu"], rtol=0, atol=1e-12)
    allowed = F.scaled_dot_product_attention(q, k, v, attn_mask=torch.from_numpy(causal_allowed(1, 3))).numpy()
    np.testing.assert_allclose(merge(allowed[None])[0] @ w_o, page["lib_yu"], rtol=0, atol=1e-12)
    assert np.abs(page["torch_yu"] - page["lib_yu"]).max() > 0.1


@pytest.mark.parametrize("step", ["one query, three cached keys", "two queries after three keys", "square"])
def test_the_side_by_side_of_the_page_runs_and_agrees_where_it_says(torch, page, step):
    q, k, v = {"one query, three cached keys": (page["q_yu"], page["cache"].keys, page["cache"].values),
               "two queries after three keys": (page["q_step"], page["keys"], page["values"]),
               "square": (page["keys"], page["keys"], page["values"])}[step]
    L, S = q.shape[-2], k.shape[-2]
    space = {"causal_attention": causal_attention, "causal_allowed": causal_allowed, "q": q, "k": k, "v": v}
    exec(side_by_side("en"), space)
    y_lib, y_torch, y_top_left = (np.asarray(space[name]) for name in ("y_lib", "y_torch", "y_top_left"))
    np.testing.assert_allclose(y_torch, y_lib, rtol=0, atol=1e-12)               # "the same as lib for every tq <= tk"
    assert np.allclose(y_top_left, y_lib, rtol=0, atol=1e-12) == (L == S)      # "the same as lib only when tq == tk"
    from torch.nn.attention.bias import causal_lower_right    # "the same bottom-right mask as a CausalBias"
    lower_right = torch.nn.functional.scaled_dot_product_attention(
        *(torch.from_numpy(a) for a in (q, k, v)), attn_mask=causal_lower_right(L, S))
    np.testing.assert_allclose(lower_right.numpy(), y_lib, rtol=0, atol=1e-12)
