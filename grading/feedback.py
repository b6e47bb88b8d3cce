"""What a learner reads: the feedback of ``check()`` and of the grader, in zh, en, ru.

The code cells of the three exercise notebooks are identical except for one
line, ``COURSE_LANGUAGE = "zh"`` (or "en", "ru"), that the notebook builder
writes into each language's first code cell.  :func:`detect_language` finds
the language, in this order:

1. an explicit ``lang=`` argument of :func:`grading.check`;
2. :func:`set_language` called earlier in the kernel;
3. ``COURSE_LANGUAGE`` in the namespace that calls ``check()`` (the notebook's);
4. the environment variable ``COURSE_LANG`` (``zh``, ``en`` or ``ru``);
5. the kernel's working directory: the innermost folder called ``zh``, ``en``
   or ``ru`` (Jupyter starts a kernel in the folder of its notebook);
6. English.

So a notebook keeps its language wherever it is opened.  Everything here is
offline: no locale database, no network.

Messages are ``str.format`` templates filled from the ``details`` that
:func:`grading.compare.compare_values` returns.  For a *hidden* test the
learner is told which property failed (:data:`HIDDEN`), never the values.
"""

import os
import pathlib

from course_i18n import LANGUAGES, SOURCE_LANGUAGE as DEFAULT_LANGUAGE

_override = None


def set_language(lang):
    """Force the language of every later message (``None`` restores detection)."""
    global _override
    if lang is not None and lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    _override = lang


def detect_language(lang=None, cwd=None, namespace=None):
    """The language of the feedback; see the module docstring for the order."""
    from_namespace = namespace.get("COURSE_LANGUAGE") if isinstance(namespace, dict) else None
    for candidate in (lang, _override, from_namespace, os.environ.get("COURSE_LANG")):
        if isinstance(candidate, str) and candidate in LANGUAGES:
            return candidate
    try:
        parts = pathlib.Path(cwd if cwd is not None else os.getcwd()).parts
    except OSError:                    # the working directory was deleted
        parts = ()
    for part in reversed(parts):
        if part in LANGUAGES:
            return part
    return DEFAULT_LANGUAGE


