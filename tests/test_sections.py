"""§N.M in feedback (grading/sections.py): every section a diagnosis, a test label or a message can
print exists in the chapter under the anchor the site gives it, and check() and the feedback pages
link it to the course site in the notebook's language."""

import pathlib
import re
import sys
import types

import nbformat
import pytest
import yaml

from grading import diagnoses, feedback, messages, sections
from grading.batch import report
from grading.exercises import EXERCISES, check
from grading.registry import LANGUAGES

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "site"))
import course_site  # noqa: E402  (the site's own anchor scheme: SectionAnchors names sections with it)

SITE = "https://course.example.org/book"


def test_chapter_pages_are_the_chapters_of_the_table_of_contents():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [toc["root"]] + [c["file"] for part in toc["parts"] if part.get("folder") == "chapters"
                             for c in part["chapters"] if c["file"][len("chapters/"):][:2].isdigit()]  # not the appendix
    assert [f"chapters/{page}" for page in sections.CHAPTER_PAGES.values()] == files
    assert all(page.startswith(f"{int(n):02d}_") for n, page in sections.CHAPTER_PAGES.items())


def _anchors(lang, page):
    """The ids the site gives the sections of a chapter: section_anchor of every heading (site/course_site.py)."""
    nb = nbformat.read(ROOT / "chapters" / lang / f"{page}.ipynb", as_version=4)
    found = set()
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        in_code = False
        for line in cell.source.splitlines():
            if line.lstrip().startswith("```"):
                in_code = not in_code
            heading = re.match(r"#{1,6}\s+(.*)", line)
            if heading and not in_code:
                anchor = course_site.section_anchor(heading.group(1))
                if anchor:
                    found.add(anchor)
    return found


def _printable_texts(lang):
    """Every text with a § that check() or the grader can print in ``lang``."""
    for mistakes in diagnoses.MISTAKES.values():
        for mistake in mistakes:
            yield mistake.id, diagnoses.explain_mistake(mistake, lang)
    for key, mistake in diagnoses.GENERIC.items():
        yield key, diagnoses.explain_mistake(mistake, lang)
    for exercise in EXERCISES.values():
        for case in exercise.public_cases():
            yield f"{exercise.id}/{case.name}", exercise.label_of(case, lang)
        for kind, spec in exercise.hidden_kinds.items():
            yield f"{exercise.id}/hidden:{kind}", str(spec.label.get(lang, ""))
    for table in (messages.MESSAGES, feedback.MESSAGES):
        for key, texts in table.items():
            if isinstance(texts, dict) and isinstance(texts.get(lang), str):
                yield key, texts[lang]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_section_feedback_names_exists_in_the_chapter(lang):
    named, missing = 0, []
    anchors = {}
    for where, text in _printable_texts(lang):
        for m in sections.SECTION_REF.finditer(text):
            named += 1
            page = sections.CHAPTER_PAGES.get(m.group(1))
            if page is None or not (ROOT / "chapters" / lang / f"{page}.ipynb").exists():
                missing.append(f"{where}: {m.group(0)} (no chapter)")
                continue
            href = sections.section_href(m.group(1), m.group(2), lang, SITE)
            assert href.startswith(f"{SITE}/{lang}/chapters/{page}.html")
            if m.group(2) is None:
                continue
            if page not in anchors:
                anchors[page] = _anchors(lang, page)
            if href.split("#", 1)[1] not in anchors[page]:
                missing.append(f"{where}: {m.group(0)} (no heading {m.group(0)} in chapters/{lang}/{page}.ipynb)")
    assert named >= 50, f"only {named} § references found: the texts were not all read"
    assert not missing, "\n".join(missing)


def test_links_keep_the_text_and_escape_it():
    text = 'a <b> & "§1.6", §5 and §9.1'
    linked = sections.link_sections(text, "ru", SITE)
    assert (f'<a href="{SITE}/ru/chapters/01_allowed_set.html#sec-1-6">§1.6</a>' in linked
            and f'<a href="{SITE}/ru/chapters/05_cache.html">§5</a>' in linked)
    assert "&lt;b&gt; &amp; &quot;" in linked and "§9.1" in linked and "sec-9-1" not in linked   # no §9: no link
    assert re.sub(r"<[^>]+>", "", linked).replace("&lt;", "<").replace("&gt;", ">").replace(
        "&quot;", '"').replace("&amp;", "&") == text
    # without a site: the chapter notebook beside an exercise notebook, or no link at all
    assert sections.link_sections("§1.6", "zh", "", from_notebook=True) == \
        '<a href="../../chapters/zh/01_allowed_set.ipynb">§1.6</a>'
    assert sections.link_sections("§1.6", "zh", "") == "§1.6"


