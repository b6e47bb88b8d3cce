"""Exercise set 4 (§4, causality): causal-1 ... causal-4."""

import numpy as np

from .. import references
from ..registry import Kind, L, exercise, setup_code
from ..values import Case, Ref
from ._common import forward_setup

NOTEBOOK = "ex04_causality"

# The library's own causality checks compute these answers; the exercises ask for them written out.
_LIBRARY_CHECKS = ("lib.checks.future_change", "lib.checks.row_changes", "lib.checks.check_causality")

_CAUSAL = L("随机的因果模型", "a random causal model", "случайная причинная модель")
_UNMASKED = L("去掉掩码的随机模型", "a random model without the mask", "случайная модель без маски")
_TIME_NORM = L("沿时间轴归一化的随机模型（会泄漏）", "a random model normalising over time (it leaks)",
               "случайная модель с нормализацией по времени (есть утечка)")
_FEATURE_NORM = L("按特征归一化的随机模型", "a random model normalising over features",
                  "случайная модель с нормализацией по признакам")


def _fresh_token(rng, suffix):
    """A token id in 0..6 that does not occur in ``suffix``, so the perturbation changes something."""
    return int(rng.choice(np.setdiff1d(np.arange(7), suffix)))


# ---- causal-1: future_perturbation_change(forward, ids, position, replacement) -----

def _causal1_public():
    causal = forward_setup(4, "causal")
    control = forward_setup(4, "unmasked")
    leaky = forward_setup(4, "time_norm")
    ids = np.array([1, 3, 4, 5, 2])
    return [
        Case("causal-model", (Ref("forward"), ids, 2, 0), setup=causal,
             label=L("因果模型", "the causal model", "причинная модель")),
        Case("unmasked-control", (Ref("forward"), ids, 2, 0), setup=control,
             label=L("去掉掩码的对照模型", "the control without the mask", "контрольная модель без маски")),
        Case("time-normalisation", (Ref("forward"), ids, 3, 6), setup=leaky,
             label=L("沿时间轴归一化的模型（会泄漏）", "a model normalising over time (it leaks)",
                     "модель с нормализацией по времени (есть утечка)")),
        Case("batch", (Ref("forward"), np.array([[1, 3, 4, 5], [1, 5, 5, 2]]), 3, np.array([6])), setup=control,
             label=L("批量，替换词元以数组给出", "a batch, the replacement given as an array",
                     "батч, замена задана массивом")),
        Case("replacement-vector", (Ref("forward"), ids, 2, np.array([0, 6, 0])), setup=control,
             label=L("用向量替换，每个位置一个词元", "a replacement vector, one token per position",
                     "замена вектором: свой токен для каждой позиции")),
    ]


def _causal1_hidden(rng):
    cases = []
    for i, which in enumerate(("causal", "unmasked", "time_norm", "feature_norm", "unmasked", "causal")):
        T = int(rng.integers(2, 9))
        position = int(rng.integers(1, T))
        ids = rng.integers(0, 7, size=T)
        cases.append(Case(f"{which}-{i}", (Ref("forward"), ids, position, _fresh_token(rng, ids[position:])),
                          setup=forward_setup(int(rng.integers(1_000_000)), which), kind=which))
    return cases


# ---- causal-2: perturbation_verdict(forward, control, ids, position, replacement, tol) ----

def _verdict_setup(seed, forward, control):
    table = {
        "causal": "model.forward",
        "unmasked": "m.unmasked_forward(model)",
        "time_norm": f"m.time_norm_model({seed}).forward",
        "feature_norm": f"m.feature_norm_model({seed}).forward",
        "constant": "m.constant_forward(model.width)",
    }
    return setup_code("from grading import models as m", f"model = m.random_model({seed})",
                      f"forward = {table[forward]}", f"control = {table[control]}")


