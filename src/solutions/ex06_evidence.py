# Exercise set 6 (§6, evidence): an independent check in plain Python.  See src/solutions/ex01_allowed_set.py.

from grading.notebook_setup import INSTALL_NOTE, setup_cell  # the start of every exercise notebook

md(zh="# 练习 6：独立核对", en="# Exercise set 6: an independent check", ru="# Упражнения к разделу 6: независимая проверка",
   tags=("exercise",))

md(zh="# 练习 6 参考解答：独立核对", en="# Solutions to exercise set 6: an independent check",
   ru="# Решения упражнений к разделу 6: независимая проверка",
   tags=("solution",))

md(
    zh="""
本笔记本配合 §6，做法与前几份练习相同：把 `raise NotImplementedError  # TODO` 那一行换成你的代码，再运行下面的 `check(...)`。

§6.6 说明了为什么要有一条独立的计算路径：如果 `lib` 里有错误，拿 `lib` 的两种用法互相比较，断言照样可能“自洽”地通过。这里由你亲手写出这条路径：只用 Python 本身（列表、循环和 `math` 模块）写一次多头注意力，再用它重算 §6 表中的编号 2 和编号 3，与 `lib` 的结果对照。函数里用到 NumPy 或 `lib`，核对就不再独立：`check` 会给出提示，评分时这一题不计分。

计分方法与练习 1 相同：一道题的全部测试（公开测试和隐藏测试）都通过，才得到这道题的分数。
""",
    en="""
This notebook goes with §6 and works like the previous exercise sets: replace the line `raise NotImplementedError  # TODO` with your code and run the `check(...)` cell below it.

§6.6 explains why an independent route of computation is needed: if `lib` had a bug, assertions that compare two uses of `lib` could still pass "consistently". Here you write that route yourself: multi-head attention in plain Python (lists, loops and the `math` module), which you then use to recompute numbers 2 and 3 of the table of §6 and compare them with `lib`. A function that uses NumPy or `lib` is no longer an independent check: `check` prints a warning and the grader gives no points for it.

Points are earned as in exercise set 1: an exercise earns its points when all its tests, public and hidden, pass.
""",
    ru="""
Этот блокнот относится к §6 и устроен так же, как предыдущие: замените строку `raise NotImplementedError  # TODO` своим кодом и запустите `check(...)` под ней.

В §6.6 объяснено, зачем нужен независимый путь вычислений: будь в `lib` ошибка, утверждения, сравнивающие два способа вызвать `lib`, всё равно могли бы «согласованно» выполняться. Здесь вы прокладываете этот путь сами: пишете многоголовое внимание на чистом Python (списки, циклы и модуль `math`), а затем пересчитываете с его помощью числа № 2 и № 3 из таблицы §6 и сверяете их с `lib`. Функция, которая пользуется NumPy или `lib`, уже не даёт независимой проверки: `check` напечатает предупреждение, а система оценивания не засчитает упражнение.

Баллы начисляются так же, как в упражнениях к разделу 1: упражнение получает свои баллы, когда пройдены все его тесты, открытые и скрытые.
""",
    tags=("exercise",),
)

