# Exercise set 4 (§4, causality over the whole computation).  See src/solutions/ex01_allowed_set.py.

from grading.notebook_setup import INSTALL_NOTE, setup_cell  # the start of every exercise notebook

md(zh="# 练习 4：因果性必须覆盖整条计算链", en="# Exercise set 4: causality must cover the whole computation", ru="# Упражнения к разделу 4: причинность должна охватывать всю цепочку вычислений",
   tags=("exercise",))

md(zh="# 练习 4 参考解答：因果性必须覆盖整条计算链", en="# Solutions to exercise set 4: causality must cover the whole computation", ru="# Решения упражнений к разделу 4: причинность должна охватывать всю цепочку вычислений",
   tags=("solution",))

md(
    zh="""
本笔记本配合 §4，做法与前几份练习相同：把 `raise NotImplementedError  # TODO` 那一行换成你的代码，再运行下面的 `check(...)`。

这里的函数都是检验：它们接收一个前向函数 `forward(ids)`（把词元编号映射为输出 `(T, D)` 或 `(B, T, D)`），在固定参数下比较两次前向传播。你将写出未来扰动检验和它的阴性对照，再用它们找出一个注意力掩码完全正确、却仍然泄漏未来信息的模型，并把它修好。

计分方法与练习 1 相同：一道题的全部测试（公开测试和隐藏测试）都通过，才得到这道题的分数。
""",
    en="""
This notebook goes with §4 and works like the previous exercise sets: replace the line `raise NotImplementedError  # TODO` with your code and run the `check(...)` cell below it.

The functions here are tests. Each receives a forward function `forward(ids)` (token ids to outputs of shape `(T, D)` or `(B, T, D)`) and compares two forward passes with fixed parameters. You will write the future-perturbation test and its negative control, use them to catch a model whose attention mask is perfectly right and which leaks the future nonetheless, and then fix it.

Points are earned as in exercise set 1: an exercise earns its points when all its tests, public and hidden, pass.
""",
    ru="""
Этот блокнот относится к §4 и устроен так же, как предыдущие: замените строку `raise NotImplementedError  # TODO` своим кодом и запустите `check(...)` под ней.

Все функции здесь — проверки. Каждая получает функцию прямого прохода `forward(ids)` (номера токенов → выходы формы `(T, D)` или `(B, T, D)`) и сравнивает два прохода при фиксированных параметрах. Вы напишете проверку возмущением будущего и её отрицательный контроль, с их помощью поймаете модель, у которой маска внимания безупречна, а утечка из будущего всё равно есть, и исправите её.

Баллы начисляются так же, как в упражнениях к разделу 1: упражнение получает свои баллы, когда пройдены все его тесты, открытые и скрытые.
""",
    tags=("exercise",),
)

# The solved notebook's introduction: what the page shows and where the exercises are.
md(
    zh="""
这是练习 4 的参考解答页，对应的练习页是 `exercises/zh/ex04_causality.ipynb`。先在那里自己做，再来这里对照。

每道题给出满分答案、答案下方 `check(...)` 的输出（公开测试全部通过）和一段 **关于解答**；中间那个可疑模型也在这里，并附上修好后的版本。这些题练的是 §4：未来扰动检验（§4.3）、先证明检验能看见泄漏的阴性对照（§4.4、§4.5）、逐个位置的扫描，以及掩码无误却仍然泄漏的模型，要从逐行读取了什么来分析（§4.2）。

笔记本可以直接从头运行。要检验自己的代码，请在练习页运行 `check(...)`；评分时的隐藏测试，这里的答案也都能通过。
""",
    en="""
This page holds the solutions to exercise set 4; the exercises are on `exercises/en/ex04_causality.ipynb`. Try them there first, then compare here.

For every exercise you find an answer that earns full points, the output of the `check(...)` cell below it (every public test passes) and an **About the solution** note; the suspect model is here too, with its repaired version. The set practises §4: the future-perturbation test (§4.3), the negative control that first shows the test can see a leak (§4.4, §4.5), a sweep over every position, and a model whose mask is right but which leaks all the same, read row by row for what each output reads (§4.2).

The notebook runs from top to bottom as it is. To test your own code, run `check(...)` on the exercise page; these answers also pass the hidden tests the grader adds.
""",
    ru="""
На этой странице — решения упражнений к разделу 4; сами упражнения — в `exercises/ru/ex04_causality.ipynb`. Сначала решите их там, потом сверьтесь здесь.

Для каждого упражнения здесь есть ответ на полный балл, результат ячейки `check(...)` под ним (все открытые тесты пройдены) и заметка **О решении**; подозрительная модель тоже здесь, вместе с исправленной версией. Упражнения отрабатывают §4: проверку возмущением будущего (§4.3), отрицательный контроль, который сначала показывает, что проверка способна увидеть утечку (§4.4, §4.5), перебор всех позиций и модель с правильной маской, которая всё равно допускает утечку; её разбирают построчно — что читает каждый выход (§4.2).

Блокнот выполняется целиком, как есть. Чтобы проверить свой код, запустите `check(...)` в блокноте с упражнениями; скрытые тесты, которые добавляются при оценивании, эти ответы тоже проходят.
""",
    tags=("solution",),
)

