"""The catalogue of wrong code: named bug operators, and the mutants they make of a correct function.

A *bug operator* turns a correct function into a plausible wrong one.  Most
operators are transformations of the function's syntax tree (``<=`` becomes
``<``, ``-np.inf`` becomes ``0.0``, a ``k=`` or a slice bound moves by one,
the subtraction of the row maximum disappears ...), so they apply wherever
their pattern occurs, whatever the names and the formatting; a few that no
pattern of the source can express wrap the function instead (its float32
results come back as float64).  Each operator is declared once, in
:data:`OPERATORS`, with a sentence saying what it does.

A *mutant* is a correct function with one operator applied at one place
(a *site*), or two operators at two places (a pair).  :func:`mutants` makes
them for a function and every helper it calls by name (in
:mod:`grading.references` or in ``lib``): the helper's mutated copy is what
the mutated function calls.  Mutants are built on demand and cached; building
one compiles only the function that changed.

Everything that needs wrong code draws on this catalogue, and nothing else
writes wrong code:

* the diagnoses (:mod:`grading.diagnoses`) run the mutants of an exercise's
  answer on the tests a learner's function failed, and name the mistake whose
  outputs match;
* the corpus of wrong answers (``tests/mistakes/``) writes an entry that is an
  operator applied to an answer as
  ``bug("mask-1", "square", "one-argument-for-another", "mask-1/square")``
  (exercise, the entry's slug, the operator, the diagnosis it should get);
* the mutation run (``tools/mutants.py``) applies operators to ``lib`` to see
  which of lib's tests catches each.

The operators that come from bugs seen in public projects name the project
and its issue in their description.
"""

import ast
import copy
import functools
import inspect
import itertools
import re
import textwrap
import types
from dataclasses import dataclass, field

import numpy as np

from .cells import AST_LOCK             # CPython 3.11 cannot build syntax trees in two threads at once

__all__ = ["Operator", "OPERATORS", "Site", "Mutant", "Base", "base", "mutants", "pairs", "operator"]


# --------------------------------------------------------------------------------------
# Helpers on syntax trees
# --------------------------------------------------------------------------------------

def _is_call(node, *names):
    """node is a call of one of ``names``: ``f(...)``, ``np.f(...)``, ``x.f(...)`` (attribute's last part)."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
    return name in names


def _call_name(node):
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _is_np_attr(node, attr):
    return isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name) \
        and node.value.id in ("np", "numpy", "math")


def _is_minus_inf(node):
    """-np.inf, -math.inf, float('-inf'), -float('inf')."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = node.operand
        return _is_np_attr(inner, "inf") or (_is_call(inner, "float") and inner.args
                                             and isinstance(inner.args[0], ast.Constant)
                                             and str(inner.args[0].value).lower() in ("inf", "infinity"))
    return (_is_call(node, "float") and len(node.args) == 1 and isinstance(node.args[0], ast.Constant)
            and str(node.args[0].value).lower() in ("-inf", "-infinity"))


def _const(value):
    return ast.Constant(value=value)


def _plus(node, k):
    """node + k, folded when node is an int constant or already ``x + c`` / ``x - c``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return _const(node.value + k)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and isinstance(node.operand.value, int):
        return _const(-node.operand.value + k)
    if isinstance(node, ast.BinOp) and isinstance(node.right, ast.Constant) and isinstance(node.right.value, int) \
            and isinstance(node.op, (ast.Add, ast.Sub)):
        c = node.right.value if isinstance(node.op, ast.Add) else -node.right.value
        c += k
        if c == 0:
            return node.left
        return ast.BinOp(left=node.left, op=ast.Add() if c > 0 else ast.Sub(), right=_const(abs(c)))
    return ast.BinOp(left=node, op=ast.Add() if k > 0 else ast.Sub(), right=_const(abs(k)))


def _assignments(root):
    """{name: value node} of the simple assignments ``name = value`` in ``root`` (the last one wins)."""
    out = {}
    for node in ast.walk(root):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            out[node.targets[0].id] = node.value
    return out


def _is_integer_like(node):
    """An expression that plausibly holds an integer (a position, a length, an index)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int) and not isinstance(node.value, bool)
    if isinstance(node, ast.Name):
        return node.id not in _NOT_POSITIONS
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, (ast.Add, ast.Sub, ast.FloorDiv, ast.Mult)) and \
            _is_integer_like(node.left) and _is_integer_like(node.right)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _is_integer_like(node.operand)
    if isinstance(node, ast.Call):
        return _call_name(node) in ("len", "int", "sum", "shape")
    if isinstance(node, ast.Subscript):            # x.shape[-1], np.shape(k)[1]
        v = node.value
        return (isinstance(v, ast.Attribute) and v.attr == "shape") or _is_call(v, "shape")
    if isinstance(node, ast.Attribute):
        return node.attr in ("context_size", "vocab_size", "n_heads", "width", "n_layers", "ndim", "size")
    return False


_NOT_POSITIONS = frozenset({"tol", "atol", "rtol", "eps", "tolerance", "replacement", "replacement_token", "ids",
                            "token", "tokens", "text", "texts", "x", "w", "r", "c", "a", "scale", "weights"})

REMOVE = object()        # an operator's answer: remove this statement


# --------------------------------------------------------------------------------------
# Operators
# --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Operator:
    """A named bug.  ``rewrite(node, root)`` returns the wrong version of ``node`` (a new node, a list of
    statements, or :data:`REMOVE`), or None where the operator does not apply; it may also change ``root``
    (the function being mutated), which is always a private copy.  ``wrap(func)`` instead returns a wrong
    function made from the right one (an operator no pattern of the source expresses)."""
    name: str
    description: str
    rewrite: object = None
    wrap: object = None
    changes_root: bool = False          # rewrite() also changes the function (not only the node it is given)
    matches: object = None              # for those: a quick test of the node, before the function is copied


OPERATORS = {}


def operator(name, description, *, wrap=None, changes_root=False, matches=None):
    """Declare an operator: ``@operator(name, description)`` on ``rewrite(node, root)``, or
    ``operator(name, description, wrap=f)`` for a wrapper."""
    if wrap is not None:
        OPERATORS[name] = Operator(name, description, wrap=wrap)
        return OPERATORS[name]

    def declare(rewrite):
        if name in OPERATORS:
            raise ValueError(f"operator {name!r} is declared twice")
        OPERATORS[name] = Operator(name, description, rewrite=rewrite, changes_root=changes_root,
                                   matches=matches)
        return rewrite
    return declare


_STRICT = {ast.LtE: ast.Lt, ast.GtE: ast.Gt}
_LOOSE = {ast.Lt: ast.LtE, ast.Gt: ast.GtE}
_NEGATED = {ast.Lt: ast.GtE, ast.LtE: ast.Gt, ast.Gt: ast.LtE, ast.GtE: ast.Lt, ast.Eq: ast.NotEq,
            ast.NotEq: ast.Eq}


def _swap_op(table):
    def rewrite(node, root):
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in table:
            return ast.Compare(left=node.left, ops=[table[type(node.ops[0])]()], comparators=node.comparators)
        return None
    return rewrite


operator("strict-for-loose", "a comparison made strict: `<=` becomes `<`, `>=` becomes `>` (a tie is lost)")(
    _swap_op(_STRICT))
operator("loose-for-strict", "a strict comparison made loose: `<` becomes `<=`, `>` becomes `>=` (a tie counts)")(
    _swap_op(_LOOSE))
operator("negated-comparison", "a comparison turned into its opposite: `<=` becomes `>`, `==` becomes `!=` ...")(
    _swap_op(_NEGATED))


def _bound_sites(node, root):
    """The integer expressions of ``node`` an off-by-one moves: [(parent, field, index or None)]."""
    out = []
    if isinstance(node, ast.Compare) and isinstance(node.ops[-1], (ast.Lt, ast.LtE, ast.Gt, ast.GtE)):
        last = node.comparators[-1]
        if _is_integer_like(last) and not (isinstance(last, ast.Constant) and last.value == 0):
            out.append((node, "comparators", len(node.comparators) - 1))
    if isinstance(node, ast.Slice):
        for f in ("lower", "upper"):
            value = getattr(node, f)
            if value is not None and _is_integer_like(value) and not (isinstance(value, ast.Constant)
                                                                      and value.value in (0, 1, -1)):
                out.append((node, f, None))
    if isinstance(node, ast.keyword) and node.arg in ("k", "offset", "position", "start", "stop"):
        out.append((node, "value", None))
    if isinstance(node, ast.Subscript) and isinstance(node.slice, (ast.Name, ast.BinOp)) and \
            _is_integer_like(node.slice) and isinstance(node.ctx, ast.Load):
        out.append((node, "slice", None))
    if isinstance(node, ast.Call) and _call_name(node) in ("range", "arange") and node.args:
        for i, arg in enumerate(node.args[:2]):
            if _is_integer_like(arg) and not (isinstance(arg, ast.Constant) and arg.value == 0):
                out.append((node, "args", i))
    return out


def _off_by(k):
    def rewrite(node, root):
        sites = _bound_sites(node, root)
        if not sites:
            return None
        new = copy.copy(node)
        parent, f, i = sites[0]                        # one site per node: the first bound it holds
        if i is None:
            setattr(new, f, _plus(getattr(node, f), k))
        else:
            values = list(getattr(node, f))
            values[i] = _plus(values[i], k)
            setattr(new, f, values)
        return new
    return rewrite


operator("one-more", "off by one upwards: a bound, a `k=`, an index or an offset one larger")(_off_by(1))
operator("one-less", "off by one downwards: a bound, a `k=`, an index or an offset one smaller")(_off_by(-1))


@operator("upper-bound-one-more", "a slice's end one larger (the slice keeps one element too many)")
def _upper_more(node, root):
    if isinstance(node, ast.Slice) and node.lower is not None and node.upper is not None:
        return ast.Slice(lower=node.lower, upper=_plus(node.upper, 1), step=node.step)
    return None


@operator("zero-fill", "forbidden entries filled with 0 instead of −inf (exp(0) = 1 still gives them weight)")
def _zero_fill(node, root):
    return _const(0.0) if _is_minus_inf(node) else None


@operator("finite-fill", "forbidden entries filled with a large finite negative number (−1e9) instead of −inf")
def _finite_fill(node, root):
    return _const(-1e9) if _is_minus_inf(node) else None


def _is_max_call(node):
    return _is_call(node, "max", "amax") and not (isinstance(node.func, ast.Name) and len(node.args) > 1)


@operator("no-max-subtraction", "the row maximum is not subtracted before exp (large scores overflow)")
def _no_max(node, root):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and _is_max_call(node.right):
        return node.left
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and isinstance(node.right, ast.Name) and \
            _is_call(_assignments(root).get(node.right.id), "max"):
        return node.left                            # top = max(scores); exp(s - top)
    if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Sub) and _is_max_call(node.value):
        return REMOVE
    return None


def _where_fill(node):
    """``np.where(allowed, scores, -inf)`` -> (allowed, scores)."""
    if _is_call(node, "where") and len(node.args) == 3 and _is_minus_inf(node.args[2]):
        return node.args[0], node.args[1]
    return None


class _Returns(ast.NodeTransformer):
    def __init__(self, wrap):
        self.wrap = wrap

    def visit_FunctionDef(self, node):           # the returns of nested functions are theirs
        return node if getattr(self, "_inside", False) else self._enter(node)

    def _enter(self, node):
        self._inside = True
        node.body = [self.visit(s) for s in node.body]
        return node

    def visit_Lambda(self, node):
        return node

    def visit_Return(self, node):
        if node.value is not None:
            node.value = self.wrap(node.value)
        return node


@operator("mask-after-softmax", "softmax over every key first, then the forbidden weights set to 0 (rows no longer "
          "sum to 1)", changes_root=True,
          matches=lambda node: _where_fill(node) is not None)
def _mask_after(node, root):
    found = _where_fill(node)
    if found is None:
        return None
    allowed, scores = found
    _Returns(lambda value: ast.Call(func=ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), attr="where",
                                                       ctx=ast.Load()),
                                    args=[copy.deepcopy(allowed), value, _const(0.0)], keywords=[]))._enter(root)
    return scores


@operator("no-mask", "the mask not applied at all: every key may be read")
def _no_mask(node, root):
    found = _where_fill(node)
    return copy.deepcopy(found[1]) if found is not None else None


@operator("max-over-all-entries", "the maximum subtracted is taken over every entry, forbidden ones included")
def _max_over_all(node, root):
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and _is_max_call(node.right)):
        return None
    call = node.right
    target = call.func.value if isinstance(call.func, ast.Attribute) and _call_name(call) == "max" else \
        (call.args[0] if call.args else None)
    if not isinstance(target, ast.Name):
        return None
    source = _assignments(root).get(target.id)
    found = _where_fill(source) if source is not None else None
    if found is None:
        return None
    _, scores = found
    new_call = copy.deepcopy(call)
    if isinstance(new_call.func, ast.Attribute) and _call_name(new_call) == "max" and not call.args:
        new_call.func.value = copy.deepcopy(scores)
    else:
        new_call.args[0] = copy.deepcopy(scores)
    return ast.BinOp(left=node.left, op=ast.Sub(), right=new_call)


@operator("max-over-whole-array", "the maximum subtracted before exp taken over the whole array, not per row: "
          "`s - s.max(axis=-1, keepdims=True)` becomes `s - s.max()` (a row far below the largest score of "
          "another row underflows to 0 / 0)")
