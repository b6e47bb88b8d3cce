"""The words the course's glossary decided against do not appear in the prose.

The tables of docs/words.md, "Words we do not use", one per language, list (pattern, use instead). The
prose checked is what a reader sees in that language: the Markdown cells and
translated comments of every source in src/ and every text of the quiz questions;
the texts the modules in MESSAGE_MODULES hold (feedback and grader messages, the
interactive figures' and the diagrams' labels), each a ``{lang: sentence}`` that
course_i18n.catalogue's ``text``/``texts`` built, found among a module's names up
to three levels into its dicts, lists and tuples; the interface texts (their
English in course_i18n's ``course.pot``, their translations in each
``course.po``: exercise titles, test labels, the site's texts, ...), the site's
translated theme strings and the captions of _toc.yml. The figures' ``alt="…"``
texts are read as Markdown is: the site captions a figure with an alt text's first
sentence. Inline code, math, URLs and HTML tags are not prose, nor are section
numbers (§2.3), heading numbers and the version numbers of NAMED_TOOLS.

Every line of a table is a row: one the check cannot read (a pattern out of code
font, a table whose heading names no language of LANGUAGES) fails ``test_the_table_is_read``
instead of being skipped.
"""

import functools
import importlib
import itertools
import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from course_i18n import LANGUAGES, SOURCE_LANGUAGE, language  # noqa: E402
from tools.nbsource import load, translated_comments  # noqa: E402
from tools.prose import Translations  # noqa: E402
from tools import search_index  # noqa: E402

WORDS = ROOT / "docs" / "words.md"


def read_table(text):
    """The rows of the tables of docs/words.md (``text``), each (lang, pattern, use instead, markdown only), and
    the lines of the tables that are no such row. Each language has its own table under a heading that ends with
    its code, ``### Russian (ru)``; every line of a table but its header and rule is a row, and a heading that
    names no language of the course, with every row under it, is unreadable, as is a row under no heading. The
    tables stand under "## The tables" (read63 G L17); a row of the page's opening, above it, is read too, under no
    heading, and what follows the next section's heading is not."""
    page = text.split("# Words we do not use", 1)[1].replace("\n## The tables\n", "\n", 1)
    table = page.split("\n## ", 1)[0]   # up to the section after the tables, if any
    rows, unreadable, lang = [], [], None
    for line in table.splitlines():
        if line.startswith("### "):
            heading = re.fullmatch(r"### .*\((\w+)\)\s*", line)
            lang = heading.group(1) if heading and heading.group(1) in LANGUAGES else None
            if lang is None:
                unreadable.append(line)
            continue
        if not line.startswith("|") or re.match(r"\|\s*pattern\s*\|", line) or re.fullmatch(r"\|[\s:|-]+\|\s*", line):
            continue
        match = re.match(r"\|\s*`(.+?)`[^|]*\|\s*(.+?)\s*\|\s*$", line.replace("\\|", "\x00"))
        if match and lang:
            pattern, instead = (g.replace("\x00", "|") for g in match.groups())
            markdown_only = instead.startswith("[Markdown]")
            rows.append((lang, re.compile(pattern, re.IGNORECASE), instead, markdown_only))
        else:
            unreadable.append(line)
    return rows, unreadable


def forbidden_words():
    return read_table(WORDS.read_text(encoding="utf-8"))[0]


RULES, UNREADABLE = read_table(WORDS.read_text(encoding="utf-8"))
# the tools whose version numbers are not prose (Python 3.12): another tool's version is (docs/words.md)
NAMED_TOOLS = ("Python", "Sphinx", "Jupyter Book", "NumPy", "PyTorch", "torch", "Chromium")

_NOT_PROSE = [
    re.compile(r"```.*?```", re.S),                 # fenced code
    re.compile(r"\$\$.*?\$\$", re.S),               # display math
    re.compile(r"\$[^$\n]+\$"),                     # inline math
    re.compile(r"`[^`\n]+`"),                       # inline code
    re.compile(r"<[^>\n]+>"),                       # HTML tags
    re.compile(r"https?://\S+"),                    # URLs
    re.compile(r"§\d+(\.\d+)*"),                    # section references
    re.compile(r"^#+\s*\d+(\.\d+)*", re.M),         # heading numbers
    re.compile(r"\b(" + "|".join(map(re.escape, NAMED_TOOLS)) + r")\s+\d+(\.\d+)+", re.I),
    re.compile(r"(?:\b[Рр]ис\.|\b[Рр]исун\w*|\bFigures?|图)\s?\d+\.\d+"),   # figure numbers (Figure 1.2)
]
PLACEHOLDER = re.compile(r"\{[A-Za-z_]\w*(?:![rsa])?(?::[^{}]*)?\}")      # {id}, {seed}: the values a message shows


def prose(text):
    for pattern in _NOT_PROSE:
        text = pattern.sub(" ", text)
    return PLACEHOLDER.sub("¤", text)          # a value stays a word of its own: "seed {seed}" is a label and its value


def _quiz_texts(path, rel):
    """The questions of src/quizzes/ (tools/quizzes.py): every text of every question."""
    from tools.quizzes import T, load as load_quiz
    for section in load_quiz(path):
        for k, question in enumerate(section.questions, 1):
            texts = [question.prompt, question.why, question.right, *question.steps]
            texts += [t for pair in question.wrong for t in pair if isinstance(t, T)]
            for text in filter(None, texts):
                for lang in LANGUAGES:
                    yield f"{rel} §{section.number} question {k}", lang, text[lang], "markdown"


def source_texts():
    """(where, lang, text, kind) for every piece of translated prose in src/ (kind: markdown, comment)."""
    for path in sorted((ROOT / "src").glob("*/*.py")):
        rel = path.relative_to(ROOT)
        if path.parent.name == "quizzes":
            yield from _quiz_texts(path, rel)
            continue
        cell_translations = Translations(path)        # the comments' translations, from the catalogue
        for i, cell in enumerate(load(path)):
            if cell.kind == "markdown":
                for lang in LANGUAGES:
                    yield f"{rel} cell {i}", lang, cell.text[lang], "markdown"
            else:
                for comment in translated_comments(cell.source):
                    texts = cell_translations.get(comment.english, f"comment in cell {i}")
                    for lang in LANGUAGES:
                        yield f"{rel} cell {i} (comment)", lang, texts[lang], "comment"


def alt_texts():
    """(where, lang, text, "alt") for the alt text of every figure of the sources in src/ (``code(..., alt=...)``),
    from the catalogue as source_texts reads the comments: the site captions a figure with its first sentence."""
    for path in sorted((ROOT / "src").glob("*/*.py")):
        if path.parent.name == "quizzes":
            continue
        rel = path.relative_to(ROOT)
        for i, cell in enumerate(load(path)):
            for lang in LANGUAGES:
                alt = cell.lang_metadata.get(lang, {}).get("mystnb", {}).get("image", {}).get("alt")
                if alt:
                    yield f"{rel} cell {i} (alt text)", lang, alt, "alt"


MARKDOWN = ("markdown", "alt")            # the kinds of text a [Markdown] row is checked in


def _catalogues(obj, depth=0):
    if isinstance(obj, dict):
        if set(LANGUAGES) <= set(obj) and all(isinstance(obj[l], str) for l in LANGUAGES):
            yield obj
        elif depth < 3:
            for value in obj.values():
                yield from _catalogues(value, depth + 1)
    elif isinstance(obj, (list, tuple)) and depth < 3:
        for value in obj:
            yield from _catalogues(value, depth + 1)


MESSAGE_MODULES = ("grading.feedback", "grading.messages", "figures.interactive", "tools.diagrams")


def message_texts():
    for name in MESSAGE_MODULES:           # a module moved or renamed fails here, it is never skipped
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            for catalogue in _catalogues(value):
                for lang in LANGUAGES:
                    yield f"{name}.{attr}", lang, catalogue[lang], "message"
    # the interface catalogues: exercise titles and labels, the landing page, the quiz's words, ...
    from course_i18n.catalogue import DOMAIN, LOCALES_DIR, read_po
    for entry in read_po(LOCALES_DIR / f"{DOMAIN}.pot"):
        if entry["msgid"]:
            yield f"course_i18n [{entry['msgctxt']}]", SOURCE_LANGUAGE, entry["msgid"], "message"
    for lang in LANGUAGES:
        path = LOCALES_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        for entry in read_po(path) if path.exists() else ():
            if entry["msgstr"] and entry["msgid"]:                 # the header's msgstr is not a text
                yield f"{path.relative_to(ROOT)} [{entry['msgctxt']}]", lang, entry["msgstr"], "message"
    for lang in LANGUAGES:
        for po in sorted((ROOT / "site" / "locale" / language(lang).locale / "LC_MESSAGES").glob("*.po")):
            for match in re.finditer(r'^msgstr "(.*)"$', po.read_text(encoding="utf-8"), re.M):
                yield str(po.relative_to(ROOT)), lang, match.group(1), "message"


SECTION_ROW = re.compile(r"\[§(\d+)\]")     # a row whose "use instead" starts [§4] is checked in §4's texts only