md(**INSTALL_NOTE)

code(setup_cell("""
import numpy as np

from grading import check
from grading.models import constant_forward, random_model, unmasked_forward
from lib.attention import multi_head_attention
"""), tags=("hide-input",))

code("""
model = random_model(4)  # V=7, C=8, D=8, H=2, causal
#zh 同一个模型，关掉了掩码
#en the same model with the mask switched off
#ru та же модель с отключённой маской
control = unmasked_forward(model)
ids = np.array([1, 3, 4, 5, 6, 2])
""")

md(
    zh="""
## causal-1：未来扰动检验（1 分）

`future_perturbation_change(forward, ids, position, replacement)` 保留位置 `0 … position−1` 的词元，把从 `position` 起的所有词元换成 `replacement`（一个编号，或长度为 `T − position` 的数组），再返回前缀输出（第 `0 … position−1` 行）变化的最大绝对值，类型为 `float`。因果的模型应得到 0（至多是舍入误差）。

复制、前向传播和比较已经写好；补上修改未来的那一行。批量输入 `(B, T)` 也要能用。
""",
    en="""
## causal-1: the future-perturbation test (1 point)

`future_perturbation_change(forward, ids, position, replacement)` keeps the tokens at positions `0 … position−1`, replaces every token from `position` on by `replacement` (one id, or an array of length `T − position`), and returns the largest absolute change of the prefix outputs (rows `0 … position−1`) as a `float`. A causal model gives 0, or rounding error at most.

The copy, the forward passes and the comparison are given; write the line that changes the future. Batches `(B, T)` must work too.
""",
    ru="""
## causal-1: проверка возмущением будущего (1 балл)

`future_perturbation_change(forward, ids, position, replacement)` оставляет токены в позициях `0 … position−1`, заменяет все токены начиная с `position` на `replacement` (один номер или массив длины `T − position`) и возвращает наибольшее абсолютное изменение выходов префикса (строк `0 … position−1`) в виде `float`. Причинная модель даёт 0, в крайнем случае ошибку округления.

Копирование, проходы и сравнение уже написаны; допишите строку, которая меняет будущее. Батчи `(B, T)` тоже должны работать.
""",
)

code(reference_cell("future_perturbation_change"))

code("""
check("causal-1", future_perturbation_change)
""")

code("""
print(future_perturbation_change(model.forward, ids, 3, 0),
      round(future_perturbation_change(control, ids, 3, 0), 6))
""")

md(
    zh="""
**解答说明。** 赋值 `perturbed[..., position:] = replacement` 对单个编号和数组都适用，对批量输入也适用。一定要在副本上改：直接改 `ids` 会让“扰动前”和“扰动后”变成同一个输入，检验永远通过。因果模型的变化在这里恰好是 0：前缀行的计算根本不读未来的行。
""",
    en="""
**About the solution.** The assignment `perturbed[..., position:] = replacement` works for one id and for an array, and for batches. Change a copy: modifying `ids` itself would make "before" and "after" the same input, and the test would always pass. For the causal model the change is exactly 0 here: the prefix rows never read the future rows at all.
""",
    ru="""
**О решении.** Присваивание `perturbed[..., position:] = replacement` работает и с одним номером, и с массивом, и с батчами. Менять нужно копию: если изменить сам `ids`, «до» и «после» окажутся одним и тем же входом, и проверка будет проходить всегда. Для причинной модели изменение здесь ровно 0: строки префикса вообще не читают будущие строки.
""",
    tags=("solution",),
)