def _max_over_whole_array(node, root):
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and _is_max_call(node.right)):
        return None
    call = node.right
    method = isinstance(call.func, ast.Attribute) and _call_name(call) == "max"
    has_axis = any(k.arg == "axis" for k in call.keywords) or len(call.args) > (0 if method else 1)
    if not has_axis:
        return None
    new_call = copy.deepcopy(call)
    new_call.keywords = [k for k in new_call.keywords if k.arg not in ("axis", "keepdims")]
    new_call.args = [] if method else new_call.args[:1]
    return ast.BinOp(left=node.left, op=ast.Sub(), right=new_call)


_REDUCTIONS = ("max", "amax", "sum", "mean", "var", "std", "min", "softmax")


@operator("wrong-axis", "a reduction over the wrong axis: `axis=-1` becomes `axis=-2`")
def _wrong_axis(node, root):
    if isinstance(node, ast.Call) and _call_name(node) in _REDUCTIONS:
        for i, k in enumerate(node.keywords):
            if k.arg == "axis" and ast.unparse(k.value) == "-1":
                new = copy.copy(node)
                new.keywords = list(node.keywords)
                new.keywords[i] = ast.keyword(arg="axis", value=_const(-2))
                return new
    return None


@operator("first-axis", "a reduction over the first axis: `axis=-1` becomes `axis=0` (right for 2-D input only "
          "when the axes happen to agree)")
def _first_axis(node, root):
    if isinstance(node, ast.Call) and _call_name(node) in _REDUCTIONS:
        for i, k in enumerate(node.keywords):
            if k.arg == "axis" and ast.unparse(k.value) == "-1":
                new = copy.copy(node)
                new.keywords = list(node.keywords)
                new.keywords[i] = ast.keyword(arg="axis", value=_const(0))
                return new
    return None


def _transpose_target(node):
    """The array a swap of axes rearranges: np.swapaxes(X, ...), X.swapaxes(...), X.transpose(...), X.T,
    np.moveaxis(X, ...), np.transpose(X, ...)."""
    if isinstance(node, ast.Call):
        name = _call_name(node)
        if name in ("swapaxes", "moveaxis", "transpose"):
            if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and \
                    node.func.value.id in ("np", "numpy"):
                return node.args[0] if node.args else None
            if isinstance(node.func, ast.Attribute):
                return node.func.value
    if isinstance(node, ast.Attribute) and node.attr == "T":
        return node.value
    return None


@operator("reshape-without-transpose", "the axes are not swapped but the array is reshaped to the swapped shape "
          "(the shape is right, the contents mixed)")
def _reshape_only(node, root):
    target = _transpose_target(node)
    if target is None:
        return None
    shape = ast.Attribute(value=copy.deepcopy(node), attr="shape", ctx=ast.Load())
    return ast.Call(func=ast.Attribute(value=copy.deepcopy(target), attr="reshape", ctx=ast.Load()),
                    args=[shape], keywords=[])


@operator("no-transpose", "the axes are not swapped at all")
def _no_transpose(node, root):
    target = _transpose_target(node)
    return copy.deepcopy(target) if target is not None else None


@operator("dropped-product", "a matrix product left out: `a @ w` becomes `a` (a projection forgotten)")
def _dropped_product(node, root):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        return node.left
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 2 and \
            isinstance(node.args[1], ast.Name) and node.args[1].id == "w_o":
        return node.args[0]
    return None


def _is_sqrt(node):
    return _is_call(node, "sqrt") and len(node.args) == 1


@operator("no-scale", "the scores are not divided by √d")
def _no_scale(node, root):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and _is_sqrt(node.right):
        return node.left
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
            and node.targets[0].id == "scale":
        return ast.Assign(targets=node.targets, value=_const(1.0), lineno=node.lineno)
    return None


@operator("scale-by-d", "the scores are divided by d instead of √d")
def _scale_by_d(node, root):
    if _is_sqrt(node) and isinstance(node.args[0], (ast.Name, ast.Subscript)):
        return node.args[0]
    return None


@operator("scale-by-full-width", "each head's scores are divided by √D (the whole width) instead of √d (the "
          "head's width)")
def _scale_by_full_width(node, root):
    if not _is_sqrt(node):
        return None
    arg = node.args[0]
    if isinstance(arg, ast.Name):
        value = _assignments(root).get(arg.id)
        if isinstance(value, ast.BinOp) and isinstance(value.op, (ast.FloorDiv, ast.Div)):
            new = copy.deepcopy(node)
            new.args = [copy.deepcopy(value.left)]
            return new
    if isinstance(arg, ast.Subscript) and isinstance(arg.value, ast.Attribute) and arg.value.attr == "shape":
        heads = copy.deepcopy(arg)
        heads.slice = _const(-3)
        new = copy.deepcopy(node)
        new.args = [ast.BinOp(left=copy.deepcopy(arg), op=ast.Mult(), right=heads)]
        return new
    return None


def _is_refusal(node):
    """``if ...: raise ...`` or ``if ...: return False`` (no else)."""
    return isinstance(node, ast.If) and not node.orelse and node.body and (
        isinstance(node.body[-1], ast.Raise) or (len(node.body) == 1 and isinstance(node.body[0], ast.Return) and
                                                 isinstance(node.body[0].value, ast.Constant) and
                                                 node.body[0].value.value is False))


@operator("dropped-check", "a check that refuses bad input left out (the input is accepted)")
def _dropped_check(node, root):
    return REMOVE if _is_refusal(node) else None


@operator("no-abs", "the absolute value left out: a change downwards is lost")
def _no_abs(node, root):
    if _is_call(node, "abs", "absolute") and len(node.args) == 1:
        return node.args[0]
    return None


@operator("no-abs-other-order", "the absolute value left out and the difference taken the other way round: "
          "`abs(a - b)` becomes `b - a` (a change of the other sign is lost)")
def _no_abs_other_order(node, root):
    if _is_call(node, "abs", "absolute") and len(node.args) == 1 and isinstance(node.args[0], ast.BinOp) and \
            isinstance(node.args[0].op, ast.Sub):
        return ast.BinOp(left=node.args[0].right, op=ast.Sub(), right=node.args[0].left)
    return None