@functools.lru_cache(maxsize=None)
def _exercise_sets():
    """{exercise id: the number of its exercise set}, read from the spec modules (grading/specs/ex04_causality.py: 4)."""
    from grading.registry import Registry
    return {i: int(re.search(r"\.ex(\d+)_", module).group(1)) for i, module in Registry().index().items()}


def in_section(where, number):
    """Whether a text (its ``where``) is one of §N's: its notebook, its quiz, its exercise set and that set's
    solutions, or an interface text of one of the set's exercises (grading.exercise.causal-1.…, grading.diagnosis.…)."""
    if re.match(rf"src/(chapters|quizzes)/{number:02d}_|src/solutions/ex{number:02d}_", where):
        return True
    key = re.search(r"\[grading\.(?:exercise|diagnosis)\.([\w-]+)\.", where)
    return bool(key) and _exercise_sets().get(key.group(1)) == number


def violations(texts):
    found = []
    for where, lang, text, kind in texts:
        clean = prose(text)
        for rule_lang, pattern, instead, markdown_only in RULES:
            section = SECTION_ROW.match(instead)
            if section and not in_section(where, int(section.group(1))):
                continue
            if rule_lang == lang and (kind in MARKDOWN or not markdown_only):
                for match in pattern.finditer(clean):
                    found.append(f"{where} [{lang}]: {match.group(0)!r} -> {instead}")
    return found


def test_the_table_is_read():
    langs = {lang for lang, _, _, _ in RULES}
    assert langs == set(LANGUAGES) and len(RULES) >= 20, "the table of docs/words.md was not parsed"
    assert not UNREADABLE, "rows of docs/words.md the check cannot read (pattern in code font? heading ending (zh), (en) or (ru)?):\n" + \
        "\n".join(UNREADABLE)


def test_a_row_the_check_cannot_read_is_reported():
    """Negative control: a pattern out of code font, a language in capitals and one the course does not have were
    once skipped without a word (read57 G L15); only the well-formed row is read. Since each language has its own
    table (read62 G L19), the language is its heading's: a row under no heading, or under a heading that names no
    language of the course, is reported with that heading."""
    text = ("# Words we do not use\n\n| `stray` | a row before any heading |\n\n## The tables\n\n### English (en)\n\n"
            "| pattern | use instead |\n| --- | --- |\n| `hand-set` | hand-chosen |\n| hand-set | hand-chosen |\n"
            "| en | `hand-set` | hand-chosen |\n\n### Chinese (ZH)\n\n| `手设` | 手工设定的参数 |\n\n"
            "### German (de)\n\n| `Kapitel` | Abschnitt |\n\n## What the test reads\n\n| `after` | the tables |\n")
    rows, unreadable = read_table(text)
    assert [(lang, pattern.pattern) for lang, pattern, _, _ in rows] == [("en", "hand-set")]
    assert unreadable == ["| `stray` | a row before any heading |", "| hand-set | hand-chosen |",
                          "| en | `hand-set` | hand-chosen |", "### Chinese (ZH)", "| `手设` | 手工设定的参数 |",
                          "### German (de)", "| `Kapitel` | Abschnitt |"]


def test_the_alt_texts_are_read():
    """The figures' alt texts are read in every language, as Markdown (a [Markdown] row applies); an alt text with
    «каузальная» once passed unread (read57 G L13)."""
    texts = list(alt_texts())
    assert {lang for _, lang, _, _ in texts} == set(LANGUAGES) and len(texts) >= 30
    assert all(where.startswith(("src/chapters/", "src/solutions/")) for where, _, _, _ in texts)
    found = violations([("demo", "ru", "Каузальная маска: веса 0.5 над диагональю", "alt")])
    assert sorted(f.split(": ", 1)[1].split(" -> ")[0] for f in found) == ["'0.5'", "'Каузальн'"], found


def test_only_the_named_tools_have_versions_that_are_not_prose():
    """The version of a tool NAMED_TOOLS names is blanked; another tool's is prose, and in Russian its point is
    reported (docs/words.md says so)."""
    assert not violations([("demo", "ru", " ".join(f"{tool} 3.8" for tool in NAMED_TOOLS), "markdown")])
    assert len(violations([("demo", "ru", "Matplotlib 3.8", "markdown")])) == 1


def test_the_check_finds_what_it_looks_for():
    sample = [("demo", "en", "The hand-set model; `hand-set` in code is fine.", "markdown"),
              ("demo", "ru", "В §1.2 число 0,33, а не 0.33; `0.33` в коде можно.", "markdown"),
              ("demo", "ru", "x = 0.5 в комментарии к коду можно; а пакет текстов нельзя", "comment"),
              ("demo", "zh", "见 §2.3，第 5..7 行", "markdown")]
    found = violations(sample)
    assert len(found) == 4, found
    assert "'hand-set'" in found[0] and "'0.3'" in found[1] and "'пакет текстов'" in found[2]
    assert "'5..7'" in found[3]


def test_nan_is_written_nan_in_prose_in_every_language():
    """Prose writes NaN, as grading.feedback.hidden.nan does; `nan` is NumPy's spelling, in code font only. Seven
    diagnoses and a test label once wrote "the first row is nan" (audit23 POT-1); the row is case-sensitive, so NaN
    passes, and so do code font and a value in a formula, as lib's docstrings write it (0 * nan = nan)."""
    for lang, text in (("en", "the first row is nan: the mask"), ("zh", "第一行是 nan：掩码"),
                       ("ru", "первая строка\u00a0— nan: маска")):
        assert len(violations([("demo", lang, text, "message")])) == 1, (lang, text)
        assert not violations([("demo", lang, text.replace("nan", "NaN"), "message")])
        assert not violations([("demo", lang, text.replace("nan", "`nan`"), "message")])
    assert not violations([("lib/attention.py", "en", "a NaN even in the future: 0 * nan = nan", "code")])


def test_plain_python_is_the_only_name_for_python_without_numpy():
    """docs/glossary.md says "plain Python"; §6 once wrote "pure-Python" five times (read68 en C1). Both spellings
    of "pure Python" are caught, and "plain Python", the module `plain_python` and code font pass."""
    found = violations([("demo", "en", "The pure-Python value; pure Python code; Pure-python.", "markdown")])
    assert len(found) == 3 and all("plain Python" in f for f in found), found
    assert not violations([("demo", "en", "The plain-Python program of §6.2 uses `lib/plain_python.py`, "
                                          "not `pure-Python`; plain Python code.", "markdown")])


def test_the_full_forward_pass_keeps_its_adjective_in_russian():
    """docs/glossary.md says «полный прямой проход»; §6.1's table once wrote «полного прохода» (read68 ru C1), and
    exercise set 5 and a grader message «полный проход». Every case of the short form is caught; the glossary's
    term, «полностью проходит» and a plain «прямой проход» pass."""
    found = violations([("demo", "ru", "расхождение кэша и полного прохода; кэш и полный проход; с полным проходом",
                         "markdown")])
    assert len(found) == 3 and all("полный прямой проход" in f for f in found), found
    assert not violations([("demo", "ru", "расхождение кэша и полного прямого прохода; с полным прямым проходом; "
                                          "тест полностью проходит; прямой проход по префиксу", "markdown")])


SEED_RU = re.compile(r"начальн\w* значени\w* (?:\w+ )?генератор\w*( случайных чисел)?", re.IGNORECASE)


def short_first_seeds(texts):
    """The sections whose first Russian mention of a seed is not the glossary's full form. ``texts`` are (section,
    where, text) in reading order; docs/glossary.md: «начальное значение генератора случайных чисел» at its first
    mention in each §N, then «начальное значение генератора»."""
    first = {}
    for section, where, text in texts:
        match = SEED_RU.search(prose(text))
        if match and section not in first:
            first[section] = (where, match)
    return [f"{where}: {match.group(0)!r}" for where, match in first.values() if not match.group(1)]


def test_a_seed_is_named_in_full_at_its_first_mention_in_each_section():
    """read68 ru C2: §6's prose never names a seed, so its first mention is the §6.4 quiz's choice, which said
    «Начальное значение генератора (seed)». Each section is read as its prose, then its quiz (the quiz's questions
    stand at the ends of the subsections, so a question can come before later prose: this order is the check's).
    read75 G C1: a section's exercise set is a notebook of its own, read on its own; and each interface text of
    the grader (course.po [grading.…]: what check() prints) is read as a first mention, since check() can print
    it before the set's prose names a seed. Two check() messages gave only «начальное значение генератора»."""
    texts = []
    for where, lang, text, _ in source_texts():
        if lang == "ru" and where.startswith(("src/chapters/", "src/quizzes/")):
            texts.append((where.split("/")[2][:2], where, text))
        elif lang == "ru" and where.startswith("src/solutions/"):
            texts.append((where.split("/")[2][:4], where, text))                    # ex05: the exercise set
    messages = [(where, where, text) for where, lang, text, _ in message_texts()
                if lang == "ru" and "[grading." in where]
    assert any(SEED_RU.search(text) for _, _, text in texts), "no seed found: the pattern no longer reads the texts"
    assert any(SEED_RU.search(text) for _, _, text in messages), "no check() message names a seed: the test reads none"
    assert short_first_seeds(texts + messages) == []
    # negative control: the old §6.4 choice is caught; the short form after a full first mention passes
    assert short_first_seeds([("06", "quiz", "Начальное значение генератора (seed)")]) == \
        ["quiz: 'Начальное значение генератора'"]
    assert not short_first_seeds([("07", "prose", "начальное значение генератора случайных чисел"),
                                  ("07", "quiz", "Начальное значение генератора не меняет функцию")])
    # negative control (read75 G C1): the old check() message is caught, read on its own
    old = "(начальное значение генератора {seed})"
    assert short_first_seeds([("[grading.feedback.practice_header]", "[grading.feedback.practice_header]", old)]) == \
        ["[grading.feedback.practice_header]: 'начальное значение генератора'"]


