"""The site's build configuration, without building anything (fast, no browser).

tools/build_site.py derives one Jupyter Book config and toc per language from
the top-level _config.yml and _toc.yml; site/course_site.py computes the
language switcher and launch links. These tests pin what the three sites must
get from that one source.
"""

from __future__ import annotations

import base64
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "site"))
from tools import build_site  # noqa: E402

import course_site  # noqa: E402
from course_i18n import LANGUAGE_TABLE, LANGUAGES, SOURCE_LANGUAGE  # noqa: E402

BASE = build_site.load_yaml(ROOT / "_config.yml")
TOC = build_site.load_yaml(ROOT / "_toc.yml")
EXPECTED = {lang.code: (lang.locale, lang.html_lang) for lang in LANGUAGE_TABLE}


def _derive(lang, base=BASE):
    docs = {code: sorted(build_site.existing_docs(code)) for code in EXPECTED}
    roots = {code: TOC["root"] for code in EXPECTED}
    return build_site.derive_config(base, lang, docs, roots, build_site.STAGE / lang)


def test_three_languages_from_one_config():
    langs = build_site.site_languages(BASE)
    assert [s["code"] for s in langs] == list(LANGUAGES)        # _config.yml follows course_i18n
    for spec in langs:
        assert (spec["sphinx_language"], spec["html_lang"]) == EXPECTED[spec["code"]]
        assert spec["title"] and spec["label"]
    assert len({s["title"] for s in langs}) == len(LANGUAGES)


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_derived_config(lang):
    cfg = _derive(lang)
    sc = cfg["sphinx"]["config"]
    assert "languages" not in cfg
    assert cfg["sphinx"]["recursive_update"] is True
    assert sc["language"] == EXPECTED[lang][0]
    assert cfg["title"] == next(s["title"] for s in build_site.site_languages(BASE) if s["code"] == lang)
    assert cfg["execute"]["execute_notebooks"] == "off"
    # Nothing from a CDN: MathJax and the widget manager are served from _static/vendor.
    assert "://" not in sc["mathjax_path"] and sc["mathjax_path"].startswith("vendor/mathjax/")
    assert sc["nb_ipywidgets_js"] and not any("://" in key for key in sc["nb_ipywidgets_js"])
    assert not any("://" in str(v) for opts in sc["nb_ipywidgets_js"].values() for v in opts.values())
    assert "sphinx_thebe" not in sc["extensions"] and "course_site" in sc["extensions"]
    theme = sc["html_theme_options"]
    assert theme["article_header_end"][0] == "lang-switcher"
    assert theme["use_download_button"] is True
    assert theme["launch_buttons"] == {}          # ours, with repository paths, replace the theme's
    if lang != "en":
        assert theme["search_bar_text"] != "Search this book..."
    assert sc["course_lang"] == lang
    assert [item["code"] for item in sc["course_languages"]] == list(LANGUAGES)
    # course.js gets its words, in the page's language, from the catalogues (it holds none of its own)
    [(script, attributes)] = sc["html_js_files"]
    assert script == "course.js" and set(attributes) == {"data-course-texts"}
    words = json.loads(attributes["data-course-texts"])
    assert words == {name: text[lang] for name, text in build_site.SCRIPT_WORDS.items()}
    assert set(words) == {"close", "scroll_hint", "check_title"} and all(words.values())
    if lang != SOURCE_LANGUAGE:
        assert all(words[name] != text.english for name, text in build_site.SCRIPT_WORDS.items()), words


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_the_search_index_carries_the_search_pages_words(lang, tmp_path):
    """course-search.js gets its words from the index, in the index's language, from the catalogues (all
    of them: Sphinx's own "Search Results" and no-match sentence, which spoke of categories, are not used)."""
    from tools import search_index
    (tmp_path / "empty.html").write_text("<html><body><article class='bd-article'></article></body></html>",
                                         encoding="utf8")
    terms = tmp_path / "terms.yml"
    terms.write_text("[]\n", encoding="utf8")
    index = search_index.build(tmp_path, lang, [], terms)
    assert index["texts"] == {name: text[lang] for name, text in search_index.WORDS.items()}
    assert set(index["texts"]) == {"heading", "found", "none"} and "{n}" in index["texts"]["found"]
    if lang != SOURCE_LANGUAGE:
        assert all(index["texts"][name] != text.english for name, text in search_index.WORDS.items())


def test_launch_buttons_follow_the_repository_url():
    assert _derive("en")["sphinx"]["config"]["course_launch"]["binderhub_url"] == (
        BASE["launch_buttons"]["binderhub_url"] if BASE["repository"]["url"] else "")
    base = json.loads(json.dumps(BASE))
    base["repository"]["url"] = "https://github.com/example/course"
    cfg = _derive("ru", base)
    launch = cfg["sphinx"]["config"]["course_launch"]
    assert launch["repo_url"] == "https://github.com/example/course"
    # the theme's repository button never shows: ours (course_site.add_source_buttons) replace it
    assert cfg["html"]["use_repository_button"] is False and launch["source_buttons"] is True
    links = course_site.launch_links(launch, "chapters/02_heads", "ru")
    assert links[0] == {"name": "binder", "url": "https://mybinder.org/v2/gh/example/course/main"
                        "?urlpath=lab/tree/chapters/ru/02_heads.ipynb"}
    assert links[1] == {"name": "jupyterlab", "url": "http://localhost:8888/lab/tree/chapters/ru/02_heads.ipynb"}
    base["repository"]["url"] = ""
    cfg = _derive("ru", base)
    launch = cfg["sphinx"]["config"]["course_launch"]
    assert cfg["html"]["use_repository_button"] is False and launch["source_buttons"] is False
    assert course_site.launch_links(launch, "chapters/02_heads", "ru") == []
    assert course_site.source_links(launch, "chapters/02_heads", "ru") == []


