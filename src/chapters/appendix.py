# Appendix: the functions of lib with the sections that teach them, and the glossary.
# Trilingual source: see tools/nbsource.py.  Not a numbered section (no §, no quizzes).

md(r"""
# Appendix: the library and the glossary

This page collects two references that §0 points to: the functions of `lib` with the sections that teach them, and the terms the text uses in all three languages.

## The functions of `lib`

Every module of `lib` holds what the sections teach, except `lib.validate`, which checks the arguments of the others and teaches nothing of its own; the list below leaves it out. In the other modules, the docstring of almost every public function and class starts with the section that teaches it. The exceptions, whose docstrings name no section, are the `*Saved` records of `layers` and `decoder` (what a forward pass keeps for its backward pass) and the two functions of `plain_python`; they are listed under the section their module's docstring names. The code below lists them all with their sections, module by module: first the modules of `lib.__all__`, then `layers` and `decoder`, which §7 uses, and `plain_python`, which §3.4 and §6.2 use; these three are imported on demand. `help(lib.attention.masked_softmax)` shows the full description of one function.
""")

code("""
import importlib
import inspect
import pkgutil
import re

import lib

SECTIONS = re.compile(r"§\\d+(?:\\.\\d+)?(?:\\s*[-–,]\\s*§\\d+(?:\\.\\d+)?)*")
#en imported on demand, so not in lib.__all__
ON_DEMAND = ["layers", "decoder", "plain_python"]
#en every module of lib but validate, which checks arguments
MODULES = [*lib.__all__, *ON_DEMAND]
assert ({m.name for m in pkgutil.iter_modules(lib.__path__)}
        == {*MODULES, "validate"})

for module_name in MODULES:
    module = importlib.import_module(f"lib.{module_name}")
    for name, obj in vars(module).items():
        kind_taught = inspect.isfunction(obj) or inspect.isclass(obj)
        if name.startswith("_") or not kind_taught:
            continue
        if obj.__module__ != module.__name__:
            #en imported from another module and listed there
            continue
        doc = inspect.getdoc(obj) or ""
        section = SECTIONS.match(doc)
        if section is None and module_name in ON_DEMAND and (
                name.endswith("Saved") or module_name == "plain_python"):
            #en the section the module's docstring names first
            section = SECTIONS.search(inspect.getdoc(module))
        elif section and not doc[section.end():].startswith("."):
            section = None
        assert section, f"{module_name}.{name}"
        shown = section.group().replace("-", "–")
        print(f"{shown:<11} {module_name}.{name}")
""")

