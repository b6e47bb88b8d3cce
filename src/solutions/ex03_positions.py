# Exercise set 3 (§3, learned absolute positions).  See src/solutions/ex01_allowed_set.py.

from grading.notebook_setup import INSTALL_NOTE, setup_cell  # the start of every exercise notebook

md(zh="# 练习 3：可学习的绝对位置", en="# Exercise set 3: learned absolute positions", ru="# Упражнения к разделу 3: обучаемые абсолютные позиции",
   tags=("exercise",))

md(zh="# 练习 3 参考解答：可学习的绝对位置", en="# Solutions to exercise set 3: learned absolute positions", ru="# Решения упражнений к разделу 3: обучаемые абсолютные позиции",
   tags=("solution",))

md(
    zh="""
本笔记本配合 §3，做法与前两份练习相同：把 `raise NotImplementedError  # TODO` 那一行换成你的代码，再运行它下面的 `check(...)`。`lib.positions` 里的 `embed` 和 `embed_backward` 是参考实现，请不要直接调用它们。

计分方法与练习 1 相同：一道题的全部测试（公开测试和隐藏测试）都通过，才得到这道题的分数。
""",
    en="""
This notebook goes with §3 and works like the previous exercise sets: replace the line `raise NotImplementedError  # TODO` with your code and run the `check(...)` cell below it. `embed` and `embed_backward` in `lib.positions` are the reference versions; do not call them.

Points are earned as in exercise set 1: an exercise earns its points when all its tests, public and hidden, pass.
""",
    ru="""
Этот блокнот относится к §3 и устроен как упражнения к предыдущим разделам: замените строку `raise NotImplementedError  # TODO` своим кодом и запустите `check(...)` под ней. `embed` и `embed_backward` из `lib.positions` — эталонные версии; не вызывайте их.

Баллы начисляются так же, как в упражнениях к разделу 1: упражнение получает свои баллы, когда пройдены все его тесты, открытые и скрытые.
""",
    tags=("exercise",),
)

# The solved notebook's introduction: what the page shows and where the exercises are.
md(
    zh="""
这是练习 3 的参考解答页，对应的练习页是 `exercises/zh/ex03_positions.ipynb`。先在那里自己做，再来这里对照。

每道题给出满分答案、答案下方 `check(...)` 的输出（公开测试全部通过）和一段 **关于解答**。这些题练的是 §3：带偏移量的嵌入以及超出位置表时的报错（§3.1、§3.3），嵌入的反向传播，也就是处理重复编号的 scatter-add（§3.2），以及用交换两个词元的检验说明位置为什么必不可少（§3.4）。

笔记本可以直接从头运行。要检验自己的代码，请在练习页运行 `check(...)`；评分时的隐藏测试，这里的答案也都能通过。
""",
    en="""
This page holds the solutions to exercise set 3; the exercises are on `exercises/en/ex03_positions.ipynb`. Try them there first, then compare here.

For every exercise you find an answer that earns full points, the output of the `check(...)` cell below it (every public test passes) and an **About the solution** note. The set practises §3: the embedding with an offset and its refusal past the position table (§3.1, §3.3), the backward pass of the embedding, a scatter-add that handles repeated ids (§3.2), and the token-swap test that shows why positions are needed (§3.4).

The notebook runs from top to bottom as it is. To test your own code, run `check(...)` on the exercise page; these answers also pass the hidden tests the grader adds.
""",
    ru="""
На этой странице — решения упражнений к разделу 3; сами упражнения — в `exercises/ru/ex03_positions.ipynb`. Сначала решите их там, потом сверьтесь здесь.

Для каждого упражнения здесь есть ответ на полный балл, результат ячейки `check(...)` под ним (все открытые тесты пройдены) и заметка **О решении**. Упражнения отрабатывают §3: эмбеддинг со смещением и отказ за пределами таблицы позиций (§3.1, §3.3), обратный проход эмбеддинга — scatter-add, который правильно обрабатывает повторяющиеся номера (§3.2), и тест с перестановкой двух токенов, показывающий, зачем нужны позиции (§3.4).

Блокнот выполняется целиком, как есть. Чтобы проверить свой код, запустите `check(...)` в блокноте с упражнениями; скрытые тесты, которые добавляются при оценивании, эти ответы тоже проходят.
""",
    tags=("solution",),
)