MESSAGES = {
    # what follows a test's label: Chinese takes the full-width colon
    "label_colon": {"zh": "：", "en": ": ", "ru": ": "},
    "clause_separator": {"zh": "；", "en": "; ", "ru": "; "},
    "list_separator": {"zh": "、", "en": ", ", "ru": ", "},
    "needs_exercise": {
        "zh": "这个单元格用到了你在练习 {ids} 中写的 {functions}，而它的结果不对：请先修好它（{checks} 会说明哪里不对），"
              "再运行这个单元格",
        "en": "this cell uses your {functions} from exercise {ids}, and its result is not right: fix that first "
              "({checks} says what is wrong), then run this cell again",
        "ru": "эта ячейка использует вашу функцию {functions} из упражнения {ids}, и её результат неверен: сначала "
              "исправьте её ({checks} подскажет, что не так), затем снова выполните эту ячейку",
    },
    "needs_exercises": {
        "zh": "这个单元格用到了你在练习 {ids} 中写的 {functions}，而它们的结果不对：请先修好它们（{checks} 会说明哪里不对），"
              "再运行这个单元格",
        "en": "this cell uses your {functions} from exercises {ids}, and their results are not right: fix those "
              "first ({checks} say what is wrong), then run this cell again",
        "ru": "эта ячейка использует ваши функции {functions} из упражнений {ids}, и их результаты неверны: сначала "
              "исправьте их ({checks} подскажут, что не так), затем снова выполните эту ячейку",
    },
    # a result made of several values (a tuple): which one the message is about
    "in_item": {
        "zh": "结果的第 {item} 项（从 0 数起）：{text}",
        "en": "item {item} of the result (counting from 0): {text}",
        "ru": "элемент {item} результата (счёт с 0): {text}",
    },
    "not_implemented": {
        "zh": "尚未完成：函数仍然抛出 NotImplementedError。把 TODO 那一行换成你的代码",
        "en": "not done yet: the function still raises NotImplementedError; replace the TODO line with your code",
        "ru": "ещё не сделано: функция по-прежнему выбрасывает NotImplementedError; замените строку TODO своим кодом",
    },
    "raised": {
        "zh": "你的函数抛出了 {type}：{message}",
        "en": "your function raised {type}: {message}",
        "ru": "ваша функция выбросила исключение {type}: {message}",
    },
    "argument_changed": {
        "zh": "函数在原地修改了调用者传入的第 {which} 个参数：调用者的数组被改掉了。请在副本上计算，不要改动输入",
        "en": "the function changed its argument {which} in place, so the caller's array was altered; compute on "
              "a copy and leave the inputs as they are",
        "ru": "функция изменила на месте свой аргумент {which}, и массив вызывающего кода испорчен; считайте на "
              "копии и не меняйте входные данные",
    },
    "none_returned": {
        "zh": "函数返回了 None，应当返回 {expected_type}。是不是漏写了 return？",
        "en": "the function returned None instead of {expected_type}; is a `return` missing?",
        "ru": "функция вернула None, а ожидалось: {expected_type}; не забыт ли `return`?",
    },
    "wrong_type": {
        "zh": "类型不对：应为 {expected_type}，实际是 {got_type}",
        "en": "wrong type: expected {expected_type}, got {got_type}",
        "ru": "неверный тип. Ожидалось: {expected_type}; получено: {got_type}",
    },
    "wrong_length": {
        "zh": "长度不对：应返回 {expected} 项，实际返回 {got} 项",
        "en": "wrong length: expected {expected} items, got {got}",
        "ru": "неверная длина: ожидалось элементов — {expected}, получено — {got}",
    },
    "wrong_shape": {
        "zh": "形状不对：应为 {expected}，实际是 {got}",
        "en": "wrong shape: expected {expected}, got {got}",
        "ru": "неверная форма: ожидалась {expected}, получена {got}",
    },
    "float32_rounding": {
        "zh": "这么小的误差正是 float32 的舍入误差：函数的某一步用 float32 计算了，而这里期望的是 float64",
        "en": "an error this small is float32 rounding: some step of the function computes in float32 where "
              "float64 is expected",
        "ru": "ошибка такого размера — это округление float32: какой-то шаг функции считается во float32, а "
              "здесь ожидается float64",
    },
    "wrong_dtype": {
        "zh": "dtype 不对：应为 {expected}，实际是 {got}",
        "en": "wrong dtype: expected {expected}, got {got}",
        "ru": "неверный dtype: ожидался {expected}, получен {got}",
    },
    "nan": {
        "zh": "在下标 {index} 处得到 {got}，应为 {expected}",
        "en": "got {got} at index {index} where {expected} was expected",
        "ru": "в элементе {index} получено {got} вместо {expected}",
    },
    "wrong_value": {
        "zh": "数值不对：下标 {index} 处应为 {expected}，实际是 {got}；最大误差 {error} 超出容差（atol={atol}, rtol={rtol}）",
        "en": "wrong value at index {index}: expected {expected}, got {got}; the largest error {error} exceeds "
              "the tolerance (atol={atol}, rtol={rtol})",
        "ru": "неверное значение в элементе {index}: ожидалось {expected}, получено {got}; наибольшая ошибка "
              "{error} больше допуска (atol={atol}, rtol={rtol})",
    },
    "wrong_entry": {
        "zh": "下标 {index} 处的值不对：应为 {expected}，实际是 {got}",
        "en": "wrong entry at index {index}: expected {expected}, got {got}",
        "ru": "неверный элемент {index}: ожидалось {expected}, получено {got}",
    },
    "wrong_number": {
        "zh": "数值不对：应为 {expected}，实际是 {got}；误差 {error} 超出容差（atol={atol}, rtol={rtol}）",
        "en": "wrong value: expected {expected}, got {got}; the error {error} exceeds the tolerance (atol={atol}, rtol={rtol})",
        "ru": "неверное значение: ожидалось {expected}, получено {got}; ошибка {error} больше допуска (atol={atol}, rtol={rtol})",
    },
    "nan_number": {
        "zh": "得到 {got}，应为 {expected}",
        "en": "got {got} where {expected} was expected",
        "ru": "получено {got} вместо {expected}",
    },
    "wrong_exact": {
        "zh": "结果不对：应为 {expected}，实际是 {got}",
        "en": "wrong result: expected {expected}, got {got}",
        "ru": "неверный результат: ожидалось {expected}, получено {got}",
    },
    "not_exact_zero": {
        "zh": "下标 {index} 处禁止读取，它的权重必须恰好为 0，实际是 {got}",
        "en": "the entry at index {index} is forbidden, so its weight must be exactly 0; got {got}",
        "ru": "элемент {index} запрещён, его вес должен быть ровно 0, а получено {got}",
    },
    "missing_exception": {
        "zh": "这个输入应当抛出 {type}，但函数正常返回了{got}",
        "en": "this input should raise {type}, but the function returned {got}",
        "ru": "на этом входе должна быть ошибка {type}, а функция вернула {got}",
    },
    "wrong_exception": {
        "zh": "应当抛出 {type}，但函数抛出了 {got_type}：{message}",
        "en": "expected {type}, but the function raised {got_type}: {message}",
        "ru": "ожидалась ошибка {type}, а функция выбросила {got_type}: {message}",
    },
    "setup_failed": {
        "zh": "准备这个测试所需的模型时出错（{type}：{message}）。这不是你的错误，请报告",
        "en": "preparing the models of this test failed ({type}: {message}); this is not your mistake, please report it",
        "ru": "не удалось подготовить модели для этого теста ({type}: {message}); это не ваша ошибка, сообщите о ней",
    },
    "internal_error": {
        "zh": "检查程序本身出错（{type}：{message}）。这不是你的错误，请报告",
        "en": "the checker itself failed ({type}: {message}); this is not your mistake, please report it",
        "ru": "сбой самой проверки ({type}: {message}); это не ваша ошибка, сообщите о нём",
    },
    "unknown_exercise": {
        "zh": "没有编号为 {id!r} 的练习。可用的编号：{known}",
        "en": "there is no exercise {id!r}; known ids: {known}",
        "ru": "упражнения {id!r} нет; есть такие: {known}",
    },
    "not_callable": {
        "zh": "check 的第二个参数应当是你定义的函数 {function}，实际收到的是 {got_type}",
        "en": "the second argument of check should be your function {function}, got {got_type}",
        "ru": "вторым аргументом check должна быть ваша функция {function}, а передано значение типа {got_type}",
    },
    "uses_library": {
        "zh": "注意：{function} 用到了库中的参考实现 {name}。本练习要求在笔记本里亲手写出它，评分时这一题不计分",
        "en": "note: {function} uses the library's reference implementation {name}; this exercise asks you to "
              "write it in the notebook, so the grader gives it no points",
        "ru": "внимание: {function} пользуется эталонной реализацией из библиотеки ({name}); в упражнении её "
              "нужно написать самому, поэтому система оценивания не засчитает задачу",
    },
    "uses_dynamic": {
        "zh": "注意：{function} 用到了 {what}（{where}）。评分程序无法确认它没有调用库中的参考实现，所以这一题不计分；"
              "请不借助动态查找写出这个函数",
        "en": "note: {function} uses {what} ({where}); the grader cannot verify that it does not call the "
              "library's reference implementation, so it gives it no points; write the function without dynamic lookups",
        "ru": "внимание: {function} использует {what} ({where}); система оценивания не может убедиться, что "
              "эталонная реализация не вызывается, и не засчитает задачу; напишите функцию без динамического поиска имён",
    },
    "uses_module": {
        "zh": "注意：{function} 用到了 {name}（{where}）。本练习要求只用 Python 本身（列表、循环和 math 模块）"
              "写出这段计算，它才是一次独立的核对，所以评分时这一题不计分",
        "en": "note: {function} uses {name} ({where}); this exercise asks for the computation in plain Python "
              "(lists, loops and the math module), which is what makes it an independent check, so the grader "
              "gives it no points",
        "ru": "внимание: {function} использует {name} ({where}); в этом упражнении вычисление нужно написать на "
              "чистом Python (списки, циклы и модуль math) — только так проверка будет независимой, поэтому "
              "система оценивания не засчитает задачу",
    },
    "defined_elsewhere": {
        "zh": "注意：{function} 不是在笔记本里定义的，而是来自 {where}。本练习要求在笔记本里写出它，评分时这一题不计分",
        "en": "note: {function} is not defined in the notebook but comes from {where}; this exercise asks you to "
              "write it in the notebook, so the grader gives it no points",
        "ru": "внимание: {function} не определена в блокноте, а берётся из {where}; в упражнении её нужно "
              "написать в блокноте, поэтому система оценивания не засчитает задачу",
    },
    "where_line": {
        "zh": "第 {cell} 个单元格第 {line} 行",
        "en": "cell {cell}, line {line}",
        "ru": "ячейка {cell}, строка {line}",
    },
    "summary_some": {
        "zh": "{id}：{total} 个公开测试中通过了 {passed} 个",
        "en": "{id}: {passed} of {total} public tests passed",
        "ru": "{id}: пройдено открытых тестов — {passed} из {total}",
    },
    "summary_practice": {
        "zh": "{id}：{total} 个练习测试中通过了 {passed} 个（随机种子 {seed}）",
        "en": "{id}: {passed} of {total} practice tests passed (random seed {seed})",
        "ru": "{id}: пройдено тренировочных тестов — {passed} из {total} (seed {seed})",
    },
    "practice_header": {
        "zh": "练习测试：与隐藏测试同类，数据是新的随机数据（随机种子 {seed}）",
        "en": "practice tests: the kinds the hidden tests use, on fresh random data (random seed {seed})",
        "ru": "тренировочные тесты того же вида, что и скрытые, на новых случайных данных (seed {seed})",
    },
    "hidden_failed": {
        "zh": "隐藏测试“{label}”未通过：{what}",
        "en": "hidden test “{label}” failed: {what}",
        "ru": "скрытый тест «{label}» не пройден: {what}",
    },
    "reproduce": {
        "zh": "运行 check(\"{id}\", {function}, practice=True) 可以在新的随机数据上重复这类测试{like}",
        "en": "check(\"{id}\", {function}, practice=True) repeats tests of this kind on fresh random data{like}",
        "ru": "check(\"{id}\", {function}, practice=True) повторяет тесты этого вида на новых случайных данных{like}",
    },
    "reproduce_like": {
        "zh": "；公开测试“{label}”检查的是同一性质",
        "en": "; the public test “{label}” checks the same property",
        "ru": "; то же свойство проверяет открытый тест «{label}»",
    },
}

