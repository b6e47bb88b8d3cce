"""Localised feedback of the exercise checker (:mod:`grading.exercises`).

The code cells of the three exercise notebooks are identical, so the checker
cannot be told the language by the code.  It finds it, in this order:

1. an explicit ``lang=`` argument of :func:`grading.exercises.check`;
2. :func:`set_language` called earlier in the kernel;
3. the environment variable ``COURSE_LANG`` (``zh``, ``en`` or ``ru``);
4. the kernel's working directory: Jupyter starts a kernel in the folder of
   its notebook, so ``exercises/zh`` or ``solutions/ru`` names the language
   (the innermost folder called ``zh``, ``en`` or ``ru`` wins);
5. English.

Everything here is offline: no locale database, no network.
"""

import os
import pathlib

LANGUAGES = ("zh", "en", "ru")
DEFAULT_LANGUAGE = "en"

_override = None


def set_language(lang):
    """Force the language of every later message (``None`` restores detection)."""
    global _override
    if lang is not None and lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    _override = lang


def detect_language(lang=None, cwd=None):
    """The language of the feedback; see the module docstring for the order."""
    for candidate in (lang, _override, os.environ.get("COURSE_LANG")):
        if candidate in LANGUAGES:
            return candidate
    try:
        parts = pathlib.Path(cwd if cwd is not None else os.getcwd()).parts
    except OSError:                    # the working directory was deleted
        parts = ()
    for part in reversed(parts):
        if part in LANGUAGES:
            return part
    return DEFAULT_LANGUAGE


