# Exercises for section 1 (the allowed set).  Solved source: tools/build_notebooks.py
# writes solutions/{zh,en,ru}/ex01_allowed_set.ipynb from it, and the exercise
# notebooks exercises/{zh,en,ru}/ex01_allowed_set.ipynb with the answers cut out.

from grading.notebook_setup import setup_cell  # the first code cell, shared by every exercise notebook

md(zh="# 练习一：许可集合", en="# Exercises 1: the allowed set", ru="# Упражнения 1: множество разрешённых позиций",
   tags=("exercise",))

md(zh="# 练习一 参考解答：许可集合", en="# Solutions 1: the allowed set", ru="# Решения упражнений 1: множество разрешённых позиций",
   tags=("solution",))

md(
    zh="""
本笔记本配合第一节。每道题先写明要求，再给出一个函数，其中答案的位置只有一行 `raise NotImplementedError  # TODO`。把这一行换成你的代码，然后运行紧随其后的 `check(...)` 单元。

`check` 只运行公开用例，并用本笔记本的语言告诉你：哪个用例通过，哪个失败，失败的原因是什么（期望值与实际值、形状、dtype、容差）。评分时还会加入随机生成的隐藏用例，所以请实现题目中的规则，而不是只迎合这几个例子。

函数要在笔记本里亲手写出。直接调用 `lib` 中的参考实现（例如 `lib.attention.masked_softmax`）会被检查发现：`check` 会给出提示，评分时这一题不计分。
""",
    en="""
This notebook goes with section 1. Each exercise states a task and gives a function in which the answer is a single line, `raise NotImplementedError  # TODO`. Replace that line with your code and run the `check(...)` cell right below it.

`check` runs the public cases only and tells you, in this notebook's language, which case passed, which failed and why (expected against obtained value, shape, dtype, tolerance). Grading adds hidden cases drawn at random, so implement the rule the task states rather than fitting the few examples.

Write the functions yourself, here in the notebook. Calling the reference versions in `lib` (such as `lib.attention.masked_softmax`) is detected: `check` prints a warning and the grader gives no points for that exercise.
""",
    ru="""
Этот блокнот относится к разделу 1. В каждом упражнении есть условие и функция, в которой на месте ответа стоит одна строка `raise NotImplementedError  # TODO`. Замените её своим кодом и запустите ячейку `check(...)` сразу под функцией.

`check` прогоняет только открытые случаи и сообщает на языке блокнота, какие из них пройдены, какие нет и почему (ожидаемое и полученное значение, форма, dtype, допуск). При оценке добавятся скрытые случаи, сгенерированные случайно, поэтому реализуйте правило из условия, а не подгоняйте ответ под несколько примеров.

Функции нужно написать самому, здесь, в блокноте. Вызов эталонных версий из `lib` (например, `lib.attention.masked_softmax`) проверка замечает: `check` выводит предупреждение, а оценщик не засчитывает такое упражнение.
""",
)

code(setup_cell("""
import numpy as np

from grading import check
"""))

md(
    zh="""
## mask-1：因果许可集合（1 分）

`causal_allowed(tq, tk)` 返回形状为 `(tq, tk)` 的布尔数组，`allowed[i, j]` 为真表示查询 `i` 可以读取键 `j`。这 `tq` 个查询是 `tk` 个键中的最后 `tq` 个位置：查询 `i` 的绝对位置是 `tk - tq + i`（有 KV 缓存时，前面的位置已经存好了）。查询可以读取直到它自身位置（含自身）的所有键。

两个位置数组已经给出，只需补上比较它们的那一行。
""",
    en="""
## mask-1: the causal allowed set (1 point)

`causal_allowed(tq, tk)` returns a boolean array of shape `(tq, tk)` in which `allowed[i, j]` is True when query `i` may read key `j`. The `tq` queries are the last `tq` of the `tk` positions: query `i` sits at absolute position `tk - tq + i` (with a KV cache, the earlier positions are already stored). A query may read every key up to and including its own position.

The two position arrays are given; write the one line that compares them.
""",
    ru="""
## mask-1: причинное множество разрешённых позиций (1 балл)

`causal_allowed(tq, tk)` возвращает булев массив формы `(tq, tk)`, где `allowed[i, j]` истинно, если запрос `i` может читать ключ `j`. Запросы — это последние `tq` из `tk` позиций: запрос `i` стоит на абсолютной позиции `tk - tq + i` (при KV-кэше более ранние позиции уже сохранены). Запрос может читать все ключи вплоть до своей позиции включительно.

Оба массива позиций уже построены; допишите одну строку, которая их сравнивает.
""",
)