# What failed in a hidden test, without its values (keyed by the reason of compare_values).
HIDDEN = {
    "raised": {"zh": "你的函数抛出了 {type}", "en": "your function raised {type}",
               "ru": "ваша функция выбросила исключение {type}"},
    "argument_changed": {"zh": "函数在原地修改了传入的参数", "en": "the function changed an argument in place",
                         "ru": "функция изменила аргумент на месте"},
    "none_returned": {"zh": "函数返回了 None", "en": "the function returned None", "ru": "функция вернула None"},
    "wrong_type": {"zh": "结果的类型不对，应为 {expected_type}", "en": "the result has the wrong type (expected {expected_type})",
                   "ru": "у результата неверный тип (ожидалось: {expected_type})"},
    "wrong_length": {"zh": "结果的项数不对", "en": "the result has the wrong number of items",
                     "ru": "в результате неверное число элементов"},
    "wrong_shape": {"zh": "结果的形状不对", "en": "the result has the wrong shape", "ru": "у результата неверная форма"},
    "wrong_dtype": {"zh": "dtype 不对：应为 {expected}，实际是 {got}", "en": "wrong dtype: expected {expected}, got {got}",
                    "ru": "неверный dtype: ожидался {expected}, получен {got}"},
    "nan": {"zh": "在应为有限数的地方出现了 nan 或无穷大", "en": "a nan or an infinity where a finite number belongs",
            "ru": "nan или бесконечность там, где должно быть конечное число"},
    "wrong_value": {"zh": "数值不对，误差超出容差", "en": "wrong values, beyond the tolerance",
                    "ru": "неверные значения, ошибка больше допуска"},
    "not_exact_zero": {"zh": "某个禁止位置的权重不是恰好为 0", "en": "a forbidden entry has a weight that is not exactly 0",
                       "ru": "у запрещённого элемента вес не равен ровно 0"},
    "missing_exception": {"zh": "这个输入应当抛出 {type}，但函数正常返回了结果",
                          "en": "this input should raise {type}, but the function returned a result",
                          "ru": "на этом входе должна быть ошибка {type}, а функция вернула результат"},
    "wrong_exception": {"zh": "应当抛出 {type}，但函数抛出了 {got_type}", "en": "expected {type}, but the function raised {got_type}",
                        "ru": "ожидалась ошибка {type}, а функция выбросила {got_type}"},
    "wrong_exact": {"zh": "结果不对", "en": "wrong result", "ru": "неверный результат"},
}
HIDDEN["wrong_number"] = HIDDEN["wrong_value"]
HIDDEN["wrong_entry"] = {"zh": "有的元素不对", "en": "wrong entries", "ru": "неверные элементы"}
HIDDEN["nan_number"] = HIDDEN["nan"]

