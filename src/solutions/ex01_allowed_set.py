# Exercises for section 1 (the allowed set).  Solved source: tools/build_notebooks.py
# writes solutions/{zh,en,ru}/ex01_allowed_set.ipynb from it, and the exercise
# notebooks exercises/{zh,en,ru}/ex01_allowed_set.ipynb with the answers cut out.

from grading.notebook_setup import INSTALL_NOTE, setup_cell  # the start of every exercise notebook

md(zh="# 练习 1：许可集合", en="# Exercise set 1: the allowed set",
   ru="# Упражнения к разделу 1: множество разрешённых позиций",
   tags=("exercise",))

md(zh="# 练习 1 参考解答：许可集合", en="# Solutions to exercise set 1: the allowed set",
   ru="# Решения упражнений к разделу 1: множество разрешённых позиций",
   tags=("solution",))

md(
    zh="""
本笔记本配合 §1。每道题先写明要求，再给出一个函数，其中答案的位置只有一行 `raise NotImplementedError  # TODO`。把这一行换成你的代码，然后运行紧随其后的 `check(...)` 单元格。

`check` 只运行公开的测试用例，并用本笔记本的语言告诉你：哪个用例通过，哪个失败，失败的原因是什么（期望值与实际值、形状、dtype、容差）。评分时还会加入随机生成的隐藏测试用例，所以请实现题目中的规则，而不是只迎合这几个例子。

函数要在笔记本里亲手写出。直接调用 `lib` 中的参考实现（例如 `lib.attention.masked_softmax`）会被检查发现：`check` 会给出提示，评分时这一题不计分。

计分：每道题的分数写在标题里。只有这道题的全部测试（公开测试和隐藏测试）都通过，才得到这道题的分数；只要有一个测试没通过，这道题就得 0 分（教师也可以选择部分得分，那时分数平均分给各个测试组）。失败时，`check` 若认出是常见的错误，会说明数字反映了什么，并指出本章哪一节讲到它。
""",
    en="""
This notebook goes with §1. Each exercise states a task and gives a function in which a single line, `raise NotImplementedError  # TODO`, stands where the answer goes. Replace that line with your code and run the `check(...)` cell right below it.

`check` runs the public test cases only and tells you, in this notebook's language, which case passed, which failed and why (expected vs. actual value, shape, dtype, tolerance). Grading adds hidden test cases drawn at random, so implement the rule the task states rather than fitting the few examples.

Write the functions yourself, here in the notebook. Calling the reference versions in `lib` (such as `lib.attention.masked_softmax`) is detected: `check` prints a warning and the grader gives no points for that exercise.

Scoring: each exercise's points are in its heading. An exercise earns them when all its tests, public and hidden, pass; one failed test leaves it at 0 points (an instructor may choose partial credit instead, which splits the points equally over the exercise's test groups). When a failure matches a common mistake, `check` says what the numbers suggest and which section of the chapter explains it.
""",
    ru="""
Этот блокнот относится к §1. В каждом упражнении есть условие и функция, в которой на месте ответа стоит одна строка `raise NotImplementedError  # TODO`. Замените её своим кодом и запустите ячейку `check(...)` сразу под функцией.

`check` прогоняет только открытые тесты и сообщает на языке блокнота, какие из них пройдены, какие нет и почему (ожидаемое и полученное значение, форма, dtype, допуск). При оценивании добавляются скрытые тесты со случайными данными, поэтому реализуйте правило из условия, а не подгоняйте ответ под несколько примеров.

Функции нужно написать самостоятельно, здесь, в блокноте. Вызов эталонных версий из `lib` (например, `lib.attention.masked_softmax`) обнаруживается: `check` печатает предупреждение, а система оценивания не засчитывает такое упражнение.

Баллы: у каждого упражнения они указаны в заголовке. Упражнение получает их, только если пройдены все его тесты, открытые и скрытые; один непройденный тест оставляет его с 0 баллов (преподаватель может вместо этого включить частичный зачёт, и тогда баллы поровну делятся между группами тестов упражнения). Если ошибка похожа на типичную, `check` объясняет, о чём говорят числа, и называет раздел главы, где это разобрано.
""",
    tags=("exercise",),
)

