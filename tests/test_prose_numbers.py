"""Every number with three or more decimals that a section's prose states is one its code computes.

A sentence that quotes a measured value ("the error at the last position is 2.016") is a claim like an
assert: when the code changes, the words must follow. For each section (src/chapters/NN_*.py, English;
the other languages give the same numbers, tests/test_number_style.py) and for the appendix, every such
number in its Markdown and in the alt texts of its figures must match, at the precision the prose gives
it, a number its code asserts or its saved outputs print, or one of a section the same paragraph (or alt
text) cites (§8 quotes §7's bound). A match allows
half a unit in the last place of each side, since the prose and the assert may round to different
places (2.016 against an assert of 2.0155).
"""

import functools
import pathlib
import re

import nbformat
import pytest

from course_i18n import LANGUAGES
from tools import nbsource

ROOT = pathlib.Path(__file__).resolve().parent.parent
SECTIONS = sorted((ROOT / "src" / "chapters").glob("[0-9][0-9]_*.py"))
APPENDIX = ROOT / "src" / "chapters" / "appendix.py"
PAGES = SECTIONS + [APPENDIX]            # §0–§8 and the appendix, which has no § of its own
PROSE_NUMBER = re.compile(r"(?<![\w.,])(\d+\.\d{3,})(?!\d|\.\d)")
ANY_NUMBER = re.compile(r"(?<![\w.])(\d+\.\d+)(?:e-?\d+)?")
# numbers the prose gives that no cell computes, and why
CONSTANTS = {
    "0.707": "1/√2, the arithmetic of §2.3's scale argument",
    "0.044715": "GELU's constant in its tanh form (§7.1), as GPT-2 writes it",
}


@functools.lru_cache(maxsize=None)
def _cells(path):
    """(the English Markdown cells and figure alt texts, the code) of a section, as tools/nbsource.py reads the
    source (a cell taken from grading/references.py with reference_cell included)."""
    cells = nbsource.load(path, strict=False)
    alts = [c.lang_metadata["en"]["mystnb"]["image"]["alt"] for c in cells if "en" in c.lang_metadata]
    return ([c.text["en"] for c in cells if c.kind == "markdown"] + alts,
            "\n".join(c.text["en"] for c in cells if c.kind == "code"))


def _printed(number):
    """What the section's (or, for "appendix", the appendix's) saved English notebook prints."""
    notebook = ROOT / "chapters" / "en" / f"{SOURCES[number].stem}.ipynb"
    out = []
    for cell in nbformat.read(notebook, as_version=4).cells:
        for output in cell.get("outputs", []):
            out.append(output.get("text", ""))
            out.append(output.get("data", {}).get("text/plain", ""))
    return "\n".join(o if isinstance(o, str) else "".join(o) for o in out)


def _computed(number):
    _, code = _cells(SOURCES[number])
    return [m.group(0) for m in ANY_NUMBER.finditer(code + "\n" + _printed(number))]


SECTIONS_BY_NUMBER = {int(p.name[:2]): p for p in SECTIONS}
SOURCES = {**SECTIONS_BY_NUMBER, "appendix": APPENDIX}


def _matches(stated, candidates):
    places = len(stated.split(".")[1])
    for candidate in candidates:
        mantissa = candidate.split("e")[0]
        other = len(mantissa.split(".")[1]) if "." in mantissa else 0
        if abs(float(stated) - float(candidate)) <= 0.5 * 10 ** -places + 0.5 * 10 ** -other + 1e-12:
            return True
    return False


def _unmatched(path):
    number = int(path.name[:2]) if path in SECTIONS else path.stem
    paragraphs, _ = _cells(path)
    own = _computed(number)
    found = []
    for paragraph in paragraphs:
        cited = {int(n) for n in re.findall(r"§(\d+)", paragraph)} & set(SECTIONS_BY_NUMBER) - {number}
        for m in PROSE_NUMBER.finditer(paragraph):
            stated = m.group(1)
            if stated in CONSTANTS or _matches(stated, own):
                continue
            if any(_matches(stated, _computed(n)) for n in cited):
                continue
            found.append(stated)
    return found