# Names of kinds of values, used in wrong_type / none_returned.
TYPE_NAMES = {
    "array": {"zh": "NumPy 数组", "en": "a NumPy array", "ru": "массив NumPy"},
    "float": {"zh": "实数（float）", "en": "a real number (float)", "ru": "вещественное число (float)"},
    "int": {"zh": "整数（int）", "en": "an integer (int)", "ru": "целое число (int)"},
    "bool": {"zh": "布尔值（True/False）", "en": "a bool (True/False)", "ru": "логическое значение (True/False)"},
    "str": {"zh": "字符串", "en": "a string", "ru": "строка"},
    "tuple": {"zh": "元组", "en": "a tuple", "ru": "кортеж"},
    "list": {"zh": "列表", "en": "a list", "ru": "список"},
    "dict": {"zh": "字典", "en": "a dict", "ru": "словарь"},
    "NoneType": {"zh": "None", "en": "None", "ru": "None"},
    "result_too_large": {"zh": "评分程序无法接收的值（太大或无法编码）",
                         "en": "a value the grader cannot receive (too large or not encodable)",
                         "ru": "значение, которое система оценивания не может принять (слишком большое или не кодируется)"},
}


def fill(table, key, lang, fields):
    """``table[key]`` in ``lang`` (else English), formatted with ``fields``; never raises."""
    template = table[key].get(lang) or table[key][DEFAULT_LANGUAGE]
    try:
        return template.format(**fields)
    except (KeyError, IndexError, ValueError):
        return f"{template} {fields}"