# The solved notebook's introduction: what the page shows and where the exercises are.
md(
    zh="""
这是练习 1 的参考解答页，对应的练习页是 `exercises/zh/ex01_allowed_set.ipynb`。建议先在练习页上自己做，卡住了或做完以后再来这里对照。

每道题依次给出：题目要求；一个能拿满分的答案，也就是练习页里留给你写的那几行；紧随其后的 `check(...)` 的输出，所有公开测试都通过；以及一段 **关于解答**，说明答案为什么对、避开了哪个陷阱。这些题练的是 §1：因果许可集合与 `<` 和 `≤` 的区别（§1.7），在许可集合上归一化的 softmax 以及置 0 和顺序颠倒这两种错误（§1.5、§1.6），右侧填充的批量中哪些目标计分（§1.2、§1.8）。

这个笔记本可以从头到尾直接运行。想检验自己的写法，请在练习页里运行它的 `check(...)`：它用同样的用例检验你的函数，并能认出常见错误。评分时还会加上隐藏测试，这里的答案同样全部通过。
""",
    en="""
This page holds the solutions to exercise set 1; the exercises themselves are on `exercises/en/ex01_allowed_set.ipynb`. Try each one there first, and come here to compare once you have an answer or are stuck.

For every exercise you find the task, an answer that earns full points (the lines the exercise page leaves for you to write), the output of the `check(...)` cell after it, in which every public test passes, and a short **About the solution** note on why the answer is right and which trap it avoids. The set practises §1: the causal allowed set and `≤` rather than `<` (§1.7), the softmax normalised over the allowed set and the two ways of getting it wrong, zeroed scores and the wrong order (§1.5, §1.6), and which targets of a right-padded batch are scored (§1.2, §1.8).

The notebook runs from top to bottom as it is. To test your own version, run `check(...)` on the exercise page: it sends your function through the same cases and recognises the usual mistakes. The grader adds hidden tests, which these answers pass as well.
""",
    ru="""
На этой странице — решения упражнений к разделу 1; сами упражнения находятся в `exercises/ru/ex01_allowed_set.ipynb`. Сначала попробуйте решить их там, а сюда загляните, когда ответ готов или работа застопорилась.

Для каждого упражнения здесь есть условие, ответ на полный балл (те строки, которые в упражнении оставлены вам), результат ячейки `check(...)` после него — все открытые тесты пройдены — и короткая заметка **О решении**: почему ответ верен и какой ловушки он избегает. Упражнения отрабатывают §1: причинное множество разрешённых позиций и `≤` вместо `<` (§1.7), softmax с нормализацией по разрешённым позициям и две ошибки — нулевые оценки и неправильный порядок (§1.5, §1.6), а также то, какие целевые метки в батче с дополнением справа учитываются в потерях (§1.2, §1.8).

Блокнот выполняется целиком, сверху вниз, как есть. Чтобы проверить собственный вариант, запустите `check(...)` в блокноте с упражнениями: он прогоняет вашу функцию на тех же тестах и узнаёт типичные ошибки. При оценивании добавляются скрытые тесты; приведённые здесь ответы проходят и их.
""",
    tags=("solution",),
)

md(**INSTALL_NOTE)

code(setup_cell("""
import numpy as np

from grading import check, needs_exercise
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
"""), tags=("hide-input",))