@pytest.mark.parametrize("path", PAGES, ids=[p.stem for p in PAGES])
def test_every_number_the_prose_states_is_computed(path):
    unmatched = _unmatched(path)
    assert not unmatched, (f"{path.relative_to(ROOT)}: the prose states {unmatched}, which no cell of the section "
                           "(or of a section the paragraph cites) asserts or prints at that precision")


def test_the_check_reads_numbers_and_catches_a_stale_one():
    """The numbers are found (§7 states many), and one changed in the last place is caught."""
    paragraphs, _ = _cells(SECTIONS_BY_NUMBER[7])
    stated = [m.group(1) for p in paragraphs for m in PROSE_NUMBER.finditer(p)]
    assert len(stated) >= 10 and "2.016" in stated, stated
    # read78 R C1: the alt texts of the figures and the appendix are read as well
    assert any("falls below 0.001" in p for p in paragraphs) and "falls below 0.001" not in _markdown("en", "07_decoder")
    assert PAGES[-1] == APPENDIX and _computed("appendix") and not _unmatched(APPENDIX)
    own = _computed(7)
    assert _matches("2.016", own) and not _matches("2.018", own)
    assert _matches("0.7160", own) and not _matches("9.8765", own)
    assert not _matches("0.6969", _computed(8)) and _matches("0.6969", own)      # §8 quotes it from §7
    for constant in CONSTANTS:
        assert any(constant in p for path in SECTIONS for p in _cells(path)[0]), f"{constant}: no longer stated"


def test_section_8s_unk_share_is_the_share_of_characters_it_names():
    """§8 states the share of the held-out characters of the Chinese text that are <unk>, and its code asserts it
    (read64 en C2: the code once counted each line's <eos> as well, 7 % instead of the characters' 8 %). Counted here
    from the text alone: the held-out characters that no training line holds. The translations state the same
    percentages (tests/test_number_style.py)."""
    import lib
    lines = (pathlib.Path(lib.__file__).parent / "corpus" / "verse_zh.txt").read_text(encoding="utf-8").splitlines()
    seen = set("".join(line for n, line in enumerate(lines) if n % 8 != 7))
    held_out = "".join(lines[7::8])
    share = sum(c not in seen for c in held_out) / len(held_out)
    assert round(100 * share) == 8
    source = SECTIONS_BY_NUMBER[8].read_text(encoding="utf-8")
    assert "np.mean(scored[scored != EOS] == UNK)" in source and f"== [{round(share, 3)}, 0, 0.001]" in source
    cells = nbsource.load(SECTIONS_BY_NUMBER[8], strict=False)
    stated = re.findall(r"(?<![\d.,])(\d+) ?%", "\n".join(c.text["en"] for c in cells))
    assert stated == [str(round(100 * share))] * 3, stated                # item 3 of §8.1, its comment, §8.2


def test_section_8_says_of_the_corpus_readme_only_what_it_holds():
    """§8 opens by pointing at lib/corpus/README.md. The README says what each of the three files leaves out (the
    sonnets' numbers and titles; Onegin's missing stanzas and the lines with foreign words; four poems of the Chinese
    text) but names neither the four poems nor the lines: the page once said it "lists the poems, stanzas and lines
    each file leaves out" (read77 en C1), in all three languages."""
    import lib
    readme = (pathlib.Path(lib.__file__).parent / "corpus" / "README.md").read_text(encoding="utf-8")
    paragraphs = [p for p in readme.split("\n\n") if p.startswith("**`verse_")]
    assert len(paragraphs) == 3 and all("left out" in p for p in paragraphs), paragraphs
    opening = nbsource.load(SECTIONS_BY_NUMBER[8], strict=False)[0].text
    assert "its README gives their sources (all in the public domain) and says what each file leaves out. The three texts:" in opening["en"]
    assert "每个文件略去了哪些内容" in opening["zh"] and "названы их источники (все они\u00a0— общественное достояние) и сказано, что опущено в каждом файле. Вот эти три текста:" in opening["ru"]
    for lang, listed in (("en", "lists the"), ("zh", "列出"), ("ru", "перечисл")):
        assert listed not in opening[lang], lang