md(
    zh="""
## causal-2：带阴性对照的判定（2 分）

变化为 0 可能说明模型是因果的，也可能只说明检验什么都看不见：扰动没有改变任何东西，或者输出被常量覆盖，或者位置选错了。所以要在同一个扰动下运行一个故意去掉因果掩码的版本（阴性对照），确认它能看到变化。

`perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9)` 返回三种判定之一（字符串）：

* `"leaks"`：`forward` 的前缀变化大于 `tol`；
* `"causal"`：`forward` 的变化不超过 `tol`，而 `control` 的变化大于 `tol`；
* `"blind"`：两者的变化都不超过 `tol`，这次检验什么也说明不了。

`position` 不在 `1 … T−1` 内时抛出 `ValueError`：没有前缀可比，或者没有未来可改。请使用你的 `future_perturbation_change`。
""",
    en="""
## causal-2: a verdict with its negative control (2 points)

A change of 0 may mean the model is causal, or only that the test cannot see anything: the perturbation changed nothing, the output is overwritten by a constant, or the position was badly chosen. So the same perturbation is run on a version with the causal mask deliberately removed, the negative control, which must show a change.

`perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9)` returns one of three strings:

* `"leaks"`: the prefix change of `forward` exceeds `tol`;
* `"causal"`: the change of `forward` is at most `tol` and the change of `control` exceeds `tol`;
* `"blind"`: both changes are at most `tol`, and this run of the test proves nothing.

A `position` outside `1 … T−1` raises `ValueError`: there is no prefix to compare or no future to change. Use your `future_perturbation_change`.
""",
    ru="""
## causal-2: вердикт с отрицательным контролем (2 балла)

Нулевое изменение может означать, что модель причинная, а может — что проверка ничего не видит: возмущение ничего не изменило, выход затёрт константой или позиция выбрана неудачно. Поэтому то же возмущение применяют к версии модели с нарочно снятой причинной маской — отрицательному контролю; она обязана показать изменение.

`perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9)` возвращает один из трёх вердиктов (строку):

* `"leaks"` — изменение префикса у `forward` больше `tol`;
* `"causal"` — изменение у `forward` не больше `tol`, а у `control` больше `tol`;
* `"blind"` — оба изменения не больше `tol`, и этот прогон проверки ничего не доказывает.

Если `position` не лежит в `1 … T−1`, выбросьте `ValueError`: тогда либо нечего сравнивать, либо нечего менять. Пользуйтесь своей функцией `future_perturbation_change`.
""",
)

code(reference_cell("perturbation_verdict"))

code("""
check("causal-2", perturbation_verdict)
""")

code("""
same_suffix = ids[3:]  #zh 什么也没改变的“扰动” #en a 'perturbation' that changes nothing #ru «возмущение», которое ничего не меняет
print(perturbation_verdict(model.forward, control, ids, 3, 0))
print(perturbation_verdict(control, control, ids, 3, 0))
print(perturbation_verdict(model.forward, control, ids, 3, same_suffix))
print(perturbation_verdict(model.forward, constant_forward(model.width),
                           ids, 3, 0))
""")

md(
    zh="""
**解答说明。** 先看被测模型：只要它的前缀变了，就已经发现泄漏，不需要对照。只有在它没有变化时，对照才决定判定：对照有变化，说明这次扰动足以暴露泄漏，“没有变化”才有分量；对照也没有变化，就只能判定为“看不见”（`"blind"`）。上面最后两行正是两种看不见的情形：扰动与原后缀相同，以及对照的输出与输入无关。
""",
    en="""
**About the solution.** The model under test comes first: if its prefix moved, a leak is found and no control is needed. Only when it did not move does the control decide: if the control moved, this perturbation was able to expose a leak and "no change" carries weight; if the control did not move either, all we can say is "blind". The last two lines above are the two blind situations: a replacement equal to the original suffix, and a control whose output does not depend on its input.
""",
    ru="""
**О решении.** Сначала смотрим на проверяемую модель: если её префикс изменился, утечка найдена и контроль не нужен. Только когда префикс не изменился, решает контроль. Если контроль изменился, значит, это возмущение способно выявить утечку, и «нет изменения» что-то значит. Если не изменился и контроль, остаётся вердикт `"blind"`: проверка ничего не видит. Последние две строки выше — как раз две такие ситуации: замена, совпадающая с исходным суффиксом, и контроль, выход которого не зависит от входа.
""",
    tags=("solution",),
)