def test_source_links_name_the_notebook_and_the_file_it_is_generated_from():
    launch = {"repo_url": "https://github.com/example/course/", "branch": "main", "source_buttons": True}
    assert course_site.source_links(launch, "exercises/ex02_heads", "zh") == [
        {"name": "repository", "url": "https://github.com/example/course", "path": ""},
        {"name": "notebook", "url": "https://github.com/example/course/blob/main/exercises/zh/ex02_heads.ipynb",
         "path": "exercises/zh/ex02_heads.ipynb"},
        {"name": "source", "url": "https://github.com/example/course/blob/main/src/solutions/ex02_heads.py",
         "path": "src/solutions/ex02_heads.py"}]          # an exercise comes from its solved source
    assert course_site.source_links(launch, "search", "zh", notebook=False) == [
        {"name": "repository", "url": "https://github.com/example/course", "path": ""}]
    gitlab = {"repo_url": "https://gitlab.com/g/c.git", "branch": "dev"}
    assert course_site.source_links(gitlab, "chapters/02_heads", "ru")[2]["url"] == \
        "https://gitlab.com/g/c/-/blob/dev/src/chapters/02_heads.py"
    other = {"repo_url": "https://git.example/c"}                 # no known file URLs: the repository only
    assert [link["name"] for link in course_site.source_links(other, "chapters/02_heads", "en")] == ["repository"]
    assert course_site.source_links(dict(launch, source_buttons=False), "chapters/02_heads", "en") == []
    for pagename in build_site.existing_docs("en"):
        assert (ROOT / course_site.source_path(pagename)).is_file(), pagename


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_exercise_pages_source_entry_says_the_file_holds_the_solutions(lang):
    """On an exercise page the source menu's Source entry opens src/solutions/exNN_*.py (source_path), the solved
    file: its tooltip is the catalogue's own entry for exercise pages, which says so; a chapter's and a solutions
    page's Source entry keep the general tooltip."""
    from course_i18n.catalogue import catalogue

    class App:
        class config:
            course_lang = lang
            course_launch = {"repo_url": "https://github.com/example/course", "branch": "main", "source_buttons": True}

        class env:
            metadata = {}

    def source_entry(pagename):
        context = {"page_source_suffix": ".ipynb"}
        course_site.add_source_buttons(App, pagename, "page.html", context, None)
        [group] = context["header_buttons"]
        [entry] = [b for b in group["buttons"] if b["label"] == "source-source-button"]
        return entry

    exercise = source_entry("exercises/ex02_heads")
    assert exercise["url"].endswith("/src/solutions/ex02_heads.py")
    assert exercise["tooltip"] == course_site.SOURCE["source_tooltip_exercise"][lang]
    if lang != SOURCE_LANGUAGE:     # the text is the catalogue's translation, not the English
        assert exercise["tooltip"] == catalogue(lang)[("site.source.source_tooltip_exercise",
                                                       course_site.SOURCE["source_tooltip_exercise"].english)]
    assert {"en": "answers", "zh": "答案", "ru": "ответы"}[lang] in exercise["tooltip"]
    for pagename in ("chapters/02_heads", "solutions/ex02_heads"):
        entry = source_entry(pagename)
        assert entry["tooltip"] == course_site.SOURCE["source_tooltip"][lang] != exercise["tooltip"], pagename

@pytest.mark.parametrize("lang", LANGUAGES)
def test_footer_names_the_version_and_both_licences_in_the_page_language(lang):
    from grading.version import package_version
    sc = _derive(lang)["sphinx"]["config"]
    assert sc["course_version"] == package_version()
    assert "course-footer.html" in sc["html_theme_options"]["footer_content_items"]
    line = str(course_site.footer({"repo_url": ""}, "1.2.3", lang))
    assert course_site.FOOTER["version"][lang].format(version="1.2.3") in line
    assert f'<a href="{course_site.MIT_URL}">{course_site.FOOTER["mit"][lang]}</a>' in line
    assert f'<a href="{course_site.FOOTER["cc_url"][lang]}"><span lang="en">CC BY-SA 4.0</span></a>' in line
    assert "LICENSE" not in line                                   # no repository: no link into it
    deed = {"zh": "deed.zh-hans", "en": "deed.en", "ru": "deed.ru"}[lang]
    assert course_site.FOOTER["cc_url"][lang].endswith(deed)
    with_repo = str(course_site.footer({"repo_url": "https://github.com/example/course", "branch": "main"},
                                       "1.2.3", lang))
    assert '<a href="https://github.com/example/course/blob/main/LICENSE">' in with_repo