PRINTED_BOUND = re.compile(r"< 1e-0?(\d+)\b")


def _bounds_unsaid(path):
    """(cell id, bound) of every bound other than 10⁻⁶ that a code cell of the notebook at ``path`` prints ("< 1e-08",
    as error_claim writes it) and that the nearest Markdown cell before it does not state ($10^{-8}$)."""
    found, said = [], ""
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "markdown":
            said = cell.source
            continue
        printed = "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")
        found += [(cell.id, n) for n in sorted(set(PRINTED_BOUND.findall(printed)))
                  if n != "6" and f"10^{{-{n}}}" not in said]
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_tighter_bound_a_cell_prints_is_said_before_it(lang):
    """read64 en C2: §7.1 says every check prints only the claim that its error is below a bound, 10⁻⁶ unless a cell says
    otherwise, and §7.7's check of the embedding and the output layer printed two bare booleans for a bound of 10⁻⁸ that
    no text named. Every bound is printed as a claim (no print shows a comparison with one), and one other than 10⁻⁶ is
    stated in the Markdown just before the cell that prints it."""
    path = ROOT / "chapters" / lang / "07_decoder.ipynb"
    printed = "".join(o.get("text", "") for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"
                      for o in c.get("outputs", []))
    assert "< 1e-08" in printed, "§7.7 prints its tighter bound as a claim"
    assert not _bounds_unsaid(path)
    code = _cells(SECTIONS_BY_NUMBER[7])[1]
    assert not [line for line in code.splitlines() if line.lstrip().startswith("print(") and re.search(r"< ?1e-", line)]


def _opening(lang, name):
    """The first Markdown cell of the committed notebook chapters/<lang>/<name>.ipynb."""
    cells = nbformat.read(ROOT / "chapters" / lang / f"{name}.ipynb", as_version=4).cells
    return next(c.source for c in cells if c.cell_type == "markdown")


def test_section_3_opens_with_the_keys_a_query_may_read():
    """read65 ru C2: §3 opened by saying the causal mask tells each query which keys come *before* it, in all three
    languages, while `causal_allowed` lets a query read its own key as well (§1.3). The opening says "at or before"
    in each language, and the mask it describes allows the diagonal and nothing above it."""
    import numpy as np
    from lib.attention import causal_allowed
    allowed = causal_allowed(4, 4)
    assert allowed.diagonal().all() and allowed.sum() == 10 and not np.triu(allowed, 1).any()
    said = {"en": "which keys come at or before it", "zh": "可以读哪些键（位于它之前或与它同一位置的键）",
            "ru": "какие ключи стоят не позже него"}
    for lang, words in said.items():
        assert words in " ".join(_opening(lang, "03_positions").split()), lang


def test_section_5_calls_cached_layers_what_its_code_passes():
    """read65 ru C1: §5.5 called `cached_layers` a list (ru «из списка»); the cell passes it sets, {0, 1} and {0}, and
    tests membership. The prose of every language calls it a set, and every call passes a set literal."""
    paragraphs, code = _cells(SECTIONS_BY_NUMBER[5])
    passed = re.findall(r"cached_layers=([^)]*?\})", code)
    assert passed == ["{0, 1}", "{0}"], passed
    assert "if n in cached_layers:" in code
    said = {"en": "each layer in the set `cached_layers`", "zh": "集合 `cached_layers` 中的每一层",
            "ru": "каждый слой из множества `cached_layers`"}
    for lang, words in said.items():
        text = " ".join(c.source for c in nbformat.read(ROOT / "chapters" / lang / "05_cache.ipynb", as_version=4).cells
                        if c.cell_type == "markdown")
        assert words in " ".join(text.split()), lang
        assert not re.search(r"list(ed)? (in )?`cached_layers`|списк\w* `cached_layers`|列表 `cached_layers`", text), lang