def _causal2_public():
    ids = np.array([1, 3, 4, 5, 2])
    args = (Ref("forward"), Ref("control"), ids)
    return [
        Case("causal", args + (2, 0), setup=_verdict_setup(5, "causal", "unmasked"),
             label=L("因果模型，对照去掉掩码", "a causal model, the unmasked control",
                     "причинная модель, контроль без маски")),
        Case("time-normalisation", args + (2, 0), setup=_verdict_setup(5, "time_norm", "unmasked"),
             label=L("沿时间轴归一化的模型", "a model normalising over time", "модель с нормализацией по времени")),
        Case("unmasked", args + (3, 6), setup=_verdict_setup(5, "unmasked", "unmasked"),
             label=L("被检验的模型本身没有掩码", "the model under test has no mask", "у проверяемой модели нет маски")),
        Case("same-suffix", args + (3, np.array([5, 2])), setup=_verdict_setup(5, "causal", "unmasked"),
             label=L("“扰动”与原来的词元相同", "a 'perturbation' equal to the original tokens",
                     "«возмущение», совпадающее с исходными токенами")),
        Case("constant-control", args + (2, 0), setup=_verdict_setup(5, "causal", "constant"),
             label=L("对照的输出永远不变", "a control whose output never changes",
                     "контроль, выход которого никогда не меняется")),
        Case("leak-with-a-blind-control", args + (2, 0), setup=_verdict_setup(5, "time_norm", "constant"),
             label=L("会泄漏的模型，对照的输出永远不变", "a leaking model, a control whose output never changes",
                     "модель с утечкой, контроль с неизменным выходом")),
        Case("huge-tolerance", args + (2, 0), {"tol": 10.0}, setup=_verdict_setup(5, "time_norm", "unmasked"),
             label=L("很大的容差 tol=10", "a huge tolerance, tol=10", "огромный допуск tol=10")),
        Case("position-0", args + (0, 0), setup=_verdict_setup(5, "causal", "unmasked"),
             label=L("position=0（应当报错）", "position=0 (must raise)", "position=0 (должна быть ошибка)")),
        Case("position-T", args + (5, 0), setup=_verdict_setup(5, "causal", "unmasked"),
             label=L("position=T=5（应当报错）", "position=T=5 (must raise)", "position=T=5 (должна быть ошибка)")),
    ]


_VERDICT_COMBOS = [("causal", "unmasked"), ("time_norm", "unmasked"), ("feature_norm", "unmasked"),
                   ("causal", "constant"), ("unmasked", "constant"), ("feature_norm", "time_norm")]


def _causal2_hidden(rng):
    cases = []
    for i, (forward, control) in enumerate(_VERDICT_COMBOS):
        T = int(rng.integers(2, 9))
        ids = rng.integers(0, 7, size=T)
        position = int(rng.integers(1, T))
        replacement = ids[position:].copy() if i == 5 else _fresh_token(rng, ids[position:])
        name = f"{forward}-vs-{control}"
        cases.append(Case(name, (Ref("forward"), Ref("control"), ids, position, replacement),
                          setup=_verdict_setup(int(rng.integers(1_000_000)), forward, control), kind=name))
    return cases


# ---- causal-3: leak_sweep(forward, ids, replacement_token) ----------------------

def _causal3_public():
    ids = np.array([1, 3, 4, 5, 6, 2])
    return [
        Case("causal-model", (Ref("forward"), ids, 0), setup=forward_setup(6, "causal"),
             label=L("因果模型", "the causal model", "причинная модель")),
        Case("time-normalisation", (Ref("forward"), ids, 0), setup=forward_setup(6, "time_norm"),
             label=L("沿时间轴归一化的模型", "a model normalising over time", "модель с нормализацией по времени")),
        Case("feature-normalisation", (Ref("forward"), ids, 0), setup=forward_setup(6, "feature_norm"),
             label=L("按特征归一化的模型", "a model normalising over features", "модель с нормализацией по признакам")),
        Case("unmasked", (Ref("forward"), ids, 2), setup=forward_setup(6, "unmasked"),
             label=L("去掉掩码的模型", "a model without the mask", "модель без маски")),
        Case("one-position", (Ref("forward"), np.array([1]), 0), setup=forward_setup(6, "causal"),
             label=L("只有一个位置（应当报错）", "a single position (must raise)", "одна позиция (должна быть ошибка)")),
    ]


def _causal3_hidden(rng):
    cases = []
    for i, which in enumerate(("causal", "time_norm", "feature_norm", "unmasked", "time_norm")):
        T = int(rng.integers(2, 9))
        ids = rng.integers(0, 7, size=T)
        cases.append(Case(f"{which}-{i}", (Ref("forward"), ids, _fresh_token(rng, ids[-1:])),
                          setup=forward_setup(int(rng.integers(1_000_000)), which), kind=which))
    return cases


# ---- causal-4: feature_norm(x, eps=1e-5) --------------------------------------------

def _causal4_public():
    rng = np.random.default_rng(44)
    return [
        Case("one-sequence", (np.array([[1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 1.0, -1.0], [5.0, 5.0, 5.0, 7.0]]),),
             label=L("一个序列 (3, 4)", "one sequence (3, 4)", "одна последовательность (3, 4)")),
        Case("batch", (rng.normal(size=(2, 3, 4)),), label=L("批量 (2, 3, 4)", "a batch (2, 3, 4)", "батч (2, 3, 4)")),
        Case("constant-row", (np.full((2, 3), 4.0),),
             label=L("所有特征都相等的行", "rows whose features are all equal", "строки, в которых все признаки равны")),
        Case("float32", (rng.normal(size=(3, 5)).astype(np.float32),),
             label=L("float32 输入", "a float32 input", "вход во float32")),
        Case("eps", (rng.normal(size=(2, 4)),), {"eps": 0.5}, label=L("eps=0.5", "eps=0.5", "eps=0.5")),
        Case("one-position", (np.array([[3.0, -1.0, 2.0]]),), label=L("只有一个位置", "a single position", "одна позиция")),
    ]