def test_the_site_address_comes_from_the_environment_or_the_config(monkeypatch, tmp_path):
    config = tmp_path / "_config.yml"
    config.write_text('title: x\ncourse_site_url: "https://a.example/b/"   # the site\n', encoding="utf-8")
    monkeypatch.delenv("COURSE_SITE_URL", raising=False)
    assert sections.site_url(config) == "https://a.example/b"
    assert sections.site_url(tmp_path / "none.yml") == ""
    monkeypatch.setenv("COURSE_SITE_URL", "https://c.example")
    assert sections.site_url(config) == "https://c.example"
    monkeypatch.setenv("COURSE_SITE_URL", "javascript:alert(1)")
    with pytest.raises(ValueError, match="not a plain http"):
        sections.site_url(config)
    monkeypatch.delenv("COURSE_SITE_URL")
    shipped = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert sections.site_url() == shipped["course_site_url"].rstrip("/")      # the regex reads what YAML reads


def _softmax_before_mask(scores, allowed):
    import numpy as np
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return np.where(allowed, e / e.sum(axis=-1, keepdims=True), 0.0)


def test_check_shows_linked_sections_in_a_notebook_and_plain_text_elsewhere(monkeypatch, capsys):
    monkeypatch.setenv("COURSE_SITE_URL", SITE)
    check("mask-2", _softmax_before_mask, lang="ru")
    plain = capsys.readouterr().out
    assert "§1.6" in plain and "<a" not in plain
    shown = []
    fake = types.ModuleType("IPython")
    fake.get_ipython = lambda: types.SimpleNamespace(display_pub=object())
    display = types.ModuleType("IPython.display")
    display.display = lambda data, raw: shown.append(data)
    monkeypatch.setitem(sys.modules, "IPython", fake)
    monkeypatch.setitem(sys.modules, "IPython.display", display)
    check("mask-2", _softmax_before_mask, lang="ru")
    assert capsys.readouterr().out == ""
    [data] = shown
    assert data["text/plain"] == plain.rstrip("\n")
    assert f'<a href="{SITE}/ru/chapters/01_allowed_set.html#sec-1-6">§1.6</a>' in data["text/html"]


def test_feedback_pages_link_the_sections_in_the_students_language():
    from test_grading_units import sample_report
    r = sample_report()
    said = diagnoses.explain_mistake(diagnoses.mistake_by_id("mask-2/softmax-before-mask"), "ru")
    r["rows"][1]["feedback"].append({"test": "", "hidden": False, "text": said, "line": said,
                                     "diagnosis": "mask-2/softmax-before-mask"})
    page = report.feedback_html(r, r["summary"][0], SITE)
    assert f'<a href="{SITE}/ru/chapters/01_allowed_set.html#sec-1-6">§1.6</a>' in page
    markdown = report.feedback_markdown(r, r["summary"][0], SITE)
    assert f"[§1.6]({SITE}/ru/chapters/01_allowed_set.html#sec-1-6)" in markdown
    unlinked = report.feedback_html(r, r["summary"][0], "")                # no site known: the text alone
    assert "chapters/" not in unlinked and "См. §1.6." in unlinked


def test_evidence_1_diagnoses_point_where_the_slip_is_taught():
    """§6.1 is a table of checks (read8): scaling is taught in §2.3, W_O in §2.4, the plain-Python layer
    with its causal argument in §6.2."""
    said = {m.id.split("/")[1]: m.section for m in diagnoses.MISTAKES["evidence-1"]}
    assert {k: said[k] for k in ("no-scale", "scale-by-D", "no-w-o", "ignores-causal")} == {
        "no-scale": "2.3", "scale-by-D": "2.3", "no-w-o": "2.4", "ignores-causal": "6.2"}