# The solved notebook's introduction: what the page shows and where the exercises are.
md(
    zh="""
这是练习 6 的参考解答页，对应的练习页是 `exercises/zh/ex06_evidence.ipynb`。先在那里自己做，再来这里对照。

这里给出唯一一道题的满分答案：只用列表和 `math`、不用 NumPy 写出的多头注意力，答案下方是 `check(...)` 的输出（公开测试全部通过），最后一段 **关于解答** 说明它为什么是一条独立的核对途径。这道题练的是 §6：在页面上用纯 Python 重算同样的数字（§6.6），以及这类核对能证明什么、不能证明什么（§6.7）。

笔记本可以直接从头运行。要检验自己的代码，请在练习页运行 `check(...)`；评分时的隐藏测试，这里的答案也能通过。
""",
    en="""
This page holds the solution to exercise set 6; the exercise is on `exercises/en/ex06_evidence.ipynb`. Try it there first, then compare here.

It gives an answer that earns full points to the set's one exercise, multi-head attention written with lists and `math` only, no NumPy, followed by the output of its `check(...)` cell (every public test passes) and an **About the solution** note on why it is an independent route to the same numbers. The exercise practises §6: recomputing the page's numbers in plain Python (§6.6), and what such a check proves and what it does not (§6.7).

The notebook runs from top to bottom as it is. To test your own code, run `check(...)` on the exercise page; this answer also passes the hidden tests the grader adds.
""",
    ru="""
На этой странице — решение упражнения к разделу 6; само упражнение — в `exercises/ru/ex06_evidence.ipynb`. Сначала решите его там, потом сверьтесь здесь.

Здесь дан ответ на полный балл к единственному упражнению — многоголовое внимание, написанное только на списках и `math`, без NumPy; за ним идёт результат ячейки `check(...)` (все открытые тесты пройдены) и заметка **О решении**: почему это независимый путь к тем же числам. Упражнение отрабатывает §6: пересчёт чисел страницы на чистом Python (§6.6) и то, что такая проверка доказывает, а что нет (§6.7).

Блокнот выполняется целиком, как есть. Чтобы проверить свой код, запустите `check(...)` в блокноте с упражнением; скрытые тесты, которые добавляются при оценивании, этот ответ тоже проходит.
""",
    tags=("solution",),
)

md(**INSTALL_NOTE)

code(setup_cell("""
import math

import numpy as np

from grading import check, needs_exercise
from lib import checks
from lib.data import BOS, UNK
"""), tags=("hide-input",))

code("""
model = checks.chapter_model()  # §4.1: D=4, H=2, C=8, W_Q = W_K = W_V = I
""")

md(
    zh="""
## evidence-1：用纯 Python 写多头注意力（4 分）

写出 `attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True)`，它对一条序列做一次多头注意力，与 `lib.attention.multi_head_attention` 的结果一致：

* `x` 是 `T` 行的列表，每行是 `D` 个浮点数；`w_q`、`w_k`、`w_v`、`w_o` 都是 `D` 行、每行 `D` 个数的列表。采用行向量约定：查询的第 `c` 个分量是 `sum(x[i][r] * w_q[r][c] for r in range(D))`，键、值与输出投影同理。
* 头 `h` 使用查询、键、值的第 `h·d … (h+1)·d − 1` 个分量，`d = D / H`。分数是查询与键的点积乘以 `1/√d`；`causal=True` 时查询 `i` 只读取键 `j ≤ i`，`causal=False` 时读取全部键。在读取的键上做 softmax（先减去最大分数，避免溢出），再对值加权求和。
* 把各头的结果按头的顺序拼接成 `D` 个数，乘以 `w_o`，返回 `T` 行、每行 `D` 个浮点数的列表。
* `D` 不能被 `n_heads` 整除时抛出 `ValueError`。

函数里不能用 NumPy，也不能用 `lib`。
""",
    en="""
## evidence-1: multi-head attention in plain Python (4 points)

Write `attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True)`, one pass of multi-head attention over one sequence that agrees with `lib.attention.multi_head_attention`:

* `x` is a list of `T` rows of `D` floats each; `w_q`, `w_k`, `w_v` and `w_o` are lists of `D` rows of `D` numbers. The convention is row vectors: component `c` of the query is `sum(x[i][r] * w_q[r][c] for r in range(D))`, and likewise for the keys, the values and the output projection.
* Head `h` uses components `h·d … (h+1)·d − 1` of the queries, keys and values, with `d = D / H`. A score is the dot product of a query and a key times `1/√d`; with `causal=True` query `i` reads only the keys `j ≤ i`, with `causal=False` it reads all of them. Take a softmax over the keys it reads (subtracting the largest score first, so that nothing overflows) and a weighted sum of the values.
* Concatenate the heads' results, head by head, into `D` numbers, multiply by `w_o`, and return a list of `T` rows of `D` floats.
* A `D` that `n_heads` does not divide raises `ValueError`.

The function may use neither NumPy nor `lib`.
""",
    ru="""
## evidence-1: многоголовое внимание на чистом Python (4 балла)

Напишите `attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True)` — один проход многоголового внимания по одной последовательности, совпадающий с результатом `lib.attention.multi_head_attention`:

* `x` — список из `T` строк по `D` чисел с плавающей точкой; `w_q`, `w_k`, `w_v` и `w_o` — списки из `D` строк по `D` чисел. Векторы записываются строками: компонента `c` запроса равна `sum(x[i][r] * w_q[r][c] for r in range(D))`, и так же для ключей, значений и выходной проекции.
* Голова `h` берёт компоненты `h·d … (h+1)·d − 1` запросов, ключей и значений, где `d = D / H`. Оценка — скалярное произведение запроса и ключа, умноженное на `1/√d`; при `causal=True` запрос `i` читает только ключи `j ≤ i`, при `causal=False` — все ключи. По прочитанным ключам возьмите softmax (сначала вычтите наибольшую оценку, чтобы ничего не переполнилось) и взвешенную сумму значений.
* Склейте результаты голов по порядку в `D` чисел, умножьте на `w_o` и верните список из `T` строк по `D` чисел.
* Если `D` не делится на `n_heads`, выбрасывается `ValueError`.

NumPy и `lib` в функции использовать нельзя.
""",
)