md(
    zh="""
## mask-1：因果许可集合（1 分）

`causal_allowed(tq, tk)` 返回形状为 `(tq, tk)` 的布尔数组，`allowed[i, j]` 为真表示查询 `i` 可以读取键 `j`。这 `tq` 个查询是 `tk` 个位置中的最后 `tq` 个：查询 `i` 的绝对位置是 `tk - tq + i`（右下对齐，见 §5；有 KV 缓存时，前面的位置已经存好了）。查询可以读取直到它自身位置（含自身）的所有键。

两个位置数组已经给出，只需补上比较它们的那一行。
""",
    en="""
## mask-1: the causal allowed set (1 point)

`causal_allowed(tq, tk)` returns a boolean array of shape `(tq, tk)` in which `allowed[i, j]` is True when query `i` may read key `j`. The `tq` queries are the last `tq` of the `tk` positions: query `i` stands at absolute position `tk - tq + i` (the bottom-right alignment, see §5; with a KV cache, the earlier positions are already stored). A query may read every key up to and including its own position.

The two position arrays are given; write the one line that compares them.
""",
    ru="""
## mask-1: причинное множество разрешённых позиций (1 балл)

`causal_allowed(tq, tk)` возвращает булев массив формы `(tq, tk)`, где `allowed[i, j]` истинно, если запрос `i` может читать ключ `j`. Запросы — это последние `tq` из `tk` позиций: запрос `i` стоит в абсолютной позиции `tk - tq + i` (выравнивание по правому нижнему углу, см. §5; при KV-кэше более ранние позиции уже сохранены). Запрос может читать все ключи вплоть до своей позиции включительно.

Оба массива позиций уже построены; допишите одну строку, которая их сравнивает.
""",
)

code(reference_cell("causal_allowed"))

code("""
check("mask-1", causal_allowed)
""")

code("""
print(causal_allowed(3, 3).astype(int))
print(causal_allowed(2, 5).astype(int))
""")

md(
    zh="""
**解答说明。** 关键是 `<=` 而不是 `<`：位置 `t` 的输入是已经看到的第 `t` 个词元，读取它并不泄漏要预测的下一个词元。若写成 `<`，`causal_allowed(3, 3)` 的第一行一个真值也没有：第 0 个查询无键可读，softmax 没有分母。第二个例子中两个查询排在五个位置的末尾，位于绝对位置 3 和 4，分别能读到位置 0～3 和 0～4。这就是右下对齐（§5），缓存之后接着生成时需要的正是它。
""",
    en="""
**About the solution.** The comparison is `<=`, not `<`: the input at position `t` is a token already seen, and reading it does not reveal the next token, which is the target. With `<`, the first row of `causal_allowed(3, 3)` has no True entry: query 0 may read nothing and its softmax has no denominator. In the second example the two queries are the last two of five positions, at absolute positions 3 and 4, so they read positions 0–3 and 0–4. This is the bottom-right alignment (§5), which a cache needs when a sequence continues.
""",
    ru="""
**О решении.** Сравнение — `<=`, а не `<`: вход в позиции `t` — уже увиденный токен, и его чтение не раскрывает следующий токен, то есть целевую метку. При `<` в первой строке `causal_allowed(3, 3)` не останется ни одного True: запросу 0 нечего читать, и у его softmax нет знаменателя. Во втором примере два запроса — последние две из пяти позиций: они стоят в абсолютных позициях 3 и 4 и читают позиции 0–3 и 0–4. Это выравнивание по правому нижнему углу (§5); оно нужно кэшу, когда последовательность продолжается.
""",
    tags=("solution",),
)

