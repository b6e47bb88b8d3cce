"""Short grader messages in the course's three languages.

Messages about a case's value (wrong shape, wrong value, ...) come from
:mod:`grading.feedback`, the same texts ``check()`` prints in the notebook; the
ones here are about everything around it (a missing function, a crashed or
hung kernel, an unreadable notebook).  Each is a ``str.format`` template.
"""

from .. import feedback

MESSAGES = {
    "passed": {
        "en": "passed",
        "zh": "通过",
        "ru": "пройдено",
    },
    "missing_function": {
        "en": "the notebook does not define {function}",
        "zh": "笔记本中没有定义 {function}",
        "ru": "в блокноте не определена функция {function}",
    },
    "not_callable": {
        "en": "{function} is a {type}, not a function",
        "zh": "{function} 是 {type}，不是函数",
        "ru": "{function} — это {type}, а не функция",
    },
    "missing_notebook": {
        "en": "no notebook {notebook}.ipynb in this submission",
        "zh": "本次提交中没有笔记本 {notebook}.ipynb",
        "ru": "в этой работе нет блокнота {notebook}.ipynb",
    },
    "unknown_notebook": {
        "en": "not an exercise notebook of this course (expected one of: {known})",
        "zh": "这不是本课程的练习笔记本（应为以下之一：{known}）",
        "ru": "это не блокнот упражнений этого курса (ожидался один из: {known})",
    },
    "unreadable": {
        "en": "the notebook cannot be graded: {problem}",
        "zh": "无法评分该笔记本：{problem}",
        "ru": "блокнот нельзя оценить: {problem}",
    },
    "case_timeout": {
        "en": "case {case} did not finish within {seconds} s",
        "zh": "用例 {case} 在 {seconds} 秒内没有完成",
        "ru": "случай {case} не завершился за {seconds} с",
    },
    "total_timeout": {
        "en": "the submission used up its total time limit of {seconds} s",
        "zh": "本次提交用完了总时限 {seconds} 秒",
        "ru": "работа исчерпала общий лимит времени {seconds} с",
    },
    "kernel_died": {
        "en": "{reason} while {function} ran on the cases",
        "zh": "{function} 运行用例时{reason}",
        "ru": "{reason}, пока {function} выполнялась на случаях",
    },
    "kernel_failed": {
        "en": "the notebook could not be run: {reason}",
        "zh": "无法运行该笔记本：{reason}",
        "ru": "блокнот не удалось выполнить: {reason}",
    },
    "call_failed": {
        "en": "the grader could not call {function}: {error}",
        "zh": "评分器无法调用 {function}：{error}",
        "ru": "оценщику не удалось вызвать {function}: {error}",
    },
    "no_result": {
        "en": "case {case} returned no readable result",
        "zh": "用例 {case} 没有返回可读取的结果",
        "ru": "случай {case} не вернул читаемого результата",
    },
    "cell_error_hint": {
        "en": "cell {cell} raised {error}",
        "zh": "第 {cell} 个单元格抛出了 {error}",
        "ru": "ячейка {cell} выбросила {error}",
    },
    "cell_skipped_hint": {
        "en": "cell {cell} was skipped: {reason}",
        "zh": "第 {cell} 个单元格被跳过：{reason}",
        "ru": "ячейка {cell} пропущена: {reason}",
    },
    "best_of": {
        "en": "best of {count} notebooks",
        "zh": "{count} 个笔记本中的最好成绩",
        "ru": "лучший результат из {count} блокнотов",
    },
    "interrupted": {
        "en": "not graded: the grader was interrupted",
        "zh": "未评分：评分器被中断",
        "ru": "не оценено: оценщик был прерван",
    },
    "internal": {
        "en": "internal grader error ({error}); this is not the student's fault",
        "zh": "评分器内部错误（{error}），不是学生的错误",
        "ru": "внутренняя ошибка оценщика ({error}); это не ошибка студента",
    },
}


def text(key, lang, **fields):
    if key not in MESSAGES:
        return feedback.message(key, lang, **fields)
    table = MESSAGES[key]
    template = table.get(lang) or table["en"]
    try:
        return template.format(**fields)
    except (KeyError, IndexError, ValueError):
        return f"{template} {fields}"


def explain(reason, details, lang):
    """A case's (reason_key, details) from Exercise.compare, as grading.exercises.check words it."""
    fields = dict(details)
    for key in ("expected_type", "got_type"):
        if key in fields:
            fields[key] = feedback.type_name(fields[key], lang)
    out = feedback.message(reason, lang, **fields)
    if "item" in details:
        out = f"[{details['item']}] {out}"
    return out