def test_launch_links_for_other_hosts():
    launch = {"repo_url": "https://gitlab.com/g/c.git", "branch": "dev", "binderhub_url": "https://b.example/"}
    assert course_site.launch_links(launch, "solutions/ex01_allowed_set", "zh") == [
        {"name": "binder", "url": "https://b.example/v2/gl/g%2Fc/dev?urlpath=lab/tree/solutions/zh/ex01_allowed_set.ipynb"}]
    launch = {"repo_url": "https://git.example/c", "binderhub_url": "https://b.example"}
    url = course_site.launch_links(launch, "exercises/ex02_heads", "en")[0]["url"]
    assert url.startswith("https://b.example/v2/git/https%3A%2F%2Fgit.example%2Fc/main?")
    assert course_site.repo_path("chapters/02_heads", "en") == "chapters/en/02_heads.ipynb"


def test_toc_keeps_order_drops_missing_appends_new():
    existing = {"chapters/00_start", "chapters/02_heads", "chapters/01_allowed_set",
                "chapters/07_extra", "exercises/ex02_heads", "solutions/ex02_heads", "misc/notes"}
    toc, order, notes = build_site.derive_toc(TOC, "en", existing)
    assert toc["root"] == "chapters/00_start"
    assert order == ["chapters/00_start", "chapters/01_allowed_set", "chapters/02_heads",
                     "chapters/07_extra", "exercises/ex02_heads", "solutions/ex02_heads", "misc/notes"]
    assert [p["caption"] for p in toc["parts"]][:3] == ["Sections", "Exercises", "Solutions"]
    assert any("07_extra" in n for n in notes) and any("03_positions" in n for n in notes)
    zh, _, _ = build_site.derive_toc(TOC, "zh", existing)
    assert [p["caption"] for p in zh["parts"]][:3] == ["本课程各节", "练习", "参考解答"]


def test_toc_root_falls_back_and_empty_fails():
    toc, order, notes = build_site.derive_toc(TOC, "en", {"chapters/02_heads"})
    assert toc["root"] == "chapters/02_heads" and order == ["chapters/02_heads"] and toc["parts"] == []
    with pytest.raises(SystemExit):
        build_site.derive_toc(TOC, "en", set())


def test_every_part_of_the_toc_is_translated():
    for part in TOC["parts"]:
        assert set(part["caption"]) == set(EXPECTED), part["caption"]
        assert part["folder"] in build_site.KINDS
        assert all(entry["file"].startswith(part["folder"] + "/") for entry in part["chapters"])


def test_switcher_links_to_counterparts():
    class App:
        class config:
            course_lang = "zh"
            course_languages = [{"code": c, "label": c, "html_lang": h} for c, (_, h) in EXPECTED.items()]
            course_docs = {"zh": ["chapters/00_start", "chapters/02_heads"],
                           "en": ["chapters/00_start", "chapters/02_heads"],
                           "ru": ["chapters/00_start"]}
            course_roots = {"zh": "chapters/00_start", "en": "chapters/00_start", "ru": "chapters/00_start"}
    items = {i["code"]: i for i in course_site.switcher(App, "chapters/02_heads")}
    assert items["zh"]["current"] and not items["en"]["current"]
    assert items["en"]["href"] == "../../en/chapters/02_heads.html" and items["en"]["exists"]
    assert items["ru"]["href"] == "../../ru/chapters/00_start.html" and not items["ru"]["exists"]
    assert {i["code"]: i["href"] for i in course_site.switcher(App, "search")}["ru"] == "../ru/search.html"


def test_vendored_packages_are_pinned():
    spec = json.loads((ROOT / "site" / "vendor.json").read_text(encoding="utf8"))
    names = {p["name"] for p in spec["packages"]}
    assert {"mathjax", "@jupyter-widgets/html-manager", "requirejs"} <= names
    for pkg in spec["packages"]:
        assert re.fullmatch(r"\d+\.\d+\.\d+", pkg["version"]), pkg
        assert pkg["integrity"].startswith("sha512-")
        assert len(base64.b64decode(pkg["integrity"][7:])) == 64
        assert pkg["files"]


def test_vendor_file_patterns():
    files = ["es5/tex-mml-chtml.js", "es5/ui/", "dist/*.woff2"]
    assert build_site._wanted("es5/tex-mml-chtml.js", files)
    assert build_site._wanted("es5/ui/menu.js", files)
    assert build_site._wanted("dist/abc.woff2", files)
    assert not build_site._wanted("dist/sub/abc.woff2", files)
    assert not build_site._wanted("es5/tex-chtml.js", files)


def test_every_translation_catalog_compiles(tmp_path):
    for lang in (lang.locale for lang in LANGUAGE_TABLE if lang.code != SOURCE_LANGUAGE):
        build_site.compile_catalogs(lang, tmp_path)
        out = tmp_path / lang / "LC_MESSAGES"
        assert (out / "sphinx.mo").stat().st_size > 0 and (out / "booktheme.mo").stat().st_size > 0
        js = (out / "sphinx.js").read_text(encoding="utf8")
        data = json.loads(js[js.index("(") + 1:js.rindex(")")])
        assert data["messages"]["Color mode"]
    import gettext
    ru = gettext.translation("booktheme", str(tmp_path), ["ru"])
    assert ru.gettext("Launch on") == "Запустить в"