md(**INSTALL_NOTE)

code(setup_cell("""
import numpy as np

from grading import check, needs_exercise
from grading.models import no_position_forward, random_model
"""), tags=("hide-input",))

md(
    zh="""
## pos-1：带偏移量的嵌入（1 分）

`embed(ids, token_table, position_table, offset=0)` 返回输入向量 `E[x_t] + P[offset + t]`：`ids` 形状为 `(T,)` 或 `(B, T)`，词元嵌入表 `E` 形状为 `(V, D)`，位置表 `P` 形状为 `(C, D)`。`offset` 是这段输入之前已有的位置数，所以第 `t` 个词元的绝对位置是 `offset + t`。

位置表只有 `C` 行。若某个位置超出这个范围（或 `offset` 为负），就抛出 `ValueError`：位置既不能取模回绕，也不能截断到最后一行，因为那些行从未为这样的位置训练过（§3.3）。
""",
    en="""
## pos-1: embedding with an offset (1 point)

`embed(ids, token_table, position_table, offset=0)` returns the input vectors `E[x_t] + P[offset + t]`: `ids` has shape `(T,)` or `(B, T)`, the token embedding table `E` is `(V, D)` and the position table `P` is `(C, D)`. `offset` counts the positions that come before this piece of input, so token `t` sits at absolute position `offset + t`.

The position table has `C` rows. If a position falls outside them (or `offset` is negative), raise `ValueError`: never wrap a position around the table, nor clamp it to the last row, since no row was trained for such a position (§3.3).
""",
    ru="""
## pos-1: эмбеддинг с учётом смещения (1 балл)

`embed(ids, token_table, position_table, offset=0)` возвращает входные векторы `E[x_t] + P[offset + t]`: `ids` имеет форму `(T,)` или `(B, T)`, таблица эмбеддингов токенов `E` — `(V, D)`, таблица позиций `P` — `(C, D)`. `offset` — число позиций перед этим фрагментом входа, поэтому токен `t` стоит в абсолютной позиции `offset + t`.

В таблице позиций `C` строк. Если позиция выходит за них (или `offset` отрицателен), выбросьте `ValueError`: позицию нельзя брать по модулю или прижимать к последней строке, ведь ни одна строка не обучалась для такой позиции (§3.3).
""",
)

code("""
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    # BEGIN SOLUTION
    if offset < 0 or offset + T > len(position_table):
        raise ValueError(
            f"positions {offset}..{offset + T - 1} are not rows of the "
            "position table"
        )
    # (..., T, D)
    return token_table[ids] + position_table[offset:offset + T]
    # END SOLUTION
""")

code("""
check("pos-1", embed)
""")

code("""
E = np.arange(12.0).reshape(6, 2)  #zh 词元 t 的行是 [2t, 2t + 1] #en token t has the row [2t, 2t + 1] #ru у токена t строка [2t, 2t + 1]
P = 100.0 * np.arange(8.0)[:, None] * np.ones((1, 2))
print(embed(np.array([5, 5]), E, P, offset=3))
""")

md(
    zh="""
**解答说明。** `token_table[ids]` 对 `(T,)` 和 `(B, T)` 都适用，得到 `(..., T, D)`；位置行 `position_table[offset:offset + T]` 的形状是 `(T, D)`，按广播规则加到批量中的每一个序列上。例子里同一个词元 5 出现两次，词元部分相同，位置部分分别是第 3 行和第 4 行，所以两个输入向量不同。
""",
    en="""
**About the solution.** `token_table[ids]` works for `(T,)` and `(B, T)` alike and gives `(..., T, D)`; the position rows `position_table[offset:offset + T]` are `(T, D)` and broadcast over every sequence of a batch. In the example token 5 appears twice: the token part is the same, the position parts are rows 3 and 4, so the two input vectors differ.
""",
    ru="""
**О решении.** `token_table[ids]` работает и для `(T,)`, и для `(B, T)` и даёт `(..., T, D)`; строки позиций `position_table[offset:offset + T]` имеют форму `(T, D)` и по правилам трансляции (broadcasting) прибавляются к каждой последовательности батча. В примере токен 5 встречается дважды: токенная часть одинакова, а позиционные части — строки 3 и 4, поэтому входные векторы различаются.
""",
    tags=("solution",),
)