def _squared_deviation(node, root):
    """(x, m) when ``node`` is ``(x - m) ** 2`` or ``c * c`` with ``c = x - m`` assigned in ``root``."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and isinstance(node.right, ast.Constant) and \
            node.right.value == 2 and isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.Sub):
        return node.left.left, node.left.right
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and isinstance(node.left, ast.Name) and \
            isinstance(node.right, ast.Name) and node.left.id == node.right.id:
        value = _assignments(root).get(node.left.id)
        if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Sub):
            return value.left, value.right
    return None


@operator("variance-from-moments", "the variance computed as E[x²] − E[x]²: `((x - mean) ** 2).mean(axis=-1, "
          "keepdims=True)` becomes `(x ** 2).mean(axis=-1, keepdims=True) - mean ** 2`, which cancels almost every "
          "digit when the values are large next to their spread")
def _variance_from_moments(node, root):
    if not (_is_call(node, "mean") and isinstance(node.func, ast.Attribute) and not node.args):
        return None
    found = _squared_deviation(node.func.value, root)
    if found is None:
        return None
    x, m = found
    square = ast.BinOp(left=copy.deepcopy(x), op=ast.Pow(), right=_const(2))
    mean_of_square = ast.Call(func=ast.Attribute(value=square, attr="mean", ctx=ast.Load()), args=[],
                              keywords=copy.deepcopy(node.keywords))
    return ast.BinOp(left=mean_of_square, op=ast.Sub(),
                     right=ast.BinOp(left=copy.deepcopy(m), op=ast.Pow(), right=_const(2)))


def _reduction(new_name):
    def rewrite(node, root):
        if _is_call(node, "max", "amax") and isinstance(node.func, ast.Attribute) and node.args and \
                isinstance(node.func.value, ast.Name) and node.func.value.id in ("np", "numpy") and \
                _is_call(node.args[0], "abs", "absolute"):
            new = copy.deepcopy(node)
            new.func.attr = new_name
            return new
        return None
    return rewrite


def _booleans_as(dtype):
    def wrap(func):
        @functools.wraps(func)
        def wrong(*args, **kwargs):
            value = func(*args, **kwargs)
            return value.astype(dtype) if isinstance(value, np.ndarray) and value.dtype == bool else value
        return wrong
    return wrap


operator("mean-for-max", "the mean of the absolute changes instead of the largest")(_reduction("mean"))
operator("sum-for-max", "the sum of the absolute changes instead of the largest")(_reduction("sum"))


@operator("batch-mean-for-sum", "a sum over the batch axis written as a mean: `g.sum(axis=0)` becomes "
          "`g.mean(axis=0)` (a gradient shared by every sequence divided by the batch size)")
def _batch_mean_for_sum(node, root):
    if _is_call(node, "sum") and isinstance(node.func, ast.Attribute) and not node.args and \
            any(k.arg == "axis" and ast.unparse(k.value) == "0" for k in node.keywords):
        new = copy.copy(node)
        new.func = ast.Attribute(value=node.func.value, attr="mean", ctx=ast.Load())
        return new
    return None


@operator("dropped-write", "one write into an array left out (a forgotten line such as `targets[b, n] = EOS`)")
def _dropped_write(node, root):
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript):
        return REMOVE
    return None


_PAD = {"EOS": "IGNORE", "IGNORE": "EOS"}


@operator("swapped-padding", "the padding value of an array swapped (EOS where −100 belongs, or −100 where EOS)")
def _swapped_padding(node, root):
    if _is_call(node, "full") and len(node.args) >= 2 and isinstance(node.args[1], ast.Name) and \
            node.args[1].id in _PAD:
        new = copy.deepcopy(node)
        new.args[1] = ast.Name(id=_PAD[node.args[1].id], ctx=ast.Load())
        return new
    return None


@operator("scatter-by-assignment", "a scatter-add written as `a[ids] += g`: a repeated id keeps one gradient only")
def _scatter_by_assignment(node, root):
    if isinstance(node, ast.Expr) and _is_call(node.value, "at") and isinstance(node.value.func, ast.Attribute) \
            and isinstance(node.value.func.value, ast.Attribute) and node.value.func.value.attr == "add" and \
            len(node.value.args) == 3:
        target, index, values = node.value.args
        return ast.AugAssign(target=ast.Subscript(value=copy.deepcopy(target), slice=copy.deepcopy(index),
                                                  ctx=ast.Store()), op=ast.Add(), value=copy.deepcopy(values))
    return None


@operator("argument-ignored", "an argument has no effect: every use of it takes its default value instead",
          changes_root=True, matches=lambda node: isinstance(node, ast.arguments))
def _argument_ignored(node, root):
    if not isinstance(node, ast.arguments) or node is not root.args:
        return None
    defaults = dict(zip([a.arg for a in node.args[len(node.args) - len(node.defaults):]], node.defaults))
    if not defaults:
        return None
    # the last parameter with a default (offset, eps, tol, causal): its uses become the default
    name = [a.arg for a in node.args if a.arg in defaults][-1]
    default = defaults[name]

    class Use(ast.NodeTransformer):
        def visit_Name(self, n):
            if n.id == name and isinstance(n.ctx, ast.Load):
                return copy.deepcopy(default)
            return n
    root.body = [Use().visit(s) for s in root.body]
    return node


@operator("threshold-zero", "a tolerance not used: a change is compared with 0 instead of `tol`")
def _threshold_zero(node, root):
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Gt, ast.GtE)) and \
            isinstance(node.comparators[0], ast.Name) and node.comparators[0].id in ("tol", "atol", "tolerance"):
        return ast.Compare(left=node.left, ops=node.ops, comparators=[_const(0.0)])
    return None


@operator("index-zero", "an index or offset reset to 0: the position of every new token is 0, or every layer "
          "reads layer 0's cache")
def _index_zero(node, root):
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Name):
        new = copy.copy(node)
        new.slice = _const(0)
        return new
    return None


@operator("offset-reset", "the offset reset to 0: a position computed from the cache (`len(cache)`) becomes 0")
def _offset_reset(node, root):
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and \
            node.targets[0].id in ("position", "offset", "n", "start") and \
            (_is_call(node.value, "len") or isinstance(node.value, ast.Subscript)):
        return ast.Assign(targets=node.targets, value=_const(0), lineno=node.lineno)
    return None


@operator("offset-from-wrong-axis", "the offset read from the wrong axis of the cache: the number of heads instead "
          "of the number of stored positions (fla-org/flash-linear-attention #126: after a rearrange to "
          "(batch, time, heads, d) the cache was advanced by `q.shape[2]`, the heads axis, instead of `q.shape[1]`, "
          "the number of new tokens)")
def _offset_wrong_axis(node, root):
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Name):
        # the offset kept in a variable (n = np.shape(keys[0])[1]) and read wrongly at one use only: a learner
        # who writes position_table[len(keys[0])] and keeps the check on n right
        value = _assignments(root).get(node.slice.id)
        wrong = _offset_wrong_axis(value, root) if isinstance(value, ast.Subscript) and \
            isinstance(value.slice, ast.Constant) else None
        if wrong is not None:
            new = copy.copy(node)
            new.slice = wrong
            return new
        return None
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and \
            isinstance(node.slice.value, int) and node.slice.value in (1, -2):
        v = node.value
        if (isinstance(v, ast.Attribute) and v.attr == "shape") or _is_call(v, "shape"):
            new = copy.copy(node)
            new.slice = _const(0 if node.slice.value == 1 else -3)
            return new
    return None


@operator("offset-advanced-twice", "the offset advanced by the prompt's length again after the prompt, so the first "
          "generated token sits a prompt's length past its position (skyzh/tiny-llm #46: the offset went 6, 12, 13, "
          "14 ... for a 6-token prompt, incremented by the prompt's size after the first decode step)")
def _offset_twice(node, root):
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Name) and \
            _assignments(root).get(node.slice.id) is not None:
        new = copy.copy(node)
        new.slice = ast.BinOp(left=ast.Name(id=node.slice.id, ctx=ast.Load()), op=ast.Mult(), right=_const(2))
        return new
    return None


@operator("decode-starts-one-later", "a decode step told that it starts one position later than it does "
          "(microsoft/onnxruntime-genai #2354: the varlen decoder set a decode step's past length to the sequence "
          "length that already counted the token being processed, so after a 9-token prompt the steps wrote at "
          "10, 11, ... and position 9 was never written)")
def _starts_later(node, root):
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Name) and \
            isinstance(node.value, ast.Subscript) and isinstance(node.value.slice, ast.Constant) and \
            "position" in str(node.value.slice.value):
        new = copy.copy(node)
        new.slice = _plus(node.slice, 1)
        return new
    return None


@operator("full-cache-off-by-one", "the check for a full cache off by one: the step into the last free row is "
          "refused (pytorch/executorch #5227: a model exported for sequences of length L with a KV cache failed "
          "at run time on an input of length L)")
def _full_cache(node, root):
    if isinstance(node, ast.If) and node.body and isinstance(node.body[-1], ast.Raise) and \
            isinstance(node.test, ast.Compare) and len(node.test.ops) == 1 and \
            isinstance(node.test.ops[0], (ast.GtE, ast.Gt)) and isinstance(node.test.comparators[0],
                                                                           ast.Attribute) and \
            node.test.comparators[0].attr in ("context_size", "capacity"):
        new = copy.deepcopy(node)
        new.test.left = _plus(new.test.left, 1)
        return new
    return None


@operator("prefix-drops-tail", "a prefix taken one position short: the last row of the prefix is not compared")
def _prefix_tail(node, root):
    if isinstance(node, ast.Slice) and node.lower is None and node.upper is not None and node.step is None and \
            isinstance(node.upper, ast.Name):
        return ast.Slice(lower=None, upper=_plus(node.upper, -1), step=None)
    return None


@operator("shared-state", "one state object shared where each unit needs its own: one cache for every row of "
          "the batch")
def _shared_state(node, root):
    if isinstance(node, (ast.For, ast.While)):
        for i, stmt in enumerate(node.body):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                    and isinstance(stmt.value, ast.Call) and _call_name(stmt.value) in ("new_cache", "new_state"):
                new = copy.deepcopy(node)
                moved = new.body.pop(i)
                return [moved, new]
    return None


@operator("in-place-perturbation", "a copy left out: the perturbed array is the original one, changed in place")
def _no_copy(node, root):
    if _is_call(node, "copy") and isinstance(node.func, ast.Attribute) and not node.args:
        return node.func.value
    return None


@operator("top-left-alignment", "queries aligned top-left: query i stands at position i instead of tk - tq + i "
          "(after a cache, the last query should meet the last key)")
def _top_left(node, root):
    if _is_call(node, "arange") and len(node.args) == 2 and isinstance(node.args[0], ast.BinOp) and \
            isinstance(node.args[0].op, ast.Sub) and ast.dump(node.args[0].left) == ast.dump(node.args[1]):
        new = copy.deepcopy(node)
        new.args = [copy.deepcopy(node.args[0].right)]
        return new
    return None


@operator("one-argument-for-another", "an argument replaced by the one before it: every use of `tk` reads `tq`, "
          "say", changes_root=True, matches=lambda node: isinstance(node, ast.arg))
def _argument_for_another(node, root):
    args = root.args.args
    names = [a.arg for a in args[:len(args) - len(root.args.defaults)]]     # those without a default
    if not isinstance(node, ast.arg) or node.arg not in names or names.index(node.arg) == 0:
        return None
    name, other = node.arg, names[names.index(node.arg) - 1]

    class Use(ast.NodeTransformer):
        def visit_Name(self, n):
            return ast.Name(id=other, ctx=ast.Load()) if n.id == name and isinstance(n.ctx, ast.Load) else n
    root.body = [Use().visit(stmt) for stmt in root.body]
    return node


@operator("one-argument-for-the-next", "an argument replaced by the one after it: every use of `inputs` reads "
          "`targets`, say (the shifted text fed where the text belongs)", changes_root=True,
          matches=lambda node: isinstance(node, ast.arg))
def _argument_for_the_next(node, root):
    args = root.args.args
    names = [a.arg for a in args[:len(args) - len(root.args.defaults)]]     # those without a default
    if not isinstance(node, ast.arg) or node.arg not in names or names.index(node.arg) == len(names) - 1:
        return None
    name, other = node.arg, names[names.index(node.arg) + 1]

    class Use(ast.NodeTransformer):
        def visit_Name(self, n):
            return ast.Name(id=other, ctx=ast.Load()) if n.id == name and isinstance(n.ctx, ast.Load) else n
    root.body = [Use().visit(stmt) for stmt in root.body]
    return node


def _head_axes(args):
    """Positions (i, j) of the heads and the head-width arguments of a reshape, or None."""
    heads = [i for i, a in enumerate(args) if isinstance(a, ast.Name) and a.id in ("H", "n_heads", "heads")]
    width = [i for i, a in enumerate(args) if (isinstance(a, ast.Name) and a.id in ("d", "head_width")) or
             (isinstance(a, ast.BinOp) and isinstance(a.op, ast.FloorDiv))]
    if heads and width and heads[0] < width[-1]:
        return heads[0], width[-1]
    return None


@operator("interleaved-heads", "the heads take every H-th feature (h, h+H, …) instead of a contiguous block of d "
          "features")
def _interleaved(node, root):
    if not (_is_call(node, "reshape") and isinstance(node.func, ast.Attribute)):
        return None
    args = node.args
    axes = _head_axes(args)
    if axes is not None:
        i, j = axes
        swapped = list(args)
        swapped[i], swapped[j] = args[j], args[i]
        new = ast.Call(func=node.func, args=swapped, keywords=node.keywords)
        return ast.Call(func=ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), attr="swapaxes", ctx=ast.Load()),
                        args=[new, _const(i - len(args)), _const(j - len(args))], keywords=[])
    if args and isinstance(args[-1], ast.UnaryOp) and isinstance(args[0], ast.Starred):   # a merge: (H, d) -> -1
        receiver = ast.Call(func=ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), attr="swapaxes",
                                               ctx=ast.Load()),
                            args=[node.func.value, _const(-1), _const(-2)], keywords=[])
        return ast.Call(func=ast.Attribute(value=receiver, attr="reshape", ctx=ast.Load()), args=args,
                        keywords=node.keywords)
    return None


@operator("fixed-rank", "axes numbered from the front, `transpose(0, 2, 1, 3)`: right for 4-D input only")
def _fixed_rank(node, root):
    if _is_call(node, "swapaxes") and len(node.args) == 3 and isinstance(node.func, ast.Attribute) and \
            isinstance(node.func.value, ast.Name) and node.func.value.id == "np" and \
            ast.unparse(node.args[1]) == "-3" and ast.unparse(node.args[2]) == "-2":
        return ast.Call(func=ast.Attribute(value=node.args[0], attr="transpose", ctx=ast.Load()),
                        args=[_const(0), _const(2), _const(1), _const(3)], keywords=[])
    return None


@operator("axes-from-the-front", "negative axes written as counted from the front of a 4-D (B, T, H, d) array: "
          "`np.swapaxes(x, -3, -2)` becomes `np.swapaxes(x, 1, 2)` (right for one rank only; with another rank it "
          "swaps other axes or raises)")
def _axes_from_the_front(node, root, rank=4):
    if _is_call(node, "swapaxes", "moveaxis") and len(node.args) == 3:
        axes = [ast.unparse(a) for a in node.args[1:]]
        if all(a.startswith("-") and a[1:].isdigit() for a in axes) and all(rank + int(a) >= 0 for a in axes):
            new = copy.copy(node)
            new.args = [node.args[0]] + [_const(rank + int(a)) for a in axes]
            return new
    return None


@operator("axes-for-one-sequence", "negative axes written as counted from the front of one sequence's 3-D array "
          "(T, H, d), with no batch axis: `np.swapaxes(x, -3, -2)` becomes `np.swapaxes(x, 0, 1)` (right without a "
          "batch axis, wrong with one; `.T`, `transpose(1, 0, 2)` and `moveaxis(x, -2, 0)` fail alike)")
def _axes_for_one_sequence(node, root):
    return _axes_from_the_front(node, root, rank=3)


@operator("slice-from-zero", "a window that should start at an offset starts at 0: `t[offset:offset + T]` becomes "
          "`t[:T]` (the offset reset to 0)")
def _slice_from_zero(node, root):
    if isinstance(node, ast.Slice) and isinstance(node.lower, ast.Name) and isinstance(node.upper, ast.BinOp) and \
            isinstance(node.upper.op, ast.Add) and isinstance(node.upper.left, ast.Name) and \
            node.upper.left.id == node.lower.id:
        return ast.Slice(lower=None, upper=node.upper.right, step=None)
    return None


def _window(node):
    """``a:a + T`` -> (a, T)."""
    if isinstance(node, ast.Slice) and node.lower is not None and isinstance(node.upper, ast.BinOp) and \
            isinstance(node.upper.op, ast.Add) and ast.dump(node.upper.left) == ast.dump(node.lower):
        return node.lower, node.upper.right
    return None


def _rows(lower, length):
    return ast.BinOp(left=lower, op=ast.Add(), right=ast.Call(
        func=ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), attr="arange", ctx=ast.Load()), args=[length],
        keywords=[]))


@operator("positions-wrapped", "positions past the table wrap round to its start (modulo) instead of being refused")
def _wrapped(node, root):
    if isinstance(node, ast.Subscript) and _window(node.slice) is not None:
        lower, length = _window(node.slice)
        size = ast.Call(func=ast.Name(id="len", ctx=ast.Load()), args=[copy.deepcopy(node.value)], keywords=[])
        new = copy.copy(node)
        new.slice = ast.BinOp(left=_rows(lower, length), op=ast.Mod(), right=size)
        return new
    return None


@operator("positions-wrapped-at-one", "a position past the table wraps round to its start (modulo) instead of being "
          "refused: `table[n]` becomes `table[n % len(table)]`")
def _wrapped_one(node, root):
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Name) and \
            "position" in ast.unparse(node.value):
        size = ast.Call(func=ast.Name(id="len", ctx=ast.Load()), args=[copy.deepcopy(node.value)], keywords=[])
        new = copy.copy(node)
        new.slice = ast.BinOp(left=node.slice, op=ast.Mod(), right=size)
        return new
    return None


@operator("control-is-the-model", "the negative control is the model under test itself, not the same model "
          "without the mask")
def _control_is_model(node, root):
    if isinstance(node, ast.Lambda) and "causal=False" in ast.unparse(node.body):
        names = [a.arg for a in root.args.args]
        if "forward" in names:
            return ast.Name(id="forward", ctx=ast.Load())
    return None


@operator("heads-summed", "the heads added up instead of concatenated: the merged width is d, not H·d")
def _heads_summed(node, root):
    if _is_call(node, "reshape") and isinstance(node.func, ast.Attribute) and node.args and \
            isinstance(node.args[0], ast.Starred) and isinstance(node.args[-1], ast.UnaryOp):
        return ast.Call(func=ast.Attribute(value=node.func.value, attr="sum", ctx=ast.Load()), args=[],
                        keywords=[ast.keyword(arg="axis", value=_const(-2))])
    return None


@operator("positions-by-id", "the position table indexed by the token ids instead of the positions")
def _positions_by_id(node, root):
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and _window(node.slice) is not None and \
            root.args.args and root.args.args[0].arg == "ids":
        new = copy.copy(node)
        new.slice = ast.Name(id="ids", ctx=ast.Load())
        return new
    return None


@operator("positions-by-id-plus-offset", "the position table indexed by the token ids shifted by the offset: "
          "`position_table[offset:offset + T]` becomes `position_table[ids + offset]`")
def _positions_by_id_plus_offset(node, root):
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and _window(node.slice) is not None and \
            root.args.args and root.args.args[0].arg == "ids" and any(a.arg == "offset" for a in root.args.args):
        new = copy.copy(node)
        new.slice = ast.BinOp(left=ast.Name(id="ids", ctx=ast.Load()), op=ast.Add(),
                              right=ast.Name(id="offset", ctx=ast.Load()))
        return new
    return None


@operator("positions-clamped", "positions past the table all read its last row (clamped) instead of being refused")
def _clamped(node, root):
    if isinstance(node, ast.Subscript) and _window(node.slice) is not None:
        lower, length = _window(node.slice)
        size = ast.Call(func=ast.Name(id="len", ctx=ast.Load()), args=[copy.deepcopy(node.value)], keywords=[])
        new = copy.copy(node)
        new.slice = ast.Call(func=ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), attr="minimum",
                                                ctx=ast.Load()),
                             args=[_rows(lower, length), ast.BinOp(left=size, op=ast.Sub(), right=_const(1))],
                             keywords=[])
        return new
    return None


@operator("last-instead-of-sum", "one item of the batch kept instead of the sum over the batch")
def _last_not_sum(node, root):
    if _is_call(node, "sum") and isinstance(node.func, ast.Attribute) and not node.args and \
            any(k.arg == "axis" and ast.unparse(k.value) == "0" for k in node.keywords):
        return ast.Subscript(value=node.func.value, slice=_const(-1), ctx=ast.Load())
    return None


@operator("whole-array", "every row compared instead of the rows that matter: a selection such as `[..., -1, :]` or "
          "`[..., :position, :]` left out")
def _whole_array(node, root):
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Tuple) and \
            any(isinstance(e, ast.Constant) and e.value is Ellipsis for e in node.slice.elts):
        return node.value
    return None


def _dropped_condition(keep):
    def rewrite(node, root):
        if isinstance(node, ast.If) and _is_refusal(node) and isinstance(node.test, ast.BoolOp) and \
                len(node.test.values) >= 2:
            values = node.test.values[:-1] if keep == "first" else node.test.values[1:]
            new = copy.copy(node)
            new.test = values[0] if len(values) == 1 else ast.BoolOp(op=node.test.op, values=values)
            return new
        return None
    return rewrite


operator("dropped-condition", "the last condition of a check left out: `if a or b: raise` becomes `if a: raise`")(
    _dropped_condition("first"))
operator("dropped-first-condition", "the first condition of a check left out: `if a or b: raise` becomes "
         "`if b: raise`")(_dropped_condition("last"))


@operator("without-ellipsis", "the first axis indexed instead of the last: `a[..., [i, j]]` becomes `a[[i, j]]` (in "
          "a batch, whole sequences move)")
def _without_ellipsis(node, root):
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript):
        def strip(sub):
            if isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Tuple) and len(sub.slice.elts) == 2 and \
                    isinstance(sub.slice.elts[0], ast.Constant) and sub.slice.elts[0].value is Ellipsis:
                new = copy.copy(sub)
                new.slice = sub.slice.elts[1]
                return new
            return None
        target, value = strip(node.targets[0]), strip(node.value)
        if target is not None and value is None and isinstance(node.value, (ast.Name, ast.Constant)):
            value = node.value                  # a[..., p:] = r becomes a[p:] = r
        if target is not None and value is not None:
            return ast.Assign(targets=[target], value=value, lineno=node.lineno)
    return None


@operator("index-for-slice", "one position changed instead of every position from it on: `a[..., p:] = r` "
          "becomes `a[..., p] = r`")
def _index_for_slice(node, root):
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
        elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        last = elts[-1]
        if isinstance(last, ast.Slice) and last.lower is not None and last.upper is None:
            new = copy.deepcopy(node)
            if isinstance(new.slice, ast.Tuple):
                new.slice.elts[-1] = copy.deepcopy(last.lower)
            else:
                new.slice = copy.deepcopy(last.lower)
            return new
    return None


@operator("index-for-slice-both-sides", "one position changed instead of every position from it on, on both "
          "sides: `a[..., p:] = f(b[..., p:])` becomes `a[..., p] = f(b[..., p])`")
def _index_for_slice_both(node, root):
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
        return None
    target = _index_for_slice(node.targets[0], root)
    if target is None:
        return None
    whole = node.targets[0].slice
    last = whole.elts[-1] if isinstance(whole, ast.Tuple) else whole
    code = ast.unparse(last)
    value = copy.deepcopy(node.value)
    changed = False
    for sub in ast.walk(value):
        if isinstance(sub, ast.Subscript):
            elts = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
            if isinstance(elts[-1], ast.Slice) and ast.unparse(elts[-1]) == code:
                if isinstance(sub.slice, ast.Tuple):
                    sub.slice.elts[-1] = copy.deepcopy(last.lower)
                else:
                    sub.slice = copy.deepcopy(last.lower)
                changed = True
    if not changed:
        return None
    return ast.Assign(targets=[target], value=value, lineno=node.lineno)


@operator("constant-write", "a fixed value written where the argument (or a value built from it) belongs: the "
          "future replaced by token 0")
def _constant_write(node, root):
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript) and \
            not isinstance(node.value, ast.Constant) and isinstance(node.targets[0].slice, ast.Tuple):
        return ast.Assign(targets=node.targets, value=_const(0), lineno=node.lineno)
    return None


@operator("last-row-only", "one row compared instead of every row before a position: `[..., :p, :]` becomes "
          "`[..., p - 1, :]`")
def _last_row_only(node, root):
    if isinstance(node, ast.Slice) and node.lower is None and node.upper is not None and node.step is None and \
            isinstance(node.upper, ast.Name):
        return _plus(node.upper, -1)
    return None


@operator("condition-always-true", "a test whose branch always runs (a control that is never consulted)")
def _always_true(node, root):
    if isinstance(node, ast.If) and len(node.body) == 1 and isinstance(node.body[0], ast.Return):
        return node.body[0]
    return None


@operator("shifted-range", "a loop over positions shifted by one: `range(1, T)` becomes `range(0, T - 1)`")
def _shifted_range(node, root):
    if _is_call(node, "range") and len(node.args) == 2:
        new = copy.copy(node)
        new.args = [_plus(node.args[0], -1), _plus(node.args[1], -1)]
        return new
    return None


@operator("eps-outside-root", "eps added outside the square root: (x − μ) / (σ + eps) instead of / √(σ² + eps)")
def _eps_outside(node, root):
    if _is_sqrt(node) and isinstance(node.args[0], ast.BinOp) and isinstance(node.args[0].op, ast.Add):
        inner = node.args[0]
        new = copy.deepcopy(node)
        new.args = [inner.left]
        return ast.BinOp(left=new, op=ast.Add(), right=inner.right)
    return None


@operator("no-square-root", "divided by the variance instead of the standard deviation (the square root left out)")
def _no_root(node, root):
    if _is_sqrt(node) and isinstance(node.args[0], ast.BinOp):
        return node.args[0]
    return None


@operator("slice-dropped", "a row taken whole where only its first n entries belong: `inputs[b, :n]` becomes "
          "`inputs[b]` (padding included)")
def _slice_dropped(node, root):
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Tuple) and \
            len(node.slice.elts) == 2 and isinstance(node.slice.elts[1], ast.Slice) and \
            node.slice.elts[1].lower is None and node.slice.elts[1].upper is not None:
        return ast.Subscript(value=node.value, slice=node.slice.elts[0], ctx=ast.Load())
    return None


@operator("slice-from-one", "the first entry skipped: `a[b, :n]` becomes `a[b, 1:n]`")
def _slice_from_one(node, root):
    if isinstance(node, ast.Slice) and node.lower is None and node.upper is not None and node.step is None:
        return ast.Slice(lower=_const(1), upper=node.upper, step=None)
    return None


def _appended(root):
    """{new name: old expression} of ``new = np.concatenate([old, ...], ...)`` assignments."""
    out = {}
    for n in ast.walk(root):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and \
                _is_call(n.value, "concatenate") and n.value.args and isinstance(n.value.args[0], ast.List) and \
                n.value.args[0].elts:
            out[n.targets[0].id] = n.value.args[0].elts[0]
    return out


def _rename_reads(root, table, in_return):
    """After each ``new = np.concatenate([old, ...])``, the target becomes ``new_appended``; later loads of
    ``new`` where the cache is handed back (``in_return``: a return statement, or ``out.append(new)`` that
    collects what is returned, as a step through several layers does) or everywhere else read ``old``, the
    others the appended array."""
    appended = set()

    class Reads(ast.NodeTransformer):
        def __init__(self, returning):
            self.returning = returning

        def visit_Name(self, n):
            if isinstance(n.ctx, ast.Load) and n.id in appended:
                if self.returning == in_return:
                    return copy.deepcopy(table[n.id])
                return ast.Name(id=n.id + "_appended", ctx=ast.Load())
            return n

    def walk(stmts):
        for stmt in stmts:
            if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id in table \
                    and _is_call(stmt.value, "concatenate"):
                Reads(False).visit(stmt.value) if stmt.targets[0].id in appended else None
                appended.add(stmt.targets[0].id)
                stmt.targets[0] = ast.Name(id=stmt.targets[0].id + "_appended", ctx=ast.Store())
                continue
            if isinstance(stmt, (ast.For, ast.While, ast.If, ast.With)):
                walk(stmt.body)
                continue
            Reads(_hands_back(stmt)).visit(stmt)
    walk(root.body)


def _hands_back(stmt):
    """Whether ``stmt`` hands the cache back: ``return ...`` or ``collected.append(...)``."""
    return isinstance(stmt, ast.Return) or (isinstance(stmt, ast.Expr) and _is_call(stmt.value, "append")
                                            and isinstance(stmt.value.func, ast.Attribute))


def _before_and_after_append(in_return):
    def rewrite(node, root):
        table = _appended(root)
        first = next((n.value for n in ast.walk(root)
                      if isinstance(n, ast.Assign) and _is_call(n.value, "concatenate")), None)
        if not table or node is not first:
            return None
        _rename_reads(root, table, in_return=in_return)
        return node
    return rewrite


operator("read-before-append", "the new query reads the cache before its own key and value are appended",
         changes_root=True, matches=lambda node: _is_call(node, "concatenate"))(_before_and_after_append(False))
operator("returns-old-cache", "the cache returned is the one from before the new key and value were appended",
         changes_root=True, matches=lambda node: _is_call(node, "concatenate"))(_before_and_after_append(True))


def _row_of_difference(index):
    def rewrite(node, root):
        if _is_call(node, "abs", "absolute") and len(node.args) == 1 and isinstance(node.args[0], ast.BinOp) and \
                isinstance(node.args[0].op, ast.Sub) and isinstance(node.args[0].left, ast.Name) and \
                isinstance(node.args[0].right, ast.Name):
            diff = node.args[0]
            new = copy.deepcopy(node)
            new.args = [ast.BinOp(left=ast.Subscript(value=diff.left, slice=_const(index), ctx=ast.Load()),
                                  op=ast.Sub(),
                                  right=ast.Subscript(value=diff.right, slice=_const(index), ctx=ast.Load()))]
            return new
        return None
    return rewrite


operator("last-position-only", "only the last position compared")(_row_of_difference(-1))
operator("first-position-only", "only the first position compared")(_row_of_difference(0))


@operator("first-position-skipped", "every position compared but the first: `abs(a - b)` becomes "
          "`abs(a[1:] - b[1:])` (an error at position 0 is never seen)")
def _first_position_skipped(node, root):
    if _is_call(node, "abs", "absolute") and len(node.args) == 1 and isinstance(node.args[0], ast.BinOp) and \
            isinstance(node.args[0].op, ast.Sub) and isinstance(node.args[0].left, ast.Name) and \
            isinstance(node.args[0].right, ast.Name):
        diff = node.args[0]
        rest = ast.Slice(lower=_const(1), upper=None, step=None)
        new = copy.deepcopy(node)
        new.args = [ast.BinOp(left=ast.Subscript(value=diff.left, slice=rest, ctx=ast.Load()), op=ast.Sub(),
                              right=ast.Subscript(value=copy.deepcopy(diff.right), slice=copy.deepcopy(rest),
                                                  ctx=ast.Load()))]
        return new
    return None


@operator("fresh-state", "a fresh cache made at every step, so every token sits at position 0")
def _fresh_state(node, root):
    if isinstance(node, ast.Call) and not isinstance(node.func, ast.Attribute):
        made = {name: value for name, value in _assignments(root).items()
                if isinstance(value, ast.Call) and not value.args and _call_name(value) in ("new_cache", "new_state")}
        for i, arg in enumerate(node.args):
            if isinstance(arg, ast.Name) and arg.id in made:
                new = copy.copy(node)
                new.args = list(node.args)
                new.args[i] = copy.deepcopy(made[arg.id])
                return new
    return None


@operator("prefix-forward", "each step compared with a forward pass over its prefix, not with the full forward pass: "
          "`forward(ids)` becomes `np.stack([forward(ids[:t + 1])[-1] for t in range(len(ids))])` (a forward "
          "pass that reads the future agrees with a causal cache on every prefix)")
def _prefix_forward(node, root):
    if _is_call(node, "forward") and isinstance(node.func, ast.Name) and len(node.args) == 1 and \
            not node.keywords and isinstance(node.args[0], ast.Name) and \
            any(isinstance(v, ast.Call) and not v.args and _call_name(v) in ("new_cache", "new_state")
                for v in _assignments(root).values()):
        ids = node.args[0].id
        with AST_LOCK:
            return ast.parse(f"np.stack([np.asarray(forward({ids}[:_t + 1]))[-1] for _t in range(len({ids}))])",
                             mode="eval").body
    return None


@operator("factory-not-called", "a factory passed where the object it makes belongs: `cache = new_cache()` becomes "
          "`cache = new_cache` (the step then receives a function, not an empty cache)")
def _factory_not_called(node, root):
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and \
            isinstance(node.value, ast.Call) and not node.value.args and not node.value.keywords and \
            _call_name(node.value) in ("new_cache", "new_state"):
        return ast.Assign(targets=node.targets, value=copy.deepcopy(node.value.func), lineno=node.lineno)
    return None


@operator("positive-on-allowed", "a condition the task does not set: every allowed weight must be strictly positive "
          "(`weights < 0` becomes `weights[allowed] <= 0`), so a valid zero weight on an allowed key is rejected")
def _positive_on_allowed(node, root):
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Lt) and \
            isinstance(node.left, ast.Name) and isinstance(node.comparators[0], ast.Constant) and \
            node.comparators[0].value == 0 and "allowed" in _assignments(root):
        left = ast.Subscript(value=copy.deepcopy(node.left), slice=ast.Name(id="allowed", ctx=ast.Load()),
                             ctx=ast.Load())
        return ast.Compare(left=left, ops=[ast.LtE()], comparators=[_const(0)])
    return None


@operator("own-causal-mask", "the allowed set given as an argument ignored for a square causal mask of one's own "
          "(`np.tril` of ones, aligned top-left): other masks, and bottom-right aligned ones, are judged wrongly")
def _own_causal_mask(node, root):
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and \
            node.targets[0].id == "allowed" and _is_call(node.value, "broadcast_to") and len(node.value.args) == 2:
        shape = node.value.args[1]
        with AST_LOCK:
            square = ast.parse(f"np.tril(np.ones({ast.unparse(shape)}[-2:], dtype=bool))", mode="eval").body
        value = copy.deepcopy(node.value)
        value.args = [square, copy.deepcopy(shape)]
        return ast.Assign(targets=node.targets, value=value, lineno=node.lineno)
    return None


@operator("position-dropped", "the position vector left out: `token_table[ids] + position_table[...]` becomes "
          "`token_table[ids]` (the model cannot tell where a token stands)")
def _position_dropped(node, root):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(node.right, ast.Subscript) and \
            "position_table" in ast.unparse(node.right.value) and isinstance(node.left, ast.Subscript) and \
            "token_table" in ast.unparse(node.left.value):
        return node.left
    return None


@operator("one-weight-transposed", "one weight matrix used transposed, `a @ W.T` for `a @ W` (the column-vector habit "
          "of writing W x; a square W keeps its shape, so only the numbers show it)")
def _one_weight_transposed(node, root):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult) and isinstance(node.right, ast.Name) and \
            node.right.id.startswith("w_"):
        return ast.BinOp(left=node.left, op=ast.MatMult(),
                         right=ast.Attribute(value=copy.deepcopy(node.right), attr="T", ctx=ast.Load()))
    return None


@operator("leading-zero-entry", "an entry put in front of a list of results, so that entry p belongs to p: "
          "`np.array(changes)` becomes `np.array([0.0] + changes)` (one entry too many)")
def _leading_zero_entry(node, root):
    if isinstance(node, ast.Return) and _is_call(node.value, "array") and node.value.args and \
            isinstance(node.value.args[0], ast.Name):
        new = copy.deepcopy(node)
        new.value.args[0] = ast.BinOp(left=ast.List(elts=[_const(0.0)], ctx=ast.Load()), op=ast.Add(),
                                      right=new.value.args[0])
        return new
    return None


@operator("diagonal-jacobian", "only the diagonal of the softmax Jacobian: `w * (g - sum(w * g))` becomes "
          "`w * (1 - w) * g` (the cross terms −w_i w_j g_j are lost)")
def _diagonal_jacobian(node, root):
    v = node.value if isinstance(node, ast.Return) else None
    if isinstance(v, ast.BinOp) and isinstance(v.op, ast.Mult) and isinstance(v.left, ast.Name) and \
            isinstance(v.right, ast.BinOp) and isinstance(v.right.op, ast.Sub) and \
            isinstance(v.right.left, ast.Name) and isinstance(v.right.right, ast.Name):
        w, g = v.left.id, v.right.left.id
        with AST_LOCK:
            product = ast.parse(f"{w} * (1 - {w}) * {g}", mode="eval").body
        return ast.Return(value=product, lineno=node.lineno)
    return None


def _from_position(node):
    """``a[..., p:]``: the slice of everything from a position on."""
    return isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple) and len(node.slice.elts) == 2 \
        and isinstance(node.slice.elts[0], ast.Constant) and node.slice.elts[0].value is Ellipsis \
        and isinstance(node.slice.elts[1], ast.Slice) and node.slice.elts[1].lower is not None \
        and node.slice.elts[1].upper is None


@operator("whole-sequence-perturbed", "every token changed, the prefix too: `a[..., p:] = r` becomes `a[...] = r` "
          "(then even a causal model's prefix outputs change)")
def _whole_sequence_perturbed(node, root):
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and _from_position(node.targets[0]):
        new = copy.deepcopy(node)
        for sub in [new.targets[0], *ast.walk(new.value)]:
            if _from_position(sub):
                sub.slice = ast.Constant(value=Ellipsis)
        return new
    return None


@operator("dropped-term", "a term of a difference left out: `a - b` becomes `a`")
def _dropped_term(node, root):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and not _is_max_call(node.right):
        return node.left
    return None


@operator("dropped-middle-term", "the middle term of `a - b - c` left out")
def _dropped_middle(node, root):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and isinstance(node.left, ast.BinOp) and \
            isinstance(node.left.op, ast.Sub):
        return ast.BinOp(left=node.left.left, op=ast.Sub(), right=node.right)
    return None


@operator("swapped-operands", "the operands of a difference swapped: the sign is wrong")
def _swapped_operands(node, root):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and not _is_max_call(node.right):
        return ast.BinOp(left=node.right, op=ast.Sub(), right=node.left)
    return None


@operator("dropped-factor", "a factor of a product left out: `a * b` becomes `a`")
def _dropped_factor(node, root):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return node.left
    return None


@operator("dropped-first-factor", "the first factor of a product left out: `a * b` becomes `b`")
def _dropped_first_factor(node, root):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return node.right
    return None


@operator("fixed-itemsize", "the bytes per number fixed at 4 (float32) whatever the dtype")
def _fixed_itemsize(node, root):
    if isinstance(node, ast.Attribute) and node.attr == "itemsize":
        return _const(4)
    return None


@operator("constant-off-by-one", "a small whole-number constant off by one (3 matrices per layer instead of 4)")
def _constant_off(node, root):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and isinstance(node.right, ast.Constant) and \
            isinstance(node.right.value, int) and node.right.value > 2:
        return ast.BinOp(left=node.left, op=node.op, right=_const(node.right.value - 1))
    return None


def _isclose(a, b):
    return ast.Call(func=ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), attr="isclose", ctx=ast.Load()),
                    args=[a, b], keywords=[])


@operator("tolerance-for-exact-zero", "a tolerance where exact zeros are needed: `x != 0` becomes "
          "`not np.isclose(x, 0)` (a tiny non-zero weight passes)")
def _tolerance_for_zero(node, root):
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)) and \
            isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value == 0:
        close = _isclose(node.left, _const(0.0))
        return close if isinstance(node.ops[0], ast.Eq) else ast.UnaryOp(op=ast.Invert(), operand=close)
    return None


@operator("exact-for-tolerance", "an exact comparison where a tolerance belongs: `|a - b| <= atol` becomes `a == b`")
def _exact_for_tolerance(node, root):
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.LtE, ast.Lt)) and \
            _is_call(node.left, "abs", "absolute") and node.left.args and isinstance(node.left.args[0], ast.BinOp) \
            and isinstance(node.left.args[0].op, ast.Sub):
        diff = node.left.args[0]
        return ast.Compare(left=diff.left, ops=[ast.Eq()], comparators=[diff.right])
    return None


@operator("last-condition-dropped", "the last condition of a check that returns a verdict left out: "
          "`return bool(cond)` becomes `return True`")
def _last_condition_dropped(node, root):
    if isinstance(node, ast.Return) and _is_call(node.value, "bool") and node is root.body[-1]:
        return ast.Return(value=_const(True))
    return None


@operator("raw-for-normalised", "the input used where its normalised form belongs: `x` instead of `x_hat`")
def _raw_for_normalised(node, root):
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id.endswith("_hat"):
        return ast.Name(id=node.id[:-len("_hat")], ctx=ast.Load())
    return None


@operator("unweighted-mean", "a plain mean where a weighted sum belongs: `sum(g * w)` becomes `mean(g)`")
def _unweighted_mean(node, root):
    if _is_call(node, "sum") and node.args and isinstance(node.args[0], ast.BinOp) and \
            isinstance(node.args[0].op, ast.Mult):
        new = copy.deepcopy(node)
        new.func.attr = "mean"
        new.args[0] = copy.deepcopy(node.args[0].left)
        return new
    return None


@operator("variance-over-n-minus-1", "the variance divided by D − 1 (the sample variance) instead of D")
def _bessel(node, root):
    square = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
        isinstance(node.func.value, ast.BinOp) and (isinstance(node.func.value.op, ast.Pow) or (
            isinstance(node.func.value.op, ast.Mult) and
            ast.dump(node.func.value.left) == ast.dump(node.func.value.right)))        # (c ** 2) or (c * c)
    if _is_call(node, "mean") and square:
        axis = next((k.value for k in node.keywords if k.arg == "axis"), _const(-1))
        total = copy.deepcopy(node)
        total.func.attr = "sum"
        count = ast.Subscript(value=ast.Attribute(value=copy.deepcopy(node.func.value), attr="shape",
                                                  ctx=ast.Load()), slice=copy.deepcopy(axis), ctx=ast.Load())
        return ast.BinOp(left=total, op=ast.Div(), right=ast.BinOp(left=count, op=ast.Sub(), right=_const(1)))
    return None


@operator("allclose-for-atol", "the given tolerance ignored for NumPy's default ones: `|a - b| <= atol` becomes "
          "`np.isclose(a, b)` (relative tolerance 1e-5, absolute 1e-8)")
def _allclose_for_atol(node, root):
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.LtE, ast.Lt)) and \
            isinstance(node.comparators[0], ast.Name) and node.comparators[0].id in ("atol", "tol") and \
            _is_call(node.left, "abs", "absolute") and isinstance(node.left.args[0], ast.BinOp) and \
            isinstance(node.left.args[0].op, ast.Sub):
        diff = node.left.args[0]
        return _isclose(diff.left, diff.right)
    return None


@operator("no-keepdims", "a row reduction that loses its axis: `keepdims=True` left out of a sum, mean or max, so "
          "the (..., T) result broadcasts along the wrong axis (wrong numbers for a square input, an error "
          "otherwise)")
def _no_keepdims(node, root):
    if isinstance(node, ast.Call) and _call_name(node) in _REDUCTIONS:
        kept = [k for k in node.keywords if not (k.arg == "keepdims" and isinstance(k.value, ast.Constant)
                                                  and k.value.value is True)]
        if len(kept) < len(node.keywords):
            new = copy.copy(node)
            new.keywords = kept
            return new
    return None


def _is_shape_of(node):
    """``x.shape`` or ``np.shape(x)``: the array ``x``, else None."""
    if isinstance(node, ast.Attribute) and node.attr == "shape":
        return node.value
    if _is_call(node, "shape") and len(node.args) == 1:
        return node.args[0]
    return None


@operator("length-from-first-axis", "a length read from the first axis: `ids.shape[-1]` becomes `len(ids)`, which "
          "is the batch size for a (B, T) batch (the offset bug of fla-org/flash-linear-attention #126 is of this "
          "kind: a length read from the wrong axis)")
def _length_from_first_axis(node, root):
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and \
            ast.unparse(node.slice) == "-1" and _is_shape_of(node.value) is not None:
        return ast.Call(func=ast.Name(id="len", ctx=ast.Load()), args=[copy.deepcopy(_is_shape_of(node.value))],
                        keywords=[])
    return None


@operator("true-division", "a whole-number division written `/`: `width // n_heads` becomes `width / n_heads` (a "
          "float where an int belongs)")
def _true_division(node, root):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv):
        return ast.BinOp(left=node.left, op=ast.Div(), right=node.right)
    return None


@operator("other-side-of-split", "the other side of a position: `a[..., :p]` becomes `a[..., p:]` and back (the "
          "future compared instead of the prefix, or the prefix changed instead of the future)")
def _other_side(node, root):
    if isinstance(node, ast.Slice) and node.step is None and (node.lower is None) != (node.upper is None):
        bound = node.lower if node.lower is not None else node.upper
        if isinstance(bound, ast.Name) or (isinstance(bound, ast.BinOp) and _is_integer_like(bound)):
            return ast.Slice(lower=node.upper, upper=node.lower, step=None)
    return None


@operator("rtol-added", "a relative tolerance added to an absolute one: `|a - b| <= atol` becomes "
          "`np.isclose(a, b, atol=atol)`, whose default rtol=1e-5 loosens the test (np.allclose with its rtol where "
          "atol alone is meant)")
def _rtol_added(node, root):
    found = _allclose_for_atol(node, root)
    if found is None:
        return None
    found.keywords = [ast.keyword(arg="atol", value=copy.deepcopy(node.comparators[0]))]
    return found


def _mentions_eps(node):
    return (isinstance(node, ast.Name) and node.id in ("eps", "epsilon")) or (
        isinstance(node, ast.Call) and len(node.args) == 1 and _mentions_eps(node.args[0]))


@operator("eps-dropped", "eps left out: `var + eps` becomes `var`, so a constant row divides 0 by 0")
def _eps_dropped(node, root):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        if _mentions_eps(node.right):
            return node.left
        if _mentions_eps(node.left):
            return node.right
    return None


@operator("loop-ends-early", "a loop that stops one step early: `range(a, b)` becomes `range(a, b - 1)` (the last "
          "position is never visited)")
def _loop_ends_early(node, root):
    if _is_call(node, "range") and isinstance(node.func, ast.Name) and len(node.args) == 2 and \
            _is_integer_like(node.args[1]):
        new = copy.copy(node)
        new.args = [node.args[0], _plus(node.args[1], -1)]
        return new
    return None


@operator("residual-dropped", "a residual connection left out: `x = x + f(x)` becomes `x = f(x)`")
def _residual_dropped(node, root):
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and \
            isinstance(node.value, ast.BinOp) and isinstance(node.value.op, ast.Add) and \
            isinstance(node.value.left, ast.Name) and node.value.left.id == node.targets[0].id:
        return ast.Assign(targets=node.targets, value=node.value.right, lineno=node.lineno)
    return None


@operator("first-layer-norm-again", "the first layer norm's parameters used for the second one too: "
          "`norm(x, b['ln2.gain'], b['ln2.bias'])` becomes `norm(x, b['ln1.gain'], b['ln1.bias'])`")
def _first_norm_again(node, root):
    if not isinstance(node, ast.Call):
        return None
    new, changed = copy.deepcopy(node), False
    for arg in new.args:
        if isinstance(arg, ast.Subscript) and isinstance(arg.slice, ast.Constant) and \
                isinstance(arg.slice.value, str) and re.fullmatch(r"ln2\.\w+", arg.slice.value):
            arg.slice = _const("ln1" + arg.slice.value[3:])
            changed = True
    return new if changed else None


@operator("zeros-for-full", "an array started from zeros where it is filled with a value: `np.full(shape, EOS, ...)` "
          "becomes `np.zeros(shape, ...)` (padding with id 0)")
def _zeros_for_full(node, root):
    if _is_call(node, "full") and len(node.args) >= 2 and not isinstance(node.args[1], ast.Constant):
        new = copy.deepcopy(node)
        new.func = ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), attr="zeros", ctx=ast.Load())
        new.args = new.args[:1] + new.args[2:]
        return new
    return None


@operator("narrower-dtype", "a dtype narrowed to save memory: `dtype=np.int64` becomes `np.int32` (`np.float64`: "
          "`np.float32`), so the caller gets another dtype than asked for")
def _narrower_dtype(node, root):
    narrow = {"int64": "int32", "float64": "float32"}
    if isinstance(node, ast.keyword) and node.arg == "dtype" and isinstance(node.value, ast.Attribute) and \
            node.value.attr in narrow:
        return ast.keyword(arg="dtype", value=ast.Attribute(value=copy.deepcopy(node.value.value),
                                                            attr=narrow[node.value.attr], ctx=ast.Load()))
    return None


def _block_bounds(node):
    """``lo, hi = h * d, (h + 1) * d`` (a head's contiguous block of features) -> the names lo, hi, h, d."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) and \
            isinstance(node.value, ast.Tuple) and len(node.targets[0].elts) == len(node.value.elts) == 2 and \
            all(isinstance(t, ast.Name) for t in node.targets[0].elts):
        low = node.value.elts[0]
        if isinstance(low, ast.BinOp) and isinstance(low.op, ast.Mult) and isinstance(low.left, ast.Name) and \
                isinstance(low.right, ast.Name):
            return node.targets[0].elts[0].id, node.targets[0].elts[1].id, low.left.id, low.right.id
    return None


@operator("strided-heads", "a head takes every H-th feature (h, h+H, …) instead of its block h·d … h·d + d − 1, in "
          "code that writes the block's bounds out (`q[i][lo:hi]` becomes `q[i][h::H]`, `range(lo, hi)` becomes "
          "`range(h, D, H)`)", changes_root=True, matches=lambda node: _block_bounds(node) is not None)
def _strided_heads(node, root):
    found = _block_bounds(node)
    if found is None:
        return None
    lo, hi, h, d = found
    width = _assignments(root).get(d)
    if not (isinstance(width, ast.BinOp) and isinstance(width.op, ast.FloorDiv)):
        return None
    total, heads = width.left, width.right

    def name(n):
        return ast.Name(id=n, ctx=ast.Load())

    class Stride(ast.NodeTransformer):
        def visit_Slice(self, n):
            if isinstance(n.lower, ast.Name) and n.lower.id == lo and isinstance(n.upper, ast.Name) and \
                    n.upper.id == hi and n.step is None:
                return ast.Slice(lower=name(h), upper=None, step=copy.deepcopy(heads))
            return n

        def visit_Call(self, n):
            self.generic_visit(n)
            if _is_call(n, "range") and len(n.args) == 2 and [ast.unparse(a) for a in n.args] == [lo, hi]:
                return ast.Call(func=n.func, args=[name(h), copy.deepcopy(total), copy.deepcopy(heads)], keywords=[])
            return n
    root.body = [Stride().visit(stmt) for stmt in root.body]
    return node


@operator("other-axes-swapped", "the wrong pair of axes swapped: `np.swapaxes(x, -3, -2)` becomes "
          "`np.swapaxes(x, -2, -1)` (the shape comes out (..., T, d, H))")
def _other_axes_swapped(node, root):
    if _is_call(node, "swapaxes") and len(node.args) == 3 and \
            [ast.unparse(a) for a in node.args[1:]] == ["-3", "-2"]:
        new = copy.copy(node)
        new.args = [node.args[0], _const(-2), _const(-1)]
        return new
    return None


@operator("all-axes-reversed", "a swap of two axes written as a transpose without axes: `np.swapaxes(x, -3, -2)` "
          "becomes `np.transpose(x)`, which reverses every axis, the batch axes too")
def _all_axes_reversed(node, root):
    if _is_call(node, "swapaxes") and len(node.args) == 3 and isinstance(node.func, ast.Attribute) and \
            isinstance(node.func.value, ast.Name) and node.func.value.id in ("np", "numpy"):
        return ast.Call(func=ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), attr="transpose",
                                           ctx=ast.Load()), args=[node.args[0]], keywords=[])
    return None