code(reference_cell("attention_py"))

code("""
check("evidence-1", attention_py)
""")

md(
    zh="""
现在用它重算 §6.2 的一对数：`<bos> 春 雨` 与 `<bos> 春 <unk>` 只在最后一个位置不同，编号 2 是带掩码时前两行输出的最大变化，编号 3 是关掉掩码时的变化。§4.1 的模型用单位矩阵作 $W_Q$、$W_K$、$W_V$；嵌入表、位置表和 $W_O$ 从模型中以列表取出，之后的计算只经过 `attention_py`。打印的是编号、纯 Python 的值、`lib` 的值，以及两者相差是否在 1e-12 之内。
""",
    en="""
Now use it to recompute the pair of numbers of §6.2: `<bos> 春 雨` and `<bos> 春 <unk>` differ only at the last position; number 2 is the largest change of the first two output rows with the mask, number 3 the change with the mask off. The model of §4.1 uses identity matrices for $W_Q$, $W_K$ and $W_V$; the token table, the position table and $W_O$ are taken from the model as lists, and from then on everything goes through `attention_py`. Each printed row gives the number, the plain-Python value, the value from `lib` and whether the two agree within 1e-12.
""",
    ru="""
Теперь пересчитаем с её помощью пару чисел из §6.2: `<bos> 春 雨` и `<bos> 春 <unk>` различаются только последней позицией; № 2 — наибольшее изменение первых двух строк выхода с маской, № 3 — то же изменение с выключенной маской. В модели из §4.1 матрицы $W_Q$, $W_K$ и $W_V$ единичные; таблица токенов, таблица позиций и $W_O$ берутся из модели в виде списков, а дальше всё вычисляется только через `attention_py`. В каждой напечатанной строке — номер, значение на чистом Python, значение из `lib` и признак того, что они совпадают с точностью до 1e-12.
""",
)