def _markdown(lang, name):
    cells = nbformat.read(ROOT / "chapters" / lang / f"{name}.ipynb", as_version=4).cells
    return " ".join(" ".join(c.source.split()) for c in cells if c.cell_type == "markdown")


def _quiz_questions(name):
    """Every question of the quiz source ``src/quizzes/<name>.py``, its texts in every language."""
    from tools import quizzes
    return [q for s in quizzes.load(ROOT / "src" / "quizzes" / f"{name}.py") for q in s.questions]


def test_section_3_5_scores_rope_only_on_pairs_the_causal_mask_allows():
    """read69 en-35 C1: §3.5's RoPE demonstration scored query 0 against key 3 (a key after its query, which the
    causal mask forbids), and the quiz asked about the pairs (2, 5) and (0, 3). Every pair the cell scores has its key
    at or before its query, the cell asserts it, and the prose and the quiz name the pairs that way in every
    language."""
    _, code = _cells(SECTIONS_BY_NUMBER[3])
    assert "pairs = [(i + 3, i) for i in (0, 2, 100, 1000)]" in code
    assert "assert all(j <= i for i, j in pairs + [(5, 0)])" in code
    literal = re.findall(r"rope_score\((\d+), (\d+)\)", code)
    assert literal and all(int(j) <= int(i) for i, j in literal), literal
    for lang in LANGUAGES:
        text = _markdown(lang, "03_positions")
        for pair in ("(3, 0)", "(5, 2)", "(103, 100)", "(1003, 1000)"):
            assert pair in text, (lang, pair)
        for pair in ("(0, 3)", "(2, 5)", "(100, 103)", "(1000, 1003)"):
            assert pair not in text, (lang, pair)
    prompt = next(q.prompt for q in _quiz_questions("03_positions") if "RoPE example" in q.prompt["en"])
    said = {"en": "query 5 with key 2", "zh": "查询 5 与键 2", "ru": "запроса 5 с ключом 2"}
    for lang, words in said.items():
        assert words in prompt[lang] and "(2, 5)" not in prompt[lang], lang


def test_the_alibi_question_calls_rope_a_rotation_of_the_query_and_the_key():
    """read69 en-35 C2: a wrong option said "it rotates the query instead" and its explanation called that RoPE,
    while §3.5 and the quiz's own first RoPE question say RoPE rotates the query and the key."""
    question = next(q for q in _quiz_questions("03_positions") if "ALiBi add" in q.prompt["en"])
    option = next(choice for choice, _ in question.wrong if choice.claim == "a rotation")
    said = {"en": "the query and the key", "zh": "查询和键", "ru": "запрос и ключ"}
    for lang, words in said.items():
        assert words in option[lang], lang


def test_section_3_5_does_not_say_alibi_answers_with_a_vector():
    """read69 en-35 C3: §3.5 said all three other designs answer "which vector for position t?", then that ALiBi
    uses no position vectors. The opening now says each computes a vector, a rotation or a penalty, in every
    language, as the summary does."""
    said = {"en": "(a vector, a rotation or a penalty)", "zh": "（一个向量、一次旋转或一项惩罚）",
            "ru": "(вектор, поворот или штраф)"}
    asked = {"en": "which vector for position t", "zh": "位置 t 用哪个向量", "ru": "какой вектор у позиции t"}
    for lang in LANGUAGES:
        text = _markdown(lang, "03_positions")
        assert said[lang] in text and asked[lang] not in text, lang