def test_footer_date_line_is_written_as_each_language_writes_a_date(tmp_path):
    # the theme's footer line, as Sphinx makes it: html_last_updated_fmt "" takes the catalogue's "%b %d, %Y",
    # and the date goes into "Last updated on %(last_updated)s." (ru: "… 2026 г.", one full stop, not two)
    import datetime
    import gettext
    from sphinx.util.i18n import format_date
    from test_site import LAST_UPDATED
    day = datetime.datetime(2026, 12, 7)
    want = {"zh": "最后更新于 2026 年 12 月 7 日。", "ru": "Обновлено 7 декабря 2026\u00a0г."}
    for lang in (lang for lang in LANGUAGE_TABLE if lang.code != SOURCE_LANGUAGE):
        build_site.compile_catalogs(lang.locale, tmp_path)
        t = gettext.translation("sphinx", str(tmp_path), [lang.locale])
        date = format_date(t.gettext("%b %d, %Y"), date=day, language=lang.locale)
        line = t.gettext("Last updated on %(last_updated)s.") % {"last_updated": date}
        assert line == want[lang.code] and re.fullmatch(LAST_UPDATED[lang.code], line), line


def test_landing_page_links_every_language():
    langs = build_site.site_languages(BASE)
    roots = {s["code"]: "chapters/00_start" for s in langs}
    page = build_site.landing_page(langs, roots, {s["code"]: s["title"] for s in langs})
    for spec in langs:
        assert f'href="{spec["code"]}/chapters/00_start.html"' in page
        assert spec["title"] in page
    # nothing from another host; the only links out are the footer's licences
    licences = re.sub(r'<a href="(https://opensource\.org/license/mit|https://creativecommons\.org/licenses/by-sa/4\.0/'
                      r'deed\.[a-z-]+)">', "", page)
    assert "{{" not in page and "://" not in licences.replace("http://www.w3.org", "")
    assert page.count('<p class="intro-footer">') == len(langs)


def test_the_site_templates_take_their_words_from_the_catalogues():
    """The landing page's list of languages is labelled with the word "Language" of course.po in every language of
    the page (it was written out in the template as "Language / 语言 / Язык", which a new language would have had to
    find); no template of the site writes a word outside the Latin alphabet, except in a Jinja comment."""
    langs = build_site.site_languages(BASE)
    page = build_site.landing_page(langs, {s["code"]: "chapters/00_start" for s in langs},
                                   {s["code"]: s["title"] for s in langs})
    label = " / ".join(build_site.WORDS["switcher_label"][s["code"]] for s in langs)
    assert f'<nav class="choose" aria-label="{label}">' in page
    assert all(build_site.WORDS["switcher_label"][code] in label for code in LANGUAGES)
    found = []
    for path in sorted((ROOT / "site").glob("*.html")) + sorted((ROOT / "site" / "templates").rglob("*.html")):
        text = re.sub(r"\{#.*?#\}", "", path.read_text(encoding="utf-8"), flags=re.S)
        found += [f"{path.relative_to(ROOT)}: {c}" for c in sorted(set(text)) if c.isalpha() and not c.isascii()]
    assert not found, "write the word in English in the code (course_i18n.catalogue.text) and pass it in:\n" + \
        "\n".join(found)


def test_landing_page_says_where_to_start_and_mentions_binder_only_with_a_repository():
    langs = build_site.site_languages(BASE)
    roots = {s["code"]: "chapters/00_start" for s in langs}
    docs = {s["code"]: ["chapters/00_start", "chapters/01_a", "chapters/06_b", "exercises/ex01_a", "exercises/ex02_b", "exercises/ex03_c",
                        "solutions/ex01_a"] for s in langs}
    titles = {s["code"]: s["title"] for s in langs}
    page = build_site.landing_page(langs, roots, titles, docs)
    assert page.count("<h1") == 1 and "Binder" not in page and "mybinder" not in page
    for spec in langs:
        section = page.split(f'id="intro-{spec["code"]}"', 1)[1].split("</section>", 1)[0]
        assert re.search(rf'<section class="intro" id="intro-{spec["code"]}" lang="{spec["html_lang"]}"', page)
        assert f'href="{spec["code"]}/exercises/ex01_a.html"' in section
        assert f'href="{spec["code"]}/solutions/ex01_a.html"' in section
        assert f"chapters/{spec['code']}/00_start.ipynb" in section
    zh = page.split('id="intro-zh"', 1)[1].split("</section>", 1)[0]
    assert "§1～§6" in zh and "§1～§3" in zh and "–" not in zh
    assert "§1–§6" in page.split('id="intro-ru"', 1)[1].split("</section>", 1)[0]
    page = build_site.landing_page(langs, roots, titles, docs, binder_url="https://mybinder.org/v2/gh/o/r/main",
                                   repo_url="https://github.com/o/r")
    assert page.count('href="https://mybinder.org/v2/gh/o/r/main"') == len(langs)