md(
    zh=r"""
## mask-2：在许可集合上归一化的 softmax（2 分）

写出 `masked_softmax(scores, allowed)`：在 `scores` 的最后一维上做 softmax，但只在 `allowed` 为真的位置上归一化（`allowed` 可以广播到 `scores` 的形状）。要求：

* 禁止读取的位置输出恰好为 `0.0`，每一行在许可位置上的和为 1；
* 结果的形状和 dtype 与 `scores` 相同（float32 输入得到 float32 输出）；
* 分数很大（例如 1000）时不能溢出：先减去每行许可位置中的最大分数；
* 若某一行没有任何许可位置，抛出 `ValueError`：这个查询无键可读，softmax 没有分母。

先对全部位置做 softmax、再把未来位置清零，并不是同一件事：那样每行的和不再是 1（§1.6）。把禁止位置的分数换成 0 也不行：$\exp(0) = 1$，这些位置照样分到权重（§1.5）。
""",
    en=r"""
## mask-2: softmax over the allowed set (2 points)

Write `masked_softmax(scores, allowed)`: a softmax over the last axis of `scores` that normalises over the entries where `allowed` is True only (`allowed` broadcasts to the shape of `scores`). Requirements:

* forbidden entries come out exactly `0.0`, and every row sums to 1 over its allowed entries;
* the result has the shape and dtype of `scores` (float32 in, float32 out);
* large scores such as 1000 must not overflow: first subtract the largest allowed score of each row;
* a row without any allowed entry raises `ValueError`: that query may read no key, so its softmax has no denominator.

A softmax over all entries followed by zeroing the future ones is a different thing: its rows no longer sum to 1 (§1.6). Replacing the forbidden scores by 0 does not work either: $\exp(0) = 1$, so those entries still get weight (§1.5).
""",
    ru=r"""
## mask-2: softmax по множеству разрешённых позиций (2 балла)

Напишите `masked_softmax(scores, allowed)`: softmax по последней оси `scores`, в котором нормализация идёт только по позициям, где `allowed` истинно (`allowed` транслируется до формы `scores`). Требования:

* в запрещённых позициях результат равен ровно `0.0`, а сумма каждой строки по разрешённым позициям равна 1;
* форма и dtype результата — как у `scores` (на входе float32 — на выходе float32);
* большие оценки вроде 1000 не должны приводить к переполнению: сначала вычтите из строки её наибольшую разрешённую оценку;
* для строки без единой разрешённой позиции выбрасывается `ValueError`: такому запросу нечего читать, и у softmax нет знаменателя.

Softmax по всем позициям с последующим обнулением будущих — это другое: суммы строк перестают быть равны 1 (§1.6). Не годится и замена запрещённых оценок нулём: $\exp(0) = 1$, и эти позиции всё равно получают вес (§1.5).
""",
)

code("""
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    # BEGIN SOLUTION
    if not allowed.any(axis=-1).all():
        raise ValueError(
            "a row of allowed has no True entry: that query may read no key"
        )
    #zh 禁止位置 → -inf
    #en forbidden entries -> -inf
    #ru запрещённые позиции -> -inf
    masked = np.where(allowed, scores, -np.inf)
    #zh 最大的许可分数 → 0
    #en the largest allowed score -> 0
    #ru наибольшая разрешённая оценка -> 0
    shifted = masked - masked.max(axis=-1, keepdims=True)
    #zh exp(-inf) 恰好是 0
    #en exp(-inf) is exactly 0
    #ru exp(-inf) равно ровно 0
    weights = np.exp(shifted)
    return weights / weights.sum(axis=-1, keepdims=True)
    # END SOLUTION
""")

code("""
check("mask-2", masked_softmax)
""")

md(
    zh="""
下面用 §1.6 的例子比较两种顺序：三个位置，分数全为零。
""",
    en="""
Below, the example of §1.6 compares the two orders: three positions, every score zero.
""",
    ru="""
Сравним два порядка действий на примере из §1.6: три позиции, все оценки равны нулю.
""",
)

code(r"""
allowed = causal_allowed(3, 3)
weights = masked_softmax(np.zeros((3, 3)), allowed)
#zh 先在所有键上做 softmax，再清零
#en softmax over all keys, then zeros
#ru softmax по всем ключам, затем нули
zeroed = np.where(allowed, np.full((3, 3), 1 / 3), 0.0)
print(np.round(weights, 6))
print(np.round(weights.sum(axis=-1), 12), np.round(zeroed.sum(axis=-1), 6))
assert (np.allclose(weights[1], [0.5, 0.5, 0.0])
        and np.isclose(zeroed[0].sum(), 1 / 3)), \
    needs_exercise("mask-1", "mask-2")
""")