md(
    zh="""
## pos-2：嵌入的反向传播——散射累加（2 分）

写出 `embed_backward(grad, ids, vocab_size, context_size, offset=0)`。`grad` 是损失对输入向量的梯度，形状为 `ids.shape + (D,)`。返回 `(d_token, d_position)`：两张表的梯度，形状分别为 `(V, D)` 和 `(C, D)`，dtype 与 `grad` 相同。

* 词元表按词元编号累加：同一个编号出现几次，就加几次；
* 位置表按绝对位置 `offset + t` 累加：批量中的每个序列都使用同一组位置行；
* 位置超出 `0 … C−1` 时抛出 `ValueError`。

小心：`d_token[ids] += grad` 遇到重复编号时只会保留其中一次。
""",
    en="""
## pos-2: the backward pass of the embedding, a scatter-add (2 points)

Write `embed_backward(grad, ids, vocab_size, context_size, offset=0)`. `grad` is the gradient of the loss with respect to the input vectors, of shape `ids.shape + (D,)`. Return `(d_token, d_position)`, the gradients of the two tables, of shapes `(V, D)` and `(C, D)` and the dtype of `grad`.

* the token table accumulates by token id: an id that occurs three times receives three contributions;
* the position table accumulates by absolute position `offset + t`: every sequence of a batch uses the same position rows;
* positions outside `0 … C−1` raise `ValueError`.

Beware: `d_token[ids] += grad` keeps only one of the contributions of a repeated id.
""",
    ru="""
## pos-2: обратный проход эмбеддинга — накопление по индексам (2 балла)

Напишите `embed_backward(grad, ids, vocab_size, context_size, offset=0)`. `grad` — градиент функции потерь по входным векторам; его форма — `ids.shape + (D,)`. Верните `(d_token, d_position)` — градиенты двух таблиц формы `(V, D)` и `(C, D)` с dtype как у `grad`.

* градиент таблицы токенов накапливается по номеру токена: номер, встретившийся трижды, получает три вклада;
* градиент таблицы позиций накапливается по абсолютной позиции `offset + t`: все последовательности батча используют одни и те же строки позиций;
* для позиций вне `0 … C−1` выбрасывается `ValueError`.

Осторожно: `d_token[ids] += grad` при повторяющихся номерах сохраняет лишь один вклад.
""",
)

code("""
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    # BEGIN SOLUTION
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError(
            f"positions {offset}..{offset + T - 1} fall outside a table "
            f"of {context_size} rows"
        )
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    #zh 重复的编号会累加
    #en repeated ids add up
    #ru вклады повторяющихся номеров складываются
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    #zh 批量中每条序列共用
    #en shared by every sequence
    #ru общие для всех последовательностей
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
    # END SOLUTION
""")

code("""
check("pos-2", embed_backward)
""")

md(
    zh="""
两个小实验。第一个重现 §3.2 的例子：两条序列首位置的上游梯度分别是 `[1, 2]` 和 `[−3, 1]`，位置表第 0 行收到它们的和 `[−2, 3]`；两个首词元不同（3 和 4），词元表的第 3、4 行各自收到自己的梯度。第二个说明 `+=` 为什么不够：编号 2 出现三次，正确的梯度是 3，而 `+=` 只留下 1。
""",
    en="""
Here are two small experiments. The first repeats the example of §3.2: the upstream gradients at the first position of two sequences are `[1, 2]` and `[−3, 1]`, and row 0 of the position table receives their sum `[−2, 3]`. The two first tokens differ (3 and 4), so token rows 3 and 4 each receive their own gradient. The second shows why `+=` is not enough: id 2 occurs three times, the right gradient is 3, and `+=` leaves 1.
""",
    ru="""
Два небольших опыта. Первый повторяет пример из §3.2: градиенты по выходу в первой позиции двух последовательностей равны `[1, 2]` и `[−3, 1]`, и строка 0 таблицы позиций получает их сумму `[−2, 3]`, а первые токены разные (3 и 4), поэтому строки 3 и 4 таблицы токенов получают каждая свой градиент. Второй показывает, почему `+=` не годится: номер 2 встречается трижды, верный градиент равен 3, а `+=` оставляет 1.
""",
)