def test_error_outputs_fail_the_build_only_where_unexpected(tmp_path):
    import nbformat
    error = nbformat.v4.new_output("error", ename="ValueError", evalue="boom", traceback=[])

    def write(kind, name, tags=(), outputs=(error,)):
        nb = nbformat.v4.new_notebook()
        cell = nbformat.v4.new_code_cell("raise ValueError('boom')", outputs=list(outputs))
        if tags:
            cell.metadata["tags"] = list(tags)
        nb.cells.append(cell)
        (tmp_path / kind / "en").mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, tmp_path / kind / "en" / f"{name}.ipynb")

    write("chapters", "01_bad")
    write("chapters", "02_meant", tags=("raises-exception",))
    write("solutions", "ex01_bad")
    write("exercises", "ex01_stub")                  # exercises may show their stubs failing
    write("chapters", "03_unexecuted", outputs=())
    (tmp_path / "chapters" / "en" / "04_broken.ipynb").write_text("{not json", encoding="utf8")
    docs = ["chapters/01_bad", "chapters/02_meant", "solutions/ex01_bad", "exercises/ex01_stub",
            "chapters/03_unexecuted", "chapters/04_broken"]
    errors, notes = build_site.check_notebooks("en", docs, root=tmp_path)
    assert sorted(e.split(" ")[0].rstrip(":") for e in errors) == [
        "chapters/en/01_bad.ipynb", "chapters/en/04_broken.ipynb", "solutions/en/ex01_bad.ipynb"]
    assert notes == ["chapters/en/03_unexecuted.ipynb has no outputs (not executed?)"]


def test_language_switch_costs_come_from_each_pages_files():
    rows = [{"page": "en/a", "bytes": 30, "gzip_bytes": 12, "requests": 3, "load_ms": 1, "ready_ms": 1,
             "files": {"en/a.html": [10, 4], "_static/x.css": [20, 8]}},
            {"page": "ru/a", "bytes": 31, "gzip_bytes": 13, "requests": 3, "load_ms": 1, "ready_ms": 1,
             "files": {"ru/a.html": [11, 5], "_static/x.css": [20, 8], "ru/_static/translations.js": [9, 3]}}]
    costs = {(c["from"], c["to"]): c for c in build_site.switch_costs(rows)}
    assert (costs["en/a", "ru/a"]["bytes"], costs["en/a", "ru/a"]["gzip_bytes"]) == (20, 8)
    assert costs["en/a", "ru/a"]["files"] == ["ru/_static/translations.js", "ru/a.html"]
    assert (costs["ru/a", "en/a"]["bytes"], costs["ru/a", "en/a"]["gzip_bytes"]) == (10, 4)
    text = "\n".join(build_site.report_lines(rows))
    assert "switching language" in text and "translations.js" in text and "the page's HTML" in text


def test_assembly_stores_shared_files_once_and_rewrites_their_urls(tmp_path):
    raw, out = tmp_path / "html", tmp_path / "site"
    page = ('<link href="../_static/theme.css?v=1" rel="stylesheet"><script src="../_static/options.js"></script>'
            '<img src="../_images/fig.png"><a href="other.html#sec-1">x</a><a href="https://example.org/">y</a>')
    for lang, options in (("en", "EN"), ("ru", "RU")):
        for rel, text in {"_static/theme.css": "body{background:url(img/bg.png)}", "_static/img/bg.png": "png",
                          "_static/options.js": options, "_images/fig.png": "fig", "chapters/a.html": page,
                          "chapters/other.html": '<section id="sec-1"></section>', ".buildinfo": "state", "_static/webpack-macros.html": "{{ x }}"}.items():
            (raw / lang / rel).parent.mkdir(parents=True, exist_ok=True)
            (raw / lang / rel).write_text(text)
    (out / "stale.txt").parent.mkdir(parents=True)
    (out / "stale.txt").write_text("left over")
    summary = build_site.assemble(["en", "ru"], raw, out)
    assert summary["shared"] == ["_images/fig.png", "_static/img/bg.png", "_static/theme.css"]
    assert summary["per_language"] == {"en": ["_static/options.js"], "ru": ["_static/options.js"]}
    html = (out / "ru/chapters/a.html").read_text()
    assert 'href="../../_static/theme.css?v=1"' in html and 'src="../../_images/fig.png"' in html
    assert 'src="../_static/options.js"' in html and (out / "ru/_static/options.js").read_text() == "RU"
    assert 'href="other.html#sec-1"' in html and "https://example.org/" in html
    assert not (out / "stale.txt").exists() and not (out / "en/.buildinfo").exists()
    assert not (out / "en/_static/webpack-macros.html").exists() and not (out / "en/_static/theme.css").exists()
    files = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert build_site.broken_references(out, files) == []
    (out / "_static/img/bg.png").unlink()
    (out / "ru/chapters/other.html").unlink()
    files = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert sorted(build_site.broken_references(out, files)) == [
        "_static/theme.css: img/bg.png", "ru/chapters/a.html: other.html#sec-1"]
    assert build_site.broken_references(out, files, ("ru/",)) == ["_static/theme.css: img/bg.png"]
    # anchors are checked too: on the page a link leads to, and on the page itself
    (out / "en/chapters/a.html").write_text(page + '<a href="other.html#sec-9">z</a><a href="#nowhere">w</a>')
    bad = build_site.broken_references(out, files, ("ru/",))
    assert "en/chapters/a.html: other.html#sec-9 (no such anchor in en/chapters/other.html)" in bad
    assert "en/chapters/a.html: #nowhere (no such anchor on the page)" in bad
    assert not [b for b in bad if "#sec-1" in b]