md(
    zh="""
## 一个可疑的模型

下面的模型在嵌入和注意力之间加了一层归一化。注意力本身用的是带因果掩码的 `multi_head_attention`，每个注意力权重矩阵的右上角都恰好为零。它是因果的吗？先别读代码找答案，用检验来回答。
""",
    en="""
## A suspect model

The model below puts a normalisation between the embedding and the attention. The attention itself is `multi_head_attention` with its causal mask, and every attention weight above the diagonal is exactly zero. Is it causal? Do not hunt through the code for the answer yet: let a test answer.
""",
    ru="""
## Подозрительная модель

В модели ниже между эмбеддингом и вниманием вставлена нормализация. Само внимание — `multi_head_attention` с причинной маской, и все веса внимания выше диагонали равны ровно нулю. Причинна ли она? Не ищите пока ответ в коде — пусть ответит проверка.
""",
)

code("""
def normalise(x, eps=1e-5):
    mean = x.mean(axis=-2, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-2, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)


def normalised_forward(model, norm):
    def forward(ids):
        x = norm(model.embed(ids))  # (T, D)
        out = multi_head_attention(x[None], model.w_q, model.w_k, model.w_v,
                                   model.w_o, model.n_heads)
        return out[0]  # (T, D)
    return forward


suspect = normalised_forward(model, normalise)
""")

md(
    zh="""
## causal-3：逐位置扫描泄漏（3 分）

只在一个位置做扰动，可能恰好选错位置。写出 `leak_sweep(forward, ids, replacement_token)`：对每个 `p = 1 … T−1`，把从 `p` 起的所有词元换成 `replacement_token`，记录前缀变化；返回形状为 `(T−1,)` 的 float64 数组，第 `p−1` 项对应位置 `p`。`ids` 形状为 `(T,)`；`T < 2` 时抛出 `ValueError`。

写好后扫描 `suspect`，再用 `perturbation_verdict` 给出判定。
""",
    en="""
## causal-3: sweeping every position for a leak (3 points)

Testing a single position may happen to pick the wrong one. Write `leak_sweep(forward, ids, replacement_token)`: for every `p = 1 … T−1`, replace every token from `p` on by `replacement_token` and record the prefix change; return a float64 array of shape `(T−1,)` whose entry `p−1` belongs to position `p`. `ids` has shape `(T,)`; `T < 2` raises `ValueError`.

Then sweep `suspect` and give the verdict with `perturbation_verdict`.
""",
    ru="""
## causal-3: поиск утечки по всем позициям (3 балла)

Возмущение в одной позиции может случайно прийтись не туда. Напишите `leak_sweep(forward, ids, replacement_token)`: для каждого `p = 1 … T−1` замените все токены начиная с `p` на `replacement_token` и запишите изменение префикса; верните массив float64 формы `(T−1,)`, где элемент `p−1` относится к позиции `p`. `ids` имеет форму `(T,)`; при `T < 2` функция выбрасывает `ValueError`.

Затем проверьте `suspect` по всем позициям и вынесите вердикт с помощью `perturbation_verdict`.
""",
)

code(reference_cell("leak_sweep"))

code("""
check("causal-3", leak_sweep)
""")

code("""
print(leak_sweep(model.forward, ids, 0))
print(np.round(leak_sweep(suspect, ids, 0), 6))
print(perturbation_verdict(suspect, control, ids, 3, 0))
""")

md(
    zh="""
扫描显示，无论从哪个位置开始扰动，前缀都会变化。现在再读 `normalise`：均值和方差是沿哪个轴求的？
""",
    en="""
The sweep shows that wherever the perturbation starts, the prefix moves. Now read `normalise`: along which axis are the mean and the variance taken?
""",
    ru="""
Прогон показывает: откуда бы ни начиналось возмущение, префикс меняется. Теперь прочитайте `normalise`: по какой оси берутся среднее и дисперсия?
""",
)