def test_the_cache_quiz_calls_0_0_the_difference_rounded_to_12_decimals():
    """read79 en-35 C1: the §5 quiz said the token-by-token outputs differ from the full forward pass by "exactly
    0.0" on the §4.1 model, while §5.2 prints that difference rounded to 12 decimals and asserts only that it is
    below 1e-12 (on the question's own sequence it is about 2.2e-16, not 0). The explanation says "rounded" in
    every language, and the rounded value it gives is what the code computes."""
    import numpy as np
    from lib import checks
    from lib.data import BOS
    model, seq8 = checks.chapter_model(), np.array([BOS, 3, 4, 5, 3, 4, 5, 4])
    difference = float(np.abs(checks.incremental_forward(model, seq8) - model.forward(seq8)).max())
    assert difference < 1e-12 and round(difference, 12) == 0.0, difference
    question = next(q for q in _quiz_questions("05_cache")
                    if "does not change what the model computes" in q.prompt["en"])
    said = {"en": "rounded to 12 decimals, is 0.0", "zh": "四舍五入到小数点后 12 位是 0.0",
            "ru": "округлённое до 12 знаков после запятой, равно 0,0"}
    exact = {"en": "exactly", "zh": "恰好", "ru": "ровно"}
    for lang in LANGUAGES:
        assert said[lang] in question.why[lang] and exact[lang] not in question.why[lang], lang


def test_section_5_5_says_what_section_7_5_repeats():
    """read79 en-35 C2: §5.5 ended "§7 runs the same check on a trained multi-layer decoder", loosely: §7.5 runs
    both comparisons on the trained two-layer decoder, every layer cached over the whole line and layer 0 alone
    cached at the last position only. The sentence names §7.5, two layers and both comparisons in every language,
    and §7.5's code does what it says."""
    _, code7 = _cells(SECTIONS_BY_NUMBER[7])
    assert "n_layers=2, n_heads=2, head_width=8" in code7 and "len(cache) == 8 and cache_error < 1e-12" in code7
    assert "first_only_error = float(np.abs(first_only[-1] - full[-1]).max())" in code7
    said = {"en": "§7.5 repeats both comparisons on the trained two-layer decoder of §7: with a cache for every "
                  "layer, and with only layer 0 cached (the latter at the last position only).",
            "zh": "§7.5 在 §7 训练好的两层解码器上重做这两项比较：一次每一层都有缓存，一次只缓存第 0 层（后者只比较最后一个位置）。",
            "ru": "В §7.5 оба сравнения повторяются на обученном двухслойном декодере из §7: с кэшем у каждого слоя "
                  "и с кэшем только у слоя 0 (второе сравнение — лишь в последней позиции)."}
    loose = {"en": "§7 runs the same check", "zh": "§7 会在一个训练过的多层解码器", "ru": "В §7 та же проверка"}
    for lang in LANGUAGES:
        _says(lang, "05_cache", [said[lang]], loose[lang])


def test_section_2_7_splits_the_single_heads_weight_only_where_the_two_keys_differ():
    """read81 zh-12 C1: §2.7 said a single head looking for the previous token and `<bos>` gives each about 1/2, but at
    positions 0 and 1 those are one key, key 0, which takes all the weight (the cell prints row 1 as [1. 0. 0. 0.]),
    and the cell asserted the split only for t ≥ 2. The prose of every language limits the split to positions 2 and
    3, and the cell asserts both halves of what it says."""
    _, code = _cells(SECTIONS_BY_NUMBER[2])
    assert "assert (previous[:2] == 0).all() and (w1[:2, 0] > 0.999).all()" in code
    assert "np.allclose(w1[2:, 0], 0.5, atol=1e-3)" in code
    said = {"en": ("At positions 0 and 1 they are the same key, key 0, and it takes all the weight. At positions 2 and 3 "
                   "they are two different keys, so the head gives each about 1/2"),
            "zh": "在位置 0、1，两者是同一个键（键 0），全部权重都落在它上面；在位置 2、3，两者是不同的键，这个头只好各给约 1/2",
            "ru": ("В позициях 0 и 1 это один и тот же ключ, ключ 0, и он получает весь вес. В позициях 2 и 3 это два "
                   "разных ключа, поэтому голова даёт каждому примерно 1/2")}
    for lang, words in said.items():
        assert words in _markdown(lang, "02_heads"), lang