def test_icon_subset_names_every_icon_the_pages_use():
    css = '.fa-bars:before,.fa-navicon:before{content:"\\f0c9"}.fa-sun:before{content:"\\f185"}' \
          '.x{--pst-icon-note:"\\f05a"}'
    assert build_site.icon_map(css) == {"bars": 0xF0C9, "navicon": 0xF0C9, "sun": 0xF185}
    assert build_site.icon_codepoints(css, ['<i class="fa-solid fa-bars">']) == {0xF0C9, 0xF05A}
    subset = '@font-face{font-family:"X";unicode-range:U+F0C9,U+F05A}'
    assert build_site.icon_classes_missing('<i class="fa-solid fa-bars"></i>', css, subset) == []
    assert build_site.icon_classes_missing('<i class="fas fa-sun fa-lg"></i>', css, subset) == ["fa-sun"]


def test_section_anchor_names():
    assert course_site.section_anchor("2.3 Masks") == "sec-2-3"
    assert course_site.section_anchor("§2.3 Masks") == "sec-2-3"
    assert course_site.section_anchor("1. Разбиение") == "sec-1"
    assert course_site.section_anchor("7 Putting it together") == "sec-7"
    assert course_site.section_anchor("Summary") is None
    assert course_site.section_anchor("2D attention") is None


def test_a_formula_wraps_with_the_punctuation_touching_it():
    """"of length s" / ", so" must not happen: punctuation right after a formula (or an
    opening bracket right before it) shares its no-wrap box; other text is left alone."""
    from docutils import nodes

    paragraph = nodes.paragraph()
    paragraph += [nodes.Text("length ("), nodes.math(text="s"), nodes.Text("), so "), nodes.math(text="n"),
                  nodes.Text(" and "), nodes.math(text="m"), nodes.Text("。下一"), nodes.math(text="k"),
                  nodes.Text(""), nodes.math(text="j"), nodes.Text("")]                # empty neighbours
    document = nodes.document(None, None)
    document += paragraph
    course_site.keep_math_with_punctuation(None, document)
    boxes = list(paragraph.findall(lambda n: isinstance(n, nodes.inline) and "math-nowrap" in n["classes"]))
    assert [b.astext() for b in boxes] == ["(s),", "m。"]
    assert paragraph.astext() == "length (s), so n and m。下一kj"           # no character lost or moved
    assert [type(n).__name__ for n in boxes[0].children] == ["Text", "math", "Text"]
    css = (ROOT / "site" / "static" / "course.css").read_text(encoding="utf-8")
    assert re.search(r"\.math-nowrap\s*\{\s*white-space:\s*nowrap", css)


def test_every_notebook_page_offers_the_course_wheel_in_its_download_menu():
    """Every notebook imports the course's code: a notebook downloaded from an exercise page prints
    `%pip install "./<wheel>[learner]"`, §0.5 says the same for the chapters. The wheel is in the same
    menu as the .ipynb on every notebook page, and on no other page (site/course_site.py)."""
    from tools.build_notebooks import course_wheel
    sc = _derive("ru")["sphinx"]["config"]
    assert sc["course_wheel"] == course_wheel() and str(build_site.WHEEL_STATIC) in sc["html_static_path"]

    class App:
        class config:
            course_lang = "ru"

        class env:
            metadata = {}
    App.config.course_wheel = course_wheel()

    def context(suffix=".ipynb"):
        return {"header_buttons": [{"type": "group", "label": "download-buttons", "buttons": [{"text": ".ipynb"}]}],
                "pathto": lambda name, resource=0: "../../" + name, "page_source_suffix": suffix}

    page = context()
    course_site.add_wheel_download(App, "exercises/ex01_allowed_set", "page.html", page, None)
    button = page["header_buttons"][0]["buttons"][-1]
    assert button["url"] == f"../../_static/{course_wheel()}" and button["text"] == ".whl"
    assert "%pip" in button["tooltip"] and "курса" in button["tooltip"]
    # the tooltip says the package is needed only outside a copy of the repository or Binder: Binder installs it
    assert "Binder" in course_site.WHEEL_TOOLTIP.english and "Binder" in button["tooltip"]
    assert "-e ." in (ROOT / "binder" / "requirements.txt").read_text(encoding="utf8").splitlines()
    chapter = context()
    course_site.add_wheel_download(App, "chapters/02_heads", "page.html", chapter, None)
    assert [b["text"] for b in chapter["header_buttons"][0]["buttons"]] == [".ipynb", ".whl"]
    search = context(suffix="")
    course_site.add_wheel_download(App, "search", "page.html", search, None)
    assert [b["text"] for b in search["header_buttons"][0]["buttons"]] == [".ipynb"]