code("""
E, P, W_O = (model.token_table.tolist(), model.position_table.tolist(),
             model.w_o.tolist())
identity = [[float(r == c) for c in range(4)] for r in range(4)]
assert (identity == model.w_q.tolist() == model.w_k.tolist()
        == model.w_v.tolist())

def prefix_change_py(tokens_a, tokens_b, causal):
    #zh 前两行输出的最大变化，全程只用列表
    #en the largest change of the first two output rows, lists all the way
    #ru наибольшее изменение первых двух строк выхода, только на списках
    rows = [attention_py([[e + p for e, p in zip(E[t], P[i])] for i,
                          t in enumerate(tokens)], identity, identity,
                         identity, W_O, 2, causal)[:2]
            for tokens in (tokens_a, tokens_b)]
    return max(abs(a - b) for row_a, row_b in zip(*rows) for a,
               b in zip(row_a, row_b))

ids, perturbed = [BOS, 3, 4], [BOS, 3, UNK]
py = {2: prefix_change_py(ids, perturbed, True),
      3: prefix_change_py(ids, perturbed, False)}
perturbation = checks.check_causality(
    model.forward, lambda t: model.forward(t, causal=False), np.array(ids),
    np.array(perturbed), prefix_length=2)
ours = {2: perturbation.change, 3: perturbation.control_change}
for n in (2, 3):
    print(n, f"{py[n]:.10f}", f"{ours[n]:.10f}",
          abs(py[n] - ours[n]) < 1e-12)
assert (
    py[2] == 0.0 and abs(py[3] - 39.772020613422825) < 1e-9
), needs_exercise("evidence-1")
assert all(abs(py[n] - ours[n]) < 1e-12
           for n in (2, 3)), needs_exercise("evidence-1")
""")

md(
    zh="""
**解答说明。** 这条路径之所以独立，是因为它不与 `lib` 共用任何一行代码：头的切分写成分量的下标区间，缩放写成 `math.sqrt(d)`，softmax、加权求和与 $W_O$ 都是显式的循环。`lib` 若把头切错、把缩放写成 `1/d`，或者把 $W_O$ 转置了，这里的数就会和它对不上。这道题的隐藏测试用随机权重，因为单位投影会掩盖一类错误（§6.7）：在 §4.1 的模型上，把 $W_Q$ 和 $W_K$ 用反了，结果完全不变。两条路径做的是同样的运算，只是求和次序不同，所以只在最后一两位上可能不同；编号 2 在两条路径上都恰好是 0.0，因为前两行读到的键和值完全相同。编号 3 约为 39.772，两条路径相差不到 1e-12。
""",
    en="""
**About the solution.** This route is independent because it shares no line of code with `lib`: the head split is a range of component indices, the scale is `math.sqrt(d)`, and the softmax, the weighted sum and $W_O$ are explicit loops. Had `lib` split the heads wrongly, scaled by `1/d` or transposed $W_O$, its numbers would disagree with these. The hidden tests of this exercise use random weights, because identity projections hide a whole class of mistakes (§6.7): on the model of §4.1, using $W_Q$ where $W_K$ belongs changes nothing at all. Both routes perform the same operations and differ only in the order of summation, so they can differ only in the last digit or two. Number 2 is exactly 0.0 on both routes, because the first two rows read exactly the same keys and values; number 3 is about 39.772, and the two routes agree within 1e-12.
""",
    ru="""
**О решении.** Этот путь независим, потому что не делит с `lib` ни одной строки кода: разбиение на головы записано как диапазон индексов компонент, масштаб — как `math.sqrt(d)`, а softmax, взвешенная сумма и $W_O$ — как явные циклы. Если бы `lib` неверно разбивала головы, масштабировала на `1/d` или транспонировала $W_O$, её числа разошлись бы с этими. Скрытые тесты этого упражнения используют случайные веса, потому что единичные проекции скрывают целый класс ошибок (§6.7): на модели из §4.1 перепутанные $W_Q$ и $W_K$ ничего не меняют. Оба пути выполняют одни и те же операции и отличаются только порядком суммирования, поэтому могут разойтись лишь в последних одном-двух знаках. Число № 2 на обоих путях равно ровно 0,0, потому что первые две строки читают в точности одни и те же ключи и значения; № 3 примерно равно 39,772, и пути совпадают с точностью до 1e-12.
""",
    tags=("solution",),
)