def test_the_hints_of_read12_point_to_a_section_that_teaches_their_point():
    """read12: nine generic hints sent the learner to §0.6, which then taught none of their points, the mask-3
    hints to §1.1 (no atol, and np.allclose in its code), the no-max hints to §1.5 (no word on overflow).
    §0.6 now lists lib's conventions, §1.1 says what mask-3 asks beyond its np.allclose, §1.5 why the max
    is subtracted, and a zero weight on an allowed key is §1.10's."""
    chapters = ROOT / "src" / "chapters"
    start, allowed = (chapters / "00_start.py").read_text(), (chapters / "01_allowed_set.py").read_text()
    section = lambda text, n: text.split(f"## {n} ", 1)[1].split("\n## ", 1)[0]
    conventions = section(start, "0.6")
    for point in ("float32 in, float32 out", "never changed", "refused at the start", "counted from the end",
                  "when there are several results, their order"):
        assert point in conventions, point
    assert "`atol`" in section(allowed, "1.1") and "np.allclose" in section(allowed, "1.1")
    assert "overflow" in section(allowed, "1.5")
    said = {m.id: m.section for ms in diagnoses.MISTAKES.values() for m in ms}
    said.update({m.id: m.section for m in diagnoses.GENERIC.values()})
    assert {i for i, s in said.items() if s == "0.6"} == {
        "*/dtype-promoted", "*/argument-changed", "*/right-values-other-type", "*/other-kind-of-result",
        "*/not-refused", "*/one-rank-only", "*/results-swapped", "*/unit-axis"}
    assert said["*/constant-factor"] == "2.3" and said["mask-3/positive-on-allowed"] == "1.10"
    assert {said[f"{e}/no-max"] for e in ("mask-2", "cache-2", "evidence-1")} == {"1.5"}
    assert {said[f"mask-3/{k}"] for k in ("allclose", "exact-sum", "strict-tolerance")} == {"1.1"}


def test_code_in_a_diagnosis_can_be_copied_and_check_prints_it_without_marks(capsys):
    """A `code` span of a diagnosis, in every language, is Python a learner can copy: ASCII minus signs,
    never U+2212 (read8: np.argmax(targets[b] == −100) was a SyntaxError); check() prints plain text, so the
    marks are dropped there (a page sets the span as code)."""
    for mistakes in [*diagnoses.MISTAKES.values(), list(diagnoses.GENERIC.values())]:
        for m in mistakes:
            for lang in LANGUAGES:
                for span in re.findall(r"`([^`]+)`", m.text[lang]):
                    assert "\u2212" not in span, (m.id, lang, span)
    assert "`np.argmax(targets[b] == -100)`" in diagnoses.mistake_by_id("cache-1/unpadded-row").text["en"]

    def strict(tq, tk):                         # the mask-1 slip: a `<` where `≤` belongs
        import numpy as np
        return np.arange(tk)[None, :] < np.arange(tk - tq, tk)[:, None]
    for lang in LANGUAGES:
        check("mask-1", strict, lang=lang)
        out = capsys.readouterr().out
        assert "§1.7" in out and "`" not in out, out


def test_the_empty_row_hint_claims_no_symptom_the_learners_function_lacks(capsys):
    """read9: mask-2/empty-row-unchecked said "gives nan", and check() showed it first for a zero fill
    without the empty-row check, whose empty row comes back as equal weights, not nan. The hint now says
    what is true of every function it is shown for: the row is not refused."""
    import numpy as np

    def zero_fill_unchecked(scores, allowed):
        s = np.where(allowed, scores, 0.0)
        s = s - s.max(-1, keepdims=True)
        e = np.exp(s)
        return e / e.sum(-1, keepdims=True)
    empty_row = zero_fill_unchecked(np.array([[1.0, 2.0]]), np.array([[False, False]]))
    assert np.isfinite(empty_row).all()                     # no nan: a hint must not claim one
    check("mask-2", zero_fill_unchecked, lang="en")
    out = capsys.readouterr().out
    assert "is not refused" in out and "nan" not in out.lower(), out
    for lang in LANGUAGES:
        assert "nan" not in diagnoses.mistake_by_id("mask-2/empty-row-unchecked").text[lang].lower()