@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_download_menus_ipynb_entry_is_called_this_pages_notebook(lang):
    """The theme's tooltip of the .ipynb entry is "Download source file", but the source menu's Source is
    the Python file in src/ (on an exercise page, the solved one): on every notebook page the entry's
    tooltip is the course's site.download.notebook_tooltip, in the page's language, wheel or no wheel."""
    from course_i18n.catalogue import catalogue
    import sphinx_book_theme.header_buttons as theme_buttons

    theme_source = Path(theme_buttons.__file__).read_text(encoding="utf8")
    assert '"label": "download-source-button"' in theme_source       # the entry the course renames

    class App:
        class config:
            course_lang = lang
            course_wheel = ""

        class env:
            metadata = {}

    def context(suffix=".ipynb"):
        return {"header_buttons": [{"type": "group", "label": "download-buttons", "buttons": [
                    {"text": suffix, "tooltip": "Download source file", "label": "download-source-button"},
                    {"text": ".pdf", "tooltip": "Print to PDF", "label": "download-pdf-button"}]}],
                "pathto": lambda name, resource=0: "../../" + name, "page_source_suffix": suffix}

    tooltip = course_site.NOTEBOOK_TOOLTIP[lang]
    if lang != SOURCE_LANGUAGE:     # the text is the catalogue's translation, not the English
        assert tooltip == catalogue(lang)[("site.download.notebook_tooltip", course_site.NOTEBOOK_TOOLTIP.english)]
    assert {"en": "notebook", "zh": "笔记本", "ru": "Блокнот"}[lang] in tooltip and ".ipynb" in tooltip
    for pagename in ("exercises/ex01_allowed_set", "chapters/02_heads", "solutions/ex02_heads"):
        for wheel in ("", "course-1.0-py3-none-any.whl"):
            App.config.course_wheel = wheel
            page = context()
            course_site.add_wheel_download(App, pagename, "page.html", page, None)
            buttons = {b["label"]: b for b in page["header_buttons"][0]["buttons"]}
            assert buttons["download-source-button"]["tooltip"] == tooltip, (pagename, wheel)
            assert buttons["download-pdf-button"]["tooltip"] == "Print to PDF"
            assert ("download-wheel-button" in buttons) == bool(wheel)
    search = context(suffix=".md")                  # not a notebook page: the theme's tooltip stays
    course_site.add_wheel_download(App, "search", "page.html", search, None)
    assert search["header_buttons"][0]["buttons"][0]["tooltip"] == "Download source file"


# --------------------------------------------------------------------------- formulas typeset at build time

from tools import static_math  # noqa: E402
from conftest import need, unavailable  # noqa: E402

PAGE = """<html><head><title>t</title></head><body>
<nav><span class="math notranslate nohighlight">\\(W_O\\)</span></nav>
<section class="tex2jax_ignore mathjax_ignore" id="sec-1">
<p>Text \\(ignored\\) and <span class="math-nowrap"><span class="math notranslate nohighlight">\\(a &lt; b\\)</span>,</span></p>
<div class="math notranslate nohighlight">
\\[\\sqrt{d}\\]</div>
<pre>print("\\(not maths\\)")</pre><p><code>\\(code\\)</code></p>
<script>var s = "\\(script\\)";</script>
</section>
<p>Outside: $$x^2$$ and \\(y\\)</p>
</body></html>"""


def test_static_math_finds_what_mathjax_would_typeset():
    """The pages' MathJax options: the whole body, less code and scripts, less myst-nb's
    tex2jax_ignore section except inside Sphinx's spans of class math."""
    found = [(tex, display) for _, _, tex, display in static_math.formulas(PAGE)]
    assert found == [("W_O", False), ("a < b", False), ("\\sqrt{d}", True), ("x^2", True), ("y", False)]


def _mathjax_es5():
    """The pinned MathJax that the build runs in Node.js, fetched with npm. A missing tool skips the test with
    the tool's name and its Debian package, or fails it under CI=true (need() and unavailable(), tests/conftest.py)."""
    what = "typesetting the formulas with the pinned MathJax"
    if build_site.vendor_needs_npm("build_packages"):
        need("npm", what)
    need("node", what)
    try:
        build_site.fetch_vendor(quiet=True, group="build_packages")
    except SystemExit as exc:
        unavailable(f"MathJax could not be fetched ({exc}): {what}")
    return build_site.BUILD_VENDOR / "mathjax"


def test_static_math_typesets_every_formula_and_links_its_stylesheet(tmp_path):
    es5 = _mathjax_es5()
    pages, css = static_math.typeset_pages({"en/chapters/x.html": PAGE, "en/index.html": "<p>none</p>"},
                                           es5, tmp_path)
    assert list(pages) == ["en/chapters/x.html"]                 # a page without formulas is left alone
    page = pages["en/chapters/x.html"]
    assert page.count("<mjx-container") == 5 and "\\(W_O\\)" not in page and "$$" not in page
    assert '<mjx-container class="MathJax" jax="CHTML" display="true"' in page
    assert "<math" in page                                      # the MathML beside it, for screen readers
    assert "tabindex" not in page.split("<pre>")[0]            # no formula is a tab stop
    assert '\\(ignored\\)' in page and '"\\(script\\)"' in page and "\\(not maths\\)" in page
    assert '<link rel="stylesheet" type="text/css" href="../../_static/course-math.css" />\n</head>' in page
    assert "@font-face" in css and static_math.FONTS in css
    assert (tmp_path / "cache.json").exists()
    again, css_again = static_math.typeset_pages({"en/chapters/x.html": PAGE}, es5, tmp_path)   # from the cache
    assert again["en/chapters/x.html"] == page and css_again == css


def test_static_math_names_a_formula_it_cannot_typeset(tmp_path):
    es5 = _mathjax_es5()
    with pytest.raises(static_math.MathError, match=r"\\frac\{1\}.*on en/bad\.html"):
        static_math.typeset_pages({"en/bad.html": "<body><p>\\(\\frac{1}\\)</p></body>"}, es5, tmp_path)