md(
    zh="""
**解答说明。** `axis=-2` 是时间轴：每个特征的均值和方差取自全部 `T` 个位置，包括未来。于是位置 0 的归一化输入已经依赖最后一个词元，泄漏发生在注意力之前，注意力权重的右上角再干净也无济于事。只检查权重矩阵的检验看不到这种泄漏；未来扰动检验看的是输出，所以能看到。扫描比单点检验更可靠：若只在 `p = T−1` 检验，而泄漏只发生在更早的位置，就会漏掉。
""",
    en="""
**About the solution.** `axis=-2` is the time axis: the mean and variance of every feature are taken over all `T` positions, the future included. So the normalised input at position 0 already depends on the last token; the leak happens before the attention, and a clean upper-right triangle of weights does not help. A test that only inspects the weight matrices cannot see such a leak; the future-perturbation test looks at the outputs, so it does. A sweep is safer than a single position: testing only at `p = T−1` would miss a leak that shows up at earlier positions only.
""",
    ru="""
**О решении.** `axis=-2` — ось времени: среднее и дисперсия каждого признака берутся по всем `T` позициям, включая будущие. Значит, нормализованный вход в позиции 0 уже зависит от последнего токена; утечка происходит до внимания, и чистый правый верхний треугольник весов ничем не помогает. Проверка, которая смотрит только на матрицы весов, такой утечки не видит; проверка возмущением будущего смотрит на выходы и поэтому видит. Прогон по всем позициям надёжнее одной точки: проверка лишь при `p = T−1` пропустила бы утечку, проявляющуюся только в более ранних позициях.
""",
    tags=("solution",),
)

md(
    zh="""
## causal-4：修复——按特征归一化（2 分）

写出 `feature_norm(x, eps=1e-5)`：对每个位置，在它自己的 `D` 个特征上归一化，使均值为 0、方差为 1，即 `(x − 均值) / √(方差 + eps)`，方差取总体方差（除以 `D`）。结果的形状和 dtype 与 `x` 相同。然后用它替换 `normalise`，重新扫描。
""",
    en="""
## causal-4: the fix, normalising over features (2 points)

Write `feature_norm(x, eps=1e-5)`: normalise every position over its own `D` features to mean 0 and variance 1, that is `(x − mean) / √(variance + eps)`, with the population variance (divided by `D`). The result has the shape and dtype of `x`. Then put it in place of `normalise` and sweep again.
""",
    ru="""
## causal-4: исправление — нормализация по признакам (2 балла)

Напишите `feature_norm(x, eps=1e-5)`: нормализуйте каждую позицию по её собственным `D` признакам к среднему 0 и дисперсии 1, то есть `(x − среднее) / √(дисперсия + eps)`, где дисперсия считается с делением на `D` (без поправки Бесселя). Форма и dtype результата — как у `x`. Затем подставьте её вместо `normalise` и повторите прогон.
""",
)

code(reference_cell("feature_norm"))

code("""
check("causal-4", feature_norm)
""")

code("""
fixed = normalised_forward(model, feature_norm)
print(leak_sweep(fixed, ids, 0))
print(perturbation_verdict(fixed, control, ids, 3, 0))
""")

md(
    zh="""
**解答说明。** 只改了一个轴号：`axis=-1` 让每个位置只用自己的特征，整层变成逐位置运算，不再跨时间读取，因果性得以保持。这与 §4.2 的结构论证一致：逐位置的归一化、逐位置 MLP 和残差连接都不会新增来自未来的路径；跨时间的运算则必须单独证明。修好后的扫描全为零，而对照仍然有变化，所以判定是 `"causal"` 而不是 `"blind"`。
""",
    en="""
**About the solution.** Only one axis number changes: with `axis=-1` every position uses its own features only, so the layer works position by position, no longer reads across time, and stays causal. This agrees with the structural argument of §4.2: position-wise normalisation, a position-wise MLP and residual connections add no path from the future, while anything that reads across time has to be proved separately. The sweep of the fixed model is all zeros and the control still moves, so the verdict is `"causal"`, not `"blind"`.
""",
    ru="""
**О решении.** Изменился один номер оси: с `axis=-1` каждая позиция использует только свои признаки, слой обрабатывает позиции по отдельности, больше не заглядывает в другие моменты времени, и причинность сохраняется. Это согласуется со структурным рассуждением из §4.2: нормализация, позиционный MLP и остаточная связь, применяемые к каждой позиции отдельно, не добавляют путей из будущего, а всё, что смешивает разные позиции, нужно обосновывать отдельно. Прогон исправленной модели даёт одни нули, а контроль по-прежнему меняется, поэтому вердикт — `"causal"`, а не `"blind"`.
""",
    tags=("solution",),
)