@operator("comparison-reversed", "the two sides of a comparison swapped: `key <= query` becomes `query <= key` "
          "(the allowed set points to the future instead of the past)")
def _comparison_reversed(node, root):
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.LtE, ast.GtE)) and \
            not isinstance(node.left, ast.Constant) and not isinstance(node.comparators[0], ast.Constant):
        return ast.Compare(left=node.comparators[0], ops=[node.ops[0]], comparators=[node.left])
    return None


@operator("norm-skipped", "a layer normalisation left out: `a = layer_norm(x, gain, bias)[0]` becomes `a = x` (the "
          "sublayer reads the raw residual stream)")
def _norm_skipped(node, root):
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        call = node.value.value if isinstance(node.value, ast.Subscript) else node.value
        if _is_call(call, "layer_norm_forward", "layer_norm") and call.args:
            return ast.Assign(targets=node.targets, value=copy.deepcopy(call.args[0]), lineno=node.lineno)
    return None


@operator("modulo-dropped", "a wrap-around left out: `(ids + 1) % vocab_size` becomes `ids + 1` (the last id steps "
          "outside the vocabulary)")
def _modulo_dropped(node, root):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.BinOp):
        return node.left
    return None


@operator("list-for-array", "a Python list returned where a NumPy array belongs: `np.array(changes, ...)` becomes "
          "`changes`")
