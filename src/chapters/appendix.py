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
| mask | 掩码 | маска |
| causal mask | 因果掩码 | причинная маска |
| allowed set (`allowed`, True = may read) | 许可集合（`allowed`，`True` = 允许读取） | множество разрешённых позиций (`allowed`, True — читать можно) |
| future positions (reading them is forbidden) | 未来位置（禁止读取） | будущие позиции (читать их нельзя) |
| bottom-right alignment | 右下对齐 | выравнивание по правому нижнему углу |
| empty row (a query with no key to read) | 空行（没有可读键的查询） | пустая строка (запрос, которому нечего читать) |
| scored / unscored (output) | 计入损失 / 不计入损失的输出 | учитывается в функции потерь / неучитываемый выход |
| query / key / value | 查询 / 键 / 值 | запрос / ключ / значение |
| score | 分数 | оценка (score) |
| attention weights | 注意力权重 | веса внимания |
| head, multi-head attention | 头，多头注意力 | голова, многоголовое внимание |
| split into heads / merge heads | 拆分头 / 合并头 | разбиение на головы / склейка голов |
| output projection $W_O$ | 输出投影 $W_O$ | выходная проекция $W_O$ |
| bias | 偏置 | свободный член (bias) |
| subspace | 子空间 | подпространство |
| token | 词元（token） | токен |
| special tokens | 特殊词元 | специальные токены |
| code point | 码位 | кодовая позиция Unicode |
| vocabulary | 词表 | словарь |
| batch | 批量 | батч |
| targets | 目标 | целевые метки |
| real (non-padding) positions | 真实位置 | настоящие позиции |
| right padding | 右填充 | дополнение справа |
| token embedding table E | 词元嵌入表 E | таблица эмбеддингов токенов E |
| learned absolute positions, position table P | 可学习绝对位置，位置表 P | обучаемые абсолютные позиции, таблица позиций P |
| offset | 偏移量 | смещение (offset) |
| wrap around (modulo) / clamp | 取模回绕 / 截断到最后一行 | взятие по модулю / ограничение последней строкой (clamp) |
| scatter-add | 散射累加（scatter-add） | накопление по индексам (scatter-add) |
| upstream gradient | 上游梯度 | градиент по выходу |
| forward pass / full forward pass | 前向传播 / 完整前向传播 | прямой проход / полный прямой проход |
| layer normalisation | 层归一化 | нормализация слоя |
| position-wise MLP | 逐位置 MLP | попозиционный MLP (применяется к каждой позиции отдельно) |
| KV cache | KV 缓存 | KV-кэш |
| future-perturbation test | 未来扰动检验 | проверка возмущением будущего |
| negative control | 阴性对照 | отрицательный контроль |
| leak (of future information) | （未来信息）泄漏 | утечка (информации из будущего) |
| evidence | 证据 | свидетельство |
| hand-chosen parameters | 手工设定的参数 | заданные вручную параметры |
| residual connection / residual stream | 残差连接 / 残差流 | остаточная связь / остаточный поток |
| pre-LN (layer normalisation before each sublayer) | 前置层归一化（pre-LN，每个子层之前做层归一化） | предварительная нормализация слоя (pre-LN, перед каждым подслоем) |
| output layer $W_\text{head}$ | 输出层 $W_\text{head}$ | выходной слой $W_\text{head}$ |
| weight tying | 权重共享 | связывание весов |
| central differences | 中心差分 | центральные разности |
| teacher forcing | 教师强制（teacher forcing） | подача верных предыдущих токенов (teacher forcing) |
| free target / decided target | 自由目标 / 由过去决定的目标 | свободная метка / определяемая прошлым метка |
| causal bound $\mathcal L^*$ (the lowest loss of a causal model) | 因果模型的下界 $\mathcal L^*$（因果模型能达到的最低损失） | нижняя граница для причинных моделей $\mathcal L^*$ (наименьшие потери причинной модели) |
| rule level (of the §7 corpus) | 规则水平（§7 语料） | уровень правила (для корпуса §7) |
| cheating (reading the answer) | 作弊（读到答案） | списывание (чтение ответа) |
| reachability matrix (of the gradient) | （梯度的）可达矩阵 | матрица достижимости (для градиента) |
| greedy decoding | 贪心解码 | жадное декодирование |
| held-out lines | 留出的行 | отложенные строки |
""")