md(r"""
## Glossary

The text uses the terms of this table in all three languages.

| English | 中文 | Русский |
| --- | --- | --- |
| course (the whole book) / section (§N) / notebook (a file) | 本课程 / 节（§N）/ 笔记本 | курс / раздел (§N) / блокнот |
| mask (a True/False table: which key each query may read) | 掩码 | маска |
| causal mask (no query reads a later position) | 因果掩码 | причинная маска |
| allowed set (the keys a query may read; `allowed`, True = may read) | 许可集合（`allowed`，`True` = 允许读取） | множество разрешённых позиций (`allowed`, True — читать можно) |
| future positions (reading them is forbidden) | 未来位置（禁止读取） | будущие позиции (читать их нельзя) |
| bottom-right alignment (the queries are the last positions) | 右下对齐 | выравнивание по правому нижнему углу |
| empty row (a query with no key to read) | 空行（没有可读键的查询） | пустая строка (запрос, которому нечего читать) |
| scored / unscored (output: counted in the loss or not) | 计入损失 / 不计入损失的输出 | учитывается в функции потерь / неучитываемый выход |
| query / key / value (the three vectors each position projects) | 查询 / 键 / 值 | запрос / ключ / значение |
| score (a query's scaled dot product with a key) | 分数 | оценка (score) |
| attention weights (the softmax of a row of scores) | 注意力权重 | веса внимания |
| head, multi-head attention (H heads side by side) | 头，多头注意力 | голова, многоголовое внимание |
| split into heads / merge heads (D features into H heads of d features each, and back) | 拆分头 / 合并头 | разбиение на головы / склейка голов |
| output projection $W_O$ (mixes the merged heads) | 输出投影 $W_O$ | выходная проекция $W_O$ |
| bias (the constant term of a linear map) | 偏置 | свободный член (bias) |
| subspace (the d coordinates of one head) | 子空间 | подпространство |
| token (one unit of text: here a character) | 词元（token） | токен |
| special tokens (`<unk>`, `<bos>`, `<eos>`) | 特殊词元 | специальные токены |
| code point (a character's number in Unicode) | 码位 | кодовая позиция Unicode |
| vocabulary (the tokens a model knows, numbered) | 词表 | словарь |
| batch (several sequences processed together) | 批量 | батч |
| targets (the token each position must predict) | 目标 | целевые метки |
| real (non-padding) positions | 真实位置 | настоящие позиции |
| right padding (filler after a shorter sequence) | 右填充 | дополнение справа |
| token embedding table E (a learned row per token) | 词元嵌入表 E | таблица эмбеддингов токенов E |
| learned absolute positions, position table P (a learned row per position) | 可学习绝对位置，位置表 P | обучаемые абсолютные позиции, таблица позиций P |
| offset (the position of the first new token) | 偏移量 | смещение (offset) |
| wrap around (modulo) / clamp (reuse the last row) | 取模回绕 / 截断到最后一行 | взятие по модулю / ограничение последней строкой (clamp) |
| scatter-add (adding rows by index, repeats summed) | 散射累加（scatter-add） | накопление по индексам (scatter-add) |
| upstream gradient (the loss's gradient with respect to an output) | 上游梯度 | градиент по выходу |
| forward pass / full forward pass (every position at once, no cache) | 前向传播 / 完整前向传播 | прямой проход / полный прямой проход |
| layer normalisation (each position's features brought to mean 0, variance 1) | 层归一化 | нормализация слоя |
| position-wise MLP (the same MLP on each position alone) | 逐位置 MLP | попозиционный MLP (применяется к каждой позиции отдельно) |
| KV cache (keys and values kept from earlier positions) | KV 缓存 | KV-кэш |
| future-perturbation test (change later inputs: earlier outputs must not move) | 未来扰动检验 | проверка возмущением будущего |
| negative control (a known leak the test must catch) | 阴性对照 | отрицательный контроль |
| leak (of future information) | （未来信息）泄漏 | утечка (информации из будущего) |
| evidence (a result that supports a claim) | 证据 | свидетельство |
| hand-chosen parameters (set by hand, not trained) | 手工设定的参数 | заданные вручную параметры |
| residual connection / residual stream (each sublayer adds its output to the running sum) | 残差连接 / 残差流 | остаточная связь / остаточный поток |
| pre-LN (layer normalisation before each sublayer) | 前置层归一化（pre-LN，每个子层之前做层归一化） | предварительная нормализация слоя (pre-LN, перед каждым подслоем) |
| output layer $W_\text{head}$ (scores over the vocabulary) | 输出层 $W_\text{head}$ | выходной слой $W_\text{head}$ |
| weight tying (the output layer reuses the embedding table) | 权重共享 | связывание весов |
| central differences (a derivative estimated from f at x + h and at x − h) | 中心差分 | центральные разности |
| teacher forcing (every position sees the true inputs) | 教师强制（teacher forcing） | подача верных предыдущих токенов (teacher forcing) |
| free target / decided target (one the past leaves open, one it decides) | 自由目标 / 由过去决定的目标 | свободная метка / определяемая прошлым метка |
| causal bound $\mathcal L^*$ (the lowest loss of a causal model) | 因果模型的下界 $\mathcal L^*$（因果模型能达到的最低损失） | нижняя граница для причинных моделей $\mathcal L^*$ (наименьшие потери причинной модели) |
| rule level (§7: the loss of a model that knows only the rule) | 规则水平（§7 语料） | уровень правила (для корпуса §7) |
| cheating (reading the answer) | 作弊（读到答案） | списывание (чтение ответа) |
| reachability matrix (of the gradient: which positions each output reads) | （梯度的）可达矩阵 | матрица достижимости (для градиента) |
| greedy decoding (always the most likely next token) | 贪心解码 | жадное декодирование |
| held-out lines (kept out of training, to test on) | 留出的行 | отложенные строки |
""")