def _list_for_array(node, root):
    if isinstance(node, ast.Return) and _is_call(node.value, "array", "asarray") and node.value.args and \
            isinstance(node.value.args[0], (ast.Name, ast.List, ast.ListComp)):
        return ast.Return(value=copy.deepcopy(node.value.args[0]))
    return None


@operator("lower-bound-dropped", "only the upper end of a range checked: `0 <= i < n` becomes `i < n` (a negative "
          "index is accepted, and NumPy counts it from the end)")
def _lower_bound_dropped(node, root):
    if isinstance(node, ast.Compare) and len(node.ops) == 2 and isinstance(node.ops[0], (ast.LtE, ast.Lt)) and \
            isinstance(node.left, ast.Constant) and node.left.value in (0, 1):
        return ast.Compare(left=node.comparators[0], ops=[node.ops[1]], comparators=[node.comparators[1]])
    return None


@operator("batch-axis-only", "a sum over the first axis only where every axis but the last belongs: "
          "`g.reshape(-1, D).sum(axis=0)` becomes `g.sum(axis=0)` (right for one rank only)")
def _batch_axis_only(node, root):
    if _is_call(node, "sum") and isinstance(node.func, ast.Attribute) and _is_call(node.func.value, "reshape") and \
            isinstance(node.func.value.func, ast.Attribute) and \
            any(k.arg == "axis" and ast.unparse(k.value) == "0" for k in node.keywords) and \
            node.func.value.args and ast.unparse(node.func.value.args[0]) == "-1":
        new = copy.deepcopy(node)
        new.func.value = copy.deepcopy(node.func.value.func.value)
        return new
    return None