def message(key, lang, **fields):
    """The message ``key`` in ``lang``, with ``fields`` filled in."""
    if key not in MESSAGES:
        return f"{key}: {fields}"
    return fill(MESSAGES, key, lang, fields)


ARRAY_OF = {
    "zh": "形状为 {shape}、dtype 为 {dtype} 的 NumPy 数组",
    "en": "a NumPy array of shape {shape} and dtype {dtype}",
    "ru": "массив NumPy формы {shape} с dtype {dtype}",
}


def type_name(kind, lang):
    """A localised name for one of the kinds in TYPE_NAMES, or for an array described by
    :func:`grading.compare.describe_value` (``array (2, 2) float64``); else the raw name."""
    text = str(kind)
    if text.startswith("array (") and ") " in text:
        shape, dtype = text[len("array "):].rsplit(" ", 1)
        return (ARRAY_OF.get(lang) or ARRAY_OF[DEFAULT_LANGUAGE]).format(shape=shape, dtype=dtype)
    names = TYPE_NAMES.get(kind)
    if names is None:
        return text
    return names.get(lang) or names[DEFAULT_LANGUAGE]


def explain(reason, details, lang, hidden=False):
    """A test's (reason, details) from compare_values, in words; ``hidden`` leaves every value out."""
    fields = dict(details)
    for key in ("expected_type", "got_type"):
        if key in fields:
            fields[key] = type_name(fields[key], lang)
    if reason == "missing_exception" and "got" in fields:
        fields["got"] = type_name(fields["got"], lang)
    if hidden and reason in HIDDEN:
        text = fill(HIDDEN, reason, lang, fields)
    else:
        text = message(reason, lang, **fields)
    if reason == "wrong_value" and details.get("float32"):
        text += message("clause_separator", lang) + message("float32_rounding", lang)
    if "item" in details:
        text = message("in_item", lang, item=details["item"], text=text)
    return text