md(
    zh="""
**解答说明。** 把禁止位置换成 `-inf` 再做 softmax，与只在许可集合上归一化完全等价，因为 `exp(-inf)` 恰好是 0（换成 `-1e9` 这样的有限常数就不行：所有键都被禁止的行会变成均匀分布，而不是被拒绝，见 §1.7）。减去每行的最大值不改变结果，却保证最大的指数是 `exp(0) = 1`，不会溢出成 `inf`，进而得到 `nan`。空行必须在计算之前拒绝：否则那一行的最大值是 `-inf`，`-inf - (-inf)` 得到 `nan`，错误会悄悄流到后面。`np.where` 和 `-np.inf` 都不会把 float32 提升为 float64，所以 dtype 自然保持不变。
""",
    en="""
**About the solution.** Putting `-inf` on the forbidden entries and then taking a softmax is exactly the same as normalising over the allowed set, because `exp(-inf)` is exactly 0. A finite constant such as `-1e9` would not do: it turns a fully masked row into a uniform one instead of refusing it (§1.7). Subtracting the row maximum does not change the result but makes the largest exponential `exp(0) = 1`, so nothing overflows to `inf` and then to `nan`. The empty row has to be rejected before computing: its maximum would be `-inf`, `-inf - (-inf)` is `nan`, and the error would flow on silently. Neither `np.where` nor the Python scalar `-np.inf` promotes float32 to float64, so the dtype is kept for free.
""",
    ru="""
**О решении.** Подставить `-inf` на запрещённые позиции и затем взять softmax — ровно то же, что нормализовать только по разрешённым позициям, потому что `exp(-inf)` в точности равно нулю (конечная константа вроде `-1e9` не годится: целиком замаскированная строка стала бы равномерной, а не была бы отвергнута, §1.7). Вычитание максимума строки не меняет результат, но делает наибольшую экспоненту равной `exp(0) = 1`, так что ничего не переполняется до `inf`, а затем до `nan`. Пустую строку нужно отвергнуть до вычислений: её максимум был бы `-inf`, `-inf - (-inf)` даёт `nan`, и ошибка незаметно ушла бы дальше. Ни `np.where`, ни питоновское число `-np.inf` не повышают float32 до float64, поэтому dtype сохраняется сам собой.
""",
    tags=("solution",),
)

md(
    zh="""
## mask-3：检验注意力权重（3 分）

现在把规则变成一个检验。写出 `is_valid_attention(weights, allowed, atol=1e-9)`：`weights` 同时满足下面四条时返回 `True`，否则返回 `False`。

* 所有元素都是有限数（没有 `nan`，也没有无穷大）；
* 每个禁止位置恰好为 0；
* 没有负数；
* 每一行的和与 1 相差不超过 `atol`。

检验的就是这四条，不多也不少。它们是掩码 softmax 输出的必要条件，却不是充分条件：通过检验，只说明这些权重在 `atol` 之内符合掩码 softmax 的输出应有的样子，并不说明它们一定是某组分数算出来的。例如第 1 行为 `[1, 0, 0]` 的权重能通过检验（测试用例 `zero-on-allowed-key` 要求返回 `True`），尽管任何有限的分数都不会让许可键 1 的权重恰好为 0。`allowed` 可以广播到 `weights` 的形状。函数对这些输入必须返回布尔值（NumPy 的 `np.bool_` 也可以），不能抛出异常。写好后，用它检查 mask-2 的权重和“先 softmax 再清零”的权重：好的检验接受前者、拒绝后者。
""",
    en="""
## mask-3: a check for attention weights (3 points)

Now turn the rules into a test. Write `is_valid_attention(weights, allowed, atol=1e-9)` that returns `True` when `weights` meets all four of these conditions, and `False` otherwise:

* every entry is finite (no `nan`, no infinity);
* every forbidden entry is exactly 0;
* no entry is negative;
* every row sums to 1 within `atol`.

The check tests exactly these four conditions, nothing more. They are necessary for the output of a masked softmax, but not sufficient: passing them means that the weights look, within `atol`, the way the output of a masked softmax must look, not that some scores actually produced them. For example, weights whose row 1 is `[1, 0, 0]` pass (the test `zero-on-allowed-key` expects `True`), although no finite scores give allowed key 1 a weight of exactly 0. `allowed` broadcasts to the shape of `weights`. For these inputs the function returns a bool (a NumPy `np.bool_` is fine) and never raises. Then run it on the weights of mask-2 and on the "softmax first, zeros after" weights: a good check accepts the first and rejects the second.
""",
    ru="""
## mask-3: проверка весов внимания (3 балла)

Теперь превратим правила в проверку. Напишите функцию `is_valid_attention(weights, allowed, atol=1e-9)`, которая возвращает `True`, если `weights` удовлетворяют всем четырём условиям, и `False` в противном случае:

* все элементы конечны (нет `nan` и бесконечностей);
* каждый запрещённый элемент равен ровно 0;
* отрицательных элементов нет;
* сумма каждой строки отличается от 1 не больше чем на `atol`.

Функция проверяет ровно эти четыре условия, не больше. Это необходимые условия для выхода softmax с маской, но не достаточные: если они выполнены, веса с точностью до `atol` выглядят так, как должен выглядеть выход softmax с маской, но это ещё не значит, что их действительно получили из каких-то оценок. Например, веса, у которых строка 1 равна `[1, 0, 0]`, проверку проходят (тест `zero-on-allowed-key` ждёт `True`), хотя никакие конечные оценки не дают разрешённому ключу 1 вес, равный ровно 0. `allowed` транслируется до формы `weights`. На таких входах функция возвращает логическое значение (подойдёт и `np.bool_` из NumPy) и не выбрасывает исключений. Затем примените её к весам из mask-2 и к весам «сначала softmax, потом нули»: хорошая проверка принимает первые и отвергает вторые.
""",
)