def _causal4_hidden(rng):
    cases = []
    for i in range(5):
        shape = tuple(int(n) for n in rng.integers(1, 6, size=int(rng.integers(2, 4))))
        x = rng.normal(loc=rng.normal(scale=3), scale=rng.uniform(0.1, 4), size=shape)
        kind = {2: "float32", 4: "eps"}.get(i, "random")
        cases.append(Case(f"norm-{i}", (x.astype(np.float32) if i == 2 else x,),
                          {"eps": float(rng.uniform(1e-6, 1e-2))} if i == 4 else {}, kind=kind))
    return cases


EXERCISES = [
    exercise(
        id="causal-1", function="future_perturbation_change", points=1,
        title=L("未来扰动检验", "The future-perturbation test", "Проверка возмущением будущего"),
        reference=references.future_perturbation_change, forbidden=_LIBRARY_CHECKS,
        public=_causal1_public, hidden=_causal1_hidden,
        hidden_kinds={
            "causal": Kind(_CAUSAL, like="causal-model"),
            "unmasked": Kind(_UNMASKED, like="unmasked-control"),
            "time_norm": Kind(_TIME_NORM, like="time-normalisation"),
            "feature_norm": Kind(_FEATURE_NORM, like="causal-model"),
        },
    ),
    exercise(
        id="causal-2", function="perturbation_verdict", points=2,
        title=L("加上阴性对照的判定", "A verdict with its negative control", "Вердикт с отрицательным контролем"),
        reference=references.perturbation_verdict, forbidden=_LIBRARY_CHECKS,
        public=_causal2_public, hidden=_causal2_hidden,
        hidden_kinds={
            "causal-vs-unmasked": Kind(L("随机因果模型，对照去掉掩码", "a random causal model, the unmasked control",
                                         "случайная причинная модель, контроль без маски"), like="causal"),
            "time_norm-vs-unmasked": Kind(L("沿时间轴归一化的随机模型，对照去掉掩码",
                                            "a random model normalising over time, the unmasked control",
                                            "случайная модель с нормализацией по времени, контроль без маски"),
                                          like="time-normalisation"),
            "feature_norm-vs-unmasked": Kind(L("按特征归一化的随机模型，对照去掉掩码",
                                               "a random model normalising over features, the unmasked control",
                                               "случайная модель с нормализацией по признакам, контроль без маски"),
                                             like="causal"),
            "causal-vs-constant": Kind(L("随机因果模型，对照的输出永远不变",
                                         "a random causal model, a control whose output never changes",
                                         "случайная причинная модель, контроль с неизменным выходом"),
                                       like="constant-control"),
            "unmasked-vs-constant": Kind(L("去掉掩码的随机模型，对照的输出永远不变",
                                           "a random model without the mask, a control whose output never changes",
                                           "случайная модель без маски, контроль с неизменным выходом"),
                                         like="unmasked"),
            "feature_norm-vs-time_norm": Kind(L("“扰动”与原来的词元相同", "a 'perturbation' equal to the original tokens",
                                                "«возмущение», совпадающее с исходными токенами"), like="same-suffix"),
        },
    ),
    exercise(
        id="causal-3", function="leak_sweep", points=3,
        title=L("逐位置扫描泄漏", "Sweeping every position for a leak", "Поиск утечки по всем позициям"),
        reference=references.leak_sweep, forbidden=_LIBRARY_CHECKS,
        public=_causal3_public, hidden=_causal3_hidden,
        hidden_kinds={
            "causal": Kind(_CAUSAL, like="causal-model"),
            "time_norm": Kind(_TIME_NORM, like="time-normalisation"),
            "feature_norm": Kind(_FEATURE_NORM, like="feature-normalisation"),
            "unmasked": Kind(_UNMASKED, like="unmasked"),
        },
    ),
    exercise(
        id="causal-4", function="feature_norm", points=2,
        title=L("修复：按特征归一化", "The fix: normalising over features", "Исправление: нормализация по признакам"),
        reference=references.feature_norm,
        forbidden=("lib.checks.feature_normalization", "grading.models.feature_norm", "grading.models.NormalisedModel"),
        public=_causal4_public, hidden=_causal4_hidden,
        hidden_kinds={
            "random": Kind(L("随机的均值、尺度和形状", "random means, scales and shapes", "случайные средние, масштабы и формы"),
                           like="batch"),
            "float32": Kind(L("随机的 float32 输入", "a random float32 input", "случайный вход во float32"), like="float32"),
            "eps": Kind(L("随机的 eps", "a random eps", "случайный eps"), like="eps"),
        },
    ),
]