@operator("newaxis-for-keepdims", "the reduced axis restored with `[:, None]` instead of `keepdims=True`: right for "
          "2-D input only")
def _newaxis_for_keepdims(node, root):
    if isinstance(node, ast.Call) and _call_name(node) in _REDUCTIONS and \
            any(k.arg == "keepdims" for k in node.keywords):
        new = copy.copy(node)
        new.keywords = [k for k in node.keywords if k.arg != "keepdims"]
        index = ast.Tuple(elts=[ast.Slice(), ast.Constant(value=None)], ctx=ast.Load())
        return ast.Subscript(value=new, slice=index, ctx=ast.Load())
    return None


@operator("length-one-more", "a length built as a constant plus a count one too large: `T = 1 + max(len(t) ...)` "
          "becomes `T = 2 + max(...)` (room made for BOS and for EOS, one column too many)")
def _length_one_more(node, root):
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and \
            isinstance(node.value, ast.BinOp) and isinstance(node.value.op, ast.Add):
        left, right = node.value.left, node.value.right
        for side, other in (("left", right), ("right", left)):
            const = getattr(node.value, side)
            if isinstance(const, ast.Constant) and type(const.value) is int and 0 < const.value < 4 and \
                    isinstance(other, ast.Call):
                value = copy.copy(node.value)
                setattr(value, side, _const(const.value + 1))
                return ast.Assign(targets=node.targets, value=value, type_comment=None)
    return None


@operator("first-match-for-count", "a count of the entries that are not padding written as the index of the first "
          "padding: `(t != IGNORE).sum()` becomes `np.argmax(t == IGNORE)`, which is 0 for a row with no padding")
def _first_match_for_count(node, root):
    inner = None
    if _is_call(node, "sum") and isinstance(node.func, ast.Attribute) and not node.args and not node.keywords:
        inner = node.func.value
    elif _is_call(node, "sum") and len(node.args) == 1 and not node.keywords and \
            isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and \
            node.func.value.id in ("np", "numpy"):
        inner = node.args[0]
    if isinstance(inner, ast.Compare) and len(inner.ops) == 1 and isinstance(inner.ops[0], ast.NotEq):
        first = ast.Compare(left=inner.left, ops=[ast.Eq()], comparators=inner.comparators)
        return ast.Call(func=ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), attr="argmax", ctx=ast.Load()),
                        args=[first], keywords=[])
    return None


def _method_for(old, new, bare=False):
    """A rewrite of ``x.old(...)`` or ``np.old(...)`` into the same call of ``new``; ``bare``: only a call with
    no keyword and no argument but the array (``x.any()``, ``np.any(x)``)."""
    def rewrite(node, root):
        if not (_is_call(node, old) and isinstance(node.func, ast.Attribute)):
            return None
        if bare and (node.keywords or len(node.args) > (1 if isinstance(node.func.value, ast.Name) and
                                                         node.func.value.id in ("np", "numpy") else 0)):
            return None
        wrong = copy.deepcopy(node)
        wrong.func.attr = new
        return wrong
    return rewrite


operator("all-for-any", "a check that fires only when every element is bad: `(w != 0).any()` becomes "
         "`(w != 0).all()` (one bad element alone slips through)")(_method_for("any", "all", bare=True))
operator("any-for-all", "a check that passes when one element is good: `(w >= 0).all()` becomes "
         "`(w >= 0).any()`")(_method_for("all", "any", bare=True))


def _head_widths(root):
    """{head-width name: width name} of the assignments ``d = D // H`` in ``root``."""
    return {name: value.left.id for name, value in _assignments(root).items()
            if isinstance(value, ast.BinOp) and isinstance(value.op, ast.FloorDiv)
            and isinstance(value.left, ast.Name)}


@operator("width-for-head-width", "the whole width D where one head's width d belongs, or d where D belongs, at "
          "one place (a cache of H·D numbers per position, or W_Q counted as D×d)")
def _width_for_head_width(node, root):
    if not isinstance(node, ast.Name) or not isinstance(node.ctx, ast.Load):
        return None
    table = _head_widths(root)
    if node.id in table:
        return ast.Name(id=table[node.id], ctx=ast.Load())
    heads = [d for d, width in table.items() if width == node.id]
    if len(heads) == 1 and heads[0] != node.id:
        return ast.Name(id=heads[0], ctx=ast.Load())
    return None


@operator("bits-for-bytes", "the size of a number in bits, not bytes: `itemsize` becomes `itemsize * 8` (a "
          "float32 counted as 32)")
def _bits_for_bytes(node, root):
    if isinstance(node, ast.Attribute) and node.attr == "itemsize":
        return ast.BinOp(left=copy.deepcopy(node), op=ast.Mult(), right=_const(8))
    return None


def _float64_out(func):
    """The function computed in float64 throughout: float32 arrays among the arguments become float64."""
    def cast(value):
        if isinstance(value, np.ndarray) and value.dtype == np.float32:
            return value.astype(np.float64)
        if isinstance(value, tuple):
            return tuple(cast(v) for v in value)
        if isinstance(value, list):
            return [cast(v) for v in value]
        return value

    @functools.wraps(func)
    def wrong(*args, **kwargs):
        return func(*cast(args), **{k: cast(v) for k, v in kwargs.items()})
    return wrong


operator("float64-out", "float32 in, float64 out: a float64 constant or array somewhere promotes the result",
         wrap=_float64_out)