code("""
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # BEGIN SOLUTION
    return key_position <= query_position               # (tq, tk)
    # END SOLUTION
""")

code("""
check("mask-1", causal_allowed)
""")

code("""
print(causal_allowed(3, 3).astype(int))
print(causal_allowed(2, 5).astype(int))
""")

md(
    zh="""
**解答说明。** 关键是 `<=` 而不是 `<`：位置 `t` 的输入就是已经看见的第 `t` 项，读取它并不泄漏要预测的下一项。若写成 `<`，第一行一个真值也没有，第 0 个查询无键可读，softmax 没有分母。第二个例子中两个查询排在五个位置的末尾，分别能读到位置 0–3 和 0–4，这正是缓存续写时的右下对齐。
""",
    en="""
**About the solution.** The comparison is `<=`, not `<`: the input at position `t` is the item already seen there, and reading it does not reveal the next item, which is the target. With `<` the first row has no True entry, query 0 may read nothing and its softmax has no denominator. In the second example the two queries are the last two of five positions, so they read positions 0–3 and 0–4: the bottom-right alignment a cache needs when it continues a sequence.
""",
    ru="""
**О решении.** Сравнение — `<=`, а не `<`: вход на позиции `t` — это уже увиденный элемент, и чтение его не раскрывает следующий элемент, то есть цель. При `<` в первой строке не останется ни одного True: запросу 0 нечего читать, и у его softmax нет знаменателя. Во втором примере два запроса — последние две из пяти позиций, поэтому они читают позиции 0–3 и 0–4. Именно такое выравнивание по правому нижнему углу нужно кэшу, когда он продолжает последовательность.
""",
    tags=("solution",),
)

md(
    zh="""
## mask-2：在许可集合上归一化的 softmax（2 分）

写出 `masked_softmax(scores, allowed)`：在 `scores` 的最后一维上做 softmax，但只在 `allowed` 为真的位置上归一化（`allowed` 可以广播到 `scores` 的形状）。要求：

* 禁止读取的位置输出恰好为 `0.0`，每一行在许可位置上的和为 1；
* 结果的形状和 dtype 与 `scores` 相同（float32 输入得到 float32 输出）；
* 分数很大（例如 1000）时不能溢出：先减去每行许可位置中的最大分数；
* 若某一行没有任何许可位置，抛出 `ValueError`：这个查询无键可读，softmax 没有分母。

先对全部位置做 softmax、再把未来位置清零，并不是同一件事：那样每行的和不再是 1。
""",
    en="""
## mask-2: softmax over the allowed set (2 points)

Write `masked_softmax(scores, allowed)`: a softmax over the last axis of `scores` that normalises over the entries where `allowed` is True only (`allowed` broadcasts to the shape of `scores`). Requirements:

* forbidden entries come out exactly `0.0`, and every row sums to 1 over its allowed entries;
* the result has the shape and dtype of `scores` (float32 in, float32 out);
* large scores such as 1000 must not overflow: first subtract the largest allowed score of each row;
* a row without any allowed entry raises `ValueError`: that query may read no key, so its softmax has no denominator.

A softmax over all entries followed by zeroing the future ones is a different thing: its rows no longer sum to 1.
""",
    ru="""
## mask-2: softmax по множеству разрешённых позиций (2 балла)

Напишите `masked_softmax(scores, allowed)`: softmax по последней оси `scores`, нормированный только по позициям, где `allowed` истинно (`allowed` транслируется до формы `scores`). Требования:

* на запрещённых позициях результат равен ровно `0.0`, а сумма каждой строки по разрешённым позициям равна 1;
* форма и dtype результата — как у `scores` (на входе float32 — на выходе float32);
* большие оценки вроде 1000 не должны приводить к переполнению: сначала вычтите из строки её наибольшую разрешённую оценку;
* строка без единой разрешённой позиции вызывает `ValueError`: такому запросу нечего читать, и у softmax нет знаменателя.

Softmax по всем позициям с последующим обнулением будущих — это другое: суммы строк перестают быть равны 1.
""",
)