code(reference_cell("is_valid_attention"))

code("""
check("mask-3", is_valid_attention)
""")

code(r"""
#zh 第 1 行 [1, 0, 0]：许可键 1 上恰好为 0，四条仍然成立
#en row 1 is [1, 0, 0]: an exact 0 on allowed key 1, and the four
#en conditions still hold
#ru строка 1 равна [1, 0, 0]: ровно 0 на разрешённом ключе 1, а четыре
#ru условия выполнены
zero_on_allowed = weights.copy()
zero_on_allowed[1] = [1.0, 0.0, 0.0]
print(is_valid_attention(weights, allowed),
      is_valid_attention(zeroed, allowed),
      is_valid_attention(zero_on_allowed, allowed))
assert (is_valid_attention(zero_on_allowed, allowed) and allowed[1, 1]
        and zero_on_allowed[1, 1] == 0.0), \
    needs_exercise("mask-1", "mask-2", "mask-3")
""")

md(
    zh="""
**解答说明。** 四条缺一不可。只看右上角是否为零的检验会放过“先 softmax 再清零”：那里的未来位置确实是零，但行和只有 1/3 或 2/3。只看行和的检验会放过 `[1.5, -0.5, 0]` 这样的行。`nan` 要单独排除：它与任何数比较都得到假，很容易从“没有负数”的检查中溜过去。注意浮点误差：正确的权重行和可能是 `0.9999999999999999`，所以行和用容差比较，而禁止位置用精确的 `!= 0`。

这四条只是必要条件，所以检验会接受一些任何有限分数都算不出来的权重。在精确算术中，掩码 softmax 给每个许可键的权重都大于 0；可是在某个许可键上恰好为 0 的行照样能通过检验，例如把第 1 行写成 `[1, 0, 0]`。检验也不能要求许可位置的权重大于 0：在浮点数里，分数比本行最大值低得足够多时，许可键的权重确实会下溢成 0（§1.10）。所以返回 `True` 的意思是“在 `atol` 之内与掩码 softmax 的输出相符”，而不是“一定由掩码 softmax 算出”。
""",
    en="""
**About the solution.** All four conditions are needed. A check that only looks at the upper-right triangle passes "softmax first, zeros after": the future entries there are zero indeed, but the rows sum to 1/3 and 2/3. A check of row sums alone passes a row such as `[1.5, -0.5, 0]`. `nan` has to be excluded on its own, since every comparison with it is False and it slips through "no negative entry". Mind rounding: correct weights may sum to `0.9999999999999999`, so row sums are compared within a tolerance, while forbidden entries are compared exactly, `!= 0`.

The four conditions are only necessary, so the check accepts some weights that no finite scores can produce. In exact arithmetic a masked softmax gives every allowed key a weight above 0, yet a row with an exact 0 on an allowed key, such as `[1, 0, 0]` for row 1, passes the check. Nor can the check demand positive weights on allowed keys: in floating point an allowed weight does underflow to 0 when its score lies far enough below the row's maximum (§1.10). So `True` means "consistent with the output of a masked softmax within `atol`", not "produced by one".
""",
    ru="""
**О решении.** Нужны все четыре условия. Проверка, которая смотрит только на правый верхний треугольник, пропустит «сначала softmax, потом нули»: будущие позиции там действительно нулевые, но суммы строк равны 1/3 и 2/3. Проверка одних сумм пропустит строку `[1.5, -0.5, 0]`. `nan` нужно исключать отдельно: любое сравнение с ним ложно, и он проскальзывает мимо условия «нет отрицательных». Учтите округление: правильные веса могут давать сумму `0.9999999999999999`, поэтому суммы строк сравниваются с допуском, а запрещённые позиции — точно, через `!= 0`.

Эти четыре условия только необходимы, поэтому проверка принимает и такие веса, каких не дают никакие конечные оценки. В точной арифметике softmax с маской даёт каждому разрешённому ключу вес больше 0, но строка с ровно нулевым весом на разрешённом ключе, например `[1, 0, 0]` в строке 1, проверку проходит. Требовать положительных весов на разрешённых ключах проверка тоже не может: в числах с плавающей точкой вес разрешённого ключа действительно обращается в 0, если его оценка достаточно далеко ниже максимума строки (§1.10). Поэтому `True` означает «с точностью до `atol` согласуется с выходом softmax с маской», а не «получено им».
""",
    tags=("solution",),
)