# Each message is a str.format template; the fields are filled from the
# ``details`` dict that grading.exercises.Exercise.compare returns.
MESSAGES = {
    "not_implemented": {
        "zh": "尚未完成：函数仍然抛出 NotImplementedError。把 TODO 那一行换成你的代码",
        "en": "not done yet: the function still raises NotImplementedError; replace the TODO line with your code",
        "ru": "ещё не сделано: функция по-прежнему выбрасывает NotImplementedError; замените строку TODO своим кодом",
    },
    "raised": {
        "zh": "你的函数抛出了 {type}：{message}",
        "en": "your function raised {type}: {message}",
        "ru": "ваша функция выбросила {type}: {message}",
    },
    "none_returned": {
        "zh": "函数返回了 None，应返回 {expected_type}。是否漏写了 return？",
        "en": "the function returned None instead of {expected_type}; is a `return` missing?",
        "ru": "функция вернула None, а должна вернуть результат (ожидалось: {expected_type}); может быть, забыт `return`?",
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
    "wrong_dtype": {
        "zh": "dtype 不对：应为 {expected}，实际是 {got}",
        "en": "wrong dtype: expected {expected}, got {got}",
        "ru": "неверный dtype: ожидался {expected}, получен {got}",
    },
    "nan": {
        "zh": "在位置 {index} 得到 {got}，应为 {expected}（是否在 exp 之前没有减去最大值，或除以了零？）",
        "en": "got {got} at index {index} where {expected} was expected (an exp before subtracting the maximum, or a division by zero?)",
        "ru": "в позиции {index} получено {got} вместо {expected} (exp без вычитания максимума или деление на ноль?)",
    },
    "wrong_value": {
        "zh": "数值不对：位置 {index} 应为 {expected}，实际是 {got}；最大误差 {error} 超出容差（atol={atol}, rtol={rtol}）",
        "en": "wrong value at index {index}: expected {expected}, got {got}; largest error {error} exceeds the tolerance (atol={atol}, rtol={rtol})",
        "ru": "неверное значение в позиции {index}: ожидалось {expected}, получено {got}; наибольшая ошибка {error} больше допуска (atol={atol}, rtol={rtol})",
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
        "zh": "位置 {index} 是禁止读取的，权重必须恰好为 0，实际是 {got}",
        "en": "index {index} is forbidden, so its weight must be exactly 0, got {got}",
        "ru": "позиция {index} запрещена, её вес должен быть ровно 0, получено {got}",
    },
    "missing_exception": {
        "zh": "这里应当抛出 {type}，但函数正常返回了 {got}",
        "en": "this input should raise {type}, but the function returned {got}",
        "ru": "на этом входе должна быть ошибка {type}, а функция вернула {got}",
    },
    "wrong_exception": {
        "zh": "应抛出 {type}，实际抛出了 {got_type}：{message}",
        "en": "expected {type}, but the function raised {got_type}: {message}",
        "ru": "ожидалась ошибка {type}, а функция выбросила {got_type}: {message}",
    },
    "setup_failed": {
        "zh": "准备本例所需的模型时出错（{type}：{message}），这不是你的错误，请报告",
        "en": "preparing the models of this case failed ({type}: {message}); this is not your mistake, please report it",
        "ru": "не удалось подготовить модели для этого случая ({type}: {message}); это не ваша ошибка, сообщите о ней",
    },
    "internal_error": {
        "zh": "检查器内部出错（{type}：{message}），这不是你的错误，请报告",
        "en": "the checker itself failed ({type}: {message}); this is not your mistake, please report it",
        "ru": "сбой самой проверки ({type}: {message}); это не ваша ошибка, сообщите о нём",
    },
    "unknown_exercise": {
        "zh": "没有编号为 {id!r} 的练习。可用的编号：{known}",
        "en": "there is no exercise {id!r}; known ids: {known}",
        "ru": "упражнения {id!r} нет; есть такие: {known}",
    },
    "not_callable": {
        "zh": "check 的第二个参数应是你定义的函数 {function}，实际收到的是 {got_type}",
        "en": "the second argument of check should be your function {function}, got {got_type}",
        "ru": "вторым аргументом check должна быть ваша функция {function}, а получен {got_type}",
    },
    "uses_library": {
        "zh": "注意：{function} 用到了库中的参考实现 {name}。本练习要求在笔记本里亲自写出它，评分时这一题不计分",
        "en": "note: {function} uses the library's reference implementation {name}; this exercise asks you to write it in the notebook, so the grader gives it no points",
        "ru": "внимание: {function} пользуется эталонной реализацией из библиотеки {name}; в упражнении её нужно написать самому в блокноте, поэтому оценщик не засчитает эту задачу",
    },
    "summary_some": {
        "zh": "{id}：{passed}/{total} 个公开用例通过",
        "en": "{id}: {passed} of {total} public cases passed",
        "ru": "{id}: пройдено открытых случаев — {passed} из {total}",
    },
    "summary_todo": {
        "zh": "{id}：尚未完成",
        "en": "{id}: not done yet",
        "ru": "{id}: ещё не сделано",
    },
}

# Names of kinds of values, used in wrong_type / none_returned.
TYPE_NAMES = {
    "array": {"zh": "NumPy 数组", "en": "a NumPy array", "ru": "массив NumPy"},
    "float": {"zh": "实数（float）", "en": "a real number (float)", "ru": "вещественное число (float)"},
    "int": {"zh": "整数（int）", "en": "an integer (int)", "ru": "целое число (int)"},
    "bool": {"zh": "布尔值（True/False）", "en": "a bool (True/False)", "ru": "логическое значение (True/False)"},
    "str": {"zh": "字符串", "en": "a string", "ru": "строка"},
    "tuple": {"zh": "元组", "en": "a tuple", "ru": "кортеж"},
}


def message(key, lang, **fields):
    """The message ``key`` in ``lang``, with ``fields`` filled in."""
    table = MESSAGES.get(key)
    if table is None:
        return f"{key}: {fields}"
    template = table.get(lang) or table[DEFAULT_LANGUAGE]
    try:
        return template.format(**fields)
    except (KeyError, IndexError, ValueError):
        return f"{template} {fields}"


def type_name(kind, lang):
    """A localised name for one of the kinds in TYPE_NAMES (else the raw name)."""
    names = TYPE_NAMES.get(kind)
    if names is None:
        return str(kind)
    return names.get(lang) or names[DEFAULT_LANGUAGE]