code("""
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    # BEGIN SOLUTION
    if not allowed.any(axis=-1).all():
        raise ValueError("a row of allowed has no True entry: that query may read no key")
    masked = np.where(allowed, scores, -np.inf)                # forbidden -> -inf
    shifted = masked - masked.max(axis=-1, keepdims=True)      # largest allowed -> 0
    weights = np.exp(shifted)                                  # exp(-inf) == 0 exactly
    return weights / weights.sum(axis=-1, keepdims=True)
    # END SOLUTION
""")

code("""
check("mask-2", masked_softmax)
""")

md(
    zh="""
下面用第一节的例子比较两种做法：三个位置、分数全为零。
""",
    en="""
The example of section 1 compares the two orders: three positions, every score zero.
""",
    ru="""
Пример из раздела 1 сравнивает два порядка действий: три позиции, все оценки равны нулю.
""",
)

code("""
allowed = causal_allowed(3, 3)
weights = masked_softmax(np.zeros((3, 3)), allowed)
zeroed = np.where(allowed, np.full((3, 3), 1 / 3), 0.0)       # softmax over all keys, then zeros
print(np.round(weights, 6))
print(np.round(weights.sum(axis=-1), 12), np.round(zeroed.sum(axis=-1), 6))
assert np.allclose(weights[1], [0.5, 0.5, 0.0]) and np.isclose(zeroed[0].sum(), 1 / 3)
""")

md(
    zh="""
**解答说明。** 把禁止位置换成 `-inf` 再做 softmax，与只在许可集合上归一化完全等价，因为 `exp(-inf)` 恰好是 0。减去每行的最大值不改变结果，却保证最大的指数是 `exp(0) = 1`，不会溢出成 `inf`，进而得到 `nan`。空行必须在计算之前拒绝：否则那一行的最大值是 `-inf`，`-inf - (-inf)` 得到 `nan`，错误会悄悄流到后面。`np.where` 和 `-np.inf` 都不会把 float32 提升为 float64，所以 dtype 自然保持不变。
""",
    en="""
**About the solution.** Putting `-inf` on the forbidden entries and then taking a softmax is exactly the same as normalising over the allowed set, because `exp(-inf)` is exactly 0. Subtracting the row maximum does not change the result but makes the largest exponential `exp(0) = 1`, so nothing overflows to `inf` and then to `nan`. The empty row has to be rejected before computing: its maximum would be `-inf`, `-inf - (-inf)` is `nan`, and the error would flow on silently. Neither `np.where` nor the Python scalar `-np.inf` promotes float32 to float64, so the dtype is kept for free.
""",
    ru="""
**О решении.** Подставить `-inf` на запрещённые позиции и затем взять softmax — ровно то же, что нормировать по разрешённым позициям, потому что `exp(-inf)` равно нулю точно. Вычитание максимума строки не меняет результат, но делает наибольшую экспоненту равной `exp(0) = 1`, так что ничего не переполняется до `inf`, а затем до `nan`. Пустую строку нужно отвергнуть до вычислений: её максимум был бы `-inf`, `-inf - (-inf)` даёт `nan`, и ошибка тихо ушла бы дальше. Ни `np.where`, ни питоновское число `-np.inf` не повышают float32 до float64, поэтому dtype сохраняется сам собой.
""",
    tags=("solution",),
)