md(
    zh="""
## data-1：右填充的批量与计分目标（2 分）

写出 `collate(texts, vocab)`，按 §1 的数据约定把一组文本整理成一个批量，返回 `(inputs, targets)`，两者都是 int64 数组，形状为 `(B, T)`，其中 `B` 是文本条数，`T` 等于最长文本的长度加一。第 `b` 行的文本编码为 `ids = encode(text, vocab)`（词表之外的字符变成 `<unk>`，编号 0）之后：

* 输入是 `BOS`，接着是 `ids`，剩下的位置都填 `EOS`；
* 目标是 `ids`，接着是一个 `EOS`，剩下的位置都填 `IGNORE`（−100）。

目标中的 `EOS` 要计分：模型靠它学会在文本结尾处停下。−100 只出现在填充位置，不计分。输入里的 `EOS` 只是填充，输入本身不决定哪里计分。批量为空，或者某条文本为空时，抛出 `ValueError`。
""",
    en="""
## data-1: a right-padded batch and its scored targets (2 points)

Write `collate(texts, vocab)`, which turns a list of texts into a batch following the data protocol of §1. It returns `(inputs, targets)`, two int64 arrays of shape `(B, T)`, where `B` is the number of texts and `T` is one more than the length of the longest text. With row `b`'s text encoded as `ids = encode(text, vocab)` (a character outside the vocabulary becomes `<unk>`, id 0):

* the inputs are `BOS`, then `ids`, and `EOS` in every remaining position;
* the targets are `ids`, then one `EOS`, and `IGNORE` (−100) in every remaining position.

The `EOS` among the targets is scored: it is how the model learns to stop at the end of a text. −100 appears only at padded positions and is not scored. An `EOS` among the inputs is only padding, and the inputs do not decide what is scored. An empty batch or an empty text raises `ValueError`.
""",
    ru="""
## data-1: батч с дополнением справа и учитываемые целевые метки (2 балла)

Напишите `collate(texts, vocab)`: функция собирает из списка текстов батч по соглашению о данных из §1 и возвращает `(inputs, targets)` — два массива int64 формы `(B, T)`, где `B` — число текстов, а `T` на единицу больше длины самого длинного текста. Пусть текст строки `b` закодирован как `ids = encode(text, vocab)` (символ вне словаря становится `<unk>` с номером 0). Тогда:

* входы — это `BOS`, затем `ids`, а во всех оставшихся позициях `EOS`;
* целевые метки — это `ids`, затем один `EOS`, а во всех оставшихся позициях `IGNORE` (−100).

`EOS` среди целевых меток учитывается в функции потерь: по нему модель учится останавливаться в конце текста. −100 стоит только в позициях дополнения и не учитывается. `EOS` среди входов — всего лишь дополнение, и что учитывать, входы не решают. Пустой батч или пустой текст вызывает `ValueError`.
""",
)