code("""
# (B=2, T=2, D=2)
grad = np.array([[[1.0, 2.0], [0.0, 0.0]], [[-3.0, 1.0], [0.0, 0.0]]])
d_token, d_position = embed_backward(grad, np.array([[3, 1], [4, 1]]), 6, 4)
print(d_position[0], d_token[3], d_token[4])

ids = np.array([2, 5, 2, 2])
ones = np.ones((4, 1))
careless = np.zeros((6, 1))
careless[ids] += ones
print(careless[:, 0], embed_backward(ones, ids, 6, 4)[0][:, 0])
""")

md(
    zh="""
再用有限差分核对整个反向传播：对线性损失 `L = Σ embed(ids) · G`，把 `E` 的某一个元素加上一个小量，`L` 的变化率应当等于 `d_token` 的对应元素。
""",
    en="""
Finally, check the whole backward pass with finite differences: for the linear loss `L = Σ embed(ids) · G`, nudging one entry of `E` must change `L` at the rate given by the matching entry of `d_token`.
""",
    ru="""
Напоследок проверим весь обратный проход конечными разностями: для линейной функции потерь `L = Σ embed(ids) · G` малое изменение одного элемента `E` должно менять `L` со скоростью, равной соответствующему элементу `d_token`.
""",
)

code("""
rng = np.random.default_rng(0)
E, P = rng.normal(size=(6, 3)), rng.normal(size=(5, 3))
ids = np.array([[1, 4, 4], [2, 1, 4]])
G = rng.normal(size=(2, 3, 3))
d_token, d_position = embed_backward(G, ids, 6, 5, offset=1)

def loss(E, P):
    return np.sum(embed(ids, E, P, offset=1) * G)

h = 1e-6
E_nudged = E.copy()
E_nudged[4, 0] += h
numeric = (loss(E_nudged, P) - loss(E, P)) / h
print(round(numeric, 4), round(d_token[4, 0], 4))
assert abs(numeric - d_token[4, 0]) < 1e-6, needs_exercise("pos-1", "pos-2")
""")

md(
    zh="""
**解答说明。** `np.add.at` 是不缓冲的散射累加：重复编号的每一次贡献都会加上去。位置梯度不需要它，因为同一序列内的位置互不重复；批量中所有序列共用第 `offset … offset+T−1` 行，所以先在批量轴上求和。越界检查必须在写入之前：位置表越界时，切片会悄悄变短，或者写到别的行上。
""",
    en="""
**About the solution.** `np.add.at` is an unbuffered scatter-add: every contribution of a repeated id is added. The position gradient does not need it, since positions within one sequence never repeat; all sequences of a batch share rows `offset … offset+T−1`, so the batch axis is summed first. The range check must come before writing: past the end of the table a slice silently gets shorter, or the rows land elsewhere.
""",
    ru="""
**О решении.** `np.add.at` — небуферизованное накопление по индексам: учитывается каждый вклад повторяющегося номера. Для градиента позиций оно не нужно: внутри одной последовательности позиции не повторяются, а все последовательности батча делят строки `offset … offset+T−1`, поэтому сначала суммируем по оси батча. Проверка границ должна стоять до записи: за концом таблицы срез молча укорачивается или запись попадает не в те строки.
""",
    tags=("solution",),
)