def test_tex_reads_as_text_in_search_snippets():
    assert static_math.tex_to_text("W_O") == "W_O"
    assert static_math.tex_to_text(r"\sqrt d") == "√d"
    assert static_math.tex_to_text(r"a \approx 0.330238") == "a ≈ 0.330238"
    assert static_math.tex_to_text(r"\mathcal{L}^* \le \ln V") == "L^* ≤ ln V"
    assert static_math.tex_to_text(r"\frac{QK^\top}{\sqrt{d}}") == "QK^ᵀ/√d"
    # environments, line breaks and alignment leave no TeX behind (a snippet read "beginsplit")
    assert static_math.tex_to_text(r"\begin{cases} 1, & j \le i, \\[2ex] 0, & j > i. \end{cases}") == "1, j ≤ i, 0, j > i."
    assert static_math.tex_to_text(r"\lvert V\rvert") == "|V|"


def test_a_list_of_sections_that_is_no_range_is_joined_as_the_language_lists():
    """Exercise sets that skip a section (ex01, ex03) are written §1, §3; in Chinese with 、 (the site's list
    separator, site.book.words.list_sep), never an ASCII comma; a run of them stays a range (§1～§3)."""
    names = ["ex01_a", "ex03_c"]
    import course_book
    dash, sep = build_site.WORDS["range_dash"], course_book.WORDS["list_sep"]
    assert build_site._section_range(names, dash["zh"], sep["zh"]) == "1、§3"
    assert build_site._section_range(names, dash["en"], sep["en"]) == "1, §3"
    assert build_site._section_range(["ex01_a", "ex02_b", "ex03_c"], dash["zh"], sep["zh"]) == "1～§3"
    # and so on the landing page
    langs = build_site.site_languages(BASE)
    roots = {s["code"]: "chapters/00_start" for s in langs}
    docs = {s["code"]: ["chapters/00_start", "chapters/01_a", "chapters/03_c", "exercises/ex01_a", "exercises/ex03_c"]
            for s in langs}
    page = build_site.landing_page(langs, roots, {s["code"]: s["title"] for s in langs}, docs)
    assert "§1、§3" in page.split('id="intro-zh"', 1)[1].split("</section>", 1)[0]
    assert "§1, §3" in page.split('id="intro-en"', 1)[1].split("</section>", 1)[0]


FULL_WIDTH_STOPS = "。，、；：！？）」』"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_launch_note_shows_its_sentence_as_the_language_writes_it(lang):
    """§0.5's note on Binder (course_book.insert_launch_note): the bold opening and the rest are the catalogue's
    sentence, nothing added between them, so the language decides whether a space follows the bold phrase. The
    Chinese once had a half-width space after 。 (the translation copied the English space after "**...**").
    Its second paragraph says JupyterLab, started with `.venv/bin/jupyter lab`, runs at the address the menu's
    "JupyterLab (local)" entry opens files under: _config.yml's local_jupyterlab_url cut back to /lab (it once
    said only "it serves {url}")."""
    from types import SimpleNamespace

    import yaml
    from docutils import nodes
    from docutils.utils import new_document

    import course_book
    local = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["launch_buttons"]["local_jupyterlab_url"]
    doctree = new_document("00_start")
    section = nodes.section(ids=[course_book.LAUNCH_NOTE[1]])
    doctree += section
    config = SimpleNamespace(course_lang=lang, course_launch={
        "repo_url": "https://github.com/o/r", "binderhub_url": "https://mybinder.org", "local_jupyterlab_url": local})
    course_book.insert_launch_note(SimpleNamespace(config=config), doctree, course_book.LAUNCH_NOTE[0])
    shown = [p for p in section.findall(nodes.paragraph) if "course-launch-note" in p["classes"]]
    assert len(shown) == 2, [p.astext() for p in shown]
    binder = course_book.LAUNCH["binder"][lang]
    assert shown[0].astext() == binder.replace("**", "").replace("`", "")
    bold = shown[0].next_node(nodes.strong).astext()
    assert binder.startswith(f"**{bold}**")
    assert "/lab)" in shown[1].astext() or "/lab）" in shown[1].astext()
    address = local.rstrip("/").rsplit("/lab/tree", 1)[0] + "/lab"
    assert local.startswith(address) and address.endswith("/lab") and address in shown[1].astext(), address
    assert ".venv/bin/jupyter lab" in shown[1].astext()
    if lang == "zh":
        assert not re.search(f"[{FULL_WIDTH_STOPS}] ", shown[0].astext()), shown[0].astext()


def test_no_chinese_interface_text_puts_a_half_width_space_after_full_width_punctuation():
    """The site's and the checks' Chinese sentences (course.po) never put an ASCII space after 。，、；：！？ or a
    closing full-width bracket: the mark carries its own spacing (site.book.launch.binder once had one)."""
    from course_i18n.catalogue import catalogue
    bad = {key: sentence for (key, _), sentence in catalogue("zh").items()
           if re.search(f"[{FULL_WIDTH_STOPS}] ", sentence.replace("**", ""))}     # **bold** is markup, not text
    assert not bad, bad