code("""
def collate(texts, vocab):
    texts = list(texts)
    # BEGIN SOLUTION
    if not texts:
        raise ValueError("collate: the batch is empty")
    if not all(texts):
        raise ValueError("collate: every text needs at least one character")
    T = 1 + max(len(text) for text in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)          # (B, T)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)      # (B, T)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        #zh 文本之后的 EOS 是要计分的目标
        #en the EOS after the text is a scored target
        #ru EOS после текста — учитываемая целевая метка
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
    # END SOLUTION
""")

code("""
check("data-1", collate)
""")

md(
    zh="""
下面用 §1 的例子 `["春雨", "雨"]` 看看哪些目标计分：每条文本计分的目标个数等于它的长度加一（最后一个是 `EOS`），−100 的个数等于它比最长文本短多少。
""",
    en="""
Below, the example of §1, `["春雨", "雨"]`, shows which targets are scored: each text has one scored target more than its length (the last one is `EOS`), and as many −100 as it is shorter than the longest text.
""",
    ru="""
Ниже на примере из §1, `["春雨", "雨"]`, видно, какие целевые метки учитываются: у каждого текста их на одну больше, чем символов (последняя — `EOS`), а меток −100 столько, на сколько текст короче самого длинного.
""",
)

code("""
vocab = build_vocab(["春雨风"])
inputs, targets = collate(["春雨", "雨"], vocab)
scored = targets != IGNORE
print(inputs.tolist())
print(targets.tolist())
print(scored.sum(axis=1).tolist(), (targets == EOS).sum(axis=1).tolist())
assert scored.sum(axis=1).tolist() == [3, 2], needs_exercise("data-1")
assert (targets[scored] == EOS).sum() == 2, needs_exercise("data-1")
assert (inputs[~scored] == EOS).all(), needs_exercise("data-1")
""")

md(
    zh="""
**解答说明。** 输入与目标错开一位：位置 `t` 的输入是第 `t` 个已经看到的词元（位置 0 是 `BOS`），目标是下一个词元，所以最后一个字符的下一个目标正是 `EOS`。这个 `EOS` 必须计分，否则模型学不会何时结束；若把目标里所有的 `EOS` 都当作填充换成 −100，这一点就丢了。填充位置的目标一律是 −100，计分只看目标：不能按输入是不是 `EOS` 来判断，因为 `EOS` 也是一个普通的词元编号。形状由最长文本决定，`T` 比它多一，是因为输入前面多了一个 `BOS`。空文本被拒绝：它的那一行只剩下一个要计分的 `EOS`，没有任何文本可学，这多半是数据出了错。
""",
    en="""
**About the solution.** Inputs and targets are offset by one: the input at position `t` is the `t`-th token already seen (position 0 holds `BOS`) and the target is the next token, so the target after the last character is `EOS`. That `EOS` must be scored, or the model never learns when to stop; replacing every `EOS` in the targets by −100, as if it were padding, loses exactly this. Padded positions always get the target −100, and only the targets decide what is scored: whether an input is `EOS` cannot decide it, since `EOS` is also an ordinary token id. The longest text sets the shape, and `T` is one more than its length because the inputs start with an extra `BOS`. An empty text is refused: its row would hold a single scored `EOS` and no text to learn from, which almost always means the data is broken.
""",
    ru="""
**О решении.** Входы и целевые метки сдвинуты на одну позицию: вход в позиции `t` — это `t`-й уже увиденный токен (в позиции 0 стоит `BOS`), а целевая метка — следующий токен, поэтому после последнего символа целевой меткой оказывается `EOS`. Этот `EOS` обязательно учитывается, иначе модель не научится вовремя останавливаться; если заменить все `EOS` в целевых метках на −100, будто это дополнение, пропадёт именно это. В позициях дополнения целевая метка всегда −100, и что учитывать, решают только целевые метки: по тому, равен ли вход `EOS`, этого не определить, ведь `EOS` — ещё и обычный номер токена. Форму задаёт самый длинный текст, а `T` на единицу больше его длины, потому что входы начинаются с лишнего `BOS`. Пустой текст отвергается: в его строке осталась бы одна учитываемая метка `EOS` и никакого текста для обучения, а это почти всегда означает ошибку в данных.
""",
    tags=("solution",),
)