def _float64_buffer(func):
    """The function computed as written, its float32 results stored in float64 (a buffer made with np.zeros or
    np.empty without a dtype, then filled): the values carry float32's rounding, the dtype is float64."""
    def widen(value):
        if isinstance(value, np.ndarray) and value.dtype == np.float32:
            return value.astype(np.float64)
        if isinstance(value, (tuple, list)):
            return type(value)(widen(v) for v in value)
        return value

    def has_float32(values):
        return any(isinstance(v, np.ndarray) and v.dtype == np.float32 for v in values)

    @functools.wraps(func)
    def wrong(*args, **kwargs):
        value = func(*args, **kwargs)
        return widen(value) if has_float32([*args, *kwargs.values()]) else value
    return wrong


operator("float64-buffer", "float32 in, float64 out, with float32's rounding: the result is written into a buffer "
         "made by np.zeros or np.empty without a dtype", wrap=_float64_buffer)
def _siblings_after(node, root):
    """The statements after ``node`` in the body that holds it ([] when none holds it)."""
    for parent in ast.walk(root):
        for name in ("body", "orelse"):
            body = getattr(parent, name, None)
            if isinstance(body, list) and any(s is node for s in body):
                return body[[i for i, s in enumerate(body) if s is node][0] + 1:]
    return []


def _returns_word(stmt):
    return isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def _verdict_chain(node, root):
    """``if A: return "x"`` / ``if B: return "y"`` / ``return "z"`` starting at ``node`` -> (A, x, B, y, z)."""
    if not (isinstance(node, ast.If) and not node.orelse and len(node.body) == 1 and _returns_word(node.body[0])):
        return None
    after = _siblings_after(node, root)
    if len(after) < 2 or not (isinstance(after[0], ast.If) and not after[0].orelse and len(after[0].body) == 1
                              and _returns_word(after[0].body[0]) and _returns_word(after[1])):
        return None
    return node.test, node.body[0].value, after[0].test, after[0].body[0].value, after[1].value


def _if_return(test, value):
    return ast.If(test=copy.deepcopy(test), body=[ast.Return(value=copy.deepcopy(value))], orelse=[])


def _verdicts(rebuild):
    """An operator on a chain of verdicts (:func:`_verdict_chain`): ``rebuild(A, x, B, y, z)`` -> statements."""
    def rewrite(node, root):
        found = _verdict_chain(node, root)
        return None if found is None else rebuild(*(copy.deepcopy(part) for part in found))
    return rewrite


# the chain reads: x if A; else y if B; else z ("leaks", "causal", "blind")
operator("control-first", "the negative control consulted first: `if the control sees nothing: return \"blind\"` "
         "before the model under test is looked at, so a model that leaks is called blind when the control is")(
    _verdicts(lambda a, x, b, y, z: [_if_return(ast.UnaryOp(op=ast.Not(), operand=b), z), _if_return(a, x),
                                     ast.Return(value=y)]))
operator("last-two-verdicts-swapped", "the two words a check returns after its first one swapped: \"causal\" where "
         "\"blind\" belongs and back")(
    _verdicts(lambda a, x, b, y, z: [_if_return(a, x), _if_return(b, z), ast.Return(value=y)]))


operator("model-and-control-checked-in-swapped-order", "the two checks of a verdict asked in the other order: "
         "`if the control moves: return \"causal\"` before the model under test is looked at, so a model that leaks "
         "is called causal whenever the control moves")(
    _verdicts(lambda a, x, b, y, z: [_if_return(b, y), _if_return(a, x), ast.Return(value=z)]))


@operator("first-instead-of-sum", "the first item of the batch kept instead of the sum over the batch")
def _first_not_sum(node, root):
    if _is_call(node, "sum") and isinstance(node.func, ast.Attribute) and not node.args and \
            any(k.arg == "axis" and ast.unparse(k.value) == "0" for k in node.keywords):
        return ast.Subscript(value=node.func.value, slice=_const(0), ctx=ast.Load())
    return None


@operator("prepended", "a new item put in front instead of appended: `np.concatenate([cache, new])` becomes "
          "`np.concatenate([new, cache])`")
def _prepended(node, root):
    if _is_call(node, "concatenate") and node.args and isinstance(node.args[0], (ast.List, ast.Tuple)) and \
            len(node.args[0].elts) == 2:
        new = copy.deepcopy(node)
        new.args[0].elts.reverse()
        return new
    return None


@operator("interleaved-merge", "heads merged interleaved: `heads.reshape(-1)` of (H, 1, d) becomes "
          "`heads.T.reshape(-1)`, so feature a·H + h holds coordinate a of head h")
def _interleaved_merge(node, root):
    if _is_call(node, "reshape") and isinstance(node.func, ast.Attribute) and len(node.args) == 1 and \
            ast.unparse(node.args[0]) == "-1" and not node.keywords:
        new = copy.deepcopy(node)
        new.func.value = ast.Attribute(value=new.func.value, attr="T", ctx=ast.Load())
        return new
    return None


@operator("heads-reversed", "the heads joined in reverse order: the last head's features come first when the "
          "heads are merged (`heads.reshape(-1)` of (H, 1, d) becomes `np.flip(heads, -3).reshape(-1)`; in a "
          "(..., T, H, d) merge the H axis is flipped)")
def _heads_reversed(node, root):
    if not (_is_call(node, "reshape") and isinstance(node.func, ast.Attribute) and node.args and
            isinstance(node.func.value, ast.Name) and "head" in node.func.value.id and not node.keywords and
            isinstance(node.args[-1], ast.UnaryOp) and ast.unparse(node.args[-1]) == "-1"):
        return None
    if isinstance(node.args[0], ast.Starred):            # (..., T, H, d) -> (..., T, H·d): H is the axis -2
        axis = -2
    elif all(isinstance(a, (ast.Constant, ast.UnaryOp)) for a in node.args):    # (H, 1, d) -> (H·d,) or (1, H·d)
        axis = -3
    else:
        return None
    flipped = ast.Call(func=ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), attr="flip", ctx=ast.Load()),
                       args=[copy.deepcopy(node.func.value), _const(axis)], keywords=[])
    return ast.Call(func=ast.Attribute(value=flipped, attr="reshape", ctx=ast.Load()), args=node.args,
                    keywords=node.keywords)


@operator("reduction-over-everything", "a statistic of each row taken over the whole array: "
          "`x.mean(axis=-1, keepdims=True)` becomes `x.mean()`")
def _over_everything(node, root):
    if _is_call(node, "mean", "var", "std") and any(k.arg == "axis" for k in node.keywords) and \
            any(k.arg == "keepdims" for k in node.keywords):
        new = copy.copy(node)
        new.keywords = [k for k in node.keywords if k.arg not in ("axis", "keepdims")]
        return new
    return None


operator("sum-for-mean", "a sum where a mean belongs: `a.mean(axis=-1)` becomes `a.sum(axis=-1)` (D times too "
         "large)")(_method_for("mean", "sum"))


@operator("leading-term-only", "every term after the first of `a - b - c` left out: `a - b - c` becomes `a`")
def _leading_term_only(node, root):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and isinstance(node.left, ast.BinOp) and \
            isinstance(node.left.op, ast.Sub):
        return copy.deepcopy(node.left.left)
    return None


@operator("swap-overwrites", "a swap that copies one item over the other: `a[..., [i, j]] = b[..., [j, i]]` becomes "
          "`a[..., [i, j]] = b[..., [j, j]]` (the tuple swap on NumPy views)")
def _swap_overwrites(node, root):
    def pair(sub):
        if not isinstance(sub, ast.Subscript):
            return None
        index = sub.slice.elts[-1] if isinstance(sub.slice, ast.Tuple) else sub.slice
        return index if isinstance(index, ast.List) and len(index.elts) == 2 else None
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and pair(node.targets[0]) is not None and \
            pair(node.value) is not None:
        new = copy.deepcopy(node)
        index = pair(new.value)
        index.elts[1] = copy.deepcopy(index.elts[0])
        return new
    return None


def _padding_on_the_left(func):
    """A right-padded batch (inputs, targets) padded on the left instead: each row's real positions (target not
    −100) moved to the end of the row, the padding before them."""
    @functools.wraps(func)
    def wrong(*args, **kwargs):
        value = func(*args, **kwargs)
        if not (isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, np.ndarray) and v.ndim == 2
                                                                    for v in value)
                and value[0].shape == value[1].shape and value[1].dtype.kind == "i"):
            return value
        inputs, targets = (v.copy() for v in value)
        for b in range(inputs.shape[0]):
            n = int((value[1][b] != -100).sum())
            inputs[b] = np.roll(value[0][b], inputs.shape[1] - n)
            targets[b] = np.roll(value[1][b], inputs.shape[1] - n)
        return inputs, targets
    return wrong


operator("padding-on-the-left", "a batch padded on the left: each row's text pushed to the end of the row, the "
         "padding before it", wrap=_padding_on_the_left)


def _transposed_weights(func):
    """The weight matrices (the arguments named ``w_...``) used transposed, ``x @ W.T``: the column-vector
    habit of writing ``W x``.  Square matrices keep their shape, so only the numbers show it."""

    def transposed(value):
        if isinstance(value, np.ndarray) and value.ndim == 2:
            return value.T.copy()
        if isinstance(value, (list, tuple)) and value and all(isinstance(r, (list, tuple)) for r in value):
            return [list(column) for column in zip(*value)]
        return value

    def change(arguments):
        for name in arguments:
            if name.startswith("w_"):
                arguments[name] = transposed(arguments[name])
    return _with_arguments(func, change)


def _with_arguments(func, change):
    """``func`` called with its bound arguments changed in place by ``change(arguments)`` (unchanged when the
    call does not bind)."""
    signature = inspect.signature(func)

    @functools.wraps(func)
    def wrong(*args, **kwargs):
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            return func(*args, **kwargs)
        change(bound.arguments)
        return func(*bound.args, **bound.kwargs)
    return wrong


operator("transposed-weights", "the weight matrices used transposed, `x @ W.T` for `x @ W` (the column-vector "
         "habit `W x`)", wrap=_transposed_weights)
operator("integers-for-booleans", "a mask of 0/1 integers instead of booleans", wrap=_booleans_as(np.int64))
operator("floats-for-booleans", "a mask of 0.0/1.0 floats instead of booleans", wrap=_booleans_as(np.float64))


# --------------------------------------------------------------------------------------
# Bases, sites and mutants
# --------------------------------------------------------------------------------------

_COURSE_MODULES = ("grading.references", "lib.")


def _course_function(value):
    module = getattr(value, "__module__", "") or ""
    return isinstance(value, types.FunctionType) and (module == "grading.references" or module.startswith("lib."))


def _plain(value):
    """A function of lib that checks its arguments (lib.validate.checked) stands for its body, ``.plain``:
    the math the mutants change, which calls other checked functions as ``f.plain``."""
    plain = getattr(value, "plain", None)
    return plain if isinstance(plain, types.FunctionType) else value


@dataclass(frozen=True)
class Site:
    """One place an operator applies: the function (its name), the node's position in a pre-order walk of
    that function, and the node's source (unparsed), which names the site for people and selectors."""
    operator: str
    function: str
    index: int                      # -1: a wrapper operator (the whole function)
    code: str
    indices: tuple = ()             # every node the site changes (several: the same code written several times)

    def __str__(self):
        many = f" (×{len(self.indices)})" if len(self.indices) > 1 else ""
        return f"{self.operator}@{self.function}:{self.code}{many}"