md(
    zh="""
## pos-3：交换两个词元的检验（3 分）

§3.4 的例 2 说：单层注意力若没有位置项，交换最后位置之前的两个词元，最后一行的输出不变。把它写成一个检验。

`last_row_swap_change(forward, ids, i, j)`：`forward` 把 `ids` 映射为输出 `(..., T, D)`；交换第 `i` 和第 `j` 个词元（批量中的每个序列都要交换），返回最后一行输出变化的最大绝对值，类型为 `float`。`i` 与 `j` 必须是最后位置之前的两个不同位置，否则抛出 `ValueError`：交换最后一个词元会改变最后的查询本身，检验就失去意义。

写好后，用下面的单元格在同一个模型上比较“有位置”和“无位置”两种前向传播。
""",
    en="""
## pos-3: a token-swap test (3 points)

Example 2 in §3.4 says: in one attention layer without positions, swapping two tokens before the last position leaves the last output row unchanged. Turn that into a test.

`last_row_swap_change(forward, ids, i, j)`: `forward` maps `ids` to outputs `(..., T, D)`; swap tokens `i` and `j` (in every sequence of a batch) and return the largest absolute change of the last output row, as a `float`. `i` and `j` must be two different positions before the last one, otherwise raise `ValueError`: swapping the last token would change the last query itself and the test would mean nothing.

Then use the cell below to compare the forward with and without positions on one model.
""",
    ru="""
## pos-3: проверка перестановкой токенов (3 балла)

Пример 2 из §3.4 утверждает: в одном слое внимания без позиций перестановка двух токенов перед последней позицией не меняет последнюю строку выхода. Превратим это в тест.

`last_row_swap_change(forward, ids, i, j)`: `forward` отображает `ids` в выходы `(..., T, D)`; поменяйте местами токены `i` и `j` (в каждой последовательности батча) и верните наибольшее абсолютное изменение последней строки выхода в виде `float`. `i` и `j` должны быть двумя разными позициями перед последней, иначе функция выбрасывает `ValueError`: перестановка последнего токена меняет сам последний запрос, и тест теряет смысл.

Затем сравните в ячейке ниже прямой проход одной и той же модели с позициями и без них.
""",
)

code(reference_cell("last_row_swap_change"))

code("""
check("pos-3", last_row_swap_change)
""")

code("""
model = random_model(1)
ids = np.array([3, 5, 4])
without_positions = last_row_swap_change(
    no_position_forward(model), ids, 0, 1)
with_positions = last_row_swap_change(model.forward, ids, 0, 1)
print(without_positions < 1e-12, round(with_positions, 6))
assert without_positions < 1e-12 < with_positions, needs_exercise("pos-3")
""")

md(
    zh="""
**解答说明。** 没有位置时，交换两个键就同时交换了对应的值，softmax 权重跟着换位，加权和不变，差异只剩舍入误差（这里小于 1e-12）。加上位置后，两个词元分别带上不同的 `P` 行，键和值不再只是换位，最后一行随之改变。要注意这个检验究竟说明了什么。它说的只是这一层的最后一行：没有位置时，这一行得不到被交换的前缀的任何次序信息。它并不说明因果掩码本身不提供次序信息：两种次序下，前面几行的输出并不相同（第 0 行只读第一个词元，第 1 行的查询是第二个词元），读取这些行的第二层就能区分两种次序（§3.4 对这两点都做了检查）。批量输入也适用，因为交换写在 `[..., [i, j]]` 上，对每个序列同时进行。
""",
    en="""
**About the solution.** Without positions, swapping two keys swaps their values too; the softmax weights move along and the weighted sum stays the same, up to rounding (below 1e-12 here). With positions, the two tokens carry different rows of `P`, keys and values are no longer merely permuted, and the last row changes. Be careful about what this shows. It is a statement about the last row of this one layer: without positions, that row receives no information about the order of the permuted prefix. It does not say that the causal mask itself carries no order information. The earlier rows do differ between the two orders (row 0 reads only the first token, and the query of row 1 is the second token), and a second layer that reads those rows can tell the orders apart; §3.4 checks both. Batches work too, because the swap is written on `[..., [i, j]]` and happens in every sequence at once.
""",
    ru="""
**О решении.** Без позиций перестановка двух ключей переставляет и их значения; веса softmax переставляются вместе с ними, и взвешенная сумма не меняется с точностью до округления (здесь меньше 1e-12). С позициями два токена несут разные строки `P`, ключи и значения уже не просто переставлены, и последняя строка меняется. Важно понимать, что именно показывает этот тест. Это утверждение о последней строке этого одного слоя: без позиций она не получает никакой информации о порядке переставленного префикса. Отсюда не следует, что сама причинная маска не несёт информации о порядке: более ранние строки при двух порядках различаются (строка 0 читает только первый токен, а запрос строки 1 — второй токен), и второй слой, который читает эти строки, различает порядки (оба факта проверены в §3.4). Батчи тоже работают: перестановка записана через `[..., [i, j]]` и выполняется во всех последовательностях сразу.
""",
    tags=("solution",),
)