@pytest.mark.parametrize("path", sorted((ROOT / "src").glob("*/*.py")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_forbidden_words_in_the_sources(path):
    rel = str(path.relative_to(ROOT))
    found = violations(t for t in itertools.chain(source_texts(), alt_texts()) if t[0].startswith(rel + " "))
    assert not found, "words the glossary decided against:\n" + "\n".join(found)


def _code_docstrings():
    """(where, "en", docstring, "code") for every module, class and function of lib and figures:
    help() shows these to a learner, so they keep the English rows of docs/words.md too."""
    import ast
    for path in sorted(p for package in ("lib", "figures") for p in (ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and ast.get_docstring(node):
                yield (f"{path.relative_to(ROOT)} {getattr(node, 'name', '<module>')}", "en",
                       ast.get_docstring(node), "code")


def test_no_forbidden_words_in_the_docstrings_of_lib_and_figures():
    texts = list(_code_docstrings())
    assert any("lib/checks.py" in where and "hand-chosen" in text for where, _, text, _ in texts)
    found = violations(texts)
    assert not found, "words the glossary decided against:\n" + "\n".join(found)


UNSCORED_AS_QUERY = [re.compile(p, re.I) for p in (
    r"\bquer(?:y|ies)(?: at a padded position)? (?:is|are) (?:an? )?\**unscored output",
    r"^an unscored output\b",                      # a quiz option or feedback naming the query so
    r"\bunscored outputs? reads?\b")]


def test_an_unscored_output_is_what_a_padded_query_produces_not_the_query():
    """docs/glossary.md: "unscored (the output of a padded query)". A query reads keys and produces an
    output; calling the query itself an unscored output merges it with "empty row", which is a query."""
    texts = [t for t in source_texts() if t[1] == "en"]
    assert any("produces an **unscored output**" in text for _, _, text, _ in texts)
    found = [f"{where}: {pattern.search(text).group(0)!r}" for where, _, text, _ in texts
             for pattern in UNSCORED_AS_QUERY if pattern.search(text)]
    assert not found, "a query is not an unscored output; it produces one:\n" + "\n".join(found)


def test_scoring_words_are_told_apart():
    """计入损失 (a position enters the loss) against 计分 (exercise points), intervals 0～i (read6 zh)."""
    found = violations([("demo", "zh", "哪些位置计分，由目标决定；第 t 行只读键 0…t", "markdown")])
    assert sorted(f.split(": ", 1)[1].split(" -> ")[0] for f in found) == ["'0…t'", "'计分'"], found
    assert not violations([("demo", "zh", "计分方法：评分时这一题不计分，整份提交不计分；统计分数的个数；"
                                       "哪些位置计入损失；`0 … T−1` 是代码", "markdown")])


def test_an_exercises_points_are_not_called_scores_in_chinese():
    """分数 is the attention score q·k/√d (docs/glossary.md); the exercise pages and the grader's page once also called
    an exercise's points 分数, so a learner read the word one way in one paragraph and the other way in the next
    (read73 G). The row of docs/words.md catches the phrases they wrote; the attention score's own sentences, and the
    points said as 分值, 得分 and N 分, pass."""
    caught = ["一道题的所有测试都通过，才能拿到标题里写的分数。", "`check` 数的是通过的公开测试，不是分数。",
              "标题里的分数则是各题在评分中的分值", "都通过，才得到这道题的分数。", "才得到这道练习的分数；",
              "每道练习的分数平均分给它的测试组", "一组的测试全部通过，就得到这一份分数。"]
    found = violations([("demo", "zh", text, "markdown") for text in caught])
    assert len(found) == len(caught), "\n".join(found)
    assert not violations([("demo", "zh", "Q 与 K 的转置相乘再除以 √d，得到 T × T 的分数 S；所有分数都是 0；统计分数的个数；"
                                       "禁止位置仍然拿到了权重：把分数置为 0 并不能禁止一个键；查询 i 对键 j 的分数是什么？"
                                       "才能得到标题里注明的分值，不是得分；这道练习就得 0 分；你的 3 分", "markdown")])


def test_a_multiple_is_said_as_times_the_original_in_chinese():
    """By the Chinese rule for multiples, 涨了 / 增加了 N 倍 means N + 1 times as much, and 缩小 N 倍 is not said at all.
    §2 once wrote that the softmax work 涨了 16 倍 where the code asserts exactly 16 times (read80 zh-12 C1), and that
    dividing by √D 缩小 √H 倍 the scores (L10). The row of docs/words.md catches both; the course's correct multiples
    pass."""
    caught = ["注意力表却从 4 MiB 涨到 64 MiB，softmax 的工作量涨了 16 倍。", "每个头的分数会再缩小 $\\sqrt H$ 倍，",
              "参数增加了 2 倍", "速度提高了三倍", "误差缩小 10 倍"]
    found = violations([("demo", "zh", text, "markdown") for text in caught])
    assert len(found) == len(caught), "\n".join(found)
    assert not violations([("demo", "zh", "softmax 的工作量也变成原来的 16 倍；每个头的分数会再除以 $\\sqrt H$；"
                                       "注意力表的大小和 softmax 的工作量都增长到原来的 16 倍。T 翻一倍，注意力表就变成原来的 4 倍；"
                                       "所用时间却可能增加得更多；缓存至少快 10 倍；差了一个常数倍；两个头的宽度是一个头的两倍；"
                                       "KV 缓存的大小算成了正确值的 8 倍", "markdown")])


def test_a_logit_is_not_called_a_score_in_russian():
    """«оценка» is the attention score q·k/√d alone; the ru label of §7's diagram once called the logits «оценка
    каждого токена словаря» (read56 A2 C3). The row of docs/words.md catches that, and the scores of attention,
    and a logit's own sentences pass."""
    found = violations([("demo", "ru", "логиты: оценка каждого токена словаря как следующего, в каждой позиции",
                         "message")])
    assert len(found) == 1 and "'логиты: оценк'" in found[0], found
    assert not violations([("demo", "ru", "Чему равна оценка запроса i для ключа j? Вычислить оценку каждого ключа: "
                                          "q · k / √d. Логиты — ненормализованные логарифмы вероятностей. "
                                          "Наибольший логит больше второго.", "markdown"),
                           ("demo", "ru", "логиты: в каждой позиции по числу на каждый токен словаря; чем число "
                                          "больше, тем вероятнее, что этот токен следующий", "message")])


def test_no_forbidden_words_in_the_sidebar():
    """The captions of _toc.yml head the sidebar of every page (the zh caption once said 本章各节)."""
    import yaml
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    captions = [(f"_toc.yml {part['caption'][lang]!r}", lang, part["caption"][lang], "message")
                for part in toc["parts"] for lang in LANGUAGES]
    assert captions and not violations(captions), violations(captions)
    assert violations([("_toc.yml", "zh", "本章各节", "message")])


def test_no_forbidden_words_in_messages():
    found = violations(message_texts())
    assert not found, "words the glossary decided against:\n" + "\n".join(found)


def test_one_term_for_one_idea_across_chapters_quizzes_and_messages():
    """The terms the reviews found spelled two ways (#33) are caught in any catalogue, and their
    decided forms pass: the rows of the table that decide them are read, and they match."""
    caught = [("quiz", "zh", "这里没有单独的 PAD id", "markdown"), ("quiz", "zh", "实时的小部件", "markdown"),
              ("quiz", "zh", "权重绑定（W_head = Eᵀ）", "markdown"), ("quiz", "zh", "W_O 是各个头相遇的地方", "markdown"),
              ("ex01", "zh", "按 §1 的数据约定", "markdown"), ("ex03", "zh", "处理重复编号的 scatter-add", "markdown"),
              ("course.po", "ru", "цель EOS пропущена", "message"), ("quiz", "ru", "Отдельного PAD id нет", "markdown"),
              ("§7", "ru", "**Маскированный softmax.**", "markdown"), ("figure", "ru", "softmax по маске", "message"),
              ("§7", "ru", "Типичен ли этот seed?", "markdown"), ("quiz", "ru", "Seed не меняет функцию", "markdown"),
              ("§4", "ru", "в режиме инференса (eval)", "markdown"), ("course.po", "ru", "головы через один признак", "message"),
              ("§4", "ru", "ложные «прохождения»", "markdown"),
              # the whole book is the course, never a chapter (readers took "the rest of the chapter" for §1)
              ("§1", "en", "The rest of the chapter does not depend on them", "markdown"),
              ("quiz", "en", "The chapter's W_O has no bias.", "markdown"), ("§0", "zh", "本章共九节", "markdown"),
              ("§0", "zh", "每个符号在全章只有一个含义", "markdown"), ("§0", "ru", "## 0.3 Карта главы", "markdown"),
              ("quiz", "ru", "Как в главе записываются линейные отображения?", "markdown"),
              # read57 G: a false alarm, the logits that change, a vector whose decimal commas mix with its commas
              ("§4", "zh", "检验也可能“假报警”", "markdown"), ("quiz", "ru", "то же изменение сдвигает логиты", "markdown"),
              ("§3", "ru", "теряет [0,5, 0]", "markdown"), ("§3", "ru", "получают [1, −0,5]", "markdown"),
              # read59 G C6: a batch is «батч», while a Python package stays «пакет», in code font or not
              ("§1", "ru", "в пакете 4 последовательности", "markdown"),
              # read65 ru-68 C1: «через один» with no noun after it, the row once let it pass
              ("§6", "ru", "раздаёт признаки головам вперемешку, через один, а не блоками", "markdown"),
              # read68 ru-7 C1: the verb after the logits, which the row once read in one word order only
              ("quiz", "ru", "С маской логиты префикса меняются ровно на 0,0; контроль заметно их сдвигает", "markdown"),
              ("§7", "ru", "утечка может сдвинуть логиты префикса", "markdown")]
    found = violations(caught)
    assert len(found) == len(caught), "\n".join(found)
    fine = [("zh", "没有单独的 PAD 编号；代码里写 `id`", "markdown"), ("zh", "散射累加（scatter-add）", "markdown"),
            ("ru", "начальное значение генератора случайных чисел (seed); в коде `seed=3`", "markdown"),
            ("ru", "пройдено тренировочных тестов (seed {seed})", "message"), ("ru", "softmax с маской", "markdown"),
            ("ru", "Путь через одну голову; признаки с чередованием", "message"), ("ru", "см. рис. 1.2", "markdown"),
            ("zh", "{id}：{total} 个公开测试中通过了 {passed} 个", "message"),
            ("en", "Pushkin, *Eugene Onegin*, chapter 1, stanzas I–XXX", "markdown"),
            ("ru", "Пушкин, «Евгений Онегин», глава первая, строфы I–XXX", "markdown"),
            ("ru", "Главное — у каждой строки своя длина; см. оглавление", "markdown"),
            ("en", "The rest of the course does not depend on them", "markdown"), ("zh", "本课程共九节，本节讲掩码", "markdown"),
            ("zh", "检验也可能“误报”", "markdown"), ("ru", "меняет логиты; сдвиг t на 5 позиций", "markdown"),
            ("ru", "логиты не меняются, а позиции сдвинуты на 1; при сдвиге на 5 позиций логиты те же", "markdown"),
            ("ru", "С маской логиты префикса не меняются совсем; в контроле они заметно меняются", "markdown"),
            ("ru", "теряет [0,5; 0], а [1, 0] и [0, 1] — коды; в коде `[0.5, 0]`", "markdown"),
            ("ru", "функция в пакете `lib`; из пакета grading; в пакете <code>figures</code>", "markdown")]
    assert violations([("fine", lang, text, kind) for lang, text, kind in fine]) == []


WEBSITE_WHY = ("The website runs none of the course's Python: it shows states `lib` computed earlier. "
               "In Jupyter the same cells are live widgets.")


def test_an_interactive_figure_its_widget_and_its_controls_have_a_term_each():
    """read59 G C2: the glossary gave 交互图 for "widget", words.md sent 小部件 to 控件 (the controls), and zh §0.5
    called the live widgets 控件 while its quiz called them 交互图. Three ideas, three terms: the glossary's rows
    say so, and §0.5, its quiz and the note under the figures' controls use them."""
    from babel.messages.pofile import read_po
    glossary = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    for row in ("| interactive figure (§1.9's experiment, §2.6's cost table) | 交互图 | интерактивный рисунок |",
                "| widget (an interactive figure live in Jupyter, drawn by ipywidgets) | 交互控件 | виджет |",
                "| controls (a widget's sliders and buttons) | 控件 | элементы управления |"):
        assert row in glossary, row
    terms = {"zh": ("两张交互图", "交互控件", "控件"), "ru": ("два интерактивных рисунка", "виджет", "Элементы управления")}
    for lang, (figures, widget, controls) in terms.items():
        said = {}
        for path in (ROOT / "src" / "locales" / lang / "LC_MESSAGES").glob("*.po"):
            with open(path, "rb") as handle:
                said.update({m.id: m.string for m in read_po(handle) if isinstance(m.id, str)})
        section = next(s for e, s in said.items() if "In Jupyter the same cells produce live widgets:" in e)
        assert figures in section and widget in section, (lang, section)
        assert widget in said[WEBSITE_WHY], lang
        with open(ROOT / "course_i18n" / "locales" / lang / "LC_MESSAGES" / "course.po", "rb") as handle:
            note = next(m.string for m in read_po(handle) if m.context == "figures.interactive.static_note")
        assert note.startswith(controls) and "交互控件" not in note, (lang, note)


def test_section_0_says_what_the_site_runs_and_introduces_the_test_its_quiz_asks_about():
    """read63 C: §0.5 and its quiz said the site "runs no code", though its interactive figures run JavaScript: what
    it never runs is the course's Python. The Russian §0.5 had the widgets "recompute everything on the fly", though
    figures/interactive.py's widget only swaps in a table computed beforehand. And §0's quiz asked about "the
    causality test", a name the glossary does not give and a test §0 had not introduced: §0.4 now introduces the
    future-perturbation test by its glossary name, and the question uses it, in every language."""
    from babel.messages.pofile import read_po
    from tools.nbsource import load
    from figures import interactive
    assert "the kernel swaps" in interactive.Figure.widget.__doc__
    cells = [c.text for c in load(ROOT / "src" / "chapters" / "00_start.py") if c.kind == "markdown"]
    start = next(c for c in cells if "## 0.5 " in c["en"])
    notation = next(c for c in cells if "## 0.4 " in c["en"])
    quiz = (ROOT / "src" / "quizzes" / "00_start.py").read_text(encoding="utf-8")
    assert "runs none of the course's Python" in start["en"] and "the kernel swaps in the table" in start["en"]
    assert "runs no code" not in start["en"] + quiz and WEBSITE_WHY in quiz
    question = "§4's future-perturbation test compares two forward passes."
    assert "causality test" not in quiz and question in quiz and "future-perturbation test" in notation["en"]
    term = {"zh": "未来扰动检验", "ru": "возмущением будущего"}
    for lang in ("zh", "ru"):
        with open(ROOT / "src" / "locales" / lang / "LC_MESSAGES" / "quizzes.po", "rb") as handle:
            said = {m.id: m.string for m in read_po(handle) if m.context == "quizzes/00_start"}
        asked = next(s for e, s in said.items() if e.startswith(question))
        assert term[lang] in asked and term[lang] in notation[lang], lang
        assert "Python" in start[lang] and "Python" in said[WEBSITE_WHY], lang
    assert "пересчит" not in start["ru"] and "实时运行" not in start["zh"]


def _occurs(term, lang):
    """A pattern for a glossary term as a text may write it: each word by its stem in English and Russian (targets,
    маской), a one-letter symbol as any symbol or number (练习 N: 练习 1; position table P: $P$)."""
    words = []
    for word in term.lower().replace("ё", "е").split():
        if re.fullmatch(r"[a-z](?:_\w+)?", word):
            words.append(r"(?:\$?[a-z](?:_\w+)?\$?|\d+)")
        else:
            words.append(re.escape(word if lang == "zh" else word[:max(4, len(word) - 2)]) + ("" if lang == "zh" else r"\w*"))
    return re.compile(r"(?<!\w)" * (lang != "zh") + (r"\s*" if lang == "zh" else r"\s+").join(words))


APPENDIX = "src/chapters/appendix.py"


def without_glossary_tables(text, header):
    """``text`` without its tables whose header row names the glossary's columns (``header``), in any order: the
    appendix's glossary, whose rows copy docs/glossary.md's."""
    kept, inside = [], False
    for line in text.splitlines():
        if line.startswith("|"):
            inside = inside or sorted(c.strip() for c in line.strip().strip("|").split("|")) == sorted(header)
            if inside:
                continue
        else:
            inside = False
        kept.append(line)
    return "\n".join(kept)


def glossary_check_texts(texts, header):
    """{lang: the texts of that language the glossary's terms are looked for in}, from (where, lang, text, kind):
    read without code font and also without their parentheses, and the appendix's glossary tables left out."""
    found = {lang: [] for lang in LANGUAGES}
    for where, lang, text, _ in texts:
        if where.startswith(APPENDIX + " "):
            text = without_glossary_tables(text, header)
        text = " ".join(text.replace("`", "").lower().replace("ё", "е").split())
        found[lang] += [text, re.sub(r" ?[（(][^（）()]*[）)]", "", text)]
    return {lang: "\n".join(found) for lang, found in found.items()}


def terms_not_written(header, rows, texts):
    """The terms of the glossary's ``rows`` that ``texts`` (glossary_check_texts) do not write, as messages."""
    names = {language(lang).name: lang for lang in LANGUAGES}
    return [f"{names[name]} {term!r} in {cells}" for cells in rows for name, cell in zip(header, cells)
            for term in search_index._terms_of(cell) if not _occurs(term, names[name]).search(texts[names[name]])]


def test_every_term_of_the_glossary_is_the_courses_word():
    """Every term of docs/glossary.md's tables occurs, as written there, in the texts of its language that this module
    reads: two rows once gave terms the course never wrote ("learning-rate warm-up" and 学习率预热, where the text said
    "a warm-up of the learning rate" and 学习率先预热; 单元格输出, where it said 单元格的输出: read61 G C3). A text is
    read without code font (a cell writes 只用 reshape 的拆分) and also without its parentheses, which the page says a
    text adds only where a sentence needs them (在每个位置内部（按特征）归一化). The appendix's glossary tables copy
    the page's rows, so they are left out: read, they let two terms pass that no other text wrote
    («ограничивать последней строкой», "teacher forcing": read63 G C3)."""
    header, rows = search_index.glossary_rows()
    sources = list(source_texts())
    appendix = [(lang, text) for where, lang, text, _ in sources if where.startswith(APPENDIX + " ")]
    for lang in LANGUAGES:           # the filter has the appendix's tables to leave out, and leaves its prose
        cut = [(text, without_glossary_tables(text, header)) for text_lang, text in appendix if text_lang == lang]
        assert sum(a != b for a, b in cut) == 1 and all(b.strip() for a, b in cut), lang
    texts = glossary_check_texts(itertools.chain(sources, alt_texts(), message_texts()), header)
    for lang, old in (("en", "learning-rate warm-up"), ("zh", "学习率预热"), ("zh", "单元格输出")):   # the rows' old words
        assert not _occurs(old, lang).search(texts[lang]), old
    assert _occurs("练习 N 参考解答", "zh").search(texts["zh"]) and _occurs("нормализация слоя", "ru").search(texts["ru"])
    missing = terms_not_written(header, rows, texts)
    assert not missing, "glossary terms the course does not write:\n" + "\n".join(missing)


def test_a_term_written_only_in_the_appendix_glossary_fails():
    """Negative control for the test above (read63 G C3): a row whose terms only the appendix's glossary table writes
    is reported in every language, whatever the order of the table's columns; the same words in the appendix's prose,
    or in a table of another source, pass."""
    header, _ = search_index.glossary_rows()
    row = dict(zip(("English", "中文", "Русский"), ("zebra crossing", "斑马线", "пешеходный переход")))
    cells = [row[name] for name in header]
    table = "\n".join("| " + " | ".join(line) + " |" for line in (header[::-1], ["---"] * 3, cells[::-1]))
    names = {language(lang).name: lang for lang in LANGUAGES}
    only_there = [(f"{APPENDIX} cell 2", names[name], f"## Glossary\n\nThe text uses these terms.\n\n{table}\n",
                   "markdown") for name in header]
    missing = terms_not_written(header, [cells], glossary_check_texts(only_there, header))
    assert len(missing) == 3, missing
    for prose in ({names[name]: f"{table}\n" for name in header},                    # a table of another source
                  {names[name]: row[name] for name in header}):                          # the appendix's prose
        where = "src/chapters/08_real_text.py cell 3" if "|" in next(iter(prose.values())) else f"{APPENDIX} cell 0"
        texts = only_there + [(where, lang, text, "markdown") for lang, text in prose.items()]
        assert terms_not_written(header, [cells], glossary_check_texts(texts, header)) == [], where


def test_the_page_says_that_stems_cannot_tell_two_senses_apart():
    """The row "part (of the model)" once gave «компонент», which the Russian texts wrote once, elsewhere writing
    «составные части»; it passed because the check above matches a stem, and «компоне» also finds a vector's
    «компонента» (read62 G C1). docs/glossary.md says so, in the rule of "Rules the tests check" that names the test
    (read63 G L1: a paragraph between the page's opening and its tables once did), and says that the appendix's copy of
    the tables is left out (read63 G C3); the stems do match, and the row is the course's word."""
    page = " ".join((ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").split())
    rule = page[page.index("* **Every term is the course's word** (`tests/test_glossary.py`)."):]
    rule = rule[:rule.index(" * **")]
    # read76 G L9: "keeping at least four" left "four" of what unsaid, and nothing said how a Chinese term matches
    assert ("Each must occur in its language's texts; the appendix's copy of these tables does not count. A Chinese "
            "term must occur as written, except that a space in it may be left out (KV 缓存 matches KV缓存). English "
            "and Russian words match by stem: a word without its last two letters, but at least its first four "
            "letters. A word of one Latin letter, with or without a subscript (N, P, W_O), stands for any Latin "
            "letter or number in its place: 练习 N 参考解答 passes on 练习 1 参考解答. So a "
            "term can pass on a word of another sense: a row giving «компонент» for \"part\" would pass on a vector's "
            "«компоненте». A reviewer checks each term's sense.") in rule \
        and page.index("## Rules the tests check") < page.index(rule)
    # read74 G L5: the counterfactual "had the row … would have let it pass" took two readings
    assert "would have let it pass" not in page
    # read69 G L3: the example once named «компонент» as a model's word, which no row of the tables gives any more
    assert "a model's «компонент»" not in page
    assert _occurs("компонент", "ru").search("к каждой компоненте прибавлено 1000")
    assert _occurs("targets", "en").search("a targe") and not _occurs("targets", "en").search("a targ")
    assert _occurs("mask", "en").search("masks") and not _occurs("mask", "en").search("mas")
    assert _occurs("KV 缓存", "zh").search("kv缓存") and not _occurs("缓存", "zh").search("缓 存")
    # read82 G C1: the page once left out the symbols, which it said must occur "as written"
    assert _occurs("练习 N 参考解答", "zh").search("练习 1 参考解答") and _occurs("例 N", "zh").search("例 2")
    assert _occurs("output projection W_O", "en").search("output projection $w_h$")
    assert _occurs("position table P", "en").search("position table 3")
    assert "| part (of the model: mask, heads, positions, cache) | 部件 | составная часть |" in page


def test_chinese_is_spaced_from_latin_letters_and_digits():
    """docs/glossary.md's Chinese rule, which every zh text followed though no page stated it and nothing checked it
    (read61 G L7), is a row of docs/words.md: a Latin letter or a digit glued to Chinese is caught, on either side, and
    code and maths next to Chinese are not prose."""
    assert "* A space separates Chinese from a Latin letter or a digit: KV 缓存, 第 5 行." in \
        (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    found = violations([("demo", "zh", "学习率0.01，KV缓存", "markdown")])
    assert len(found) == 2 and "'率0'" in found[0] and "'V缓'" in found[1], found
    assert not violations([("demo", "zh", "学习率 0.01，KV 缓存，第 5 行，`x`的值，第$t$行", "markdown")])


def test_sections_1_and_2_say_what_the_code_computes():
    """read65 zh-12 and ru-12. §2's Example 1 and the cell of §2.2 that compares the two splits make the projections
    W_Q, W_K and W_V the identity, so that Q = K = V = X; a distractor of the quiz and the cell's comment said that Q, K
    and V themselves were identities (zh C2, C3, ru C2). The Chinese §1.3 called token t «第 t 个词元», which counts
    from 1, where the course counts positions from 0 (zh C1); no Chinese text numbers an index that way. The Russian
    §1.1 called the running mean of rows 0…i «скользящее среднее», a mean over a sliding window of fixed width, and
    the mean of §1.1 grows with i (ru C1); §7's Adam keeps an exponential moving average, which is «скользящее»."""
    texts = list(source_texts())
    heads = [(where, lang, text) for where, lang, text, _ in texts if "02_heads" in where]
    q_k_v = {"en": r"identit\w* Q/K/V|Q, K and V are identit", "zh": r"Q[/、]K[/、]V\s*(?:都是|取)单位",
             "ru": r"единичные Q/K/V|Q, K и V\s*—\s*единичн"}
    found = [(where, lang, text) for where, lang, text in heads if re.search(q_k_v[lang], text)]
    assert not found, found
    comment = [(lang, text) for where, lang, text in heads if "(comment)" in where and "q = k = v = xf" in text]
    option = [(lang, text) for where, lang, text in heads if where.endswith("question 3") and "W_Q" in text
              and re.search(r"identit|单位矩阵|единичные", text)]
    assert {lang for lang, _ in comment} == {lang for lang, _ in option} == set(LANGUAGES), (comment, option)
    assert all("W_Q" in text for _, text in comment), comment
    ordinal = [(where, text) for where, lang, text, _ in texts if lang == "zh" and re.search(r"第 ?[a-z] ?个", text)]
    assert not ordinal, ordinal
    section_1 = [text for where, lang, text, _ in texts if lang == "ru" and "01_allowed_set" in where]
    assert not [text for text in section_1 if "скользящ" in text.lower()]
    assert len([text for text in section_1 if "нарастающее" in text]) == 2      # cell 2's comment and cell 3



def test_sections_1_and_2_name_what_they_print_and_ask():
    """read72 en-12 C1-C3, in every language. §2.8's cell prints the unscaled products q₃·k_j, and the text
    after it called its 1.5 and 1 scores, which the glossary, §2.3 and lib/attention.py define as q·k/√d: they are dot
    products, and the scores of the rank argument carry their /√d. §1.10 said that EOS must not be given a padding
    *role*, though EOS is the input filler (lib/data.py); what it must not be is a padding index. The §2.8 quiz asked
    for "the highest rank ... for any T", which is T when T < 4: it asks for the smallest bound that holds for every T.
    """
    texts = list(source_texts())
    cell = [(lang, text) for where, lang, text, _ in texts if where.startswith("src/chapters/02_heads.py cell")
            and re.search(r"春.{0,60}?1[.,]5", text)]
    dot_product = {"en": r"dot product 1\.5", "zh": r"点积是 1\.5", "ru": r"скалярное произведение[^.]{0,30}1,5"}
    assert {lang for lang, _ in cell} == set(LANGUAGES), cell
    assert all(re.search(dot_product[lang], text) for lang, text in cell), cell
    rank = [(lang, text) for where, lang, text, _ in texts if where.startswith("src/chapters/02_heads.py cell")
            and "Q^{(h)} K^{(h)\\top}" in text]
    assert {lang for lang, _ in rank} == set(LANGUAGES), rank
    assert all("Q^{(h)} K^{(h)\\top} / \\sqrt d" in text for _, text in rank), rank
    stop = {"en": r"(?<=\.)\s+", "zh": r"(?<=。)", "ru": r"(?<=\.)\s+"}
    role = {"en": (r"padding index", r"padding role"), "zh": (r"填充编号", r"角色"), "ru": (r"индекс\w* дополнения", r"рол")}
    forbids = {"en": r"must not", "zh": r"不能", "ru": r"нельзя"}
    eos = [(lang, sentence) for where, lang, text, _ in texts if where.startswith("src/chapters/01_allowed_set.py cell")
           for sentence in re.split(stop[lang], text)
           if "`padding_idx`" in sentence and "`ignore_index`" in sentence and re.search(forbids[lang], sentence)]
    assert {lang for lang, _ in eos} == set(LANGUAGES), eos
    wrong = [(lang, sentence) for lang, sentence in eos
             if not re.search(role[lang][0], sentence) or re.search(role[lang][1], sentence)]
    assert not wrong, wrong
    bound = {"en": (r"smallest number", r"whatever T"), "zh": (r"最小", r"不论 T"), "ru": (r"наименьшее", r"при любом T")}
    question = [(lang, text) for where, lang, text, _ in texts
                if where == "src/quizzes/02_heads.py §2.8 question 3" and "D = 16" in text and "H = 4" in text]
    assert {lang for lang, _ in question} == set(LANGUAGES), question
    assert all(re.search(a, text) and re.search(b, text) for lang, text in question for a, b in [bound[lang]]), question
    assert not [text for where, lang, text, _ in texts if lang == "en" and "02_heads" in where and "for any T" in text]


def test_sections_1_and_2_say_when_w_o_mixes_the_heads_and_why_reading_itself_is_safe():
    """read74 en-12 C1 and C2, in every language. §2.4 said that every output feature receives a contribution from
    every head, and Figure 2.1 (alt text and label) that every output feature mixes all heads, though the experiment
    right after it takes W_O = I, under which the first d output features receive nothing from head 1: a generic W_O
    mixes every head into every output feature, the identity does not. The §1.3 quiz answered the distractor "Because
    BOS sits at position 0" with the diagonal j = i, which guarantees every row a readable key (§1.7); why reading
    key i is safe is §1.3's reason: input i was already seen and the answer sits at i + 1."""
    from tools import diagrams
    texts = list(source_texts())
    generic = {"en": r"generic \$?W_O", "zh": r"一般的 \$?W_O", "ru": r"W_O\$? общего вида"}
    identity = {"en": r"the identity does not", "zh": r"单位矩阵则不会", "ru": r"единичная матрица\s*—\s*нет"}
    cell = [(lang, text) for where, lang, text, _ in texts
            if where.startswith("src/chapters/02_heads.py cell") and "W_O^{(h)}$" in text and "d \\times D" in text]
    assert {lang for lang, _ in cell} == set(LANGUAGES), cell
    assert all(re.search(generic[lang], text) and re.search(identity[lang], text) for lang, text in cell), cell
    figure = [(lang, text) for lang in LANGUAGES
              for text in (diagrams.ALT["heads"][lang], diagrams.WORDS["heads"]["wo"][lang])]
    assert all(re.search(generic[lang], text) for lang, text in figure), figure
    assert not [text for where, lang, text, _ in texts if lang == "en" and "02_heads" in where
                and re.search(r"so every output feature (receives|mixes)", text)]
    question = [(lang, text) for where, lang, text, _ in texts if where == "src/quizzes/01_allowed_set.py §1.3 question 1"]
    diagonal = {"en": r"diagonal", "zh": r"对角线", "ru": r"диагонал"}
    assert not [(lang, text) for lang, text in question if re.search(diagonal[lang], text)], question
    bos = [(lang, text) for lang, text in question if re.search(r"BOS|<bos>", text) and "i + 1" in text]
    assert {lang for lang, _ in bos} == set(LANGUAGES), question


def _hull_cell_of_section_2(texts):
    """(lang, text) of §2.5's cell "After W_O the output is no longer an average of values", in every language."""
    cell = [(lang, text) for where, lang, text, _ in texts
            if where.startswith("src/chapters/02_heads.py cell") and "-0" in text and "339523" in text and "###" in text]
    assert {lang for lang, _ in cell} == set(LANGUAGES), cell
    return cell


def test_section_2_does_not_credit_w_o_with_the_sum_of_2():
    """read77 en-12 C1, in every language. §2.5 and its quiz said that after W_O output 1 is no longer a probability
    vector because it has a negative entry and sums to 2; but the concatenation before W_O already sums to H = 2 (one
    per head), so only the negative entry shows what W_O did. The heading, the text, the cell's comment and the quiz
    say that the sum of 2 was there before W_O, and none of them counts it among W_O's effects."""
    texts = list(source_texts())
    before = {"en": r"already add up to 2 before \$W_O\$", "zh": r"乘 \$W_O\$ 之前，它的四个坐标之和就已经是 2",
              "ru": r"равна 2 ещё до \$W_O\$"}
    cell = _hull_cell_of_section_2(texts)
    assert all(re.search(before[lang], text) for lang, text in cell), cell
    old = {"en": r"(longer|still) a probability vector|row sums 2|and sums to 2|each add up to 2",
           "zh": r"不再是概率向量|还是概率向量吗|行和为 2|各分量之和为 2",
           "ru": r"уже не вектор вероятностей|вектором вероятностей\?|суммы строк 2|сумма элементов равна 2|сумма четырёх координат каждого"}
    assert not [(where, lang, text) for where, lang, text, _ in texts
                if where.startswith(("src/chapters/02_heads.py", "src/quizzes/02_heads.py")) and re.search(old[lang], text)]
    question = [(lang, text) for where, lang, text, _ in texts
                if where.startswith("src/quizzes/02_heads.py") and ("2α − 1" in text or "W_O" in text and "[0, 1]" in text)]
    assert {lang for lang, _ in question} == set(LANGUAGES), question
    assert not [(lang, text) for lang, text in question if re.search(old[lang], text)], question
    comment = {"en": "the sums are 2, as in concat", "zh": "和仍为 2，与 concat 相同", "ru": "суммы равны 2, как в concat"}
    comments = [(lang, text) for where, lang, text, kind in texts
                if where.startswith("src/chapters/02_heads.py") and kind == "comment" and "W_O" in text and text.startswith(("after", "经过", "после"))]
    assert comments and all(comment[lang] in text for lang, text in comments), comments


def test_sections_1_and_2_give_the_reason_for_a_sum_of_1_and_the_terms_of_a_denominator():
    """read79 zh-12 C1 and C2. §2.5 drew "every head's output adds up to 1" from "every value coordinate is 0 or 1",
    which gives the bound [0, 1] but not the sum: [1, 1] and [0, 0] also have coordinates 0 or 1. The sum is 1 because
    every value vector of Example 1 (x1, W_V = I) is a one-hot code, and the text says so in every language. The
    Chinese §1.6 quiz said the wrong order's denominator held "one e² more" (多了 e²), which reads as 1 + e²; the
    English says it also holds e², and the witness has 2 + e²."""
    texts = list(source_texts())
    one_hot = {"en": r"every value vector is a one-hot code", "zh": r"每个值向量都是独热编码",
               "ru": r"каждое значение\s*—\s*унитарный код"}
    cell = _hull_cell_of_section_2(texts)
    assert all(re.search(one_hot[lang], text) for lang, text in cell), cell
    denominator = [(lang, text) for where, lang, text, _ in texts
                   if where.startswith("src/quizzes/01_allowed_set.py §1.6") and "e²" in text and text.startswith("1 ")]
    assert {lang for lang, _ in denominator} == set(LANGUAGES), denominator
    assert [text for lang, text in denominator if lang == "zh"] == ["1 是正确顺序给出的结果；错误顺序的分母里也有 e² 这一项。"]
    assert not [text for where, lang, text, _ in texts if lang == "zh" and "多了 e" in text]


def test_a_check_of_section_6_is_not_a_token_id_in_chinese():
    """编号 is a token's id (docs/glossary.md). §6 once also numbered its checks with it, so that its comment
    "两个不合规的输入：编号 6" (token id 6) read as check no. 6, the cache (read65 zh-68 C2). Every zh text whose
    English numbers a check ("no. 1", "nos. 2 and 3") says 检查 and never 编号; the token ids of §6 keep 编号."""
    from babel.messages.pofile import read_po
    page = " ".join((ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").split())
    assert ("* As a noun, 编号 is a token's id and nothing else. A numbered check of §6.1 (\"no. 1\") is 检查 1, never "
            "编号 1. A position index or an array's index is 下标,") in page   # read69 G L2, read74 G L3: one claim a sentence
    # read71 G C1: the rule once forbade the verb too, which the course uses (层从 0 开始编号)
    assert "The verb is fine: 层从 0 开始编号. (`tests/test_glossary.py`)" in page
    catalogues = [ROOT / "src" / "locales" / "zh" / "LC_MESSAGES" / f"{domain}.po"
                  for domain in ("chapters", "quizzes", "solutions")]
    checks, ids = [], []
    for path in [*catalogues, ROOT / "course_i18n" / "locales" / "zh" / "LC_MESSAGES" / "course.po"]:
        with open(path, "rb") as handle:
            for message in read_po(handle):
                english = message.id if isinstance(message.id, str) else message.id[0]
                chinese = message.string if isinstance(message.string, str) else message.string[0]
                if re.search(r"\b[Nn]os?\. \d", english):
                    checks.append((english, chinese))
                if message.context == "chapters/06_evidence" and re.search(r"\bid \d", english):
                    ids.append(chinese)
    assert len(checks) >= 15 and len(ids) >= 3, (len(checks), len(ids))
    wrong = [english for english, chinese in checks if "编号" in chinese or not re.search(r"检查 \d", chinese)]
    assert not wrong, "a check numbered as a token id, or not as 检查 N:\n" + "\n".join(wrong)
    assert all("编号" in chinese for chinese in ids), ids


INDEX_IN_ENGLISH = re.compile(r"\b(?:position|flat) (?:index|indices|numbering)\b")
INDEX_AS_ID = re.compile(r"位置编号|扁平编号|重新编号|写着“?编号")


def misused_index(english, chinese):
    """True when a zh text says 编号 (a token id) where its English names a position or flat index (下标)."""
    return bool(INDEX_IN_ENGLISH.search(english)) and ("下标" not in chinese or bool(INDEX_AS_ID.search(chinese)))


def test_a_position_or_flat_index_is_not_a_token_id_in_chinese():
    """编号 is a token's id; a position index or an array's flat index is 下标, as §3 writes it (docs/glossary.md).
    The test above only looked at texts whose English numbers a check, so §1 and §2 kept 位置编号 (§1.10 and its
    quiz) and 扁平编号 (§2.2 and its comment) (read70 zh-12 C1-C3). Every zh text whose English says "position
    index", "position numbering" or "flat index" says 下标, and no zh text of any section, quiz or solution writes
    位置编号, 扁平编号, 重新编号 or 写着编号 (read71 G C1 found §4.2's 位置编号 $i$ and exercise set 2's solution's
    “写着编号”的输入 once the test read past §2). The old wordings are the negative control."""
    from babel.messages.pofile import read_po
    assert "never 编号 1. A position index or an array's index is 下标" in " ".join(      # read74 G L3: its own sentence
        (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").split())
    assert misused_index("x[b, t, c] = flat index of (b, t, c)", "x[b, t, c] = (b, t, c) 的扁平编号")
    assert misused_index("The position numbering: BOS would no longer stand at position 0", "位置编号：BOS 不再位于位置 0")
    assert misused_index("added by position index, would have to be renumbered",
                         "§3 中按位置编号加上去的位置向量也要随之重新编号")
    assert not misused_index("x[b, t, c] = flat index of (b, t, c)", "x[b, t, c] = (b, t, c) 的扁平下标")
    assert INDEX_AS_ID.search("只依赖位置 $i$ 上的词元和位置编号 $i$ 本身") and INDEX_AS_ID.search("用“写着编号”的输入做检验")
    assert not INDEX_AS_ID.search("只依赖位置 $i$ 上的词元和位置 $i$ 本身；用每个元素都写着自己扁平下标的输入做检验")
    catalogues = [ROOT / "src" / "locales" / "zh" / "LC_MESSAGES" / f"{domain}.po"
                  for domain in ("chapters", "quizzes", "solutions")]
    indices, wrong = 0, []
    for path in [*catalogues, ROOT / "course_i18n" / "locales" / "zh" / "LC_MESSAGES" / "course.po"]:
        with open(path, "rb") as handle:
            for message in read_po(handle):
                english = message.id if isinstance(message.id, str) else message.id[0]
                chinese = message.string if isinstance(message.string, str) else message.string[0]
                indices += bool(INDEX_IN_ENGLISH.search(english))
                if misused_index(english, chinese) or INDEX_AS_ID.search(chinese):
                    wrong.append(english[:120])
    assert indices >= 5, indices
    assert not wrong, "a position or flat index written as a token id (编号):\n" + "\n".join(wrong)


def test_the_future_perturbation_test_keeps_its_full_name_in_chinese():
    """docs/glossary.md names the future-perturbation test 未来扰动检验. Where the English shortens it to "the
    perturbation test", the Chinese quizzes of §4, §6 and §7, a bullet of §3 and two texts of exercise set 7 once
    wrote 扰动检验 (read70 zh-7 L22). The row of docs/words.md catches the short form; the full term, with or without
    the negative control, and 扰动 on its own pass."""
    assert "| future-perturbation test | 未来扰动检验 |" in (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    found = violations([("demo", "zh", "在训练好的两层模型上，扰动检验的结果如何？", "markdown")])
    assert len(found) == 1 and "'扰动检验'" in found[0], found
    assert not violations([("demo", "zh", "带阴性对照的未来扰动检验；未来扰动检验报告泄漏；扰动必须改动每一个未来位置。",
                            "markdown")])


def test_a_check_of_a_section_is_not_called_an_exercises_test_in_chinese():
    """docs/glossary.md gives 测试 only to the test of an exercise. §7.4 once called its future-perturbation test
    "上面的测试" (read83 zh-7 C1), the check of the cells before it. The row of docs/words.md catches "the test
    above" written 测试; 检验, an exercise's 公开测试 / 隐藏测试, and 测试 as a verb pass."""
    assert "| test (of an exercise; `case` in code) | 测试 |" in (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    old = "两个块都关掉掩码时，上面的测试就在 logits 中发现了泄漏。"
    found = violations([("demo", "zh", old, "markdown")])
    assert len(found) == 1 and "'上面的测试'" in found[0], found
    assert not violations([("demo", "zh", "两个块都关掉掩码时，上面的未来扰动检验就在 logits 中发现了泄漏。上面的检验也是。"
                                          "这道题的隐藏测试用随机权重；NaN 和 inf 要另行测试。", "markdown")])


def test_enabled_positions_are_not_scored_positions_in_russian():
    """«учитывается» is a position the loss scores (docs/glossary.md, scored / unscored; §1.8). §3.6 once wrote «Если
    позиции учитываются, 春 в позиции 0 и 春 в позиции 1 получают разные строки P» for `use_positions=True` (read83
    ru-35 C1). The row of docs/words.md catches that; enabled positions, and §1.8's positions scored by the loss,
    pass."""
    found = violations([("demo", "ru", "Если позиции учитываются, 春 в позиции 0 и 春 в позиции 1 получают разные "
                                       "строки P.", "markdown")])
    assert len(found) == 1 and "'Если позиции учитываются'" in found[0], found
    assert not violations([("demo", "ru", "С включёнными позициями 春 в позиции 0 и 春 в позиции 1 получают разные "
                                          "строки P. Какие позиции учитываются, решают целевые метки: позиция "
                                          "учитывается, если её метка не равна −100. Если позиции учитываются в "
                                          "функции потерь, их выходы получают градиент.", "markdown")])


def test_every_token_gets_the_row_of_its_own_position_in_russian():
    """A token in position t gets P[t] (lib/positions.py; `step` puts a token in position len(cache), lib/model.py).
    The §5.3 quiz once wrote «К `<bos>`, как и к любому токену, прибавляется P[0]», which says every token gets P[0]
    (read83 ru-35 C2). The row of docs/words.md catches that; `<bos>`'s P[0] beside any token's own row, and §3's
    position 8 that wrapping sends to P[0], pass."""
    found = violations([("demo", "ru", "К `<bos>`, как и к любому токену, прибавляется P[0].", "markdown")])
    assert len(found) == 1 and "'любому токену, прибавляется P[0]'" in found[0], found
    assert not violations([("demo", "ru", "К `<bos>` прибавляется P[0]\u00a0— так же, как к любому токену "
                                          "прибавляется строка P его позиции. Две разные позиции делят одну строку: "
                                          "позиция 8 получает P[0], строку начала текста", "markdown")])


def test_a_forbidden_key_stays_in_the_softmax_in_every_language():
    """`masked_softmax` keeps a forbidden key in the sum with exp(−∞) = 0 (lib/attention.py). The rows of
    docs/words.md caught "does not enter the denominator", but the §5.9 quiz said "never enters the softmax" in all
    three languages (read72 zh-35 C1); the rows now catch the softmax too. What the code does passes."""
    found = violations([("demo", "en", "A future key never enters the softmax of the definition either.", "markdown"),
                        ("demo", "zh", "在定义里，未来的键同样不进入 softmax。", "markdown"),
                        ("demo", "ru", "В определении будущий ключ тоже не участвует в softmax.", "markdown")])
    assert len(found) == 3, found
    assert not violations([
        ("demo", "en", "The definition keeps a future key in the softmax's sum, but it adds exactly 0 there.",
         "markdown"),
        ("demo", "zh", "在定义里，未来的键仍留在 softmax 的求和中，只是给分母贡献的恰好是 0。", "markdown"),
        ("demo", "ru", "В определении будущий ключ остаётся в сумме softmax, но вносит в знаменатель ровно 0.",
         "markdown")])


def test_a_position_takes_v_and_a_list_of_decimals_takes_semicolons_in_russian():
    """docs/glossary.md says «в позиции t», never «на позиции t». Read71 ru-04 found «Поставим `<bos>` на последнюю
    позицию» in §4.5 and «на последней позиции» in its quiz; the row then found «на запрещённой позиции» in seven grading
    messages. The same review found the weights of Figure 0.1's alt text listed with commas, «0,015, 0,015, 0,485 и
    0,485», which the comma of the decimals makes hard to read. The old wordings are the negative control; «на» for a
    shift or a share, and a list with semicolons, pass."""
    caught = {"Поставим `<bos>` на последнюю позицию и заменим его на `风`": "на последнюю позици",
              "Почему замена `<bos>` на последней позиции на 风 даёт вырожденный вход?": "на последней позиции",
              "вес 1e-12 на запрещённой позиции (недопустимо)": "на запрещённой позиции",
              "случайные веса, на одной запрещённой позиции крошечный ненулевой вес": "на одной запрещённой позиции",
              "выход на позиции t": "на позиции",
              "Веса равны 0,015, 0,015, 0,485 и 0,485": "0,015, 0,0"}
    for text, wording in caught.items():
        found = violations([("read71", "ru", text, "markdown")])
        assert len(found) == 1 and f"'{wording}'" in found[0], (text, found)
    for text in ("Поставим `<bos>` в последнюю позицию; вес 1e-12 в запрещённой позиции (недопустимо)",
                 "сдвиг на одну позицию; по ключу и значению на каждую позицию; ключ на 3 позиции раньше запроса",
                 "модель, обученная на 8 позициях; Веса равны 0,015; 0,015; 0,485 и 0,485; скорость 0,01, 300 шагов"):
        assert violations([("read71", "ru", text, "markdown")]) == [], text


def test_the_negative_control_has_one_russian_wording():
    """docs/glossary.md gives §4's negative control as «с выключенной маской», but §4.4, §4.5, exercise set 4's
    solution and exercise set 7's dec-4 wrote «с отключённой маской», and §4.10 «отрицательного контроля без маски»
    (read76 G C1). Two rows of docs/words.md catch them: the first in every text, the second in §4's only."""
    old = [("src/chapters/04_causality.py cell 6", "С отключённой маской наибольшее изменение", "markdown"),
           ("src/chapters/04_causality.py cell 10", "тот же код с отключённой маской, тоже даёт 0", "markdown"),
           ("src/solutions/ex04_causality.py cell 6", "та же модель с отключённой маской", "comment"),
           ("src/solutions/ex07_decoder.py cell 21", "(та же модель с отключённой маской, `model.forward", "markdown"),
           ("src/chapters/04_causality.py cell 22", "отрицательного контроля без маски (`causal=False`)", "markdown")]
    found = violations([(where, "ru", text, kind) for where, text, kind in old])      # negative control
    assert len(found) == len(old) and all("с выключенной маской" in f for f in found), found
    # §6.1's table row and §7's check of the trained model are not §4's; the control's new wording passes everywhere
    assert not violations([("src/chapters/06_evidence.py", "ru", "выходы контроля без маски меняются",
                            "markdown"),
                           ("src/chapters/04_causality.py cell 22", "ru",
                            "отрицательного контроля с выключенной маской (`causal=False`)", "markdown")])
    glossary = " ".join((ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").split())
    assert "(关掉掩码, с выключенной маской)" in glossary
    for name in ("chapters", "solutions", "quizzes"):
        po = (ROOT / "src" / "locales" / "ru" / "LC_MESSAGES" / f"{name}.po").read_text(encoding="utf-8")
        assert not re.search(r"отключённ\w* маск|отрицательн\w* контрол\w* без маски", po), name


def test_section_4s_control_is_not_the_unmasked_model_in_russian():
    """docs/glossary.md reserves «модель без маски» for the unmasked model that §7.3 and §8.2 train; the Russian texts
    of §4 once wrote it for §4's negative control, the same model with the mask off: its quiz, the labels of exercise
    set 4 (causal-1, causal-3) and that set's solution (read74 G C1). The [§4] row of docs/words.md catches it in §4's
    texts only, and §7's and §8's unmasked model passes."""
    old = [("src/quizzes/04_causality.py §4 question 9", "Модель без маски читает будущее.", "markdown"),
           ("course_i18n/locales/ru/LC_MESSAGES/course.po [grading.exercise.causal-3.test.unmasked]",
            "модель без маски", "message"),
           ("course_i18n/locales/ru/LC_MESSAGES/course.po [grading.exercise.causal-1.test.unmasked-control]",
            "контрольная модель без маски", "message"),
           ("src/solutions/ex04_causality.py cell 40", "`control` — чистая модель без маски: контроль", "markdown")]
    found = violations([(where, "ru", text, kind) for where, text, kind in old])      # negative control
    assert len(found) == len(old) and all("модель с выключенной маской" in f for f in found), found
    assert not violations([("src/quizzes/07_decoder.py §7 question 5", "ru", "Что мешает модели без маски "
                                                                              "пользоваться KV-кэшем?", "markdown"),
                           ("src/chapters/08_real_text.py cell 20", "ru", "модель без маски", "markdown"),
                           ("course_i18n/locales/ru/LC_MESSAGES/course.po [grading.exercise.dec-4.test.x]", "ru",
                            "веса модели без маски, запуск с маской", "message")])
    assert in_section("src/chapters/04_causality.py cell 3", 4) and not in_section("src/chapters/07_decoder.py", 4)
    page = " ".join(WORDS.read_text(encoding="utf-8").split())
    assert ("* `[§4]`: only in §4's texts (its notebook, quiz and exercise set, and that set's interface texts)."
            in page)


def test_a_layer_of_the_model_is_a_block_and_the_rule_names_its_exceptions():
    """§7.1 once said 'in the prose of this course, a layer is always a block', beside its own 'output layer
    W_head' and 'layer normalisation', and Figure 7.1 called the MLP's two maps 'two layers' (read77 en C1). The rule
    now names its exceptions, and the rows of docs/words.md catch the figure's old words in all three languages."""
    chapter = (ROOT / "src" / "chapters" / "07_decoder.py").read_text(encoding="utf-8")
    assert "a layer is always a block" not in chapter and "more and wider layers" not in chapter
    assert ("In this course's prose, however, layer $\\ell$, or a layer of the model, always means a block; only the "
            "output layer $W_\\text{head}$ and layer normalisation keep their usual names.") in chapter
    old = [("tools/diagrams.py [decoder.mlp]", "en", "two layers with GELU between them, each row on its own"),
           ("tools/diagrams.py [decoder.mlp]", "zh", "两层网络，中间是 GELU，每一行单独计算"),
           ("tools/diagrams.py [decoder.mlp]", "ru", "два слоя с GELU между ними, каждая строка отдельно")]
    assert len(violations([(where, lang, text, "message") for where, lang, text in old])) == 3
    from tools import diagrams
    assert not violations([("tools/diagrams.py [decoder.mlp]", lang, diagrams.WORDS["decoder"]["mlp"][lang],
                            "message") for lang in diagrams.LANGUAGES])