def test_section_5_7_gives_the_cache_s_layout_as_why_it_holds_one_sequence():
    """read81 en-35 C1: §5.7 and its quiz said "One number can be the offset of only one sequence", which is false
    (several unpadded sequences of one length could share an offset). This cache holds one sequence because
    lib.model.KVCache has no batch axis: its keys and values are (H, capacity, d). The text says so in every language,
    the class is built that way, and the old reason is gone."""
    source = (ROOT / "lib" / "model.py").read_text(encoding="utf-8")
    assert "self._keys = np.zeros((H, C, d), dtype=dtype)" in source
    assert "self._values = np.zeros((H, C, d), dtype=dtype)" in source
    # (what the section says, what the quiz's explanation says, the old reason) in each language
    texts = {"en": ("The cache has no batch axis (its keys and values have the shape $(H, n, d)$ of §5.1), so it "
                    "holds one sequence.", "have no batch axis", "offset of only one sequence"),
             "zh": ("这个缓存没有批量轴（它的键和值形状是 §5.1 里的 $(H, n, d)$），所以只存一条序列。", "没有批量轴",
                    "一个数只能充当一条序列的偏移量"),
             "ru": ("Оси батча у кэша нет (его ключи и значения имеют форму $(H, n, d)$ из §5.1), поэтому он хранит "
                    "одну последовательность.", "нет оси батча", "смещением только одной последовательности")}
    question = next(q for q in _quiz_questions("05_cache") if q.prompt["en"] == "What is the cache's only offset?")
    for lang, (said, why, wrong) in texts.items():
        _says(lang, "05_cache", [said], wrong)
        assert why in question.why[lang], lang


def test_section_5_8_tells_the_guarantee_from_the_measured_margins():
    """read81 en-35 C2: §5.8 said the cell "checks only what the method guarantees" of a time ratio of at least 10,
    a measured margin (a busy computer measured the cache slower than the full pass at T = 8). The text names the one
    assert the method guarantees (the outputs agree) and the two margins, as the cell asserts them, and allows the
    cached step to be the slower one at the shortest prefixes."""
    _, code = _cells(SECTIONS_BY_NUMBER[5])
    assert "- big.forward(stream[:last + 1])[-1]).max() < 1e-12" in code
    assert "assert ratios[-1] >= 10 and ratios[-1] > ratios[0]" in code
    said = {"en": ("The cell asserts one thing the method guarantees: the cache's output agrees with the full forward "
                   "pass. Its two other asserts are measured margins, not guarantees:",
                   "the cached step may even be the slower one"),
            "zh": ("单元格断言的内容中，只有一条是方法本身能保证的：缓存给出的输出与完整前向传播一致。另外两条断言是实测的余量，并非保证：",
                   "带缓存的一步甚至可能更慢"),
            "ru": ("Из проверок ячейки только одна гарантирована самим методом: выход с кэшем совпадает с полным прямым "
                   "проходом. Две другие\u00a0— измеренные запасы, а не гарантии:",
                   "шаг с кэшем может оказаться даже медленнее")}
    wrong = {"en": "checks only what the method guarantees", "zh": "单元格只检查方法本身能保证的东西",
             "ru": "Ячейка проверяет только то, что гарантирует сам метод"}
    for lang in LANGUAGES:
        _says(lang, "05_cache", said[lang], wrong[lang])


def _says(lang, name, said, wrong):
    """The Markdown of chapters/<lang>/<name>.ipynb holds every text of ``said`` and not ``wrong``."""
    text = _markdown(lang, name)
    assert all(" ".join(s.split()) in text for s in said) and wrong not in text, lang