class Base:
    """A correct function and the course functions it calls by name (helpers), ready to be mutated."""

    def __init__(self, func, depth=4):
        self.func = func
        self.functions = [_plain(func)]          # the function, then its helpers (checked ones: their bodies)
        self.trees, self.sources = {}, {}
        self._collect(func, depth)
        for f in self.functions:
            self.sources[f.__name__] = textwrap.dedent(inspect.getsource(f))
            self.trees[f.__name__] = self.fresh(f.__name__)
        self._sites = None

    def fresh(self, name):
        """A new syntax tree of the function ``name`` (parsing is much faster than copying a tree)."""
        with AST_LOCK:
            return ast.parse(self.sources[name]).body[0]

    def mutated(self, sites):
        """{function name: its syntax tree with the sites of ``sites`` mutated}, or None when the sites do not
        go together (one inside another, a rewrite that fails)."""
        by_function = {}
        for s in sites:
            if s.index >= 0:
                by_function.setdefault(s.function, []).append(s)
        out = {}
        for name, chosen in by_function.items():
            tree = self.fresh(name)
            nodes, ancestry = _walk_with_parents(tree)
            targets = [(nodes[i], s) for s in chosen for i in s.indices]
            indices = [i for s in chosen for i in s.indices]
            if len(set(indices)) < len(indices):
                return None
            for (node, s), (other, _) in itertools.permutations(targets, 2):
                if _is_ancestor(node, other, ancestry):
                    return None
            whole = False                   # an operator that rewrites the function: locate every node again
            for node, s in targets:
                op = OPERATORS[s.operator]
                wrong = op.rewrite(node, tree)
                if wrong is None or not _replace(tree, node, wrong, ancestry):
                    return None
                whole = whole or op.changes_root
                if not whole:
                    _locate(wrong, node)
            if whole:
                ast.fix_missing_locations(tree)
            out[name] = tree
        return out

    def _collect(self, func, depth):
        if depth == 0:
            return
        func = _plain(func)
        code_names = set()
        stack = [func.__code__]
        while stack:
            c = stack.pop()
            code_names |= set(c.co_names)
            stack += [k for k in c.co_consts if isinstance(k, types.CodeType)]
        for name in sorted(code_names):
            value = _plain(func.__globals__.get(name))
            if _course_function(value) and value not in self.functions and \
                    not value.__module__.startswith("lib.validate") and \
                    value.__name__ not in {f.__name__ for f in self.functions}:
                self.functions.append(value)
                self._collect(value, depth - 1)

    @property
    def name(self):
        return self.func.__name__

    def sites(self, operators=None):
        """Every site of every operator (``operators``: names; default all) in the function and its helpers."""
        if self._sites is None:
            found = []
            for f in self.functions:
                tree = self.trees[f.__name__]
                for index, node in enumerate(_walk(tree)):
                    for op in OPERATORS.values():
                        if op.rewrite is None:
                            continue
                        try:
                            if op.changes_root and not op.matches(node):
                                wrong = None
                            elif op.changes_root:
                                probe = self.fresh(f.__name__)
                                wrong = op.rewrite(_walk(probe)[index], probe)
                            else:
                                wrong = op.rewrite(node, tree)      # rewrites build new nodes
                        except Exception:  # noqa: BLE001 - an operator that cannot apply here
                            wrong = None
                        if wrong is not None:
                            found.append(Site(op.name, f.__name__, index, _describe(node), (index,)))
            groups, alike = {}, {}
            for site in found:
                groups.setdefault((site.operator, site.function, site.code), []).append(site)
                alike.setdefault((site.operator, site.function, _ALIKE.sub("·", site.code)), []).append(site)
            for (name, function, code), same in list(groups.items()) + list(alike.items()):
                indices = tuple(sorted({x.index for x in same}))
                if len(indices) > 1 and not OPERATORS[name].changes_root:   # the same slip everywhere it can be
                    site = Site(name, function, indices[0], same[0].code, indices)
                    if site not in found:
                        found.append(site)
            found += [Site(op.name, self.name, -1, "", ()) for op in OPERATORS.values() if op.wrap is not None]
            self._sites = found
        return [s for s in self._sites if operators is None or s.operator in operators]

    def build(self, sites, trees=None):
        """The function with every site of ``sites`` mutated (helpers included), or None when the mutated
        code does not compile."""
        trees = self.mutated(sites) if trees is None else trees
        if trees is None:
            return None
        new_code = {}
        for name, tree in trees.items():
            try:
                with AST_LOCK:
                    try:
                        code = compile(ast.Module(body=[tree], type_ignores=[]), f"<mutant of {name}>", "exec")
                    except (TypeError, ValueError):         # a node left without a location: locate them all
                        ast.fix_missing_locations(tree)
                        code = compile(ast.Module(body=[tree], type_ignores=[]), f"<mutant of {name}>", "exec")
            except (SyntaxError, ValueError, TypeError):
                return None
            new_code[name] = next(c for c in code.co_consts if isinstance(c, types.CodeType))
        func = self._link(new_code)
        for s in sites:
            if s.index < 0 and func is not None:
                func = OPERATORS[s.operator].wrap(func)
        return func

    def _link(self, new_code):
        """Fresh function objects for the function and its helpers, the changed ones with their new code,
        each in a copy of its module's namespace in which the helpers' names denote the fresh objects."""
        namespaces = {}
        made = {}
        for f in self.functions:
            ns = namespaces.get(f.__module__)
            if ns is None:
                ns = namespaces[f.__module__] = dict(f.__globals__)
            code = new_code.get(f.__name__, f.__code__)
            if code is not f.__code__ and f.__code__.co_freevars:
                return None
            g = types.FunctionType(code, ns, f.__name__, f.__defaults__, f.__closure__)
            g.__kwdefaults__ = f.__kwdefaults__
            g.plain = g                                 # lib calls a checked function's body as f.plain
            made[f] = g
        for ns in namespaces.values():
            for key, value in list(ns.items()):
                if isinstance(value, types.FunctionType) and _plain(value) in made:
                    ns[key] = made[_plain(value)]
        return made[self.functions[0]]


# parallel lines differ only in their variables (q, k and v; the ids and the perturbed ids): a slip in one is
# made in all, so the sites whose code has the same shape once variables are blotted out form one site too
_ALIKE = re.compile(r"(?<![.\w])[A-Za-z_]\w*(?!\w|\s*\()")


def _walk(tree):
    """Every node of ``tree`` in a fixed pre-order (fields in their declared order)."""
    out = []

    def visit(node):
        out.append(node)
        for _, value in ast.iter_fields(node):
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        visit(item)
            elif isinstance(value, ast.AST):
                visit(value)
    visit(tree)
    return out


def _walk_with_parents(tree):
    """:func:`_walk` and :func:`_ancestry` of ``tree`` in one pass."""
    out, parents = [], {}

    def visit(node):
        out.append(node)
        for name, value in ast.iter_fields(node):
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, ast.AST):
                        parents[id(item)] = (node, name, i)
                        visit(item)
            elif isinstance(value, ast.AST):
                parents[id(value)] = (node, name, None)
                visit(value)
    visit(tree)
    return out, parents


_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def _locate(wrong, where):
    """Give the new nodes of a rewrite (``wrong``: a node or a list of statements) the location of the node they
    replace (``where``), as ast.fix_missing_locations would, without walking the whole function again."""
    if wrong is REMOVE or wrong is where:
        return
    for top in (wrong if isinstance(wrong, list) else [wrong]):
        for node in ast.walk(top):
            if "lineno" in node._attributes:
                for attr in _LOCATION:
                    if getattr(node, attr, None) is None and getattr(where, attr, None) is not None:
                        setattr(node, attr, getattr(where, attr))


def _ancestry(tree):
    parents = {}
    for node in _walk(tree):
        for name, value in ast.iter_fields(node):
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, ast.AST):
                        parents[id(item)] = (node, name, i)
            elif isinstance(value, ast.AST):
                parents[id(value)] = (node, name, None)
    return parents


def _is_ancestor(a, b, ancestry):
    node = b
    while id(node) in ancestry:
        node = ancestry[id(node)][0]
        if node is a:
            return True
    return False


def _replace(tree, node, wrong, ancestry):
    if wrong is node:
        return True
    where = ancestry.get(id(node))
    if where is None:
        return False
    parent, name, i = where
    if i is None:
        if wrong is REMOVE or isinstance(wrong, list):
            return False
        setattr(parent, name, wrong)
        return True
    items = getattr(parent, name)
    at = next((k for k, item in enumerate(items) if item is node), None)
    if at is None:
        return False
    replacement = [] if wrong is REMOVE else wrong if isinstance(wrong, list) else [wrong]
    items[at:at + 1] = replacement
    if not items and name in ("body", "orelse") and name == "body":
        items.append(ast.Pass())
    return True


def _describe(node):
    try:
        text = ast.unparse(node)
    except Exception:  # noqa: BLE001
        text = type(node).__name__
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:77] + "..."


@dataclass(frozen=True)
class Mutant:
    """A wrong version of ``base``: its sites (one, or two for a pair)."""
    base: object = field(compare=False, hash=False, repr=False)
    sites: tuple

    @property
    def operators(self):
        return tuple(s.operator for s in self.sites)

    @functools.cached_property
    def key(self):
        """Names the mutant uniquely (two places may hold the same code); worked out once per mutant."""
        return " + ".join(f"{s}#{','.join(map(str, s.indices))}" for s in self.sites)

    @functools.cached_property
    def trees(self):
        try:
            return self.base.mutated(self.sites)
        except Exception:  # noqa: BLE001 - a mutant that cannot be made is no mutant
            return None

    @functools.cached_property
    def function(self):
        try:
            return None if self.trees is None else self.base.build(self.sites, self.trees)
        except Exception:  # noqa: BLE001 - a mutant that cannot be built is no mutant
            return None

    @functools.cached_property
    def code(self):
        """The changed functions' source (unparsed), or the key for a wrapper: two mutants with the same code
        are one."""
        if self.trees is None:
            return None
        changed = "\n".join(ast.unparse(t) for _, t in sorted(self.trees.items()))
        wrappers = [s.operator for s in self.sites if s.index < 0]
        return changed + ("\n# " + " ".join(wrappers) if wrappers else "")

    def source(self, name=None):
        """The mutated function's source (and its mutated helpers'), its ``def`` renamed to ``name``; None for
        a wrapper operator, which has no source.  A mutated helper is renamed ``_helper`` (and called so), so
        that the cell does not redefine a function of the notebook that another exercise asks for."""
        if any(s.index < 0 for s in self.sites) or self.trees is None:
            return None
        helpers = {f.__name__: "_" + f.__name__ for f in self.base.functions
                   if f is not self.base.func and f.__name__ in self.trees}

        class Rename(ast.NodeTransformer):
            def visit_Name(self, n):
                return ast.Name(id=helpers[n.id], ctx=n.ctx) if n.id in helpers else n

        parts = []
        for f in self.base.functions:
            tree = self.trees.get(f.__name__)
            if tree is None and f is not self.base.func:
                continue
            tree = Rename().visit(copy.deepcopy(tree) if tree is not None else self.base.fresh(f.__name__))
            tree.name = name if f is self.base.func and name else helpers.get(f.__name__, f.__name__)
            parts.append(ast.unparse(tree))
        return "\n\n\n".join(reversed(parts)) + "\n"


_BASES = {}


def base(func):
    """The :class:`Base` of a correct function (cached)."""
    key = (func.__module__, func.__qualname__)
    if key not in _BASES:
        _BASES[key] = Base(func)
    return _BASES[key]


def mutants(func, operators=None):
    """The single mutants of ``func``: every operator (``operators``: names) at every site."""
    b = base(func)
    return [Mutant(b, (s,)) for s in b.sites(operators)]


def pairs(singles):
    """Pairs of the given single mutants (of one base), each pair two sites of different operators or places."""
    out = []
    for a, b in itertools.combinations(singles, 2):
        sa, sb = a.sites[0], b.sites[0]
        if sa.index >= 0 and sb.index >= 0 and sa.function == sb.function and set(sa.indices) & set(sb.indices):
            continue
        if sa.index < 0 and sb.index < 0:
            continue
        out.append(Mutant(a.base, (sa, sb)))
    return out


def pair(a, b):
    """The pair of two single mutants of one base, or None when they cannot go together."""
    sa, sb = a.sites[0], b.sites[0]
    if sa.index < 0 and sb.index < 0:
        return None
    if sa.index >= 0 and sb.index >= 0 and sa.function == sb.function and set(sa.indices) & set(sb.indices):
        return None
    return Mutant(a.base, (sa, sb))


def find(func, selector):
    """The single mutants of ``func`` that ``selector`` names: ``"operator"``, ``"operator@text"`` (text
    within the site's source, or the helper's name followed by a colon: ``"one-less@causal_allowed:"``) or
    ``"operator@=code"`` (the site's whole source)."""
    name, _, text = selector.partition("@")
    if name not in OPERATORS:
        raise KeyError(f"no bug operator {name!r} (grading/bugs.py)")
    if text.startswith("="):
        return [m for m in mutants(func, (name,)) if m.sites[0].code == text[1:]]
    return [m for m in mutants(func, (name,)) if not text or text in f"{m.sites[0].function}:{m.sites[0].code}"]


# ---- round 10 of issue 34: kinds the development set dev8 showed ----------------------------------------------

operator("mean-for-sum", "a mean where a sum belongs: `np.sum(a, axis=-1)` becomes `np.mean(a, axis=-1)` (D times "
         "too small)")(_method_for("sum", "mean"))


@operator("first-row-for-last", "the first row read where the last belongs: `a[..., -1, :]` becomes `a[..., 0, :]`")
def _first_row_for_last(node, root):
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Tuple):
        items = list(node.slice.elts)
        if any(isinstance(e, ast.Constant) and e.value is Ellipsis for e in items):
            for k, e in enumerate(items):
                if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub) and \
                        isinstance(e.operand, ast.Constant) and e.operand.value == 1:
                    items[k] = _const(0)
                    new = copy.copy(node)
                    new.slice = ast.Tuple(elts=items, ctx=ast.Load())
                    return new
    return None


@operator("slice-one-late", "a slice one place late, as when counting from 1: `a[lo:hi]` becomes `a[lo + 1:hi + 1]`")
def _slice_one_late(node, root):
    if isinstance(node, ast.Slice) and node.lower is not None and node.upper is not None and node.step is None:
        return ast.Slice(lower=_plus(node.lower, 1), upper=_plus(node.upper, 1), step=None)
    return None


@operator("factor-twice", "one factor of a product taken twice: `a * b * d * size` becomes `a * b * d * d * size`")
def _factor_twice(node, root):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and isinstance(node.right, ast.Name) and \
            isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.Mult):
        return ast.BinOp(left=copy.deepcopy(node), op=ast.Mult(), right=copy.deepcopy(node.right))
    return None


@operator("range-one-past-end", "a loop one step too far: `range(a, b)` becomes `range(a, b + 1)`")
def _range_one_past_end(node, root):
    if _is_call(node, "range") and len(node.args) == 2:
        new = copy.copy(node)
        new.args = [node.args[0], _plus(node.args[1], 1)]
        return new
    return None


def _single_head(func):
    """The function called with one head: the heads are never split, one attention runs over the full width."""
    def change(arguments):
        if "n_heads" in arguments:
            arguments["n_heads"] = 1
    return _with_arguments(func, change)


operator("single-head", "the heads never split: one attention over the full width, as with n_heads = 1 (scaled by "
         "√D)", wrap=_single_head)


@operator("last-two-arguments-swapped", "the last two arguments of a call swapped: `f(q, k, v)` becomes `f(q, v, k)`")
def _last_two_swapped(node, root):
    if isinstance(node, ast.Call) and len(node.args) >= 3 and not node.keywords and \
            all(isinstance(a, ast.Name) for a in node.args[-2:]):
        new = copy.copy(node)
        new.args = node.args[:-2] + [node.args[-1], node.args[-2]]
        return new
    return None