md(
    zh="""
## mask-3：检验注意力权重（3 分）

现在把规则变成一个检验。写出 `is_valid_attention(weights, allowed, atol=1e-9)`，当且仅当 `weights` 可能是一个正确的掩码 softmax 的输出时返回 `True`：

* 每个禁止位置恰好为 0；
* 没有负数、`nan` 或无穷大；
* 每一行的和在 `atol` 之内等于 1。

`allowed` 可以广播到 `weights` 的形状。函数对这些输入必须返回布尔值（NumPy 的 `np.bool_` 也可以），不能抛出异常。写好后，用它检查 mask-2 的权重和“先 softmax 再清零”的权重：好的检验接受前者、拒绝后者。
""",
    en="""
## mask-3: a check for attention weights (3 points)

Now turn the rules into a test. Write `is_valid_attention(weights, allowed, atol=1e-9)` that returns `True` exactly when `weights` could be the output of a correct masked softmax:

* every forbidden entry is exactly 0;
* no entry is negative, `nan` or infinite;
* every row sums to 1 within `atol`.

`allowed` broadcasts to the shape of `weights`. For these inputs the function returns a bool (a NumPy `np.bool_` is fine) and never raises. Then run it on the weights of mask-2 and on the "softmax first, zeros after" weights: a good check accepts the first and rejects the second.
""",
    ru="""
## mask-3: проверка весов внимания (3 балла)

Теперь превратим правила в тест. Напишите `is_valid_attention(weights, allowed, atol=1e-9)`, которая возвращает `True` ровно тогда, когда `weights` могли получиться из правильного softmax с маской:

* каждая запрещённая позиция равна ровно 0;
* нет отрицательных значений, `nan` и бесконечностей;
* сумма каждой строки равна 1 с точностью `atol`.

`allowed` транслируется до формы `weights`. На таких входах функция возвращает логическое значение (подойдёт и `np.bool_` из NumPy) и не выбрасывает исключений. Затем примените её к весам из mask-2 и к весам «сначала softmax, потом нули»: хорошая проверка принимает первые и отвергает вторые.
""",
)

code("""
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    # BEGIN SOLUTION
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any() or (weights < 0).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
    # END SOLUTION
""")

code("""
check("mask-3", is_valid_attention)
""")

code("""
print(is_valid_attention(weights, allowed), is_valid_attention(zeroed, allowed))
""")

md(
    zh="""
**解答说明。** 三条规则缺一不可。只看右上角是否为零的检验会放过“先 softmax 再清零”：那里的未来位置确实是零，但行和只有 1/3 或 2/3。只看行和的检验会放过 `[1.5, -0.5, 0]` 这样的行。`nan` 要单独排除：它与任何数比较都得到假，很容易从“没有负数”的检查中溜过去。注意浮点误差：正确的权重行和可能是 `0.9999999999999999`，所以行和用容差比较，而禁止位置用精确的 `!= 0`。
""",
    en="""
**About the solution.** All three rules are needed. A check that only looks at the upper-right triangle passes "softmax first, zeros after": the future entries there are zero indeed, but the rows sum to 1/3 and 2/3. A check of row sums alone passes a row like `[1.5, -0.5, 0]`. `nan` must be excluded on its own, since every comparison with it is False and it slips through "no negative entry". Mind rounding: correct weights may sum to `0.9999999999999999`, so row sums are compared within a tolerance, while forbidden entries are compared exactly, `!= 0`.
""",
    ru="""
**О решении.** Нужны все три правила. Проверка, которая смотрит только на правый верхний треугольник, пропустит «сначала softmax, потом нули»: будущие позиции там действительно нулевые, но суммы строк равны 1/3 и 2/3. Проверка одних сумм пропустит строку `[1.5, -0.5, 0]`. `nan` нужно исключать отдельно: любое сравнение с ним ложно, и он проскальзывает мимо условия «нет отрицательных». Учтите округление: правильные веса могут давать сумму `0.9999999999999999`, поэтому суммы строк сравниваются с допуском, а запрещённые позиции — точно, через `!= 0`.
""",
    tags=("solution",),
)
