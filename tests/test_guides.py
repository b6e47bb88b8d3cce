"""The guides' words about the repository, checked like its numbers: every file or folder of the repository
that README.md, CONTRIBUTING.md, docs/*.md and site/README.md name in code font exists (a placeholder such
as `NN`, `<lang>` or `{zh,en,ru}` standing for the files it names), and what they count is counted. The numbers,
names and examples they take from the code are checked against it where a test can read them."""

import ast
import glob
import inspect
import itertools
import pathlib
import re
import subprocess
import sys
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

GUIDES = ("README.md", "CONTRIBUTING.md", "docs/translating.md", "docs/glossary.md", "docs/exercises.md",
          "docs/instructors.md", "docs/maintainers.md", "docs/benchmark-history.md", "docs/words.md", "site/README.md")


def top_folders():
    """The folders of the repository itself (not what a command writes: _build/, submissions/, feedback/ ...):
    those git tracks, or without git those .gitignore does not ignore (.venv, _build, build, … are not the
    course's)."""
    try:
        tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True,
                                 text=True).stdout.split("\0")
        return tuple(sorted({path.split("/")[0] for path in tracked if "/" in path}))
    except (OSError, subprocess.CalledProcessError):
        ignored = {line.strip().strip("/") for line in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
                   if line.strip() and not line.startswith("#")}
        return tuple(sorted(p.name for p in ROOT.iterdir() if p.is_dir() and p.name != ".git"
                            and not any(pathlib.PurePath(p.name).match(pattern) for pattern in ignored)))


TOP = top_folders()
# code-font words that look like paths and are not: a catalogue's msgctxt (the source a prose text comes from)
NOT_PATHS = {"chapters/02_heads"}
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}


def adding_a_language():
    """docs/translating.md's section "Adding a language", its line breaks and runs of spaces made one space."""
    text = flat("docs", "translating.md")
    return text[text.index("## Adding a language"):]


def placeholders_as_globs(path):
    """`src/solutions/exNN_name.py` as the globs of the files it stands for."""
    path = re.sub(r"<[^>]+>", "*", path)                                     # <lang>, <module>, <zh|en|ru>
    path = path.replace("NN", "[0-9][0-9]").replace("NAME", "*").replace("name", "*")
    parts = re.split(r"\{([^{}]*,[^{}]*)\}", path)                          # {zh,en,ru}: each of them
    choices = [[p] if i % 2 == 0 else p.split(",") for i, p in enumerate(parts)]
    return ["".join(c) for c in itertools.product(*choices)]


def flat(*parts):
    """The text of the file at ROOT/parts..., its line breaks and runs of spaces made one space (a sentence
    a guide wraps over several lines reads as one)."""
    return " ".join(ROOT.joinpath(*parts).read_text(encoding="utf-8").split())


def named_paths(guide):
    """(line, path) of every path under a folder of the repository that ``guide`` writes in code font."""
    text = (ROOT / guide).read_text(encoding="utf-8")
    for m in re.finditer(r"`([^`\s]+)`", text):
        path = m.group(1).rstrip(".,:;")
        if path.split("/", 1)[0] in TOP and "/" in path and "…" not in path and path not in NOT_PATHS:
            yield text.count("\n", 0, m.start()) + 1, path


def test_placeholders_stand_for_files():
    """Negative control: the pattern matches the files it stands for, and a wrong pattern matches none."""
    found = lambda path: [f for g in placeholders_as_globs(path) for f in glob.glob(str(ROOT / g))]  # noqa: E731
    assert found("src/solutions/exNN_name.py") and not found("src/solutions/NN_name.py")
    assert len(found("chapters/{zh,en,ru}/NN_name.ipynb")) == 27
    assert found("chapters/<lang>/figures/NAME-wide.svg") and not found("figures/NAME-wide.svg")


@pytest.mark.parametrize("guide", GUIDES)
def test_every_path_a_guide_names_exists(guide):
    missing = []
    for line, path in named_paths(guide):
        for pattern in placeholders_as_globs(path):
            if not glob.glob(str(ROOT / pattern)):
                missing.append(f"{guide}:{line}: {path}")
    assert not missing, missing


def test_the_outside_sets_of_the_corpus_are_counted():
    """docs/maintainers.md counts the outside sets of wrong answers and names their slugs as the corpus has them, and
    the slugs of the development sets written blind that are counted among the project's own answers."""
    from mistakes import entries
    text = flat("docs", "maintainers.md")
    m = re.search(r"the project's own answers and (\w+) \*outside\* sets \(slugs ([^)]*)\)", text)
    assert m, "docs/maintainers.md no longer counts the outside sets"
    own = re.search(r"The project's own answers include (\w+) development sets written blind \(slugs ([^)]*)\)", text)
    assert own, "docs/maintainers.md no longer names the development sets written blind"
    dev = {re.match(r"(dev\d+)-", e.slug).group(1) for e in entries() if re.match(r"dev\d+-", e.slug)}
    assert dev and set(re.findall(r"`(dev\d+)-`", own.group(2))) == dev and NUMBERS[own.group(1)] == len(dev)
    sets = {re.match(r"(heldout\d*)-", e.slug).group(1) for e in entries() if e.heldout}
    assert NUMBERS[m.group(1)] == len(sets)
    assert set(re.findall(r"`(heldout\d*)-`", m.group(2))) == sets


def test_the_rubric_is_described_as_it_prints():
    """docs/instructors.md: the Markdown rubric ends with the total; the CSV has the header the guide lists (it once
    read as if there were none), then one row per exercise only."""
    from grading import exercises
    from grading.batch import rubric
    text = flat("docs", "instructors.md")
    assert "The Markdown ends with the total" in text and "then one row per exercise: no total" in text
    said = re.search(r"The CSV has a header row \((.*?); with `--partial`, also `(\w+)`\)", text)
    items = rubric.rows(exercises)
    header = rubric.to_csv(items).splitlines()[0].split(",")
    assert said and re.findall(r"`(\w+)`", said.group(1)) == header
    partial = rubric.to_csv(rubric.rows(exercises, partial=True), partial=True)
    assert partial.splitlines()[0].split(",") == header + [said.group(2)]
    assert rubric.markdown(items, "en").count("**Total**") == 1
    assert len(rubric.to_csv(items).strip().splitlines()) == 1 + len(exercises.EXERCISES)


def test_the_diagnosis_floor_is_the_tests():
    """docs/exercises.md and docs/maintainers.md state the floor of tests/test_mistakes.py's RATE, and that it
    holds for the project's own entries (the outside sets are measured, not held to it)."""
    rate = re.search(r"^RATE = ([0-9.]+)", (ROOT / "tests" / "test_mistakes.py").read_text(encoding="utf-8"), re.M)
    percent = round(float(rate.group(1)) * 100)
    exercises = flat("docs", "exercises.md")
    maintainers = flat("docs", "maintainers.md")
    assert f"at least `RATE` (now {percent}%) of the project's own entries" in exercises
    assert f"At least {percent}% of the project's own answers" in maintainers
    # every entry fails check() and loses its points with the grader (the guide once named only check())
    assert "requires that every entry of the corpus fails `check()` and loses its points with the grader" in exercises
    source = (ROOT / "tests" / "test_mistakes.py").read_text(encoding="utf-8")
    caught = source.split("def test_entry_is_caught_by_check_and_by_the_grader(", 1)[1].split("\ndef ", 1)[0]
    assert 'result["where"] is not None' in caught and "assert not kept" in caught


def test_the_install_note_is_quoted_as_the_notebooks_show_it():
    """docs/instructors.md quotes the note above the first code cell of every exercise notebook: word for word, as
    the English exercise and solution notebooks show it (the quote had kept the note's wording after the note
    changed). docs/maintainers.md once placed the note at the top of the exercise notebooks only;
    tests/test_exercises.py checks that it is right above the first code cell in every language."""
    import json
    text = (ROOT / "docs" / "instructors.md").read_text(encoding="utf-8")
    quote = re.search(r"((?:^> .*\n)+)", text[text.index("> If you opened this notebook"):], re.M).group(1)
    quote = " ".join(line[2:] for line in quote.splitlines())
    exercises, solutions = (sorted((ROOT / kind / "en").glob("ex*.ipynb")) for kind in ("exercises", "solutions"))
    assert exercises and [p.name for p in solutions] == [p.name for p in exercises]
    for path in exercises + solutions:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        notes = ["".join(c["source"]) for c in cells if "".join(c["source"]).startswith("If you opened this")]
        assert [" ".join(n.split()) for n in notes] == [quote], path.name


def test_the_page_assets_example_keeps_the_real_tuple():
    """site/README.md shows `PAGE_ASSETS` as site/course_site.py has it, plus one new line: a reader who copies
    the block keeps every asset the site loads today (the example once showed two of the four)."""
    text = (ROOT / "site" / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(PAGE_ASSETS.*?\n\))\n```", text, re.S).group(1).splitlines()
    source = (ROOT / "site" / "course_site.py").read_text(encoding="utf-8")
    real = re.search(r"^(PAGE_ASSETS.*?\n\))\n", source, re.M | re.S).group(1).splitlines()
    assert block[:-2] == real[:-1] and block[-1] == real[-1] and "my-widget" in block[-2]


def test_the_lang_option_is_described_with_all_it_sets():
    """`--lang` sets the index, its histogram and the known mistakes in the reports and CSV files
    (tests/test_grading_exports.py checks the exports): docs/instructors.md and `--help` say so, not "only"."""
    from grading.batch import cli
    text = flat("docs", "instructors.md")
    said = re.search(r"`--lang zh\|en\|ru` sets ([^.]*)\.", text).group(1)
    assert "only" not in said and "known mistakes" in said and "histogram" in said
    [option] = [a for a in cli.build_parser()._actions if "--lang" in a.option_strings]
    assert "known mistakes" in option.help and "only" not in option.help


def test_the_quick_start_warns_of_ubuntus_user_namespaces_before_its_commands():
    """docs/instructors.md's quick start, before its first command, tells a non-root user on Ubuntu 23.10 and later
    to lift AppArmor's restriction on user namespaces, and points to the section that says how (where the sysctl is).
    Only a non-root user: the warning comes after "drop `sudo`" in the same sentence (it once read as a step for
    everyone, though the grader run as root needs neither)."""
    text = (ROOT / "docs" / "instructors.md").read_text(encoding="utf-8")
    start = text.index("**Quick start.**")
    before = " ".join(text[start:text.index("```bash", start)].split())
    assert "as root" in before and "Ubuntu 23.10" in before and "Permission denied" in before
    [sentence] = [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", before) if "Ubuntu 23.10" in s]
    assert "drop `sudo`" in sentence.split("Ubuntu 23.10")[0], sentence
    # a step only when bubblewrap fails: newer releases may already load a profile that lets it
    assert re.search(r"Ubuntu 23\.10 or later the grader may then stop with \"setting up uid map:", sentence), sentence
    assert "](#grading-a-class)" in before and "\n## Grading a class\n" in text
    section = text[text.index("\n## Grading a class\n"):]
    section = section[:section.index("\n## ", 5)]
    assert "kernel.apparmor_restrict_unprivileged_userns=0" in section
    # the profile: where Ubuntu 24.04's apparmor-profiles keeps it and the two commands that load it; what was
    # tried here (neither: the tests run on Debian) is said, and no release is said to ship it loaded (that was never checked)
    profile = "/usr/share/apparmor/extra-profiles/bwrap-userns-restrict"
    assert "`apparmor-profiles`" in section and f"sudo install -m 0644 {profile} /etc/apparmor.d/\n" in section
    assert "sudo apparmor_parser -r /etc/apparmor.d/bwrap-userns-restrict\n" in section and "aa-status" in section
    assert ("tests run on Debian, where neither way is needed; neither has been tried on Ubuntu"
            in " ".join(section.split()))
    assert not re.search(r"\b2[5-9]\.(04|10)\b", section), "a release said to ship the profile"


def test_the_success_line_counts_the_public_tests():
    """docs/exercises.md's example of a passed check() shows the exercise's real count of public tests
    (it once showed another exercise's 7/7)."""
    from grading.exercises import EXERCISES
    text = flat("docs", "exercises.md")
    m = re.search(r"On success it prints one line with nothing to translate[^`]*`([\w-]+) · (\w+): (\d+)/(\d+) ✓`", text)
    assert m, "docs/exercises.md no longer shows the success line"
    exercise = EXERCISES[m.group(1)]
    n = len(exercise.public_cases())
    assert (m.group(2), int(m.group(3)), int(m.group(4))) == (exercise.function, n, n)


def test_the_timing_rule_quotes_what_the_cache_cell_asserts():
    """CONTRIBUTING.md's example of a timing comparison whose margin load does not reverse (§5.8) gives the cell's own
    number of runs and the margin it asserts (it once said "more than 1.5×" of a cell that asserts 10×). The rule
    is where the guide first names BLAS, and says what it is (read61 A2 L21, L23: it was defined only later)."""
    text = flat("CONTRIBUTING.md")
    m = re.search(r"§5\.8 keeps the fastest of (\d+) runs, pins BLAS \(the library that does NumPy's matrix "
                  r"products\) to one thread and asserts that the cache is at least (\d+) times faster at the longest "
                  r"prefix\.", text)
    assert m, "CONTRIBUTING.md no longer describes §5.8's timing"
    assert text.index("BLAS") == text.index("pins BLAS (") + len("pins ")
    source = (ROOT / "src" / "chapters" / "05_cache.py").read_text(encoding="utf-8")
    assert f"def best_seconds(run, prepare, repeats={m.group(1)}):" in source
    assert 'threadpool_limits(limits=1, user_api="blas")' in source
    assert f"assert ratios[-1] >= {m.group(2)} and" in source


def test_the_selectors_the_exercise_guide_shows_are_used_in_the_diagnoses():
    """Each `operator@code` or `operator@=code` that docs/exercises.md gives as an example names a bug operator
    and is one that grading/diagnoses.py uses, so the example shows what the syntax really selects."""
    from grading.bugs import OPERATORS
    text = (ROOT / "docs" / "exercises.md").read_text(encoding="utf-8")
    diagnoses = (ROOT / "grading" / "diagnoses.py").read_text(encoding="utf-8")
    selectors = [s for s in re.findall(r'`"?([a-z-]+@=?[^`"]+)"?`', " ".join(text.split()))
                 if s.partition("@")[0] in OPERATORS]
    assert len(selectors) >= 2 and any("@=" in s for s in selectors), selectors
    assert not [s for s in selectors if f"'{s}'" not in diagnoses], selectors


def test_the_exercise_guides_steps_write_what_its_tests_read_before_running_them():
    """docs/exercises.md's steps for a new exercise, done in order, reach the step that runs tests/test_exercises.py
    and tests/test_mistakes.py only after the steps that declare the diagnoses and add the rubric's row (read84 I C1:
    the tests came first, and two tests the command selects then failed): the corpus test requires every diagnosis
    an entry names to exist, and the rubric test, selected by `not [`, compares the rubric with the registry."""
    import test_exercises
    import test_mistakes
    text = flat("docs", "exercises.md")
    part = text[text.index("## Adding an exercise"):text.index("## How a wrong answer is diagnosed")]
    steps = re.split(r" (?=\d\. \*\*)", part)[1:]
    assert [int(s.split(".", 1)[0]) for s in steps] == list(range(1, len(steps) + 1)), [s[:30] for s in steps]
    step_of = lambda phrase: next(i for i, s in enumerate(steps) if phrase in s)  # noqa: E731
    runs = step_of("-m pytest tests/test_exercises.py tests/test_mistakes.py")
    assert step_of("declare it in `grading/diagnoses.py`") < runs and step_of("**The rubric.**") < runs
    corpus_test = test_mistakes.test_the_corpus_is_large_and_covers_every_exercise
    assert "mistake_by_id(d) is not None" in inspect.getsource(corpus_test)
    rubric_test = test_exercises.test_points_agree_with_the_rubric_and_the_headings
    assert not hasattr(rubric_test, "pytestmark") and "rubric()" in inspect.getsource(rubric_test)


def test_the_exercise_guide_shows_one_exact_selector_and_it_selects_one_place():
    """docs/exercises.md gives one `@=` example throughout: step 9's `MISTAKES` entry, which "Declaring a mistake"
    explains as "that product alone, not a longer one that contains it" (the two once used different operators).
    It is cost-1's entry in tests/test_exercises.py, and on cost-1's answer `@=` finds one mutant where `@` with the
    same text finds longer products too."""
    import test_exercises
    from grading import bugs
    from grading.registry import EXERCISES
    text = flat("docs", "exercises.md")
    step7 = re.search(r'or `@=` and its exact code: `"([a-z-]+@=[^"`]+)"`', text)
    assert step7, "docs/exercises.md, step 9 (Tests), no longer shows an `@=` selector"
    selector = step7.group(1)
    assert f"`{selector}` is that product alone, not a longer one that contains it" in text
    exercise_id = next(k for k, v in test_exercises.MISTAKES.items() if v == selector)
    answer = EXERCISES[exercise_id].answer
    assert len(bugs.find(answer, selector)) == 1
    assert len(bugs.find(answer, selector.replace("@=", "@", 1))) > 1


def test_a_quiz_texts_sense_is_shown_as_the_tools_write_it():
    """docs/translating.md's example of a `sense` is the `msgctxt` tools/prose.py makes of it, with the keyword a quiz
    source passes to `T` (the example once named a catalogue entry that no source had)."""
    import inspect

    from tools import prose, quizzes
    text = flat("docs", "translating.md")
    m = re.search(r'use a \*sense\*, a few words added to its `msgctxt` after the source: '
                  r'`T\("…", sense="([^"]+)"\)` in `src/(\w+)/(\w+)\.py` '
                  r'would get the context `\2/\3: \1`\. No quiz needs one today\.', text)
    assert m, "docs/translating.md no longer shows a quiz text's sense"
    sense, folder, name = m.groups()
    source = ROOT / "src" / folder / f"{name}.py"
    assert source.exists() and prose.context(source, sense) == f"{folder}/{name}: {sense}"
    assert "sense" in inspect.signature(quizzes._text_maker(prose.Translations(source), source)).parameters


def test_the_search_weights_are_where_the_guides_say():
    """site/README.md sends a reader to `TUNE` in course-search.js, docs/maintainers.md to the file's top for how
    the ranking works: the weights are there, and the top is a comment that explains the ranking."""
    script = (ROOT / "site" / "static" / "course-search.js").read_text(encoding="utf-8")
    site = flat("site", "README.md")
    maintainers = (ROOT / "docs" / "maintainers.md").read_text(encoding="utf-8")
    assert "the weights are the object `TUNE` in `course-search.js`" in site and "var TUNE = {" in script
    assert "How the ranking works is explained at the top of `site/static/course-search.js`." in maintainers
    assert re.match(r"(//.*\n){10,}", script) and "// Ranking:" in script[:script.index("\n\n")]


def test_what_the_build_writes_is_what_git_ignores():
    """docs/maintainers.md lists what `make book`, `make pdf` and `make test` write in the project folder, as what
    .gitignore keeps out of git: every folder it names there is ignored (the list once left out two). What it writes
    elsewhere is said just before (it once said "only inside the project folder", the caches later)."""
    import fnmatch
    text = flat("docs", "maintainers.md")
    m = re.search(r"Apart from installing those Debian packages, it writes only three kinds of files outside the project folder: "
                  r"\* temporary files, in the system's temporary folder; \* the download caches of npm and pip, in your "
                  r"home folder; \* under `make test`, what any notebook kernel writes to your home folder \(IPython's "
                  r"`~/\.ipython/`, and matplotlib's `~/\.config/matplotlib/` and `~/\.cache/matplotlib/`\)\. "
                  r"Inside the project folder it writes only what `\.gitignore` keeps out of git: (.*?) `make book` "
                  r"writes", text)
    assert m, "docs/maintainers.md no longer says what the build writes"
    named = re.findall(r"`([^`]+/)`", m.group(1))
    patterns = [line.strip().strip("/") for line in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.startswith("#")]
    assert {".venv/", "_build/", "build/", ".hypothesis/"} <= set(named)
    assert not [n for n in named if not any(fnmatch.fnmatch(n.rstrip("/"), p) for p in patterns)], named


def test_the_suites_kernels_write_in_the_home_folder_as_maintainers_md_says():
    """docs/maintainers.md says that under `make test` the notebook kernels write IPython's and matplotlib's folders in
    the home folder (it once said the home folder got only pip's and npm's caches): nbval's kernels
    (conftest.py, tools/kernels.py) start with a copy of the test run's environment (tools/numeric_configs.py) and
    move neither folder, while the grader's kernels are given their own (grading/batch/sandbox.py). If the suite
    ever gives its kernels folders of their own, the sentence is to say so."""
    said = flat("docs", "maintainers.md")
    assert "under `make test`, what any notebook kernel writes to your home folder (IPython's `~/.ipython/`" in said
    variables = ("HOME", "IPYTHONDIR", "MPLCONFIGDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")
    for part in (("conftest.py",), ("tests", "conftest.py"), ("tools", "kernels.py"), ("tools", "numeric_configs.py")):
        code = (ROOT.joinpath(*part)).read_text(encoding="utf-8")
        assert not [v for v in variables if re.search(rf"[\"']{v}[\"']", code)], part
    assert "nbval.kernel.KernelManager = ConfiguredKernelManager" in (ROOT / "conftest.py").read_text(encoding="utf-8")
    assert "env = dict(os.environ if base is None else base)" in (ROOT / "tools" / "numeric_configs.py").read_text(
        encoding="utf-8")
    sandbox = (ROOT / "grading" / "batch" / "sandbox.py").read_text(encoding="utf-8")
    assert all(f'"{v}"' in sandbox for v in ("HOME", "IPYTHONDIR", "MPLCONFIGDIR")), "the control: the grader's own"


def test_the_numeric_configurations_the_guides_name_exist():
    """A configuration a guide (or bench/attention_cache.py, which uses it) names as `tools/numeric_configs.py`'s
    is one of that file's (one was named without the thread count that is part of its name)."""
    from tools.numeric_configs import OTHER_CONFIGS, X86_CONFIGS
    names = {c.name for c in (*X86_CONFIGS.values(), *OTHER_CONFIGS.values())}
    named = [name for guide in GUIDES for name in re.findall(
        r"`tools/numeric_configs\.py`'s\s+`?([\w-]+)", (ROOT / guide).read_text(encoding="utf-8"))]
    assert named and not [n for n in named if n not in names], named
    bench = set(re.findall(r"\bhaswell-[\w-]+", (ROOT / "bench" / "attention_cache.py").read_text(encoding="utf-8")))
    assert bench and bench <= names, bench


def test_the_code_width_is_the_tests():
    """The width of a code line CONTRIBUTING.md gives is tests/test_code_width.py's WIDTH. The guide gives it once, in
    "Rules for code cells", with what a line counts, a translated comment included (it once gave it again for
    translated comments, then pointed there from them; read62 A L8: the rule was one sentence with three levels of
    parentheses): no other "at most N characters" of a code line or comment is left to drift. docs/translating.md
    gives it to the translator of a comment (read56 A2 L11), and so does the header of each prose catalogue."""
    width = re.search(r"^WIDTH = (\d+)", (ROOT / "tests" / "test_code_width.py").read_text(encoding="utf-8"), re.M)
    text = flat("CONTRIBUTING.md")
    rules = text[text.index("### Rules for code cells"):text.index("## Numbers that print the same")]
    # read75 A L9: a full-width mark takes two columns too, as docs/translating.md says
    said = re.findall(r"a code line takes at most (\d+) columns \(`tests/test_code_width\.py`\), and a Chinese "
                      r"character or a full-width mark such as `，` takes two\. Count the line as the notebook shows it: its indentation, its code and, "
                      r"for a translated comment, the `# ` and the translation\.", rules)
    assert said == [width.group(1)], said
    assert text.count(f"{width.group(1)} columns") == 1
    # read69 A C1: the test counts columns, a wide character as two; "at most 76 characters" passed a zh line it fails
    assert f"{width.group(1)} characters" not in text
    from test_code_width import columns
    assert columns("春") == 2 and columns("a") == 1
    comments = text[text.index("### Translated comments"):text.index("### Rules for code cells")]
    assert not re.search(r"\d+ characters", comments), comments
    assert "at most" in rules.rsplit("* ", 1)[1]
    # the translators' guide, and the header of the prose catalogues, give a translated comment the same width
    translating = flat("docs", "translating.md")
    said = re.findall(r"Each line of a translated comment must fit in (\d+) columns as the notebook shows it: "
                      r"with its indentation, the `# `, your translation and any code before it\.", translating)
    # read71 T L1: the unit is the column, as test_code_width counts, not the character
    assert said == [width.group(1)] and translating.count(" columns") == 2, said
    assert f"{width.group(1)} characters" not in translating
    # read69 T C1: the test counts every wide or full-width character as two columns, a Chinese comma or full stop
    # too, not only a Chinese character
    import test_code_width
    assert "A Chinese character or a full-width mark such as `，` or `。` takes two columns." in translating
    assert test_code_width.columns("注意，") == test_code_width.columns("注意。") == 6
    from tools import i18n
    assert f"a comment's lines stay within the code's {width.group(1)} columns" in " ".join(i18n.PROSE_HEADER.split())


def test_the_version_line_and_the_fingerprint_are_as_the_grader_writes_them():
    """docs/instructors.md's example of `--version` shows this course's version and report format, and the
    fingerprint it describes has the length the grader gives it."""
    from grading.batch import cli, pipeline
    from grading.version import package_version
    text = flat("docs", "instructors.md")
    m = re.search(r"`\.venv/bin/python -m grading --version` prints .*? e\.g\. `… ([\d.]+), report format (\d+)`", text)
    assert m and (m.group(1), m.group(2)) == (package_version(), pipeline.VERSION), m
    [option] = [a for a in cli.build_parser()._actions if "--version" in a.option_strings]
    assert option.version.endswith(f"{m.group(1)}, report format {m.group(2)}")
    from types import SimpleNamespace

    from grading import exercises
    digits = re.search(r"the tests' fingerprint: (\d+) hexadecimal digits", text).group(1)
    fingerprint = pipeline.course_version(exercises, SimpleNamespace(exercises=exercises.EXERCISES))
    assert re.fullmatch(f"[0-9a-f]{{{digits}}}", fingerprint), fingerprint


def test_a_regrade_refuses_when_the_fingerprint_matches_neither_as_instructors_md_says(monkeypatch):
    """docs/instructors.md says a regrade refuses changed tests only when the report's fingerprint matches neither the
    whole course's nor that of the exercises the report graded (it once read as if a change to either were enough):
    pipeline._regrade_check, each fingerprint stood in for, goes on when either matches and refuses when none does."""
    from grading.batch import pipeline
    text = flat("docs", "instructors.md")
    assert re.search(r"when the fingerprint the report records matches neither that of the whole course nor that of "
                     r"the exercises the report graded", text), "the regrade's refusal is no longer described"
    from types import SimpleNamespace
    course = SimpleNamespace(secret=None)           # the whole course; "part": the report's exercises
    monkeypatch.setattr(pipeline, "Course", lambda registry, secret, ids: ("part", tuple(ids)))
    monkeypatch.setattr(pipeline, "course_version", lambda registry, c: "whole" if c is course else c[0])
    report = lambda version: {"grader": {"course": {"version": version}, "exercises": [{"id": "mask-1"}]}}  # noqa: E731
    for matching in ("whole", "part"):
        pipeline._regrade_check(report(matching), course, None)
    with pytest.raises(pipeline.UsageError):
        pipeline._regrade_check(report("neither"), course, None)


def test_the_files_the_fingerprint_hashes_are_where_instructors_md_points():
    """docs/instructors.md says the tests' fingerprint hashes the exercises and the code that tests them, and points
    to `fingerprinted_files` in grading/batch/pipeline.py for the list (it once listed the files itself, and left
    out grading/compare.py). That function hashes the registry, grading/compare.py (which decides pass or fail)
    and each exercise's own files, and nothing else outside grading/specs/."""
    import inspect
    from types import SimpleNamespace

    from grading import exercises
    from grading.batch import pipeline
    text = flat("docs", "instructors.md")
    assert re.search(r"a hash of the exercises and of the code that tests them \(`fingerprinted_files` in "
                     r"`grading/batch/pipeline\.py` lists the files\)", text), "the pointer to the list is gone"
    assert callable(pipeline.fingerprinted_files)
    hashed = {str(pathlib.Path(f).relative_to(ROOT))
              for f in pipeline.fingerprinted_files(exercises, SimpleNamespace(exercises=exercises.EXERCISES))}
    own = set()
    for ex in exercises.EXERCISES.values():
        for func in (ex.reference, inspect.unwrap(ex.reference)):
            own.add(str(pathlib.Path(inspect.getsourcefile(func)).relative_to(ROOT)))
    assert {"grading/compare.py", "grading/exercises.py"} <= hashed, hashed
    named = {"grading/compare.py", "grading/exercises.py", "grading/registry.py"}
    assert not [f for f in hashed - named - own if not f.startswith("grading/specs/")], hashed - named - own


def test_the_ci_secret_is_set_from_the_key_file_the_guide_makes():
    """docs/instructors.md shows how to put the key into the CI's secret: the command reads the file that its
    `grading key` block writes, and sets the secret the workflow reads."""
    text = (ROOT / "docs" / "instructors.md").read_text(encoding="utf-8")
    made = re.search(r"<!-- tested: make-key -->\n```bash\n\.venv/bin/python -m grading key (\S+)\n```", text).group(1)
    name, read = re.search(r"`gh secret set (\w+) < (\S+)`", " ".join(text.split())).groups()
    assert read == made and f'"${{{{ secrets.{name} }}}}"' in text and f'"${name}" |' in text


def test_the_report_says_whether_kernels_started_fresh_or_warm_as_instructors_md_says():
    """docs/instructors.md sends the reader to the report's `grader.isolation.kernels` to learn whether kernels were
    started fresh or forked warm (which decides whether a crash loses results under --partial): the sandbox's
    description has that key, and its texts say "fresh" or "warm"."""
    import inspect

    from grading.batch import sandbox
    text = flat("docs", "instructors.md")
    assert re.search(r"But when a kernel that was started fresh \(rather than forked from an already running Python\) "
                     r"crashes, the results "
                     r"it wrote before the crash can be lost; the report's `grader\.isolation\.kernels` says which",
                     text), "docs/instructors.md no longer says where the report tells fresh from warm kernels"
    source = inspect.getsource(sandbox.Sandbox)
    assert '"kernels": self._describe_kernels()' in source
    said = re.findall(r'"([^"]*)"', inspect.getsource(sandbox.Sandbox._describe_kernels))
    assert any("warm" in t for t in said) and any("fresh" in t for t in said), said
    # read84 I L6: when each kind applies, as the sandbox decides it (warm only in root mode, when asked for)
    assert ("Kernels are forked only when the grader runs as root, with its sandbox and without `--fresh-kernels`; "
            "otherwise, or when forking fails as the grader starts, each kernel starts fresh.") in text
    assert ('self.warm_note = "not requested" if not warm else ("only in root mode" if mode != "root" else "")'
            in source and 'if self.mode == "root" and not self.warm_note:' in source)


def test_the_notebook_limits_instructors_md_quotes_are_the_graders():
    """docs/instructors.md's limits on a notebook (its size, its cells, a cell's length) are the constants of
    grading/batch/notebooks.py."""
    from grading.batch import notebooks
    text = flat("docs", "instructors.md")
    m = re.search(r"A notebook over a size limit \((\d+) MiB, (\d+) cells, a cell of a million characters\)", text)
    assert m, "docs/instructors.md no longer quotes the notebook limits"
    assert int(m.group(1)) * 1024 * 1024 == notebooks.MAX_NOTEBOOK_BYTES
    assert int(m.group(2)) == notebooks.MAX_CELLS and notebooks.MAX_CELL_CHARS == 1_000_000


def test_instructors_md_says_the_seccomp_filter_goes_with_the_sandbox():
    """docs/instructors.md says a seccomp filter runs inside the sandbox and none without one (a guide once said
    seccomp held in every mode): the sandbox writes the filter for every mode but `none`, and its description
    in the report says "none" for `none`."""
    import inspect

    from grading.batch import sandbox
    text = flat("docs", "instructors.md")
    assert "Inside the sandbox a seccomp filter refuses" in text and "Without a sandbox there is no filter." in text
    source = inspect.getsource(sandbox.Sandbox)
    assert re.search(r'if mode != "none":\n(?:.*\n){0,4}.*seccomp_filter\.program\(\)', source), \
        "the sandbox no longer writes the filter for every mode but none"
    assert '"seccomp": seccomp_filter.describe() if sandboxed else "none"' in source


def test_the_limits_the_guides_quote_are_the_codes():
    """docs/maintainers.md's size limit of lib is tests/test_lib_size.py's, given once, and docs/instructors.md's count
    of failed tests a student's page explains is the grader's MAX_FEEDBACK, per exercise as the runner counts them
    (it once read as per page). The step that adds a function to lib points to the rules of "Changing lib", the
    size limit among them (read52 found the step silent on it; read56 found the number given twice), and `wc -l`
    counts the lines as the test does. The step says that lib is at that limit today, so that the reader makes
    room first (read57 A1 C4, A2 C5: "next to no room" was said of a lib with none; read58 A1 L18, A2 L14 and read60
    A L14, A2 L15: "may have no room left" understated a lib with none): lib's line count, as `wc -l lib/*.py`
    gives it, is the limit, and this test fails, asking for the sentence to change, the day it is not."""
    from grading.batch.runner import MAX_FEEDBACK
    test = (ROOT / "tests" / "test_lib_size.py").read_text(encoding="utf-8")
    most = re.search(r"^MOST_LINES = (\d+)", test, re.M)
    # "Changing lib" moved from CONTRIBUTING.md to docs/maintainers.md (audit 23, T-1); CONTRIBUTING.md links it
    assert "[docs/maintainers.md, \"Changing `lib`\"](docs/maintainers.md#changing-lib)" in flat("CONTRIBUTING.md")
    assert "stays at most" not in flat("CONTRIBUTING.md") and "wc -l" not in flat("CONTRIBUTING.md")
    contributing = flat("docs", "maintainers.md")
    said = re.search(r"`?lib`? stays at most ([\d,]+) lines", contributing)
    assert said and int(said.group(1).replace(",", "")) == int(most.group(1))
    assert contributing.count(f"{int(most.group(1)):,}") == 1
    start = contributing.index("### A new function")
    step = contributing[start:contributing.index("## The test suite")]
    # read69 A L14 put the steps for a new function straight before the rules of "Changing lib" they point to;
    # read71 A L14: they still sent the reader forward, so they now close "Changing lib", after every rule they link
    assert "### " not in step[4:] and contributing.index("## Changing `lib`") < start
    # read74 A L19: what to do after changing what a function computes opened "Changing lib", before the rules; it is
    # now a part of its own, between the rules and the steps for a new function
    after = contributing.index("### After changing what a function computes `.venv/bin/python tools/expected.py --check`")
    assert contributing.index("### Mutants") < after < start
    assert contributing[contributing.index("## Changing `lib`"):].startswith("## Changing `lib` ### Definitions")
    for anchor in ("argument-checks", "docstrings-and-size", "mutants"):
        assert f"](#{anchor})" in step and contributing.index(f"### {anchor.replace('-', ' ').capitalize()}") < start
    # read66 A C2: not every function has a check; the step points to the few that check nothing
    # read69 A L15: four instructions and three links were one sentence
    assert ('with a docstring and an argument check in `lib/validate.py` (a [few functions](#argument-checks) check '
            'nothing).') in step
    assert "* A few functions check nothing:" in contributing[contributing.index("### Argument checks"):]
    room = re.search(r"`lib` is (\d+) lines under its \[size limit\]\(#docstrings-and-size\) today: for anything "
                     r"longer, make room first\.", step.split("1. ", 1)[1].split(" 2. ", 1)[0])
    assert room, "step 1 of \"A new function\" says how many lines lib has left"
    assert contributing.count("today") == 1 and "no room" not in contributing
    # how to count the lines is said once, with the limit (read61 A L20, A2 L11: it was said in both places)
    assert "`wc -l lib/*.py` counts the lines as the test does" in contributing
    assert contributing.count("wc -l") == 1
    # read69 A L19: "every `:func:` target" understated a test that resolves the target of every Sphinx role
    # read71 A L11: "Sphinx role" said what it is
    assert ("It names only what exists: every target of a cross-reference (a Sphinx role such as `:func:` or "
            "`:class:`) and every dotted `lib.` name in it resolves (`tests/test_lib_size.py`).") in contributing
    assert r'":(?:func|class|meth|mod|data|attr):`~?([\w.]+)`"' in test
    assert "as `wc -l lib/*.py` counts them" in test and "splitlines()" in test
    lines = sum(len(path.read_text(encoding="utf-8").splitlines()) for path in (ROOT / "lib").glob("*.py"))
    assert lines + int(room.group(1)) == int(most.group(1)), (
        f"lib has {lines} lines and a limit of {most.group(1)}: CONTRIBUTING.md's step 1 of \"A new "
        f"function\" says {room.group(0)!r}; give the room there is now")
    instructors = flat("docs", "instructors.md")
    explained = re.search(r"For each exercise it explains up to (\w+) failed tests, at most (\w+) of them public",
                          instructors)
    assert explained and NUMBERS[explained.group(1)] == MAX_FEEDBACK
    assert NUMBERS[explained.group(2)] == MAX_FEEDBACK - 1


def test_the_failed_tests_a_page_explains_are_those_instructors_md_names():
    """docs/instructors.md: a page explains up to MAX_FEEDBACK failed tests of an exercise, at most MAX_FEEDBACK - 1
    of them public, so that a failed hidden test is always among them, and says how many more failed (it once said
    "the first three failed tests", which five failed public tests and a failed hidden one contradict). The
    runner's own selection lines are run on made-up outcomes."""
    import inspect
    import textwrap
    from grading.batch import runner
    text = flat("docs", "instructors.md")
    # read84 I L8: "always among them" read as if a hidden test always failed
    assert ("explains up to three failed tests, at most two of them public, so that a failed hidden test, if there "
            "is one, is always shown, and says how many more failed") in text
    source = inspect.getsource(runner.NotebookRun)
    lines = re.search(r"^( *)shown = \[o for o in failures .*\n(?:\1.*\n){2}", source, re.M)
    assert lines, "the runner no longer chooses the failures a page explains as instructors.md says"

    def explained(public, hidden):
        failures = [runner.Outcome(("public", i), False, False, "wrong_value", {}) for i in range(public)]
        failures += [runner.Outcome(("hidden", i), True, False, "wrong_value", {}) for i in range(hidden)]
        scope = {"failures": failures, "MAX_FEEDBACK": runner.MAX_FEEDBACK}
        exec(textwrap.dedent(lines.group(0)), scope)
        return sorted(scope["public_shown"] + scope["hidden_shown"], key=failures.index)

    most = runner.MAX_FEEDBACK
    for public, hidden in itertools.product(range(most + 3), range(most + 3)):
        shown = explained(public, hidden)
        assert len(shown) <= most                                             # up to three
        assert sum(not o.hidden for o in shown) == min(public, most - 1)      # at most two of them public
        assert not hidden or any(o.hidden for o in shown)                     # a failed hidden test among them
        assert len(shown) == min(public, most - 1) + min(hidden, most - min(public, most - 1))
    # five failed public tests and two hidden: two public ones and the first hidden one, not the first three
    assert [o.case for o in explained(5, 2)] == [("public", 0), ("public", 1), ("hidden", 0)]


def test_the_learner_extra_is_listed_as_pyproject_has_it():
    """docs/instructors.md and docs/maintainers.md list the `learner` extra's packages as pyproject.toml has them,
    NumPy included (the two guides once listed it differently, one with NumPy and one without), and the package's
    own dependencies are NumPy alone (threadpoolctl, which only §5 and the tools use, was once a dependency of the
    package that no module of it imported)."""
    import tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    name = lambda requirement: re.split(r"[=<>\[ ]", requirement)[0].lower()  # noqa: E731
    learner = {name(r) for r in project["optional-dependencies"]["learner"]}
    assert [name(r) for r in project["dependencies"]] == ["numpy"] and "numpy" in learner
    said = {
        "instructors.md": r"The `learner` extra brings what the notebooks use: ([^.]*)\.",
        "maintainers.md": r"the `learner` extra's packages \(([^)]*)\)",
    }
    for guide, pattern in said.items():
        text = flat("docs", guide)
        m = re.search(pattern, text)
        assert m, f"docs/{guide} no longer lists the learner extra"
        listed = {w.lower() for w in re.split(r", | and ", re.sub(r" \([^)]*\)", "", m.group(1)))}
        assert listed == learner, (guide, listed)


def test_the_gradebooks_total_is_described_with_the_courses_points():
    """docs/instructors.md gives the gradebook's total column as `total (max N)`, N the points of the exercises graded
    (it once wrote a fixed 50, which a batch of one notebook does not show), and the whole course's points."""
    from grading.registry import total_points
    text = flat("docs", "instructors.md")
    said = re.findall(r"`total \(max N\)` \(N: the points of the exercises graded, (\d+) for the whole course\)", text)
    assert len(said) == 2 and {int(n) for n in said} == {total_points()}, said
    assert "`total (max 50)`" not in text


def test_the_site_digest_is_described_with_every_file_it_reads():
    """site/README.md names each file of site/ that tools/build_site.py's `site_assets_digest` hashes by name (it once
    left out course_book.py, the extension that shapes every page)."""
    import inspect

    from tools import build_site
    source = inspect.getsource(build_site.site_assets_digest)
    files = set(re.findall(r'SITE_SRC / "([\w.]+\.\w+)"', source))
    text = flat("site", "README.md")
    m = re.search(r"So `tools/build_site\.py` passes Sphinx the config value `course_assets_version`: a digest "
                  r"\(`site_assets_digest`\) of (.*?);", text)
    assert m and '"course_assets_version"] = site_assets_digest(' in inspect.getsource(build_site)
    assert m and files and files <= set(re.findall(r"`([^`]+)`", m.group(1))), (files, m and m.group(1))


def test_adding_a_language_names_every_field_of_a_language():
    """docs/translating.md's first step of "Adding a language" names every field of `course_i18n.Language` (it once
    left out the decimal separator, the digit grouping and the plural rule, which a new language may need)."""
    import dataclasses

    from course_i18n import Language
    words = {"code": "code", "name": "own name", "locale": "Sphinx locale", "html_lang": "`<html lang>`",
             "decimal": "decimal separator", "group": "digit grouping", "plural": "plural rule"}
    fields = [f.name for f in dataclasses.fields(Language)]
    assert set(fields) <= set(words), f"a new field of Language: {set(fields) - set(words)}; name it in step 1"
    step = re.search(r"1\. Add the language to `LANGUAGE_TABLE` in `course_i18n/__init__\.py`: (.*?) 2\. ",
                     adding_a_language()).group(1)
    assert not [f for f in fields if words[f] not in step], step


def test_the_bubblewrap_version_the_guides_give_is_the_graders():
    """Every version of bubblewrap docs/instructors.md says the grader needs is the sandbox's BWRAP_VERSION."""
    from grading.batch.sandbox import BWRAP_VERSION
    text = flat("docs", "instructors.md")
    said = re.findall(r"bubblewrap ([\d.]+) or newer|version ([\d.]+) or newer|than the ([\d.]+) the grader needs", text)
    assert len(said) >= 3 and {"".join(s) for s in said} == {".".join(map(str, BWRAP_VERSION))}, said


def test_binders_packages_are_listed_as_binder_requirements_has_them():
    """docs/maintainers.md lists what binder/requirements.txt installs, and the Python of binder/runtime.txt (the list
    once left out threadpoolctl, which §5's timing cell needs)."""
    text = flat("docs", "maintainers.md")
    m = re.search(r"`binder/runtime\.txt` asks for Python ([\d.]+); `binder/requirements\.txt` lists the `learner` "
                  r"extra's packages \(([^,]+(?:, [^,]+)*?) and (\w+)\), pinned as in", text)
    assert m, "docs/maintainers.md no longer lists Binder's packages"
    listed = {w.lower() for w in m.group(2).split(", ")} | {m.group(3).lower()}
    lines = [line.split("#")[0].strip() for line in (ROOT / "binder" / "requirements.txt").read_text().splitlines()]
    assert listed == {re.split(r"[=<>\[ ]", line)[0].lower() for line in lines if line and line != "-e ."}, listed
    assert (ROOT / "binder" / "runtime.txt").read_text().strip() == f"python-{m.group(1)}"


def test_the_modules_of_lib_that_raise_are_the_ones_the_guides_name():
    """docs/maintainers.md says which modules of lib raise: lib/validate.py, and the one exception it names (it once
    said no other module raised, though lib/plain_python.py checks its own arguments). CONTRIBUTING.md said so too
    until read62 (A L19: each thing said once); its "Argument checks" now links maintainers.md's section, and names
    the exception, which imports nothing of lib (read63 A C2: it said every public function used lib/validate.py's
    checks, so the two functions of lib.plain_python fitted nowhere). They say
    "an exception of its own", what tests/test_lib_size.py counts (read62 A2 C5: "raises an exception" read as if a
    wrong model could not fail with an AttributeError). A bare `raise`, which passes one on, is not one of its own
    (docs/maintainers.md says so): the steps of lib/model.py and lib/decoder.py undo a failed step and raise again."""
    trees = {path.name: ast.parse(path.read_text("utf-8")) for path in (ROOT / "lib").glob("*.py")}
    raising = {name for name, tree in trees.items()
               if any(isinstance(node, ast.Raise) and node.exc is not None for node in ast.walk(tree))}
    passing_on = {name for name, tree in trees.items()
                  if any(isinstance(node, ast.Raise) and node.exc is None for node in ast.walk(tree))}
    assert passing_on - raising == {"model.py", "decoder.py"}, passing_on
    changing = flat("docs", "maintainers.md").split("## Changing `lib`", 1)[1]   # moved there (audit 23, T-1)
    assert "](#lib-what-it-answers-and-what-it-refuses)" in changing
    own = re.search(r"Only the functions of `lib/(\w+\.py)`, which imports nothing from `lib`, check their arguments "
                    r"themselves\.", changing)
    assert own and raising == {"validate.py", own.group(1)}, (own, raising)
    imports = [node for node in ast.walk(trees[own.group(1)]) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert not [node for node in imports if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "")
                                                                                  .split(".")[0] == "lib")]
    assert not [a.name for node in imports if isinstance(node, ast.Import) for a in node.names
                if a.name.split(".")[0] == "lib"]
    for guide in ("docs/maintainers.md",):
        text = flat(guide)
        said = re.findall(r"no other module (?:of `?lib`? )?raises an exception of its own(?: \(a bare `raise` only "
                          r"passes one on\))?,? except `lib/(\w+\.py)`", text, re.I)
        assert len(said) == 1 and raising == {"validate.py", *said}, (guide, said, raising)


def test_the_readme_leaves_out_of_the_appendix_the_modules_the_appendix_leaves_out():
    """README.md's row of the appendix names the modules of lib the appendix does not list, as whole modules: those
    the assertion in src/chapters/appendix.py adds to MODULES (the row once said only the argument checks of
    lib.validate were left out, though `checked` and `float_dtype` are left out with them). CONTRIBUTING.md's layout
    names them too (read56 A1 C4: it said the appendix listed every public function and class of lib), and step 4
    of a new function names the modules of `ON_DEMAND` as the appendix has them. That step gives the two ways a new
    module goes (read57 A1 C5: it said a module could be added to `lib.__all__` alone, and called ON_DEMAND what the
    appendix imports on demand): lib/__init__.py imports exactly the modules of `lib.__all__`, so `import lib` loads
    them and no other, and the comment under that import names the others, those of ON_DEMAND and lib.validate."""
    import importlib
    import lib
    code = (ROOT / "src" / "chapters" / "appendix.py").read_text(encoding="utf-8")
    left_out = set(re.findall(r'"(\w+)"', re.search(r"== \{\*MODULES, ([^}]*)\}", code).group(1)))
    row = re.search(r"^\| – \| `appendix` \|(.*)$", (ROOT / "README.md").read_text(encoding="utf-8"), re.M).group(1)
    assert set(re.findall(r"except those of `lib\.(\w+)`", row)) == left_out, (row, left_out)
    contributing = flat("docs", "maintainers.md")     # "Changing lib" moved there (audit 23, T-1)
    steps = contributing[contributing.index("### A new function"):contributing.index("## The test suite")]
    said = re.search(r"lists the public functions and classes of every module of `lib` except "
                     r"((?:`lib\.\w+`(?:, | and )?)+)", contributing)
    assert said and set(re.findall(r"`lib\.(\w+)`", said.group(1))) == left_out, said
    on_demand = re.findall(r'"(\w+)"', re.search(r"^ON_DEMAND = \[([^\]]*)\]", code, re.M).group(1))
    named = re.search(r"A new module of `lib` is either loaded by `import lib` or imported on demand\. In the first "
                      r"case, import it in `lib/__init__\.py` and add it to `lib\.__all__`\. In the second, as with "
                      r"((?:`\w+`(?:, | and )?)+) \(`from lib import (\w+)`\), add it to `ON_DEMAND` in "
                      r"`src/chapters/appendix\.py` and to the comment under the import in `lib/__init__\.py`\.",
                      flat("docs", "maintainers.md"))   # read69 A: moved there, where a maintainer looks for it
    assert ("[A new module of `lib`](#a-new-module-of-lib) says where a new module is named." in steps
            and "ON_DEMAND" not in steps and "ON_DEMAND" not in flat("CONTRIBUTING.md"))
    assert named and re.findall(r"`(\w+)`", named.group(1)) == on_demand and named.group(2) in on_demand, named
    init = (ROOT / "lib" / "__init__.py").read_text(encoding="utf-8")
    imported = re.search(r"^from \. import ([\w, ]+)\n\n?((?:#.*\n)+)__all__", init, re.M)
    assert imported and imported.group(1).split(", ") == lib.__all__, "lib/__init__.py imports other than lib.__all__"
    comment = " ".join(line.lstrip("# ") for line in imported.group(2).splitlines())
    assert set(re.findall(r"\blib\.(\w+)", comment.split("On demand:")[1].split("Not in lib:")[0])) == \
        {*on_demand, "validate"}, comment
    for name in on_demand:                  # not loaded by `import lib`, yet importable by name
        assert importlib.import_module(f"lib.{name}") and name not in lib.__all__


def test_the_spec_modules_are_loaded_as_the_exercise_guide_says():
    """docs/exercises.md: a spec module defines NOTEBOOK and EXERCISES, every module of grading/specs/ whose name
    does not start with `_` is one (it once said every module, though _common is skipped), and the registry lists
    their exercises in module-name order, importing a module when one of its ids is asked for (it once said the
    modules were "loaded in name order", though a lookup by id imports only the module that declares it)."""
    from grading import registry
    text = flat("docs", "exercises.md")
    # read84 I E3: what to create and how the registry finds it are no longer one bullet
    assert "add `grading/specs/exNN_name.py`, which defines `NOTEBOOK` and an `EXERCISES` list;" in text
    assert ("Every module of `grading/specs/` whose name does not start with `_` is "
            "a spec module. The registry (`grading/registry.py`) lists their exercises in module-name order; it "
            "imports a module when one of its exercises is asked for by id, and every module when the whole list "
            "is.") in text
    modules = [ex.module for ex in registry.Registry().values()]
    assert modules == sorted(modules)
    lookup = registry.Registry()
    some_id, its_module = next(iter(lookup.index().items()))
    assert lookup[some_id].module == its_module and lookup._all is None and list(lookup._by_module) == [its_module]
    names = [p.stem for p in (ROOT / "grading" / "specs").glob("*.py") if p.stem != "__init__"]
    assert any(n.startswith("_") for n in names)
    assert registry._spec_modules("grading.specs") == [f"grading.specs.{n}" for n in sorted(names)
                                                       if not n.startswith("_")]


def test_partial_credit_is_rounded_as_the_exercise_guide_says():
    """docs/exercises.md: under --partial the exercise's points are rounded once, not each group's share (2 points,
    2 of 3 groups: 1.33, where rounded shares would give 1.34)."""
    from types import SimpleNamespace

    from grading.batch.runner import partial_points
    text = flat("docs", "exercises.md")
    assert "The exercise earns its points × (groups passed ÷ all its groups), rounded once to 2 decimals." in text
    cases = [(SimpleNamespace(name=f"t{i}", kind="values"), False) for i in range(3)]
    assert partial_points(SimpleNamespace(points=2), cases, {0, 1}) == (1.33, [2, 3])


def test_the_graders_time_breakdown_says_its_parts_overlap():
    """docs/benchmark-history.md's breakdown of a graded notebook's time: parts that add up to more than the total are
    said to overlap (they once added up to 49.0 s of a 44.5 s run without a word), and a run at `--jobs 1` has no
    second worker (it once said "both workers")."""
    text = flat("docs", "benchmark-history.md")
    start = text.index("### Where a graded notebook's time goes")
    passage = text[start:text.index("### Three changes that followed", start)]
    total = float(re.search(r"([\d.]+) s of wall time", passage).group(1))
    parts = [float(s) for s in re.findall(r"(?:starts|cells|diagnoses|calls|pages):? ([\d.]+) s\b", passage)]
    assert len(parts) == 5, parts
    assert sum(parts) <= total or "the parts overlap" in passage.lower(), (sum(parts), total)
    assert "--jobs 1" not in passage or "both workers" not in passage


def test_what_benchmark_history_md_says_of_the_corpus_batch_and_of_chapter_7_holds():
    """docs/benchmark-history.md says what a clash is as `_clash` in tests/test_mistakes_batch.py decides it (the page
    once used "clashing entries" three times without saying), in which file `cases_and_expected` is, and cites the
    subsection "Five seeds" under the section of §7 that holds it (it once quoted the title alone)."""
    from types import SimpleNamespace

    from grading.exercises import EXERCISES
    from test_mistakes import cases_and_expected
    from test_mistakes_batch import _clash
    text = flat("docs", "benchmark-history.md")
    assert ("Two entries *clash* when one of them also defines the function of the other's exercise: in one "
            "notebook, the later cell would replace the other's answer (`_clash` in `tests/test_mistakes_batch.py`)"
            in text)
    mask, heads = (SimpleNamespace(exercise=e.id, code=f"def {e.function}(x):\n    return x\n")
                   for e in list(EXERCISES.values())[:2])
    assert not _clash(mask, heads)
    both = SimpleNamespace(exercise=mask.exercise, code=mask.code + heads.code)
    assert _clash(both, heads) and _clash(heads, both)
    assert "`cases_and_expected` (also in `tests/test_mistakes.py`)" in text
    assert cases_and_expected.__module__ == "test_mistakes"
    m = re.search(r"\(§(\d+)\.(\d+), \"([^\"]+)\"\)", text)
    assert m, "docs/benchmark-history.md no longer cites a subsection of §7"
    chapter = next((ROOT / "src" / "chapters").glob(f"{int(m.group(1)):02d}_*.py")).read_text(encoding="utf-8")
    sections = re.split(r"^## ", chapter, flags=re.M)
    [section] = [s for s in sections if s.startswith(f"{m.group(1)}.{m.group(2)} ")]
    assert f"\n### {m.group(3)}\n" in section, m.group(0)


def test_chinese_queries_are_cut_where_site_readme_says():
    """site/README.md: the browser cuts a Chinese query with a word list the build makes with jieba (it once said the
    queries were cut with jieba, which the browser never runs); the function it names makes that list."""
    from tools import search_index
    text = flat("site", "README.md")
    assert "cut with jieba" not in text
    assert "which the build makes with jieba (`chinese_words` in `tools/search_index.py`)" in text
    assert callable(search_index.chinese_words)


def test_the_dtype_rule_and_the_sandboxs_namespaces_are_as_the_code_has_them():
    """docs/maintainers.md gives lib's dtype rule with the exceptions lib/__init__.py's docstring states (it once gave
    the rule alone), and the cgroup namespace as bwrap's `--unshare-cgroup-try`, made where the kernel allows it."""
    import lib
    text = flat("docs", "maintainers.md")
    m = re.search(r"\*\*one dtype rule\*\* for every function, stated with its exceptions in the docstring of "
                  r"`lib/__init__\.py`: (.*?)[.;] [Tt]he exceptions: (.*?);", text)
    assert m, "docs/maintainers.md no longer gives the dtype rule with its exceptions"
    named = re.findall(r"`([\w.]+)`", m.group(2))
    assert len(named) >= 5 and not [n for n in named if f"``{n}``" not in lib.__doc__], named
    from grading.batch import sandbox
    source = (ROOT / "grading" / "batch" / "sandbox.py").read_text(encoding="utf-8")
    assert "where the kernel allows it, cgroup (`--unshare-cgroup-try`)" in text
    assert '"--unshare-cgroup-try"' in source and sandbox.Sandbox.bwrap_options


def test_every_browser_test_file_carries_the_timeout_the_guide_gives():
    """docs/maintainers.md: every browser test file marks its tests with `pytestmark = ...`; every test file that
    drives the browser carries that mark (tests/test_site_figure_sizes.py once had none)."""
    text = flat("docs", "maintainers.md")
    mark = re.search(r"every browser test file marks its tests with `(pytestmark = pytest\.mark\.timeout\(\d+, [^`]*\))`",
                     text).group(1)
    browser = [p for p in sorted((ROOT / "tests").glob("test_*.py"))
               if re.search(r"\bin_chromium\b|\bchromium_thread\b|\bopen_page\b|\.new_page\(|\bplaywright\b",
                            p.read_text(encoding="utf-8"))]
    assert len(browser) >= 8, browser
    assert not [p.name for p in browser if mark not in p.read_text(encoding="utf-8")]


def test_the_gradebooks_column_examples_give_the_exercises_points():
    """An example gradebook column, `ID (max N)`, in docs/instructors.md or in the docstring of `to_wide_csv`, gives
    that exercise's own points (the docstring once showed `mask-1 (max 3)` of a 1-point exercise)."""
    from grading.batch import report
    from grading.exercises import EXERCISES
    texts = [(ROOT / "docs" / "instructors.md").read_text(encoding="utf-8"), report.to_wide_csv.__doc__]
    said = [(i, n) for text in texts for i, n in re.findall(r"`+([a-z]+-\d+) \(max (\d+)\)`", text)]
    assert len(said) >= 3, said
    assert not [(i, n) for i, n in said if EXERCISES[i].points != int(n)], said


def test_the_benchmarks_are_named_in_the_order_make_bench_runs_them():
    """docs/maintainers.md opens "Benchmarks" with the scripts `make bench` runs, in the Makefile's order."""
    text = flat("docs", "maintainers.md")
    m = re.search(r"`make bench` runs (\w+) scripts, in this order: (.*?)\. The first script times", text)
    assert m, "docs/maintainers.md no longer lists what make bench runs"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = re.search(r"^bench:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    run = re.findall(r"(bench/\w+\.py)", target)
    assert re.findall(r"`(bench/\w+\.py)`", m.group(2)) == run and NUMBERS[m.group(1)] == len(run), run


def test_the_bugs_make_mutants_is_said_to_insert_are_mutants():
    """docs/maintainers.md's examples of what `make mutants` puts into lib are mutants of tools/mutants.py (it once
    named "a cache step at position 0", which no mutant is). Each phrase is mapped to the mutant it describes; a new
    example needs a line here."""
    from tools.mutants import MUTANTS
    described = {
        "a mask that forbids the diagonal": "diagonal-forbidden",
        "or aligns top-left": "top-left-mask",
        "a missing scale": "scores-missing-scale",
        "a reshape-only head split": "plain-reshape-split",
        "a forgotten W_O": "forgotten-w-o",
        "an ignored offset": "ignored-offset",
        "assignment instead of scatter-add": "assignment-not-scatter-add",
        "a key stored in the cache as the value": "key-stored-as-value",
    }
    text = flat("docs", "maintainers.md")
    m = re.search(r"puts realistic bugs into `lib` one at a time: (.*?), … \(`--list` shows them all\)", text)
    assert m, "docs/maintainers.md no longer lists examples of the mutants"
    examples = [e.strip() for e in re.split(r", (?![^(]*\))", m.group(1).replace(" or aligns", ", or aligns"))]
    assert examples == list(described), examples
    assert set(described.values()) <= {mutant.name for mutant in MUTANTS}


def test_the_tables_that_stay_tables_on_a_phone_are_named_with_the_code():
    """site/README.md and docs/glossary.md say which prose tables of CARD_COLUMNS columns or more read as cards on a
    phone, and both name the two kinds `course_book.table_cards` leaves as tables: a grid of short numbers and a table
    with merged cells (site/README.md once named neither)."""
    sys.path.insert(0, str(ROOT / "site"))
    import course_book
    head = "".join(f"<th>{h}</th>" for h in ("row", "what", "why"))
    table = ('<table class="table"><thead><tr>' + head + "</tr></thead><tbody><tr><td>a</td><td>{}</td><td>{}</td>"
             "</tr></tbody></table>")
    prose, grid = table.format("some words", "more words"), table.format("0.7", "12")
    merged = prose.replace("<td>a</td>", '<td colspan="2">a</td>', 1)
    assert course_book.table_cards(prose) != prose and "course-cards" in course_book.table_cards(prose)
    assert course_book.table_cards(grid) == grid and course_book.table_cards(merged) == merged
    assert course_book.CARD_COLUMNS == 3
    for guide in ("site/README.md", "docs/glossary.md"):
        text = flat(guide)
        said = list(re.finditer(r"(?:three|3) (?:columns or more|or more columns)", text))
        assert said, f"{guide} no longer says which tables read as cards on a phone"   # (a shortening once dropped it)
        for one in said:
            near = text[max(0, one.start() - 400):one.end() + 400]
            assert "merged cells" in near and "short numbers" in near, (guide, near)


def test_what_a_hidden_failure_may_name_is_the_same_in_both_guides():
    """docs/instructors.md and docs/maintainers.md say which exception classes a failed hidden test may name (those
    Python, NumPy or IPython define: runner.KNOWN_EXCEPTIONS) and that it may name a plain dtype (instructors.md once
    left out IPython and the dtype)."""
    import builtins
    import numpy as np
    from grading.batch.runner import KNOWN_EXCEPTIONS, PLAIN_DTYPES
    python = {n for n, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException)}
    numpy = {n for n, v in vars(getattr(np, "exceptions", np)).items() if isinstance(v, type)} | {"LinAlgError"}
    assert KNOWN_EXCEPTIONS - python - numpy == {"StdinNotImplementedError"}     # IPython's input()
    assert "float64" in PLAIN_DTYPES
    for guide in ("instructors.md", "maintainers.md"):
        text = flat("docs", guide)
        assert re.search(r"an exception's class,? \(?(?:only )?when Python, NumPy or IPython defines it", text), guide
        assert re.search(r"a dtype,? \(?(?:only )?when it is a plain one", text), guide


def test_a_command_the_guides_give_names_the_interpreter():
    """The scripts under tools/ are not executable (no `#!` line, mode 644), so "run `tools/expected.py`" would fail
    at a shell; the guides write `.venv/bin/python tools/…` (CONTRIBUTING.md once told the reader to run three of them
    bare)."""
    assert not any(path.stat().st_mode & 0o111 for path in (ROOT / "tools").glob("*.py"))
    bare = []
    for guide in GUIDES:
        text = flat(guide)
        bare += [f"{guide}: {m.group(0)}" for m in re.finditer(r"\b[Rr]un `tools/[\w/]+\.py[^`]*`", text)]
        # a script with its options in one code span is a command too (docs/exercises.md once gave
        # `tools/expected.py --check`, CONTRIBUTING.md `tools/i18n.py check`)
        bare += [f"{guide}: {m.group(0)}" for m in re.finditer(r"`tools/[\w/]+\.py [^`]*`", text)]
    assert not bare, bare


def test_the_report_keys_the_guides_name_start_at_the_reports_top():
    """The report's isolation sits under `grader` (pipeline.py writes `grader`, `summary`, `rows`, `timing` at the
    top), so the guides write `grader.isolation.kernels`; instructors.md and maintainers.md once wrote
    `isolation.kernels`, a key a reader would look for at the top."""
    pipeline = (ROOT / "grading" / "batch" / "pipeline.py").read_text(encoding="utf-8")
    grader = pipeline[pipeline.index('"grader": {'):]
    assert '"isolation": isolation' in grader[:grader.index('"summary":')]
    for guide in GUIDES:
        text = (ROOT / guide).read_text(encoding="utf-8")
        assert not re.search(r"(?<![\w.])isolation\.kernels", text), guide


def test_the_texts_the_glossary_test_reads_are_the_ones_words_md_lists():
    """docs/words.md names the file of every module whose messages tests/test_glossary.py checks (it once left out
    the labels of the interactive figures and the diagrams)."""
    from test_glossary import MESSAGE_MODULES
    text = flat("docs", "words.md")
    listed = text[text.index("## What the test reads"):text.index("Before it matches")]
    for module in MESSAGE_MODULES:
        assert f"`{module.replace('.', '/')}.py`" in listed, module


def test_student_lang_auto_is_described_as_one_language_per_submission():
    """`--student-lang auto` gives a submission the language of most of its notebooks (runner.submission_language);
    docs/instructors.md and the grader's --help once said each notebook kept its own."""
    from types import SimpleNamespace

    from grading.batch import cli
    from grading.batch.runner import submission_language
    infos = [SimpleNamespace(language=lang) for lang in ("ru", "en", "ru")]
    assert submission_language(infos, SimpleNamespace(lang="auto"))[0] == "ru"
    [option] = [a for a in cli.build_parser()._actions if "--student-lang" in a.option_strings]
    assert option.default == "auto" and "one language per submission" in option.help
    assert "most of its notebooks" in option.help and "own" not in option.help
    text = (ROOT / "docs" / "instructors.md").read_text(encoding="utf-8")
    start = text.index("`--student-lang` forces one language on every student's rows and pages")
    said = " ".join(text[start:text.find("\n\n", start)].split())          # that paragraph
    assert "most of their notebooks" in said and not re.search(r"\bown\b", said), said
    # the tie rule of the --help, where the guide gives the rule; a student's page points there for it (the guide
    # once stated the rule twice)
    assert "on a tie that of the notebook changed last" in option.help
    assert "(on a tie, the language of the notebook changed last)" in said
    assert flat("docs", "instructors.md").count("notebook changed last") == 1
    assert re.search(r"It is written in the student's language \(see \[The class at a glance\]"
                     r"\(#the-class-at-a-glance\) for how it is chosen\)", flat("docs", "instructors.md"))
    assert text.index("## The class at a glance") < start


def test_the_quiz_example_is_one_the_build_accepts(tmp_path):
    """site/README.md's quiz example, saved as a quiz source of §2, is loaded by tools/quizzes.py as the build
    loads a source (a missing translation aside: the example's texts need not be in the catalogue), and every
    witness in it holds (the example once left out how a key is checked, so a copy of it was refused)."""
    from tools import quizzes
    text = (ROOT / "site" / "README.md").read_text(encoding="utf-8")
    m = re.search(r"## Questions at the end of a subsection\n.*?```python\n(.*?)```", text, re.S)
    assert m, "site/README.md no longer shows a quiz source"
    source = tmp_path / "quizzes" / "02_heads.py"
    source.parent.mkdir()
    source.write_text(m.group(1), encoding="utf-8")
    sections = quizzes.load(source, quizzes.CHAPTER_DIR / "02_heads.py", strict=False)
    questions = [q for s in sections for q in s.questions]
    assert questions and all(q.witness is not None for q in questions)
    assert [problem for q in questions for problem in quizzes.verify(q)] == []
    assert all(quizzes.verify(swapped) for q in questions for _, swapped in quizzes.with_key_swapped(q))


def heading_anchors(text):
    """The anchors GitHub gives a Markdown file's headings (a repeated one gets -1, -2 ...)."""
    anchors, seen = set(), {}
    for line in re.sub(r"^```.*?^```", "", text, flags=re.S | re.M).splitlines():
        m = re.match(r"#{1,6} (.+?)\s*$", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
            anchors.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
            seen[slug] = seen.get(slug, 0) + 1
    return anchors


@pytest.mark.parametrize("guide", GUIDES)
def test_every_link_between_the_guides_lands(guide):
    """Every relative link of a guide names a file of the repository and, after `#`, one of its headings (the
    exercise designers' part of CONTRIBUTING.md moved to docs/exercises.md, and links followed it)."""
    path = ROOT / guide
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    text = re.sub(r"`[^`]*`", "", text)
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    broken = []
    for link in links:
        if re.match(r"[a-z]+:", link):                                # https:, mailto:
            continue
        file, _, anchor = link.partition("#")
        target = (path.parent / file).resolve() if file else path
        if not target.exists():
            broken.append(link)
        elif anchor and target.suffix == ".md" and anchor not in heading_anchors(target.read_text(encoding="utf-8")):
            broken.append(link)
    assert not broken, f"{guide}: links to no file or no heading: {broken}"


def test_the_page_weight_bounds_the_guides_give_are_the_builds():
    """site/README.md and docs/maintainers.md give the bounds tests/test_site.py enforces (MEDIAN_GOAL,
    HEAVIEST_LIMIT), not a measurement that goes stale (site/README.md once said "now the median is about 230 KB")."""
    from tools import build_site
    readme = flat("site", "README.md")
    assert f": {build_site.MEDIAN_GOAL // 1000} KB for the median page, " in readme
    assert f", {build_site.HEAVIEST_LIMIT // 1000_000} MB for any page" in readme
    assert "`MEDIAN_GOAL` and `HEAVIEST_LIMIT` in `tools/build_site.py`" in readme
    assert not re.search(r"\bNow\b", readme)
    maintainers = flat("docs", "maintainers.md")
    assert (f"median page at most {build_site.MEDIAN_GOAL // 1000} KB, "
            f"every page at most {build_site.HEAVIEST_LIMIT // 1000_000} MB") in maintainers


def test_the_exercise_setup_cell_is_shown_as_the_sources_write_it():
    """docs/exercises.md shows the first code cell of an exercise notebook with the tag that folds it on the site;
    every exercise source writes it so."""
    guide = (ROOT / "docs" / "exercises.md").read_text(encoding="utf-8")
    # read84 I E2: shown as the sources write it, the import lines inline (it once stood for them with `IMPORTS`)
    assert re.search(r'```python\nmd\(INSTALL_NOTE\)\n\ncode\(setup_cell\("""[^"]*"""\), tags=\("hide-input",\)\)\n```',
                     guide)
    for source in sorted((ROOT / "src" / "solutions").glob("ex[0-9][0-9]_*.py")):
        text = source.read_text(encoding="utf-8")
        assert re.search(r'code\(setup_cell\("""[^"]*"""\), tags=\("hide-input",\)\)', text), source.name


def test_make_notebooks_is_not_said_to_execute_the_exercise_notebooks():
    """The exercise notebooks are written without outputs (tools/build_notebooks.py): neither `make help` nor
    CONTRIBUTING.md says that `make notebooks` executes every notebook, nor does docs/translating.md's step 11 of
    "Adding a language" say it of tools/build_notebooks.py (read75 T C2)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    contributing = flat("CONTRIBUTING.md")
    assert "never executed" in (ROOT / "tools" / "build_notebooks.py").read_text(encoding="utf-8")
    for text in (makefile, contributing, flat("docs", "translating.md")):
        assert not re.search(r"execute[sd]? every notebook", text)
    assert ("It executes all but the exercise notebooks, which it writes without outputs."
            in adding_a_language())
    # the appendix is executed too (read63 A2 L10: "the section and solution notebooks" left it out)
    assert "`make notebooks` writes every notebook and executes all but the exercise notebooks." in contributing
    # read73 A L2: not a setup step, so it closes "Build and test one source" instead of "Set up once"
    # read76 A L7: after the numbered steps, not inside step 2
    one_source = contributing[contributing.index("### Build and test one source"):
                              contributing.index("### When the English changes")]
    assert "`make notebooks` writes every notebook" in one_source[one_source.index(" 4. "):]
    # read79 A L4: it interrupted the loop between step 4 and the exercise sets; it now closes the subsection
    assert one_source.index("To rebuild everything at once: `make notebooks` writes") > one_source.index(
        "With Chromium installed, `tests/test_diagrams.py` also builds the whole site")


def test_adding_a_language_lists_the_sidebar_captions():
    """A language missing from a caption of _toc.yml fails test_glossary and leaves the sidebar in English, so the
    list of what adding a language takes names _toc.yml."""
    steps = adding_a_language()
    assert "5. Add its caption for each part of the sidebar in `_toc.yml`" in steps and "`_config.yml`" in steps


def test_the_scroll_hint_is_quoted_as_the_page_shows_it():
    """site/README.md quotes the line a too-wide box gets on a phone; it is the English of the text
    `site.script.scroll_hint` that tools/build_site.py hands course.js, word for word (it once quoted a shorter
    text), and the same item says code gets the fade only."""
    from tools import build_site
    script = (ROOT / "site" / "static" / "course.js").read_text(encoding="utf-8")
    hint = build_site.SCRIPT_WORDS["scroll_hint"]
    readme = flat("site", "README.md")
    assert f'"{hint.english}" in the page\'s language (`{hint.key}` in `course.po`)' in readme
    assert "TEXTS.scroll_hint" in script
    assert "code gets the fade only" in script and "code gets the fade but not the line" in readme


def test_the_incremental_state_is_where_the_build_keeps_it():
    """Each language's Sphinx build keeps its doctrees and environment in `_build/doctrees/<lang>/`, not in its
    output folder: site/README.md and tools/build_site.py's docstring say so (both once said the output folder)."""
    build = (ROOT / "tools" / "build_site.py").read_text(encoding="utf-8")
    assert 'DOCTREES = BUILD / "doctrees"' in build and "doctreedir=str(DOCTREES / lang)" in build
    assert "``_build/doctrees/<lang>/``" in ast.get_docstring(ast.parse(build))
    readme = flat("site", "README.md")
    assert "incremental state (doctrees and environment) in `_build/doctrees/<lang>/`" in readme


def test_mathjax_is_said_to_stay_only_on_pages_with_a_widget_and_formulas():
    """trim_page_assets keeps MathJax's script on a page only if the page shows a widget and has formulas."""
    code = (ROOT / "site" / "course_site.py").read_text(encoding="utf-8")
    assert "keep_math = keep_widgets and page_has_math(doctree)" in code
    readme = flat("site", "README.md")
    assert "MathJax's script is loaded only on a page that has both a widget and formulas" in readme


def test_the_make_grade_example_is_one_line():
    """The recipe is `$(PY) -m grading $(GRADE_ARGS)`: a GRADE_ARGS value split over two lines would run the
    second half as a command of its own, so the example in docs/instructors.md closes its quote on its line."""
    assert "$(PY) -m grading $(GRADE_ARGS)" in (ROOT / "Makefile").read_text(encoding="utf-8")
    lines = [line for line in (ROOT / "docs" / "instructors.md").read_text(encoding="utf-8").splitlines()
             if "make grade GRADE_ARGS=" in line]
    assert lines and all(line.count('"') == 2 for line in lines), lines


def test_the_generic_code_cell_example_carries_no_timing_tag():
    """Only genuine timings get `nbval-ignore-output`; the example of a plain code cell in CONTRIBUTING.md has no
    tag, and the tagged line says it is for a timing."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    shared = [line for line in text.splitlines() if line.startswith("code(") and "shared by every language" in line]
    tagged = [line for line in text.splitlines() if line.startswith("code(") and "nbval-ignore-output" in line]
    assert shared and not [line for line in shared if "tags=" in line]
    assert tagged and all("timing" in line for line in tagged)


def test_the_glossary_names_examples_as_the_course_does():
    """The sections call a worked example "Example N" (§2.5, §3.4); the glossary's English column says so, and
    "Worked example" is left to the exercises' cells that use the learner's functions. The Russian writing rules say
    how Russian writes it in a heading and in mid-sentence (the note once stood in the Russian column, in Russian,
    then in the English column, where read57 G L4 found a Russian rule out of place), and the Russian texts do so."""
    text = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    assert "| Example N (a worked example in a section) | 例 N | Пример N |" in text
    assert "| Worked example N" not in text
    russian = flat("docs", "glossary.md").split("### Russian", 1)[1].split("###", 1)[0]
    assert ("* A worked example is «Пример N» in a heading (`## 2.5 Пример 1: …`) and «пример N» in mid-sentence "
            "(пример 1 из §2.5). (`tests/test_guides.py`)") in russian          # read69 G C1: this test checks it
    chapters = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "src" / "chapters").glob("[0-9][0-9]_*.py"))
    assert re.search(r"## \d\.\d+ Example \d", chapters)
    ru = (ROOT / "src" / "locales" / "ru" / "LC_MESSAGES" / "chapters.po").read_text(encoding="utf-8")
    quizzes = (ROOT / "src" / "locales" / "ru" / "LC_MESSAGES" / "quizzes.po").read_text(encoding="utf-8")
    assert "## 2.5 Пример 1:" in ru and "пример 1 из §2.5" in quizzes
    # read71 G C2: the rule names this test, so the test reads every Russian text for a breach of it
    assert miscased_examples("## 3.4 пример 2: с позициями") and miscased_examples("как показал Пример 1 из §2.5")
    assert not miscased_examples("## 3.4 Пример 2: с позициями\n\nПример 1 показал, что пример 1 из §2.5 и примера 1")
    from babel.messages.pofile import read_po
    found, wrong = 0, []
    for path in [*(ROOT / "src" / "locales" / "ru" / "LC_MESSAGES").glob("*.po"),
                 *(ROOT / "course_i18n" / "locales" / "ru" / "LC_MESSAGES").glob("*.po")]:
        with open(path, "rb") as handle:
            for message in read_po(handle):
                for string in ([message.string] if isinstance(message.string, str) else message.string):
                    found += len(EXAMPLE_RU.findall(string or ""))
                    wrong += miscased_examples(string or "")
    assert found >= 8, found
    assert not wrong, wrong


EXAMPLE_RU = re.compile(r"(?<!\w)[Пп]ример(?:а|у|ом|е)? \d")


def miscased_examples(text):
    """The worked examples a Russian text names against docs/glossary.md: «Пример N» in a heading, «пример N» in
    mid-sentence (a sentence may start with «Пример N»)."""
    wrong = []
    for match in EXAMPLE_RU.finditer(text):
        before = text[:match.start()]
        heading = re.search(r"(?:^|\n)#+ \d+\.\d+ $", before)
        sentence_start = not before.strip() or re.search(r"(?:[.!?]\s|\n)\s*$", before)
        capital = match.group(0)[0] == "П"
        if (heading and not capital) or (capital and not heading and not sentence_start):
            wrong.append(text[max(0, match.start() - 30):match.end() + 10])
    return wrong


def test_when_kernels_start_fresh_is_said_as_the_sandbox_decides_it():
    """docs/maintainers.md says when kernels start fresh instead of warm (`--fresh-kernels`, userns mode, a failed warm
    self-check) and what each sandboxed mode makes of the kernel's user: the statements sandbox.py's docstring makes and
    the grader's options allow (facts about modes and fresh kernels were wrong in three readings of the guides)."""
    from grading.batch import cli, sandbox
    text = flat("docs", "maintainers.md")
    doc = " ".join(sandbox.__doc__.split())
    assert ("Kernels start fresh instead under `--fresh-kernels`, in userns mode, and after a failed warm "
            "self-check.") in text
    assert ("``warm=False`` (``--fresh-kernels``), userns mode, and a warm start that fails its self-check start "
            "every kernel as a fresh Python") in doc
    options = {o: a for a in cli.build_parser()._actions for o in a.option_strings}
    assert options["--fresh-kernels"].default is False
    assert set(options["--isolation"].choices) == {"auto", "root", "userns", "container", "none"}
    assert ("in root mode, each kernel runs as a fresh uid with no capability and no_new_privs; in userns mode, as "
            "the grader's uid in a user namespace") in text
    assert "fresh unprivileged uid" in doc and "keeps the grader's uid and holds no capability" in doc
    assert "`--isolation auto` never falls back to `none`" in text and "never falls back to ``none``" in doc
    # a fresh kernel in root mode says why the warm start was not used; userns mode never has a warm start
    box = sandbox.Sandbox.__new__(sandbox.Sandbox)
    box.warm, box.mode, box.warm_note = None, "root", "the self-check failed"
    assert "no warm start: the self-check failed" in box._describe_kernels()
    box.mode = "userns"
    assert box._describe_kernels() == "a fresh Python in each sandbox"


def test_the_sizes_and_counts_site_readme_gives_are_the_codes():
    """site/README.md: a figure's smallest text on screen (10 px), the text size at a panel's starting width (11 px)
    and the number of questions a subsection has (three to five) are the constants of course.js, course_book.py and
    tools/quizzes.py. A panel's 11 px is its flex basis, not a floor (the guide once said "no less than"): it may
    shrink (flex 1 1) and never grows past its drawn width."""
    sys.path.insert(0, str(ROOT / "site"))
    import course_book

    from tools import quizzes
    text = flat("site", "README.md")
    script = (ROOT / "site" / "static" / "course.js").read_text(encoding="utf-8")
    m = re.search(r"no further than the size where its smallest text is (\d+) px \(`MIN_TEXT_PX` in `course\.js`\)\. "
                  r"A panel of a multi-panel figure is sized at build time instead: it starts at the width where its "
                  r"smallest text is (\d+) px \(`PANEL_TEXT_PX` in `course_book\.py`\) and grows to its drawn size at "
                  r"most\. Panels that fit side by side at that width share a line, the others wrap; on a column "
                  r"narrower than a panel, the panel shrinks to fit\.", text)
    assert m, "site/README.md no longer gives the figures' smallest text"
    assert f"MIN_TEXT_PX = {m.group(1)};" in script and course_book.PANEL_TEXT_PX == int(m.group(2))
    source = flat("site", "course_book.py")
    assert "scale = min(1.0, PANEL_TEXT_PX / smallest)" in source
    assert 'style="flex: 1 1 {min(w, round(w * scale))}px; max-width: min(100%, {w}px); ' in source
    m = re.search(r"A subsection with questions has (\w+) to (\w+) of them\.", text)
    assert m and (NUMBERS[m.group(1)], NUMBERS[m.group(2)]) == (quizzes.MIN_QUESTIONS, quizzes.MAX_QUESTIONS)


def test_the_notebook_time_target_is_the_benchmarks():
    """docs/maintainers.md gives the targets bench/notebook_times.py times a notebook against: one for every
    notebook, longer ones (`TARGETS`) only for §7 and §8, the two that train, and one for a whole folder, which the
    script prints as it computes it (read62 A2 C4: CONTRIBUTING.md said "all the section notebooks of one language
    together", but the script prints the three languages' total divided by three, and counts the appendix in
    `chapters/`). CONTRIBUTING.md gave the same targets until read62 (A L7, A2 L19: one bullet of many clauses); it
    now links that list, says that no test enforces it, and names the two notebooks that train."""
    from course_i18n import LANGUAGES
    text = flat("CONTRIBUTING.md")
    link = ('([docs/maintainers.md, "Benchmarks: what `make bench` times"]'
            '(docs/maintainers.md#benchmarks-what-make-bench-times))')
    assert f"Keep each notebook within its time target {link}." in text
    assert "No test enforces these targets." in text and "If §7 or §8, the two that train, runs over its target," in text
    m = re.search(r"`bench/notebook_times\.py`: at most (\d+) s for each notebook, except §7 \(at most (\d+) s\) and "
                  r"§8 \(at most (\d+) s\), the two that train, and under (\d+) s per language for all the notebooks "
                  r"of `chapters/` together, which the script prints as the three languages' total divided by three\.",
                  flat("docs", "maintainers.md"))
    assert m, "docs/maintainers.md no longer gives the notebooks' time targets"
    bench = (ROOT / "bench" / "notebook_times.py").read_text(encoding="utf-8")
    assert f"target = TARGETS.get(path.stem, {m.group(1)})" in bench
    assert 'flag = "" if seconds <= target else f"   over the {target} s target"' in bench
    assert 'parser.add_argument("--kinds", nargs="+", default=["chapters", "solutions"])' in bench
    targets = re.search(r"^TARGETS = (\{[^}]*\})", bench, re.M).group(1)
    assert {stem[:2] for stem, seconds in ast.literal_eval(targets).items() if seconds > int(m.group(1))} == {"07", "08"}
    assert ast.literal_eval(targets) == {"07_decoder": int(m.group(2)), "08_real_text": int(m.group(3))}, targets
    # what it prints for a folder: the total and a third of it, every notebook of the folder counted
    assert f"PER_LANGUAGE_TARGET = {m.group(4)} " in bench
    assert "per_language = total / 3" in bench and "for path in sorted((ROOT / kind).glob(f\"*/{args.only or '*'}.ipynb\")):" in bench
    assert len(LANGUAGES) == 3 and all((ROOT / "chapters" / lang / "appendix.ipynb").exists() for lang in LANGUAGES)
    assert "A benchmark, not a test: it prints and never fails." in bench
    assert re.search(r"^bench:.*\n(?:\t.*\n)*?\t\$\(PY\) bench/notebook_times\.py\n",
                     (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
    # one notebook timed alone, without the rest of `make bench` (read63 A L16: the guide named only `make bench`)
    # read66 A C1: `--only` times the section in every language, and again in a plain kernel for §7 and §8
    # read69 A L13: "once more as a learner's plain kernel runs it" read as true of every section
    # read71 A L10, L11: "a learner's plain kernel" unexplained; "`make bench` times all of them" read as if it timed
    # only notebooks, though it runs four scripts
    # read74 A L15: the targets and the tool, once one bullet of six sentences, are two bullets
    # read79 A L9: "as a learner's Jupyter starts it", where "it" could be the section
    # read80 A L12: "one ... one" hard to parse
    one = re.search(r"\* `\.venv/bin/python bench/notebook_times\.py --only (\w+)` times one section in every "
                    r"language\. It marks each time over its target\. For §7 and §8 it also times each notebook in a "
                    r"plain kernel, with NumPy's and OpenBLAS's own defaults, as a learner's Jupyter would run it\. "
                    r"`make bench` times every "
                    r"notebook in `chapters/` and `solutions/`, along with its other benchmarks\.", text)
    # read75 A C1: the exercise notebooks are never timed (--kinds defaults to chapters and solutions)
    assert not re.search(r"`make bench` times every notebook,", text)
    assert "enforces these targets. * `.venv/bin/python bench/notebook_times.py --only" in text
    assert 'a plain kernel (no numerical configuration), as a learner\'s Jupyter starts it' in bench
    assert len(re.search(r"^bench:.*\n((?:\t.*\n)*)", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
               .group(1).splitlines()) > 1
    assert "learner=True" in bench and 'glob(f"*/{args.only' in bench
    assert "if path.stem in TARGETS:\n                wall, cpu = run(path, learner=True)" in bench
    assert one and 'parser.add_argument("--only"' in bench and (ROOT / "chapters" / "en" / f"{one.group(1)}.ipynb").is_file()
    # a new section keeps within the same targets; read73 A C2: "the target for all of `chapters/` together" read as
    # one budget for every language's notebooks, but the target is per language, a third of the three languages' total
    # read76 A L16: the link to docs/maintainers.md is given once, in "Rules for code cells"; read80 A L11: this
    # bullet linked that rule, a list of nine bullets, and now links the targets themselves
    assert f"notebooks within the [time targets](docs/maintainers.md#benchmarks-what-make-bench-times), including " \
        f"{m.group(4)} s per language for all of `chapters/`;" in text and text.count(link) == 1
    assert "[time targets](#rules-for-code-cells)" not in text
    assert "including the target for all of `chapters/` together" not in text


def test_the_docstrings_the_guides_point_to_give_what_the_guides_left_to_them():
    """CONTRIBUTING.md and docs/exercises.md send the reader to docstrings instead of repeating them: the order in
    which check() finds a language (grading/feedback.py), the rules of a diagnosis (grading/diagnoses.py), how
    slowdown() measures the load (tests/conftest.py), how a notebook's numerical configuration is checked
    (tools/numeric_configs.py) and why the root-mode tests fail without root under CI=true (`unavailable()` in
    tests/conftest.py: read63 A C3, A2 C4 found that the docstring of tests/test_grading_sandbox.py, which the guide
    named, only restates the rule). Each docstring is there and says it."""
    doc = lambda *parts: ast.get_docstring(ast.parse(ROOT.joinpath(*parts).read_text(encoding="utf-8")))  # noqa: E731
    exercises, contributing = flat("docs", "exercises.md"), flat("CONTRIBUTING.md")
    assert "the docstring of `grading/feedback.py` says how it finds that language" in exercises
    assert re.search(r"1\. .*2\. .*3\. .*COURSE_LANGUAGE.*4\. .*COURSE_LANG.*5\. .*6\. English",
                     doc("grading", "feedback.py"), re.S)
    assert "The docstring of `grading/diagnoses.py` gives the rules." in exercises
    assert "A mistake is named only when every mutant that fits" in " ".join(doc("grading", "diagnoses.py").split())
    assert "`slowdown()` from the same file, which measures how loaded the machine is (its docstring" in exercises
    [slowdown] = [node for node in ast.parse((ROOT / "tests" / "conftest.py").read_text(encoding="utf-8")).body
                  if isinstance(node, ast.FunctionDef) and node.name == "slowdown"]
    assert "Measured, not guessed" in ast.get_docstring(slowdown)
    assert ("A notebook fails if its kernel reports another; `tools/numeric_configs.py` lists them, and its "
            "docstring explains the check.") in contributing
    assert "fails the notebook" in " ".join(doc("tools", "numeric_configs.py").split())
    # what root-mode tests do without root (CONTRIBUTING once sent the reader to exercises.md, which names no root mode;
    # read71 A: the sandbox's tests moved to docs/maintainers.md, "Testing a change to the sandbox")
    assert ("Without root, the root-mode tests are skipped; under `CI=true` (CI runs as root, with every piece "
            "installed) they fail instead (`unavailable()` in `tests/conftest.py`).") in _sandbox_tests_part()
    [unavailable] = [node for node in ast.parse((ROOT / "tests" / "conftest.py").read_text(encoding="utf-8")).body
                     if isinstance(node, ast.FunctionDef) and node.name == "unavailable"]
    assert "under CI=true, where every piece is installed, fail instead" in " ".join(
        ast.get_docstring(unavailable).split())
    assert 'unavailable("root mode needs root")' in (ROOT / "tests" / "test_grading_sandbox.py").read_text(
        encoding="utf-8")
    assert re.search(r"^# CI entry point: a clean clone, root,", (ROOT / ".ci" / "run").read_text(encoding="utf-8"),
                     re.M)
    # what CI=true is, said where the guide first names it (read61 A2 L23: it was said only in the sandbox part)
    # read74 A L4: CI is spelled out before `CI=true` is named
    first = contributing.index("`CI=true`")
    # read75 A L3: "There, those tests" was ambiguous
    assert contributing[:first].endswith("In continuous integration (CI, the automatic test run), `.ci/run` sets "), \
        contributing[first - 80:first]
    assert re.search(r"^export CI=true$", (ROOT / ".ci" / "run").read_text(encoding="utf-8"), re.M)
    sandbox = " ".join(doc("tests", "test_grading_sandbox.py").split())
    assert "These tests need root" in sandbox and "Locally they skip" in sandbox and "under CI=true" in sandbox


def _constants(*parts):
    """The module-level constants (literals) of a source file, read without importing it."""
    tree = ast.parse(ROOT.joinpath(*parts).read_text(encoding="utf-8"))
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            names = [target] if isinstance(target, ast.Name) else getattr(target, "elts", [])
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                continue
            values = [value] if isinstance(target, ast.Name) else list(value)
            found.update({n.id: v for n, v in zip(names, values) if isinstance(n, ast.Name)})
    return found


def test_the_benchmark_targets_in_maintainers_md_are_the_scripts():
    """docs/maintainers.md lists the target of every figure the bench scripts print a target for (it once left out
    the KV cache's speedup and bench/decoder.py's training run), with the scripts' own constants."""
    text = flat("docs", "maintainers.md")
    cache, decoder, notebooks = (_constants("bench", name) for name in
                                 ("attention_cache.py", "decoder.py", "notebook_times.py"))
    m = re.search(r"`fast_causal_attention` \(`bench/fast_attention.py`, printed as \"lib\"\) divided by torch's "
                  r"is at most ([\d.]+) at \((\d+),(\d+),(\d+),(\d+)\) and at most "
                  r"([\d.]+) at \((\d+),(\d+),(\d+),(\d+)\),", text)
    assert m, "docs/maintainers.md no longer gives attention's targets"
    assert {tuple(map(int, m.group(2, 3, 4, 5))): float(m.group(1)),
            tuple(map(int, m.group(7, 8, 9, 10))): float(m.group(6))} == cache["TARGETS"]
    m = re.search(r"with the KV cache, one step at T = 1024 is at least (\d+) times faster than the full pass", text)
    assert m and int(m.group(1)) == cache["CACHE_SPEEDUP_TARGET"], "the KV cache's target"
    m = re.search(r"`bench/decoder\.py`: the whole §7 training run \((\d+) steps, float64\) in at most (\d+) s", text)
    assert m and (int(m.group(1)), int(m.group(2))) == (decoder["TRAINING_STEPS"], decoder["TRAINING_TARGET"])
    m = re.search(r"`bench/notebook_times\.py`: at most (\d+) s for each notebook, except §7 \(at most (\d+) s\) "
                  r"and §8 \(at most (\d+) s\), the two that train, and under (\d+) s per language "
                  r"for all the notebooks of `chapters/` together, which the script prints as the three languages' "
                  r"total divided by three", text)
    assert m, "docs/maintainers.md no longer gives the notebooks' targets"
    assert f"target = TARGETS.get(path.stem, {m.group(1)})" in flat("bench", "notebook_times.py")
    assert {"07_decoder": int(m.group(2)), "08_real_text": int(m.group(3))} == notebooks["TARGETS"]
    assert int(m.group(4)) == notebooks["PER_LANGUAGE_TARGET"]
    assert "per_language = total / 3" in flat("bench", "notebook_times.py")    # the mean of the three languages
    # the per-language target is the one of the kind chapters (the sections and the appendix), summed over its notebooks
    assert "per language for chapters)" in flat("bench", "notebook_times.py")
    assert '"chapters"' in flat("bench", "notebook_times.py") and "total += seconds" in flat("bench", "notebook_times.py")



def test_benchmark_history_says_which_notebooks_run_in_a_plain_kernel():
    """docs/benchmark-history.md says bench/notebook_times.py runs only the two notebooks that train (§7, §8) a second
    time in a plain kernel (it once said "each page"): the script does so for the stems of `TARGETS` only."""
    text = flat("docs", "benchmark-history.md")
    assert ("It runs the two notebooks that train (§7 and §8) twice: in the page's own configuration, then in a plain "
            "kernel") in text
    bench = flat("bench", "notebook_times.py")
    assert "if path.stem in TARGETS: wall, cpu = run(path, learner=True)" in bench
    assert set(_constants("bench", "notebook_times.py")["TARGETS"]) == {"07_decoder", "08_real_text"}


def test_benchmark_history_says_which_section_7_pages_were_over_the_target():
    """docs/benchmark-history.md, "Adam on one vector": the sentence after the table says which pages stayed over
    §7's target (`TARGETS` of bench/notebook_times.py) as the table's "after" column has it; it once called the
    Russian page the one over the target while en and zh were over it too in their slowest runs."""
    text = flat("docs", "benchmark-history.md")
    start = text.index("### Adam on one vector")
    passage = text[start:text.index("### ", start + 4)]
    after = {lang: (float(low), float(high)) for lang, low, high in
             re.findall(r"\| (\w\w), its configuration \| [\d.]+–[\d.]+ s \| ([\d.]+)–([\d.]+) s \|", passage)}
    from course_i18n import LANGUAGES
    assert set(after) == set(LANGUAGES), after                     # a row per page of the course
    m = re.search(r"Only the (\w+) page was over §7's (\d+) s target in every run; (\w+) and (\w+) went over it only "
                  r"in their slowest runs \(([\d.]+) s\)\.", passage)
    assert m, "docs/benchmark-history.md no longer says which §7 pages were over the target"
    target = _constants("bench", "notebook_times.py")["TARGETS"]["07_decoder"]
    assert int(m.group(2)) == target
    assert {lang for lang, (low, high) in after.items() if low > target} == {{"Russian": "ru"}[m.group(1)]}
    assert {lang for lang, (low, high) in after.items() if low <= target < high} == {m.group(3), m.group(4)}
    assert {high for lang, (low, high) in after.items() if lang in m.group(3, 4)} == {float(m.group(5))}


def test_exercises_md_says_which_references_the_notebooks_do_not_show():
    """docs/exercises.md: a spec names the answer the notebook shows (`answer=`) for every `lib` reference and for the
    grading/references.py references no notebook shows (`LIBRARY_ONLY` of tests/test_references.py, heads-3's
    multi_head_causal); it once said `answer=` was for lib references only."""
    import test_references
    text = flat("docs", "exercises.md")
    assert ("This is the case for every `lib` reference, and for heads-3, whose reference (`multi_head_causal`) "
            "no notebook shows (`LIBRARY_ONLY` in `tests/test_references.py`; a new reference that no notebook shows "
            "goes into that set).") in text
    specs = " ".join(flat("grading", "specs", path.name) for path in (ROOT / "grading" / "specs").glob("ex*.py"))
    pairs = re.findall(r"reference=([\w.\"]+), (answer=)?", specs)
    assert len(pairs) > 20 and all(answer for ref, answer in pairs if not ref.startswith('"'))
    assert {ref.strip('"').rsplit(".", 1)[1] for ref, answer in pairs if ref.startswith('"') and answer} \
        == test_references.LIBRARY_ONLY == {"multi_head_causal"}


def test_the_command_that_runs_a_new_exercise_selects_all_its_tests():
    """docs/exercises.md's `-k` for a new exercise selects the tests named by its id, by its notebook (the notebook
    checks, ``[exNN_name]``) and by neither (the rubric, the diagnosis rate); it once said `-k mask-4`, which missed
    the last two. Read with pytest's own -k parser; every test function of the two files that takes no parameter
    is selected, one parametrized by another exercise is not."""
    from _pytest.mark.expression import Expression
    m = re.search(r'\n *\.venv/bin/python -m pytest tests/test_exercises\.py tests/test_mistakes\.py -k "([^"`]+)"\n',
                  (ROOT / "docs" / "exercises.md").read_text(encoding="utf-8"))
    assert m, "docs/exercises.md no longer gives the command for a new exercise"
    selects = lambda name: Expression.compile(m.group(1)).evaluate(lambda word: word in name)  # noqa: E731
    assert selects("test_solution_passes_every_case[mask-4]") and not selects("test_solution_passes_every_case[mask-1]")
    assert selects("test_committed_notebooks_match_the_source[exNN_name]")
    assert selects("test_the_first_code_cell_is_the_language_line_and_the_imports[en-exNN_name]")
    assert not selects("test_committed_notebooks_match_the_source[ex01_allowed_set]")
    for name in ("test_exercises.py", "test_mistakes.py"):
        for node in ast.parse((ROOT / "tests" / name).read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_") and not node.decorator_list:
                assert selects(node.name), node.name

def test_no_variable_is_called_plain_mask():
    """docs/maintainers.md's rule "No argument or variable is named just `mask`" holds in lib/ and in the code
    cells of src/ (§5 once looped `for mask in ...`, and lib/validate.py had `_first(mask)`; read62 A2 L14: "called
    plain `mask`" read as if it were about `f.plain`)."""
    assert "No argument or variable is named just `mask`" in flat("docs", "maintainers.md")  # moved (audit 23, T-1)
    found = []
    for path in sorted(ROOT.glob("lib/*.py")) + sorted(ROOT.glob("src/*/*.py")):
        trees = [ast.parse(path.read_text(encoding="utf-8"))]
        if path.parts[-3] == "src":
            cells = [node.args[0].value for node in ast.walk(trees[0]) if isinstance(node, ast.Call)
                     and getattr(node.func, "id", None) == "code" and node.args
                     and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)]
            trees = []
            for cell in cells:
                try:
                    trees.append(ast.parse(cell))
                except SyntaxError:       # a cell that shows a mistake on purpose, or uses IPython syntax
                    pass
        for tree in trees:
            names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
            names |= {node.arg for node in ast.walk(tree) if isinstance(node, ast.arg)}
            if "mask" in names:
                found.append(str(path.relative_to(ROOT)))
    assert not found, found


def test_instructors_md_says_how_its_tested_examples_are_run():
    """docs/instructors.md and maintainers.md once described line by line how the tests run the blocks marked
    `<!-- tested: … -->` (and said "as written" of all of them); now both point to the docstring of
    tests/test_grading_class.py, which must name every marked block and what the tests leave out, and the code
    must do what that docstring says."""
    text = flat("docs", "instructors.md")
    assert ("The course's own tests run these examples, some in part; the docstring of "
            "`tests/test_grading_class.py` says what each runs and what it leaves out.") in text
    assert "part: the docstring of `tests/test_grading_class.py` says how;" in flat("docs", "maintainers.md")
    marked = re.findall(r"<!-- tested: ([\w-]+) -->", text)
    assert marked == ["make-key", "slurm-array", "slurm-merge", "ci-matrix"], marked
    source = ROOT.joinpath("tests", "test_grading_class.py").read_text(encoding="utf-8")
    doc = " ".join(ast.get_docstring(ast.parse(source)).split())
    for name in marked:
        assert f"``{name}``" in doc, name
    for fact in ("``make-key``: run as written", "``SLURM_ARRAY_TASK_ID`` set",
                 "without its leading ``sbatch --wait grade.sbatch && ``", "its ``make venv && `` dropped",
                 "``make -n venv`` checks", "compared word for word, not run", "shards are copied by hand", "the merge job uploads must exist"):
        assert fact in doc, fact
    tests = " ".join(source.split())
    assert 'shell("bash grade.sbatch", work, {"SLURM_ARRAY_TASK_ID": str(task)})' in tests
    assert 'prefix = "sbatch --wait grade.sbatch && "' in tests and "shell(merge[len(prefix):], work)" in tests
    assert 'if "run" in s and s["run"] != setup]' in tests and "assert setup == (" in tests
    assert '.replace("make venv && ", "")' in tests and '["make", "-n", "venv"]' in tests
    assert 'shell(doc_block("make-key"), work)' in tests


def test_adding_a_language_names_the_inputs_of_section_8_and_claims_no_complete_list():
    """§8 trains on a verse file per language and its source lists the languages itself, so docs/translating.md's
    steps for a new language name both; the tables the tests keep per language are not listed one by one (two
    readings found such a list incomplete), the guide says to run the whole suite instead."""
    from course_i18n import LANGUAGES
    source = (ROOT / "src" / "chapters" / "08_real_text.py").read_text(encoding="utf-8")
    assert '"zh en ru".split()' in source and 'f"verse_{lang}.txt"' in source
    assert all((ROOT / "lib" / "corpus" / f"verse_{lang}.txt").exists() for lang in LANGUAGES)
    part = adding_a_language()
    assert "`lib/corpus/verse_<xx>.txt`" in part and "`src/chapters/08_real_text.py`" in part
    assert "run the whole suite" in part
    assert not re.search(r"takes (six|seven|\w+) steps|no change to any source", part), part


def test_the_translation_tools_numbers_are_the_ones_contributing_gives():
    """docs/translating.md: an edited paragraph keeps its translation (fuzzy) when at least SIMILAR alike (it once
    said "fuzzy" without a bound). CONTRIBUTING.md no longer says how many missing entries a builder names (read61 A2
    L19: the error message shows it), so it gives no number for it that could go stale."""
    similar = _constants("tools", "i18n.py")["SIMILAR"]
    shown = _constants("tools", "prose.py")["SHOWN_PROBLEMS"]
    assert f"at least {round(similar * 100)}% alike (`SIMILAR` in `tools/i18n.py`)" in flat("docs", "translating.md")
    assert f"the first {shown}" not in flat("CONTRIBUTING.md")



def test_the_translators_steps_are_what_the_catalogue_checks_ask_for(tmp_path, monkeypatch):
    """docs/translating.md's "Editing an entry" (and step 2 of CONTRIBUTING.md's loop, which points to it) says to
    remove the marks `tools/i18n.py update` writes: the fuzzy mark with the old English under it (`#| msgid`), and an
    obsolete entry (`#~`). It once said "edit only `msgstr`" and "remove a `fuzzy` mark", and a translator who did just that left
    `tools/i18n.py check` failing on the obsolete entry and tests/test_translations.py on the `#|` lines. Here
    `update` writes both marks, and the guide's steps, done in a text editor, leave nothing for either check once
    `update` has laid the file out again, as the guide says to do after saving a catalogue (a PO editor wraps its
    lines, and a text editor may leave a blank line at the end: tests/test_translations.py failed on such a file
    that `check` passed)."""
    import test_translations
    from tools import i18n
    text, guide = flat("CONTRIBUTING.md"), flat("docs", "translating.md")
    steps = guide[guide.index("## Editing an entry"):guide.index("## Plural forms")]
    assert 'remove `fuzzy` from the `#,` line and delete the `#| msgid "…"` lines under it. Keep any other flag on ' \
           "that line, such as `python-brace-format`." in steps and "An obsolete entry (`#~`)" in steps
    assert "After saving a catalogue, run `.venv/bin/python tools/i18n.py update`:" in steps
    loop = text[text.index("## A quick loop"):text.index("## Where a change goes")]
    assert ('Translate the new and fuzzy entries. Then remove the `fuzzy` marks that `update` left, and the obsolete '
            'entries, as [docs/translating.md, "Editing an entry"](docs/translating.md#editing-an-entry) says. After '
            'saving, run `update` again: it undoes what an editor changes in the layout (wrapped lines, the header, a blank '
            'line at the end), which `check` fails on.') in loop     # read80 A L5: why
    # the loop and the translators' guide give one rule for an obsolete entry (the loop once said to delete it
    # outright, then repeated the rule): the guide gives it, and the loop only points to it, so the two cannot differ
    # read71 T L3: "delete it once nothing in it is worth keeping" read as optional, though check fails on it
    keep = ("**An obsolete entry (`#~`)**, often a rewritten text's old translation. Copy what you can use into the "
            "new entry, then delete it: `check` fails until you do.")
    assert keep in steps and "worth keeping" not in steps and not re.search(r"#\||#~|worth keeping|copy what you", loop)
    texts, old, locales = {"demo.kept": "Goodbye, {name}"}, i18n._new_catalogue("ru"), tmp_path / "locales"
    old.add("Bye, {name}", "Пока, {name}", context="demo.kept")
    old.add("Gone", "Ушло", context="demo.gone")
    i18n.write_if_changed(i18n.template_path(locales), i18n.template(texts))
    path = i18n.catalogue_path("ru", locales)
    i18n.write_if_changed(path, i18n.merge(old, texts, "ru"))
    written = path.read_text(encoding="utf-8")
    assert '#, fuzzy' in written and '#| msgid "Bye, {name}"' in written and '#~ msgctxt "demo.gone"' in written
    assert any("obsolete (#~); delete it" in line for line in i18n.problems(texts, locales, ["ru"]))
    monkeypatch.setattr(test_translations, "ROOT", tmp_path)
    # only the fuzzy mark removed: the old English stays behind, and so does the obsolete entry
    path.write_text(written.replace("#, fuzzy, ", "#, "), encoding="utf-8")
    with pytest.raises(AssertionError, match="old English left on current entries"):
        test_translations.test_no_entry_keeps_an_old_english_text_once_it_is_current(path)
    assert [line for line in i18n.problems(texts, locales, ["ru"]) if "obsolete (#~)" in line]
    # the guide's steps: the mark with its #| lines removed, the obsolete entry deleted
    path.write_text("\n".join(line for line in written.replace("#, fuzzy, ", "#, ").splitlines()
                              if not line.startswith(("#|", "#~"))) + "\n", encoding="utf-8")
    test_translations.test_no_entry_keeps_an_old_english_text_once_it_is_current(path)
    assert [line.rsplit("; ", 1)[1] for line in i18n.problems(texts, locales, ["ru"])] == ["run tools/i18n.py update"]
    i18n.write_if_changed(path, i18n.merge(i18n.read(path, "ru"), texts, "ru"))            # what `update` does
    assert i18n.problems(texts, locales, ["ru"]) == []


def test_words_md_names_the_placeholders_the_glossary_check_reads_as_one_word():
    """docs/words.md: the check replaces each named `{placeholder}` with `¤` (PLACEHOLDER in tests/test_glossary.py).
    It once said each `{placeholder}`, though `{0}`, `{}` and the builder's `{{lang}}` are not read so. The examples
    it gives are read as `¤`, its example sentence reads as it says, and the ru `seed` row it names does name `¤`."""
    import test_glossary
    text = flat("docs", "words.md")
    m = re.search(r"The check replaces each named `\{placeholder\}` \(([^)]*)\) with the single character `¤`", text)
    examples = re.findall(r"`([^`]+)`", m.group(1)) if m else []
    assert examples and all(test_glossary.PLACEHOLDER.fullmatch(e) for e in examples), examples
    assert [test_glossary.PLACEHOLDER.sub("¤", s) for s in ("{0}", "{}", "{{lang}}")] == ["{0}", "{}", "{¤}"]
    said = re.search(r'\("([^"]+)" reads as "([^"]+)"\)\. A pattern may name `¤`, as the Russian `seed` row does\.',
                     text)
    assert said and test_glossary.PLACEHOLDER.sub("¤", said.group(1)) == said.group(2), said
    rows = [pattern.pattern for lang, pattern, _, _ in test_glossary.RULES if lang == "ru" and r"\bseed\b" in pattern.pattern]
    assert rows and all("¤" in row for row in rows), rows

def test_words_md_names_the_tools_whose_versions_are_not_prose():
    """docs/words.md names every tool whose version number the glossary check blanks (NAMED_TOOLS in
    tests/test_glossary.py) and says what becomes of another's; it once said "a few named tools" (read57 G L14)."""
    import test_glossary
    text = flat("docs", "words.md")
    m = re.search(r'the check blanks out what is not prose: .*? the version numbers of (.*?) \("Python 3\.12"\)\.', text)
    assert m and all(tool in m.group(1) for tool in test_glossary.NAMED_TOOLS), m
    # read63 G L18, L20: what tests/test_number_style.py checks is said once, in the row's note
    # read71 G L9: it once said the version "reads as a decimal point"; the row is [Markdown], hence "Russian Markdown"
    said = re.search(r'Any other tool\'s version is prose: in Russian Markdown, the row `\\d\\.\\d` reports '
                     r'"Matplotlib (\d\.\d)"\. Write the version in code font, or add the tool to '
                     r"`NAMED_TOOLS` in `tests/test_glossary.py`\.", text)
    assert said and "Matplotlib" not in test_glossary.NAMED_TOOLS
    [row] = [row for row in test_glossary.RULES if row[0] == "ru" and row[1].pattern == r"\d\.\d"]   # the row it names
    assert "(`tests/test_number_style.py` also checks the interface texts and the maths)" in row[2], row
    assert row[3], "the row is said to report it in Markdown only"
    found = test_glossary.violations([("demo", "ru", f"Matplotlib {said.group(1)}", "markdown")])
    assert len(found) == 1 and "decimal comma" in found[0], found
    assert not test_glossary.violations([("demo", "ru", f"Matplotlib {said.group(1)}", "message")])
    # read62 G L16: in an interface text the row is silent, and tests/test_number_style.py reports it there
    import test_number_style
    assert test_number_style.number_problems("ru", f"Matplotlib {said.group(1)}")
    assert {"CELLS", "QUIZ_TEXTS", "catalogue_texts"} <= set(vars(test_number_style))


def test_the_launch_note_is_said_to_exist_only_on_a_site_with_a_repository():
    """§0.5 says nothing of Binder in the notebooks; site/course_book.py appends LAUNCH_NOTE to the site's §0.5 only
    when _config.yml names the repository and a BinderHub. README.md once said, without that condition, that §0.5
    explains the menu; docs/maintainers.md says it now, with the condition (README leaves the note to it)."""
    book = (ROOT / "site" / "course_book.py").read_text(encoding="utf-8")
    assert 'LAUNCH_NOTE = ("chapters/00_start", "sec-0-5")' in book
    assert 'not (launch.get("repo_url") and launch.get("binderhub_url"))' in book
    assert "binder" not in (ROOT / "src" / "chapters" / "00_start.py").read_text(encoding="utf-8").lower()
    binder = flat("docs", "maintainers.md").split("## Binder and launch buttons", 1)[1].split(" ## ", 1)[0]
    assert ("gives the menu a *Binder* entry, which opens the page's notebook in the page's language; with that"
            " entry, a note at the end of §0.5's prose explains the menu. An empty `binderhub_url` drops the entry"
            " and the note. A site built with `url` empty has neither the menu nor the note" in binder)
    assert "§0.5's prose" not in flat("README.md")
    # the note ends the prose of §0.5, then come its questions (it once said the note ends §0.5)
    order = [line.strip().split("(")[0] for line in book.splitlines() if line.strip().startswith(("insert_launch_note(",
                                                                                                  "insert_quizzes("))]
    assert order == ["insert_launch_note", "insert_quizzes"], order
    assert 'section("read and run"' in (ROOT / "src" / "quizzes" / "00_start.py").read_text(encoding="utf-8")


def test_the_launch_note_names_what_the_menu_next_to_the_rocket_holds():
    """§0.5's note on Binder (site.book.launch.binder) says the menu next to the rocket holds the repository's home
    page, the page's notebook file and the Python file that notebook is generated from, on an exercise's page the
    file with its solutions. That is what add_source_buttons puts right after the launch menu on every notebook
    page of a GitHub or GitLab repository: chapters, exercises and solutions alike (the note once said only that
    the menu "leads to the repository itself")."""
    sys.path.insert(0, str(ROOT / "site"))
    import course_book
    import course_site
    note = course_book.LAUNCH["binder"].english
    assert ("The menu next to the rocket leads to the repository itself: its home page, the page's notebook file and "
            "the Python file that notebook is generated from (on an exercise's page, the file that holds its "
            "solutions)." in note)
    for repo_url in ("https://github.com/o/r", "https://gitlab.com/o/r"):
        for pagename in ("chapters/02_heads", "exercises/ex02_heads", "solutions/ex02_heads"):
            class App:
                class config:
                    course_lang = "en"
                    course_launch = {"repo_url": repo_url, "binderhub_url": "https://mybinder.org"}

                class env:
                    metadata = {}

            context = {"page_source_suffix": ".ipynb"}
            course_site.add_launch_buttons(App, pagename, "page.html", context, None)
            course_site.add_source_buttons(App, pagename, "page.html", context, None)
            labels = [b["label"] for b in context["header_buttons"]]
            assert labels == ["launch-buttons", "source-buttons"], labels      # the menu next to the rocket
            entries = context["header_buttons"][1]["buttons"]
            assert [b["label"] for b in entries] == ["source-repository-button", "source-notebook-button",
                                                     "source-source-button"], (repo_url, pagename)
            assert entries[0]["url"] == repo_url
            assert entries[1]["url"].endswith(course_site.repo_path(pagename, "en"))
            source = course_site.source_path(pagename)
            assert entries[2]["url"].endswith(source) and (ROOT / source).is_file()
            # an exercise's notebook is generated from its solved file
            assert source.startswith("src/solutions/") == pagename.startswith(("exercises/", "solutions/"))


def test_adding_a_language_names_the_keys_of_its_site_config_block():
    """docs/translating.md, "Adding a language", step 4 names the keys of a language's block in _config.yml (it once
    said only "its site settings"); label and sphinx_language must be what LANGUAGE_TABLE says
    (tests/test_languages.py)."""
    import yaml
    text = adding_a_language()
    step = text[text.index("4. Add its block under `languages:` in `_config.yml`"):text.index("5. Add its caption")]
    named = set(re.findall(r"`(\w+)`", step)) - {"languages", "ru"}
    block = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["languages"]["ru"]
    assert named == set(block), (named, set(block))
    assert "copy the `ru:` block" in step
    languages_test = (ROOT / "tests" / "test_languages.py").read_text(encoding="utf-8")
    assert 'spec["label"] == language(code).name' in languages_test and "sphinx_language" in languages_test


def test_the_guides_that_give_the_python_requirement_name_python3_venv():
    """The Makefile makes .venv with `python -m venv`, which Debian's and Ubuntu's own Python cannot do without the
    package python3-venv; README.md's "Running the course" and docs/instructors.md's quick start say so. The README
    says it once, before its two subsections (running the notebooks, building the site), which both make .venv; it
    once said it in each, and a sentence there that gives the Python requirement must still name the package."""
    assert "$(PYTHON) -m venv $(VENV)" in (ROOT / "Makefile").read_text(encoding="utf-8")
    start = flat("README.md").split("## Running the course", 1)[1].split(" ## ", 1)[0]
    shared = start.split(" ### ", 1)[0]
    assert "Python 3.11 or newer (on Debian or Ubuntu, also the package `python3-venv`)" in shared, shared
    assert "### Run the notebooks" in start and "### Build the site and run the tests" in start, start
    said = [sentence for sentence in re.split(r"(?<=\.) ", start) if "Python 3.11" in sentence]
    assert said and all("`python3-venv`" in sentence for sentence in said), said
    quick = flat("docs", "instructors.md").split("**Quick start.**", 1)[1][:1500]
    assert "package `python3-venv`" in quick and "sudo apt install bubblewrap make python3-venv" in quick


def test_the_quick_start_names_what_its_commands_run_with_and_where():
    """docs/instructors.md's quick start lists what running its commands needs and installs it in one apt line: every
    program its commands start with (`make`, which a minimal Debian does not have, was once left out), and it says
    they run at the root of a clone, where the Makefile and the grader's package are."""
    quick = (ROOT / "docs" / "instructors.md").read_text(encoding="utf-8").split("**Quick start.**", 1)[1]
    prose, block = quick.split("```bash\n", 1)
    block = block.split("```", 1)[0]
    prose = " ".join(prose.split())
    programs = {line.split()[1] if line.startswith("sudo ") else line.split()[0] for line in block.splitlines()
                if line.strip()}
    assert "make" in programs and "venv:" in (ROOT / "Makefile").read_text(encoding="utf-8")
    [apt] = [line.split("#")[0].split()[3:] for line in block.splitlines() if line.startswith("sudo apt install ")]
    assert "make" in apt and "bubblewrap" in apt and "* `make`," in prose, (apt, prose)
    assert "In a clone of the course's repository" in prose and "at the clone's root" in prose
    assert (ROOT / "Makefile").is_file() and (ROOT / "grading" / "__main__.py").is_file()


def test_the_ambiguous_flag_is_explained_with_the_duplicates_rule():
    """A gradebook's `flags` can say `ambiguous` (report.flags) when the copies' times are less than SAME_TIME
    apart, or under the rule `ambiguous`; docs/instructors.md says when, with SAME_TIME's value."""
    same = _constants("grading", "batch", "duplicates.py")["SAME_TIME"]
    assert 'out.add("ambiguous")' in (ROOT / "grading" / "batch" / "report.py").read_text(encoding="utf-8")
    text = flat("docs", "instructors.md")
    assert (f"The column also says `ambiguous` when the rule could not choose: under `newest` or `best` when the newest copies "
            f"were saved less than {same:g} s apart, and always under `ambiguous`.") in text


def test_an_exercise_set_is_linked_to_its_chapter_by_its_number():
    """site/course_book.py links exNN_* pages to chapter NN by the number in the name alone; docs/exercises.md says
    that NN must be the chapter the set practises (a set numbered by order of creation got wrong links)."""
    book = (ROOT / "site" / "course_book.py").read_text(encoding="utf-8")
    assert book.count('re.match(r"(?:ex)?(\\d\\d)_", stem)') >= 2
    text = flat("docs", "exercises.md")
    assert "`NN` is the number of the chapter the set practises" in text and "by that number alone" in text


def test_the_layout_table_names_every_top_level_folder():
    """docs/maintainers.md's "Layout: where everything lives" has a row for every folder at the top of the repository
    (it once left out docs/, binder/ and .ci/): the folders of TOP."""
    folders = set(TOP)
    assert {"docs", "binder", ".ci", "lib", "tools"} <= folders, folders
    layout = (ROOT / "docs" / "maintainers.md").read_text(encoding="utf-8")
    layout = layout.split("## Layout: where everything lives", 1)[1].split("\n\n", 2)[1]
    listed = {m.split("/")[0] for m in re.findall(r"^\| `([^`]+)`", layout, re.M)}
    assert folders <= listed, f"folders without a row: {sorted(folders - listed)}"


def test_gradescope_is_not_said_to_link_sections():
    """On Gradescope the grader writes plain-text results and no HTML page (run_autograder passes --gradescope, never
    --feedback), so COURSE_SITE_URL does nothing there; instructors.md once called it "the only way" on Gradescope."""
    run = (ROOT / "tools" / "gradescope" / "run_autograder").read_text(encoding="utf-8")
    assert "--gradescope" in run and "--feedback" not in run and "COURSE_SITE_URL" not in run
    text = flat("docs", "instructors.md")
    assert "(Gradescope), which has no `_config.yml`" not in text
    assert "Gradescope's results are plain text and link nothing." in text


def test_a_missing_interface_translation_is_not_said_to_stop_the_build():
    """A text missing from course.po shows in English (course_i18n.catalogue's docstring) and fails
    `tools/i18n.py check`; only the prose catalogues stop the notebook build (tools/build_notebooks.py)."""
    from course_i18n import catalogue
    assert "gives the English" in " ".join(catalogue.__doc__.split())
    build = ast.get_docstring(ast.parse((ROOT / "tools" / "build_notebooks.py").read_text(encoding="utf-8")))
    assert "a translation missing or fuzzy there stops the build" in " ".join(build.split())
    text = flat("docs", "exercises.md")
    assert "the build stops at any text without a translation" not in text
    assert ("The build stops at prose without a translation; an interface text missing from `course.po` shows in "
            "English, and `.venv/bin/python tools/i18n.py check` fails on it" in text)


def script_language_data():
    """(script, name) of every declaration of a site script that holds words of all three scripts (Latin,
    Cyrillic, Chinese): the table SCRIPT_LANGUAGE_DATA allows and the search's question patterns alike."""
    for path in sorted((ROOT / "site" / "static").glob("*.js")):
        for m in re.finditer(r"\bvar (\w+) = (.*?);\n", path.read_text(encoding="utf-8"), re.S):
            if re.search(r"[a-z]", m.group(2)) and re.search("[а-я]", m.group(2)) \
                    and re.search("[\u4e00-\u9fff]", m.group(2)):
                yield path.name, m.group(1)


def test_adding_a_language_lists_the_language_data_of_the_sites_scripts():
    """The site's scripts get their words from course.po (tools/build_site.py, tools/search_index.py); the words by
    language a script still holds, data the search parses a query with (the table tests/test_languages.py allows,
    the question patterns), are a step of "Adding a language" and named in site/README.md, which also says how the
    scripts get their words."""
    from test_languages import SCRIPT_LANGUAGE_DATA
    found = set(script_language_data())
    assert found >= SCRIPT_LANGUAGE_DATA and {name for _, name in found} >= {"QUESTION", "ASKS_CHECK", "WHY"}
    steps = adding_a_language()
    readme = flat("site", "README.md")
    for script, name in found:
        assert script == "course-search.js" and f"`site/static/{script}`" in steps
        assert f"`{name}`" in steps and f"`{name}`" in readme, name
    assert ("`tools/build_site.py` gives `course.js` its words (`site.script.*`, translated in "
            "`course_i18n/locales/<lang>/LC_MESSAGES/course.po`)") in readme
    # that catalogue (the guide names its path once: `site/locale/` holds other catalogues) has the script's words
    from tools import build_site
    for catalogue in (ROOT / "course_i18n" / "locales").glob("*/LC_MESSAGES/course.po"):
        held = catalogue.read_text(encoding="utf-8")
        assert all(f'msgctxt "{word.key}"' in held for word in build_site.SCRIPT_WORDS.values()), catalogue
    assert len(list((ROOT / "course_i18n" / "locales").glob("*/LC_MESSAGES/course.po"))) >= 2
    assert "the search index carries all the words of `course-search.js` (`site.search.*`" in readme


def test_adding_an_exercise_names_every_total_and_the_expected_values():
    """docs/exercises.md "Adding an exercise": step 8 (before the tests since read84 I C1) sends the reader to both
    totals that test_the_gradebooks_total_is_described_with_the_courses_points and test_exercises.py check (it once
    named only its own table), and step 1 says to store the expected values for a new public test too, not only a changed one."""
    text = flat("docs", "exercises.md")
    step8 = re.search(r"8\. \*\*The rubric\.\*\*(.*?)(?=9\. \*\*Tests\.\*\*)", text, re.S).group(1)
    assert "#points-the-rubric" in step8 and "](instructors.md)" in step8 and "for the whole course" in step8
    # what step 8 quotes of instructors.md is there (it once quoted "N for the whole course", which is not)
    step8 = " ".join(step8.split())
    # read84 I C3: instructors.md gives the course's points twice, and the test requires both
    assert ('the two numbers before "for the whole course", one in the `--wide-csv` row and one in the `--totals-csv` '
            'row of the table under "Gradebooks: Canvas, Moodle and a spreadsheet"') in step8
    assert "## Gradebooks: Canvas, Moodle and a spreadsheet" in flat("docs", "instructors.md")
    instructors = flat("docs", "instructors.md")
    rows = re.findall(r"^\| `(--[a-z-]+) FILE` \|.*`total \(max N\)` \(N: [^()]*, \d+ for the whole course\)",
                      (ROOT / "docs" / "instructors.md").read_text(encoding="utf-8"), flags=re.M)
    assert rows == ["--wide-csv", "--totals-csv"] and len(re.findall(r"\d+ for the whole course", instructors)) == 2
    # which test checks which total (it once said test_guides.py checked both)
    assert "`tests/test_exercises.py` checks the first total, `tests/test_guides.py` the other two" in step8
    assert "def test_points_agree_with_the_rubric_and_the_headings" in (ROOT / "tests" / "test_exercises.py").read_text(
        encoding="utf-8")
    assert "After adding or changing a public test, or changing a reference, run `.venv/bin/python tools/expected.py`" in text


def test_the_readme_says_whether_the_course_has_a_public_site():
    """README's opening says the course has no public website while `course_site_url` in _config.yml is
    empty, and that its repository has no public address while `repository.url` is empty (both were once said
    only halfway down, under "Start here"); a published address makes the sentence false, and this test says so."""
    import yaml
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    repository = (config.get("repository") or {}).get("url") or ""
    opening = flat("README.md").split(" ## ", 1)[0]
    address = config.get("course_site_url") or ""
    # read76 R L3: one clause says both, as long as both are true
    said = "neither the website nor the repository is public yet" in opening
    assert said == (not repository.strip() and not address.strip()), (
        "README.md's opening says neither the website nor the repository is public, but _config.yml gives "
        f"course_site_url {address!r} and repository.url {repository!r}: say where they are" if said else
        "README.md must say the course has no public website and no public repository while course_site_url and "
        "repository.url are empty")


def test_the_bench_command_installs_the_torch_ci_installs():
    """docs/maintainers.md says how to get the torch that make bench's attention figures need: the TEST_EXTRAS it
    gives is the Makefile's CI_EXTRAS (the version CI installs), and make bench installs TEST_EXTRAS (through dev)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    ci_extras = re.search(r"^CI_EXTRAS := (.+)$", makefile, re.M).group(1).strip()
    assert f"`make bench TEST_EXTRAS={ci_extras}`" in flat("docs", "maintainers.md")
    assert re.search(r"^bench: dev$", makefile, re.M) and "$(PIP) install $(TEST_EXTRAS)" in makefile


def test_without_torch_the_attention_bench_prints_nan_as_maintainers_md_says():
    """docs/maintainers.md: without torch, bench/attention_cache.py prints `nan` in torch's columns (it once said the
    script "leaves out" torch's figures): the script says so when torch is missing, and its rows fill torch's figure
    with NaN when there is none."""
    assert "Without torch, the script prints `nan` in torch's columns." in flat("docs", "maintainers.md")
    source = (ROOT / "bench" / "attention_cache.py").read_text(encoding="utf-8")
    assert re.search(r"except ImportError:\n\s+torch = None\n\s+print\(\"torch is not installed: its column is nan",
                     source)
    assert 'm.get("torch", float("nan"))' in source


def test_the_quick_loop_runs_the_section_in_every_language():
    """Each language's notebooks run under a numerical configuration of their own (tools/numeric_configs.py, the
    root conftest.py), so a number can print right in en and wrong in zh or ru. CONTRIBUTING.md's "A quick loop"
    once ran chapters/en/ only: its pytest command's notebook pattern now matches the section in every language."""
    from course_i18n import LANGUAGES
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    loop = text[text.index("## A quick loop"):text.index("## Where a change goes")]
    [pattern] = re.findall(r"^ *\.venv/bin/python -m pytest -q (chapters/\S+\.ipynb) ", loop, re.M)
    assert sorted(p.parent.name for p in ROOT.glob(pattern)) == sorted(LANGUAGES), pattern


def test_site_readme_names_the_tests_that_keep_heading_ids_across_languages():
    """site/README.md names the test that compares the heading ids of the three languages, which reads the built
    HTML (no browser), and the browser test of the switcher keeping the section (it once said "the browser tests"
    compare the ids)."""
    text = flat("site", "README.md")
    assert ("`tests/test_site.py` checks that every page has the same heading ids in every language, from the built "
            "HTML (`test_section_anchors_are_the_same_in_every_language`), and, in the browser, that the switcher "
            "keeps the reader's section (`test_switcher_keeps_the_section`).") in text
    tree = ast.parse((ROOT / "tests" / "test_site.py").read_text(encoding="utf-8"))
    arguments = {node.name: {a.arg for a in node.args.args} for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert "browser" not in arguments["test_section_anchors_are_the_same_in_every_language"]
    assert "browser" in arguments["test_switcher_keeps_the_section"]


def test_site_readme_says_where_accessibility_and_page_weight_are_checked():
    """docs/maintainers.md sends a reader to site/README.md's "Tests" for which file checks the site's accessibility
    and page weight; that section names them, with the file that checks both (it once named neither)."""
    assert 'site/README.md, "Tests", says which file checks what' in flat("docs", "maintainers.md")
    tests = flat("site", "README.md").split("## Tests", 1)[1]
    assert "* Every page in the browser (accessibility included), and page weight: `tests/test_site.py`." in tests
    site_tests = (ROOT / "tests" / "test_site.py").read_text(encoding="utf-8")
    assert "def test_page_weight(" in site_tests and "violations = _axe(page" in site_tests


def test_the_release_steps_say_which_date_citation_cff_carries():
    """docs/maintainers.md's release steps say that CITATION.cff's `date-released` is the date of the new changelog
    heading, which is what tests/test_release.py compares it with (the steps once left the date to be guessed)."""
    text = flat("docs", "maintainers.md")
    assert "`version` and `date-released` (the date of that new heading) in `CITATION.cff`" in text
    assert ("its `date-released` is the date of CHANGELOG.md's newest `## [X.Y.Z] - YYYY-MM-DD` heading" in text)
    release = (ROOT / "tests" / "test_release.py").read_text(encoding="utf-8")
    assert "version, date, _ = releases()[0]" in release and 'str(CITATION["date-released"]) == date' in release


def test_exercises_md_says_where_case_and_kind_are_described():
    """docs/exercises.md's `exercise(...)` example uses `Case` and `Kind`; the guide points to the docstrings that
    describe their fields (it once named neither module), and `setup`, which the example does not show, is one."""
    from grading import registry, values
    text = flat("docs", "exercises.md")
    assert "The docstrings of `Case` in `grading/values.py` and of `Kind` in `grading/registry.py`" in text
    assert values.Case.__doc__ and registry.Kind.__doc__ and "setup" in values.Case.__dataclass_fields__
    assert "a `Case` may also carry `setup`, code run before the call" in text


def _sandbox_tests_part():
    """docs/maintainers.md's "Testing a change to the sandbox", where CONTRIBUTING.md's part on the grader's sandbox
    sends the reader (read71 A: the tests moved there, where docs/maintainers.md named two of them again)."""
    text = flat("CONTRIBUTING.md")
    start = text.index("### The grader's sandbox")
    part = text[start:text.index("## ", start + 4)]
    assert ("Its last part, [Testing a change to the sandbox](docs/maintainers.md#testing-a-change-to-the-sandbox), "
            "names the tests a change must pass and how to check that the grader is no slower.") in part
    guide = flat("docs", "maintainers.md")
    start = guide.index("### Testing a change to the sandbox")
    assert guide.index("## Hidden tests and their secret") > start and "### " not in guide[start + 4:guide.index(
        "## Hidden tests and their secret")], "the sandbox's tests are no longer the last part of its section"
    assert guide.count("sudo .venv/bin/python -m pytest tests/test_grading_sandbox.py") == 1
    return guide[start:guide.index("## Hidden tests and their secret")]


def test_the_sandbox_command_runs_the_tests_the_guide_names():
    """docs/maintainers.md's part on testing a change to the sandbox (moved from CONTRIBUTING.md by read71 A) names
    the tests a change must pass and the command that runs them as root. The command once ended in a literal `…`
    (pasted, pytest found no file `…`): it now names the same files as the sentence before it, each of them a test
    file of the repository."""
    bullet = _sandbox_tests_part()
    named = re.search(r"A change to the sandbox or to `_warm\.py` must pass ((?:`tests/\S+\.py`(?:, | and )?)+) "
                      r"\(the hostile submissions\)\. Run them as root", bullet)
    [command] = re.findall(r"sudo \.venv/bin/python -m pytest ((?:tests/\S+\.py ?)+) -q", bullet)
    files = re.findall(r"`(tests/\S+\.py)`", named.group(1)) if named else []
    assert len(files) == 3 and command.split() == files, (files, command)
    assert all((ROOT / f).is_file() for f in files), files


def test_a_new_section_gets_the_entry_of_chapter_pages_the_guide_shows():
    """CONTRIBUTING.md's list for a new section names the entry of `CHAPTER_PAGES` in grading/sections.py (it once
    left it out, and a reader who followed the list met a failing tests/test_sections.py): the form it shows,
    `"N": "NN_name"` with the number without a leading zero, is the form of every entry, the entries follow the
    section notebooks of _toc.yml, and tests/test_sections.py checks that the two agree. Since read57 (A1 L13, A2
    L13) the list gives what the entry is for first, then how to write it, and names the new section's
    translations and notebooks, the steps of the loop "When the English changes", built without --prose-only
    (read58 A2 C3: the builder refuses it for a notebook that does not exist yet). No test counts the sections
    (read58 A2 C2: three did), so the list names none."""
    import yaml
    from grading import sections
    text = flat("CONTRIBUTING.md")
    said = re.search(r'an entry `"N": "NN_name"` in `CHAPTER_PAGES` of `grading/sections\.py`: it is how a §N in '
                     r'feedback finds its page\. Write N without a leading zero \(`"(\d+)": "(\d\d)_name"`\) and keep '
                     r'the order of `_toc\.yml` \(`tests/test_sections\.py` checks that the two agree\);', text)
    assert said and said.group(1) == str(int(said.group(2))), "CONTRIBUTING.md no longer names CHAPTER_PAGES"
    assert sections.CHAPTER_PAGES and all(re.fullmatch(r"\d\d_\w+", page) and number == str(int(page[:2]))
                                          for number, page in sections.CHAPTER_PAGES.items())
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    listed = [toc["root"]] + [c["file"] for part in toc["parts"] for c in part["chapters"]
                              if re.fullmatch(r"chapters/\d\d_\w+", c["file"])]
    assert [f"chapters/{page}" for page in sections.CHAPTER_PAGES.values()] == listed
    assert "sections.CHAPTER_PAGES" in (ROOT / "tests" / "test_sections.py").read_text(encoding="utf-8")
    # what the entry is for: a §N in feedback links to the page CHAPTER_PAGES gives
    assert sections.section_href(3, 4, "en", base="https://x.org") == \
        f"https://x.org/en/chapters/{sections.CHAPTER_PAGES['3']}.html#sec-3-4"
    # the browser test of the figures' text sizes lists the sections by hand: the list names it (read56 A1 L18), and
    # here a section missing from that list fails without a browser
    assert "its name in `CHAPTERS` of `tests/test_site_figure_sizes.py`" in text
    tree = ast.parse((ROOT / "tests" / "test_site_figure_sizes.py").read_text(encoding="utf-8"))
    [chapters] = [ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                  and [getattr(t, "id", None) for t in node.targets] == ["CHAPTERS"]]
    assert list(chapters) == list(sections.CHAPTER_PAGES.values()), chapters
    start = text.index("### A new section")
    needs = text[start:text.index("### ", start + 4)]
    assert ('* its translations and notebooks, made as [When the English changes](#when-the-english-changes) says, '
            'but built without `--prose-only` (a new notebook has no outputs to keep);') in needs
    import inspect
    from tools import build_notebooks
    assert "does not exist yet" in inspect.getsource(build_notebooks.reuse_outputs)
    loop = text[text.index("## When the English changes"):text.index("## One source, three languages")]
    assert re.search(r"1\. .*tools/i18n\.py extract.* 2\. .* 3\. Rebuild .* 4\. .*translations\.py confirm", loop)
    assert " 5. " not in loop


def test_the_readme_puts_the_comments_of_code_cells_under_the_licence_license_gives_them():
    """README.md's "Licence" puts the code in the notebooks under MIT and the comments written there for
    the reader under CC BY-SA, as LICENSE does (it once put "the code cells of the notebooks" under MIT whole, while
    LICENSE, section 2, puts their comments for the reader under CC BY-SA). The documentation it names beside the
    text is the documentation LICENSE puts under CC BY-SA (site/README.md, under site/, is code's: MIT). The two
    licences are two bullets since read66 R L13; each bullet is read whole. The MIT bullet says the READMEs in the
    code's folders go with the code (read69 R L20; "It also covers" since read73 R L15), and the other that the package `figures` is not among the
    figures it covers (read69 R L19)."""
    readme = flat("README.md").split("## Licence", 1)[1]
    mit = readme.split("* [MIT License](LICENSE): ", 1)[1].split(" * ", 1)[0]
    share_alike = readme.split("* [CC BY-SA 4.0](LICENSE-CC-BY-SA-4.0): ", 1)[1].split(" A few files", 1)[0]
    assert "the code in the notebooks." in mit and "comment" not in mit, mit
    assert "It also covers the READMEs in the code's folders, such as site/README.md," in mit, mit
    assert share_alike.startswith("the text of the course and its documentation (this file, CONTRIBUTING.md, "
                                  "CHANGELOG.md and docs/); the comments written for the reader in the code cells; "
                                  "and the figures: the diagrams and the images the notebooks show, but not the "
                                  "plotting package `figures`."), share_alike
    licence = " ".join((ROOT / "LICENSE").read_text(encoding="utf-8").split())
    cc = licence[licence.index("2. The text and the figures: Creative Commons"):licence.index("MIT License Copyright")]
    assert "the comments written for the reader in their code cells" in cc
    assert "the documentation: README.md, CONTRIBUTING.md, CHANGELOG.md and docs/." in cc
    assert "the code cells of the notebooks in chapters/, exercises/ and solutions/" in licence[:licence.index(cc)]
    # the READMEs of the code's folders are under MIT: every file under those folders but those section 3 names
    folders = re.search(r"\* every file under ((?:[\w.]+/(?:, | and )?)+) but those that section 3 names",
                        licence).group(1)
    folders = re.findall(r"[\w.]+/", folders)
    assert "site/" in folders and "lib/" in folders, folders
    section_3 = licence[licence.index("3. Files under terms of their own"):licence.index("MIT License Copyright")]
    named = re.findall(r"^ {3}\* ([^\n]*)", section_3, re.M)
    readmes = [p.relative_to(ROOT).as_posix() for folder in folders for p in (ROOT / folder).rglob("README.md")]
    assert "site/README.md" in readmes and not [r for r in readmes if any(line.startswith(r) for line in named)]


def test_the_windows_commands_are_the_readmes_commands():
    """README.md spells out, for Windows, the commands of its block that runs the notebooks (it once asked the
    reader to split the `&&` line and rewrite the paths): the same commands, with `py` for `python3` and
    `.venv\\Scripts\\` for `.venv/bin/`."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    [block] = re.findall(r"```bash\n(python3 -m venv .*?)```", text, re.S)
    unix = [part.strip() for line in block.splitlines() for part in line.split("#")[0].split("&&") if part.strip()]
    windows = " ".join(text[text.index("On Windows,"):].split("\n\n")[0].split())
    said = re.findall(r"`([^`]+)`", windows)
    assert said == [c.replace("python3", "py", 1).replace(".venv/bin/", ".venv\\Scripts\\") for c in unix], said


def test_the_hint_is_written_as_the_diagnosis_prints_it():
    """docs/exercises.md: a mistake's section is a field of its own, which `explain_mistake`'s TEMPLATE prints after
    "See §"; the hint is written as clauses, as the docstring of `sentences()` shows, with no final full stop and no
    section (the guide once said the hint names its section and that tests/test_mistakes.py checks it does: a hint
    written so would print the section twice). tests/test_mistakes.py checks what the guide says it does."""
    from grading import diagnoses
    text = flat("docs", "exercises.md")
    # read84 I E10: a sentence inside a hint may end with one (mask-1's "strict" hint has two sentences)
    assert ("a field of its own" in text and "with no full stop at the end (a sentence inside may end with one) and no "
            "section" in text)
    assert ". " in diagnoses.mistake_by_id("mask-1/strict").text["en"]
    assert ("`what happened: why; the fix`, as the docstring of `sentences()` in `grading/diagnoses.py` shows" in text
            and "``what happened: why; the fix``" in diagnoses.sentences.__doc__)
    assert ('after "What this suggests:" and adds "See §" and the section\'s number (`TEMPLATE` in the same module)'
            in text)
    assert "def explain_mistake(" in (ROOT / "grading" / "diagnoses.py").read_text(encoding="utf-8")  # same module
    assert diagnoses.TEMPLATE["en"] == "What this suggests: {text}. See §{section}."
    assert all("{text}" in t and "§{section}" in t for t in diagnoses.TEMPLATE.values())
    import test_hint_readability      # the hints' form is checked where the translators' loop runs it (read63 T C3)
    test_hint_readability.test_a_hint_ends_without_a_full_stop_or_a_section()
    assert ("`tests/test_mistakes.py` checks that every mistake has a hint in every language and a section number, "
            "and that the diagnosis names that section") in text
    tree = ast.parse((ROOT / "tests" / "test_mistakes.py").read_text(encoding="utf-8"))
    [check] = [node for node in tree.body if isinstance(node, ast.FunctionDef)
               and node.name == "test_texts_are_in_three_languages_and_name_a_section"]
    body = ast.unparse(check)
    assert "set(m.text) == set(LANGUAGES)" in body and "m.section.replace('.', '').isdigit()" in body
    assert "f'§{m.section}' in diagnoses.explain_mistake(m, lang)" in body


def test_the_language_line_is_described_as_the_builder_writes_it():
    """docs/exercises.md: the setup cell starts with `COURSE_LANGUAGE = "{{lang}}"` and the builder writes the
    notebook's language in place of `{{lang}}` (the guide once left the reader to think the notebook keeps the
    placeholder): the line grading/notebook_setup.py writes, the placeholder tools/nbsource.py replaces, and the
    first code cell of every built exercise notebook."""
    import json

    from course_i18n import LANGUAGES
    from grading import notebook_setup
    from tools import nbsource
    text = flat("docs", "exercises.md")
    assert ('The second call makes the notebook\'s first code cell, which starts with `COURSE_LANGUAGE = "{{lang}}"`, '
            'where the builder writes the notebook\'s language '
            '(`"zh"`, `"en"` or `"ru"`) in place of `{{lang}}`') in text
    assert notebook_setup.LANGUAGE_LINE.startswith('COURSE_LANGUAGE = "{{lang}}"')
    assert nbsource.LANG_PLACEHOLDER == "{{lang}}"
    for lang in LANGUAGES:
        for path in sorted((ROOT / "exercises" / lang).glob("ex[0-9][0-9]_*.ipynb")):
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            first = "".join(next(c for c in cells if c["cell_type"] == "code")["source"])
            assert first.startswith(f'COURSE_LANGUAGE = "{lang}"'), path


def test_the_registry_finds_an_exercises_module_as_the_guide_says():
    """docs/exercises.md: the registry finds the module of an id by reading the spec sources for
    `exercise(id="…"`, so a call gives `id` first as a string literal; an id written otherwise is found only by
    importing every module. Every declared exercise is written so, and the pattern misses an id written later."""
    from grading import registry
    text = flat("docs", "exercises.md")
    assert ("It finds the module of an id by reading the sources for `exercise(id=\"…\"`, so each `exercise(...)` "
            "call gives `id` first, as a string literal; an id written otherwise is found only by importing every "
            "module.") in text
    assert registry._DECLARED_ID.findall('exercise(\n    id="mask-4", points=2,') == ["mask-4"]
    assert not registry._DECLARED_ID.findall('exercise(points=2, id="mask-4",')
    lookup = registry.Registry()
    assert set(lookup.index()) == set(registry.Registry().keys())


def test_site_readme_names_the_pdf_books_and_what_quizzes_run_checks_as_the_tools_do():
    """site/README.md: the PDF books are `causality-heads-position-<lang>.pdf` (the name build_site and build_pdf
    give them), and `python -m tools.quizzes --run` runs the witnesses and the `defined_in` checks (`verify`, which
    main runs; the guide once named only the witnesses)."""
    import inspect

    from tools import build_pdf, build_site, quizzes
    readme = flat("site", "README.md")
    assert "The books, `causality-heads-position-<lang>.pdf`, land in `_build/pdf/`" in readme
    assert build_site.book_pdf_name("ru") == build_pdf.pdf_name("ru") == "causality-heads-position-ru.pdf"
    assert "(`--run` also runs the witnesses and checks every `defined_in`)" in readme
    assert "q.defined_in" in inspect.getsource(quizzes.verify) and "verify(" in inspect.getsource(quizzes.main)


def test_the_readme_gives_each_debian_package_the_targets_that_need_it():
    """README.md leaves the list of Debian packages, and the targets that need each, to tools/system-packages.txt,
    which it links (read69 R L15: it once repeated the list, whose targets this test compared with the file's); it
    says that npm and nodejs are all that `make book` needs, exactly the packages `book` needs there."""
    needs = {}
    for line in (ROOT / "tools" / "system-packages.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            package, _, needed_by, _ = (cell.strip() for cell in line.split("|"))
            needs[package] = set(needed_by.split())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert ("the Debian packages that [tools/system-packages.txt](tools/system-packages.txt) lists for them"
            in flat("README.md"))
    listed = [package for package in needs if re.search(rf"^\* {package}\b", readme, re.M)]
    assert not listed, f"README.md lists packages again that tools/system-packages.txt lists: {listed}"
    onlies = re.findall(r"`make book` needs only ([a-z0-9-]+) and ([a-z0-9-]+)[.,]", flat("README.md"))   # read76 R C1
    assert len(onlies) == 1 and set(onlies[0]) == {p for p, n in needs.items() if "book" in n}, onlies
    # read75 R L1: it never said what `make pdf` needs besides
    pdf = re.findall(r"`make pdf` also needs ([a-z0-9-]+) and ([a-z0-9-]+)\.", flat("README.md"))
    assert len(pdf) == 1 and set(pdf[0]) == {p for p, n in needs.items() if "pdf" in n} - set(onlies[0]), pdf


def _make_book_needs(text):
    return re.search(r"`make book` checks for npm and nodejs on every run: npm fetches the site's JavaScript "
                     r"packages from the npm registry once, pinned with checksums in `site/vendor.json`, and keeps "
                     r"them in `_build/vendor/`; Node typesets each formula not yet cached in `_build/math/`\.", text)


def test_a_test_skips_for_what_is_missing_only_through_conftest():
    """docs/maintainers.md (README.md until read58 R L10 sent the details there): under `make test
    SYSTEM_PACKAGES=skip` a test that needs a missing package is skipped, its message naming the tool and its Debian
    package, and under CI=true it fails instead; README.md says that the tests that need a missing package skip.
    That holds while every test skips
    through tests/conftest.py's unavailable() (need() for a tool of tools/system-packages.txt, require_or_skip() for
    a module): the MathJax tests of tests/test_site_config.py once called pytest.skip themselves, and so skipped
    under CI=true too. The one skip left outside conftest.py is tests/test_mistakes.py's, which waits for another
    test of the same process and lacks nothing."""
    assert ("`make test SYSTEM_PACKAGES=skip` goes on without them: every test that needs a missing package is "
            "skipped, and its skip message names the missing tool and its Debian package (under `CI=true` such a test "
            "fails instead" in flat("docs", "maintainers.md"))
    readme = flat("README.md")
    # read78 R L13: "without the missing packages" could be read as removing them
    assert ("`make test SYSTEM_PACKAGES=skip` runs the suite without installing the missing packages and skips the "
            "tests that need them (under `CI=true` those tests fail instead).") in readme
    # read75 R L1: the skip was once the second remedy for a `make book` that lacked npm and nodejs ("If apt-get cannot
    # install them: ... or run `make test SYSTEM_PACKAGES=skip`"); the site cannot be built without them, and the
    # README says so: a first build fetches the site's scripts with npm and typesets its formulas with Node
    assert "or run `make test SYSTEM_PACKAGES=skip`" not in readme and "cannot install them:" not in readme
    # read76 R C1: "Without them, its first run cannot build the site" let later runs do without them, though
    # `make book` checks for both on every run (Makefile: book: system-packages-book) and Node typesets every formula
    # the cache has not seen; only npm is needed once
    # read83 R L2: the details moved from README.md to docs/maintainers.md, "Building the site", which README points to
    assert _make_book_needs(flat("docs", "maintainers.md")), "maintainers.md no longer says when `make book` needs npm and Node"
    assert "[docs/maintainers.md, \"Building the site\"](docs/maintainers.md#building-the-site)" in readme
    assert not _make_book_needs("`make book` checks for npm and nodejs. Without them, its first run cannot build "
                                "the site.")                                     # the negative control
    assert "book: system-packages-book" in (ROOT / "Makefile").read_text(encoding="utf-8")
    system_packages = (ROOT / "tools" / "system_packages.py").read_text(encoding="utf-8")
    assert 'needed = missing(target)' in system_packages and '== "skip"' in system_packages
    build_site = (ROOT / "tools" / "build_site.py").read_text(encoding="utf-8")
    assert 'VENDOR = ROOT / "_build" / "vendor"' in build_site and 'raise SystemExit(f"npm is needed once' in build_site
    static_math = (ROOT / "tools" / "static_math.py").read_text(encoding="utf-8")
    assert 'node = shutil.which("node") or shutil.which("nodejs")' in static_math and "_build/math/" in static_math
    assert 'static_math.typeset_pages(pages, BUILD_VENDOR / "mathjax", BUILD / "math")' in build_site
    direct = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        found = re.findall(r"\bpytest\.skip\(|\bimportorskip\(|\bmark\.skip(?:if)?\b",
                           path.read_text(encoding="utf-8"))
        if found and path.name != "conftest.py":
            direct[path.relative_to(ROOT).as_posix()] = len(found)
    assert direct == {"tests/test_mistakes.py": 1}, direct


def test_the_exercise_guide_puts_a_new_answer_where_the_solutions_take_it_from():
    """docs/exercises.md, step 6: a solution source shows an answer as `code(reference_cell(...))`, as every
    src/solutions/*.py does (it once said to write the answer between `# BEGIN SOLUTION` markers there, which
    tests/test_references.py refuses: the markers are in grading/references.py)."""
    text = flat("docs", "exercises.md")
    assert 'its answer as `code(reference_cell("row_sums"))`' in text
    sources = sorted((ROOT / "src" / "solutions").glob("ex[0-9][0-9]_*.py"))
    assert sources and all("BEGIN SOLUTION" not in p.read_text(encoding="utf-8") for p in sources)
    assert all("reference_cell(" in p.read_text(encoding="utf-8") for p in sources)
    assert "# BEGIN SOLUTION" in (ROOT / "grading" / "references.py").read_text(encoding="utf-8")


def test_the_search_script_has_no_words_of_its_own_as_site_readme_says():
    """site/README.md: course-search.js shows only the index's words (site.search.*); it once took its heading and
    its no-match sentence, which spoke of categories, from Sphinx's catalogue through `_()`."""
    from tools import search_index
    script = (ROOT / "site" / "static" / "course-search.js").read_text(encoding="utf-8")
    code = re.sub(r"//[^\n]*", "", script)
    assert not re.search(r"(?<![\w.$])_\(|\btr\(", code), "course-search.js calls Sphinx's _()"
    assert "The search uses none of Sphinx's words" in flat("site", "README.md")
    for name in search_index.WORDS:
        assert f"texts.{name}" in code, name


def test_the_gradebooks_name_a_student_by_the_path_under_the_batch_folder_as_the_pages_do():
    """docs/instructors.md: every gradebook names a student by the submission's path under the batch's folder, as the
    pages do (`alice`, `group-2/bob`): the gradebooks and the pages take the name from the same display_names."""
    import inspect

    from grading.batch import report
    text = flat("docs", "instructors.md")
    assert ("Every gradebook names a student by the submission's path under the batch's folder, as the pages do"
            in text)
    assert "A page names its submission by its path under the batch's folder (`alice`, `group-2/bob`)" in text
    summary = [{"submission": "/home/me/batch/alice"}, {"submission": "/home/me/batch/group-2/bob"}]
    assert list(report.display_names({"summary": summary}).values()) == ["alice", "group-2/bob"]
    for gradebook in (report.to_wide_csv, report.to_canvas_csv, report.to_moodle_csv):
        assert "display_names(report)" in inspect.getsource(gradebook), gradebook.__name__
    assert "self.names = display_names(report)" in inspect.getsource(report.PageData)          # the pages
    assert 'name = data.names[summary["submission"]]' in inspect.getsource(report.page_view)
    assert "to_wide_csv(" in inspect.getsource(report.to_totals_csv)


def test_each_exercise_set_has_the_files_the_exercise_guide_names_after_it():
    """docs/exercises.md: a new set's own files are `src/solutions/exNN_name.py` and `tests/mistakes/exNN.py` (every
    other file its steps name is shared), and the solution source is the only source of two notebooks in each
    language; every set of grading/specs/ has both files and both notebooks in every language."""
    from course_i18n import LANGUAGES
    text = flat("docs", "exercises.md")
    assert ("Then, step by step (for a new set, also create `src/solutions/exNN_name.py` and "
            "`tests/mistakes/exNN.py`, with the spec module's NN and name):") in text
    assert "add `grading/specs/exNN_name.py`" in text                       # the spec module it means
    assert "is the only source of two notebooks in each language: `solutions/<lang>/exNN_name.ipynb`" in text
    sets = sorted(p.stem for p in (ROOT / "grading" / "specs").glob("ex[0-9][0-9]_*.py"))
    assert sets
    for name in sets:
        assert (ROOT / "src" / "solutions" / f"{name}.py").exists(), name
        assert (ROOT / "tests" / "mistakes" / f"{name[:4]}.py").exists(), name
        for lang in LANGUAGES:
            assert all((ROOT / kind / lang / f"{name}.ipynb").exists() for kind in ("solutions", "exercises")), name
    assert "pkgutil.iter_modules(__path__)" in (ROOT / "tests" / "mistakes" / "__init__.py").read_text(encoding="utf-8")


def test_the_sandbox_tests_are_said_to_need_bubblewrap_as_they_do():
    """docs/maintainers.md's part on testing the grader's sandbox (CONTRIBUTING.md's until read71 A) says its tests
    need bubblewrap as well as root, and that
    `make test` installs it (without `bwrap` they only skip): tools/system-packages.txt gives bubblewrap to the `test`
    target, the Makefile's `test` installs that target's packages, and the sandbox tests need `bwrap`."""
    bullet = _sandbox_tests_part()
    assert "Run them as root, with bubblewrap installed (`make test` installs it; see `tools/system-packages.txt`)" \
        in bullet
    rows = [[cell.strip() for cell in line.split("|")] for line in
            (ROOT / "tools" / "system-packages.txt").read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    [row] = [row for row in rows if row[0] == "bubblewrap"]
    assert row[1] == "command bwrap" and "test" in row[2].split(), row
    assert re.search(r"^test: system-packages-test\b", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
    assert 'need("bwrap"' in (ROOT / "tests" / "test_grading_sandbox.py").read_text(encoding="utf-8")


def test_the_quiz_questions_are_said_to_be_on_the_site_and_in_the_books_not_in_the_notebooks():
    """CONTRIBUTING.md's loop for a quiz says where its questions are: not in the notebooks; the site's build inserts
    them (site/course_book.py's `insert_quizzes`, which a transform of the site's pages calls), and the PDF books,
    printed from the site, print them in place without their controls, with their answers at the end of each
    section (`print_answers`; it once said "only on the website", then read as if the questions moved to the end:
    read57 A1 L7); `make book`, then `make serve`, shows them. A quiz's first question is in no notebook."""
    text = flat("CONTRIBUTING.md")
    assert ("No notebook holds the questions: the site and the PDF books put them at the end of their subsections "
            "(run `make book`, then `make serve`, to see them).") in text   # read61 A L3, A2 L6; read62: shorter
    assert "def print_answers(" in (ROOT / "site" / "course_book.py").read_text(encoding="utf-8")
    assert "the questions in their sections, without their controls, and the answers here" in " ".join(
        (ROOT / "site" / "course_book.py").read_text(encoding="utf-8").split())
    assert "each chapter with questions ends with their" in " ".join(
        (ROOT / "tests" / "test_pdf.py").read_text(encoding="utf-8").split())
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^book:.*\n(?:\t.*\n)*?\t\$\(PY\) tools/build_site\.py\n", makefile, re.M)
    assert re.search(r"^serve:.*\n(?:\t.*\n)*?\t\$\(PY\) tools/build_site\.py --serve\n", makefile, re.M)
    book = (ROOT / "site" / "course_book.py").read_text(encoding="utf-8")
    assert "def insert_quizzes(" in book and re.search(r"\n        insert_quizzes\(app, doctree, docname\)\n", book)
    source = (ROOT / "src" / "quizzes" / "02_heads.py").read_text(encoding="utf-8")
    first = re.search(r'T\("([^"{]{20,})', source).group(1)
    notebook = (ROOT / "chapters" / "en" / "02_heads.ipynb").read_text(encoding="utf-8")
    assert first[:40] not in notebook, first


def test_how_a_notebook_is_matched_to_its_exercise_set_is_said_as_identify_does_it():
    """docs/instructors.md says how the grader tells which exercise set a notebook is, which decides whether a renamed
    LMS download is graded: `identify` in grading/batch/notebooks.py tries the metadata, the file name (the set's
    name alone or inside a longer one, the `exNN` number) and the functions the notebook defines, in that order, each
    only when it points to one set; a notebook it cannot place gets an error row naming the course's notebooks."""
    import inspect

    from grading import exercises, messages
    from grading.batch import notebooks
    from grading.batch import runner
    text = flat("docs", "instructors.md")
    assert ("The grader identifies a notebook's exercise set from, in this order, its metadata, its file name (the "
            "set's name, alone or inside a longer name such as `smithjohn_12345_67890_ex01_allowed_set.ipynb`, or its "
            "`exNN` number), and the functions it defines (the set that has the most of them). Each clue counts only "
            "when it points to exactly one set, so a renamed download is still recognised. A notebook that no clue "
            "places gets an error row that names the course's notebooks.") in text
    sets = {}
    for ex in exercises.EXERCISES.values():
        sets.setdefault(ex.notebook, set()).add(ex.function)

    def placed(name, defined=(), **metadata):
        info = notebooks.NotebookInfo(name)
        info.defined, info.metadata = set(defined), metadata
        return notebooks.identify(info, sets), info.how

    two = sorted(sets["ex02_heads"])
    assert placed("ex03_positions.ipynb", exercise_notebook="ex02_heads") == ("ex02_heads", "metadata")
    assert placed("smithjohn_12345_67890_ex01_allowed_set.ipynb", two) == ("ex01_allowed_set", "file name")
    assert placed("smithjohn_ex05.ipynb", two)[0] == "ex05_cache"
    assert placed("homework.ipynb", two) == ("ex02_heads", "functions it defines")
    assert placed("homework.ipynb", two[:1] + sorted(sets["ex01_allowed_set"])[:2])[0] == "ex01_allowed_set"
    assert placed("ex01_allowed_set_and_ex02_heads.ipynb", [])[0] is None          # two sets: the name decides nothing
    assert placed("homework.ipynb", ["fib"])[0] is None
    assert all("{known}" in said for said in messages.MESSAGES["unknown_notebook"].values())
    assert 'messages.text("unknown_notebook", lang, known=", ".join(course.by_notebook))' in inspect.getsource(
        runner.plan_submission)


def test_run_autograder_points_at_the_section_that_says_the_grader_refuses_without_a_sandbox():
    """tools/gradescope/run_autograder says that outside Gradescope's container the grader refuses to grade without a
    sandbox, and points at the section of docs/instructors.md that says so (it once pointed at "Safety: what a
    submission cannot do", which does not): the heading exists, and its section holds that rule."""
    script = (ROOT / "tools" / "gradescope" / "run_autograder").read_text(encoding="utf-8")
    [heading] = re.findall(r'elsewhere it refuses to: docs/instructors\.md, "([^"]+)"', script)
    guide = (ROOT / "docs" / "instructors.md").read_text(encoding="utf-8")
    sections = re.split(r"^(#{2,3} .*)$", guide, flags=re.M)
    [body] = [sections[i + 1] for i in range(1, len(sections), 2) if sections[i].lstrip("#").strip() == heading]
    body = " ".join(body.replace("**", "").split())
    assert "Students' notebooks are graded only inside a sandbox. When no sandbox works, the grader stops" in body


def test_each_exercise_is_followed_by_a_one_line_check_as_the_landing_page_says():
    """The landing page (site/landing_texts.py, site.landing.exercises and .exercises_and_solutions): each exercise
    is followed by a one-line check. It once said the exercise "ends with" it, but cells such as an `assert …
    needs_exercise(...)` come after the check. In every language's exercise notebooks, each exercise of the registry
    has its `check("id", function)` in a code cell of one line, right after the code cell that defines the
    function."""
    import json
    from course_i18n import LANGUAGES
    from grading.exercises import EXERCISES
    sys.path.insert(0, str(ROOT / "site"))
    from landing_texts import TEXTS
    for key in ("exercises", "exercises_and_solutions"):
        assert "Each exercise is followed by a one-line check that tells you" in TEXTS[key]["en"], key
    for lang in LANGUAGES:
        found = []
        for path in sorted((ROOT / "exercises" / lang).glob("ex*.ipynb")):
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            code = ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]
            for before, cell in zip(code, code[1:]):
                m = re.fullmatch(r'check\("([\w-]+)", (\w+)\)', cell)
                if m:
                    found.append(m.group(1))
                    assert m.group(2) == EXERCISES[m.group(1)].function, (path, cell)
                    assert re.search(rf"^def {m.group(2)}\(", before, re.M), (path, cell)
        assert sorted(found) == sorted(EXERCISES), lang


def test_the_wheel_is_offered_where_the_readme_and_the_builder_say():
    """README.md and tools/build_notebooks.py's course_package say the site offers the course's wheel in the
    download menu of every notebook page (the docstring once said every exercise page): site/course_site.py's
    add_wheel_download leaves out only the pages that are not notebooks."""
    assert "the download menu of every notebook page offers the notebook and the course's package (`.whl`)" in flat(
        "README.md")
    builder = ast.parse((ROOT / "tools" / "build_notebooks.py").read_text(encoding="utf-8"))
    [package] = [f for f in builder.body if isinstance(f, ast.FunctionDef) and f.name == "course_package"]
    assert "in every notebook page's download menu" in " ".join(ast.get_docstring(package).split())
    site = ast.parse((ROOT / "site" / "course_site.py").read_text(encoding="utf-8"))
    [add] = [f for f in site.body if isinstance(f, ast.FunctionDef) and f.name == "add_wheel_download"]
    skips = [ast.unparse(node.test) for node in ast.walk(add) if isinstance(node, ast.If)
             and any(isinstance(n, ast.Return) for n in node.body)]
    assert skips[0] == "not is_notebook(app, pagename, context)", skips
    assert not any("exercise" in skip for skip in skips), skips


def test_the_exercise_guide_gives_the_heading_points_that_test_exercises_reads():
    """docs/exercises.md, "Points: the rubric", gives the form of the points at the end of an exercise's heading in
    each language (only tests/test_exercises.py's HEADING_POINTS once held the zh and ru forms, so a translator who
    wrote "(2 очка)" failed a test no guide explained): every form it gives is one HEADING_POINTS accepts for its
    language, and every solution notebook's exercise heading ends with one of them."""
    import json
    from course_i18n import LANGUAGES
    from test_exercises import HEADING_POINTS
    text = flat("docs", "exercises.md")
    m = re.search(r"The heading ends with the points in the form that test reads: (.*?), as the number asks\.", text)
    assert m, "docs/exercises.md no longer gives the heading's points in each language"
    said = m.group(1)
    zh, ru = said.split("; in zh ")[1].split("; in ru ")
    forms = {"en": re.findall(r"`(?:## id: title )?(\([^`]*\))`", said.split("; in zh ")[0]),
             "zh": re.findall(r"`([^`]*)`", zh), "ru": re.findall(r"`([^`]*)`", ru)}
    assert forms["en"] == ["(N points)", "(1 point)"] and forms["zh"] == ["（N 分）"], forms
    assert forms["ru"] == ["(N балл)", "(N балла)", "(N баллов)"], forms
    assert set(forms) == set(LANGUAGES) == set(HEADING_POINTS)
    for lang, shown in forms.items():
        for form in shown:
            assert re.fullmatch(HEADING_POINTS[lang], form.replace("N", "2")), (lang, form)
        patterns = [re.escape(form).replace("N", r"\d+") for form in shown]
        for path in sorted((ROOT / "solutions" / lang).glob("ex[0-9][0-9]_*.ipynb")):
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            headings = [line for c in cells if c["cell_type"] == "markdown"
                        for line in "".join(c["source"]).splitlines() if re.match(r"## [a-z]+-\d+", line)]
            assert headings, path
            for heading in headings:
                assert any(re.search(p + "$", heading) for p in patterns), (path, heading)


def test_make_book_installs_debian_packages_only_as_root_or_with_sudo_as_site_readme_says(monkeypatch, capsys):
    """site/README.md: `make book` installs a missing Debian package as root or with sudo, and otherwise stops and
    says how (it once said only that it installs them). tools/system_packages.py, without root or sudo, runs no
    apt-get and stops with one line that gives the command."""
    sys.path.insert(0, str(ROOT / "tools"))
    import system_packages
    text = flat("site", "README.md")
    assert ("`make book` installs any Debian package the build needs that the machine lacks, as root or with sudo; "
            "where it cannot, it stops and says how") in text
    assert "book: system-packages-book" in (ROOT / "Makefile").read_text(encoding="utf-8")
    package = system_packages.read()[0]
    monkeypatch.delenv("SYSTEM_PACKAGES", raising=False)
    monkeypatch.setattr(system_packages, "missing", lambda target=None, path=None: [package])
    monkeypatch.setattr(system_packages.shutil, "which", lambda name: "/usr/bin/" + name)
    monkeypatch.setattr(system_packages.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(system_packages, "_can_sudo", lambda: False)
    monkeypatch.setattr(system_packages.subprocess, "run", lambda *a, **k: pytest.fail(f"ran {a}"))
    assert system_packages.ensure("book") == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"run `sudo apt-get install -y {package.name}`" in err[0], err


def test_the_layout_writes_only_the_catalogues_that_exist():
    """CONTRIBUTING.md's layout names the catalogues `locales/{zh,ru}/…` (it once wrote `<lang>`, which suggests an
    English catalogue): the languages in the braces are every language of course_i18n but the source, English, and
    each folder of catalogues holds exactly those."""
    from course_i18n import LANGUAGES
    text = flat("CONTRIBUTING.md")
    layout = text[text.index("## Layout"):text.index("## A quick loop")]
    named = re.findall(r"`(?:src/)?locales/\{([^}]*)\}/LC_MESSAGES/", layout)
    translated = sorted(set(LANGUAGES) - {"en"})
    assert len(named) == 2 and all(sorted(n.split(",")) == translated for n in named), named
    terms = text[text.index("## Terms"):text.index("## Layout")]    # where a catalogue is defined (read62)
    assert "(English is the source)" in terms and "<lang>/LC_MESSAGES" not in layout
    for folder in (ROOT / "course_i18n" / "locales", ROOT / "src" / "locales"):
        assert sorted(p.name for p in folder.iterdir() if p.is_dir()) == translated, folder


def test_the_builders_placeholders_are_the_ones_one_source_names():
    """CONTRIBUTING.md's "One source, three languages" says which `{{name}}` placeholders the builder fills and in
    which cells (the rule once sat in the bullet about messages): `{{course_package}}` and `{{course_wheel}}` are
    filled in Markdown and code (fill_placeholders, applied to both kinds), `{{lang}}` in code (localize_code)."""
    from tools import build_notebooks, nbsource
    text = flat("CONTRIBUTING.md")
    part = text[text.index("## One source, three languages"):text.index("### Rules for code cells")]
    # read74 A L13: what %pip installs, then which of the two it is
    # read75 A L7: three colons in one bullet
    # read76 A L9: one pattern for the three bullets, and the extra that a reader sees in the notebooks
    # read82 A L11: two nested parentheses in one sentence
    assert ("The notebook builder replaces three placeholders: * `{{course_package}}` (Markdown and code): what `%pip "
            "install` installs the course from. That is the repository that `_config.yml` names, or else the course's "
            "*wheel*, its package as one `.whl` file, built by `make wheel`. Either comes with the `[learner]` extra: "
            "the packages the notebooks need, listed in `pyproject.toml`; * `{{course_wheel}}` (Markdown "
            "and code): the file name of that wheel; * `{{lang}}` (code only): the notebook's language code."
            ) in part  # read62 A L3; read71 A L7: the wheel defined
    assert "with the ``learner`` extra" in build_notebooks.course_package.__doc__
    assert 'return f"./{course_wheel()}[learner]"' in inspect.getsource(build_notebooks.course_package)
    assert "when _config.yml names one, else the course's wheel" in " ".join(build_notebooks.course_package.__doc__.split())
    assert text.count("the notebook's language code") == 1       # said once (read57 A1 L14)
    assert "`{{name}}`" not in text.replace(part, "")
    assert re.search(r"^wheel:", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
    assert (build_notebooks.PACKAGE_PLACEHOLDER, build_notebooks.WHEEL_PLACEHOLDER) == (
        "{{course_package}}", "{{course_wheel}}")
    filled = build_notebooks.fill_placeholders("{{course_package}} {{course_wheel}}")
    assert "{{" not in filled and build_notebooks.course_wheel() in filled
    source = (ROOT / "tools" / "build_notebooks.py").read_text(encoding="utf-8")
    assert "new_markdown_cell(fill_placeholders(" in source and "new_code_cell(fill_placeholders(" in source
    assert nbsource.LANG_PLACEHOLDER == "{{lang}}"
    assert nbsource.localize_code('x = "{{lang}}"', "ru", []) == 'x = "ru"'


def test_words_md_gives_alt_texts_only_to_the_diagrams():
    """docs/words.md: the glossary check reads the words of the interactive figures (captions, legends, labels) and
    of the diagrams, alt texts included; only the diagrams have alt texts (it once spoke of the interactive figures'
    alt texts, which do not exist). The notebooks' figures' alt texts are read too, as Markdown (read57 G L13:
    they were not, though the site captions a figure with one)."""
    import test_glossary
    from figures import interactive
    from tools import diagrams
    text = flat("docs", "words.md")
    assert ("the words of the interactive figures (`figures/interactive.py`: captions, legends, labels) and of the "
            "diagrams (`tools/diagrams.py`, alt texts included)") in text
    assert "alt texts of the interactive" not in text
    # read82 G L11: `alt="…"` read as an HTML attribute; the sources pass it to code(...)
    assert ("the Markdown cells, translated comments and figures' alt texts (the `alt=` of `code(...)`) of every "
            "source in "
            "`src/chapters/` and `src/solutions/`") in text
    assert ("(the site captions a figure with the first sentence of its alt text, so an alt text is checked as "
            "Markdown is)") in text and "alt" in test_glossary.MARKDOWN
    # read76 G L12: the two prefixes are a list of their own
    assert ("Two prefixes of \"use instead\" limit where a row is checked: * `[Markdown]`: only in Markdown (Markdown "
            "cells, alt texts and quiz texts);") in text
    assert next(test_glossary.alt_texts(), None)
    assert diagrams.ALT and not [key for key in interactive.TEXTS if "alt" in key.split("_")]
    kinds = {key.rsplit("_", 1)[-1] for key in interactive.TEXTS}
    assert {"caption", "legend"} <= kinds, kinds


def test_the_about_rule_and_the_binder_default_are_the_codes():
    """docs/glossary.md's rule for "about" is tests/test_number_style.py's limit (it once said "3 or 4 significant
    digits", which made §3.4's "about 0.047" wrong); docs/maintainers.md's default Binder address is _config.yml's
    (README.md gave it until it left the launch menu's settings to maintainers.md)."""
    import yaml
    style = (ROOT / "tests" / "test_number_style.py").read_text(encoding="utf-8")
    most = int(re.search(r"^MOST_DIGITS_AFTER_ABOUT = (\d+)", style, re.M).group(1))
    said = re.search(r'"about" goes with at most (\d+) significant digits', flat("docs", "glossary.md"))
    assert said and int(said.group(1)) == most
    assert f"goes with at most {most} significant digits" in " ".join(style.split()).lower()
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    url = config["launch_buttons"]["binderhub_url"]
    assert f"`launch_buttons:` in `_config.yml` sets the launch entries. Its `binderhub_url`, `{url}`, gives" in \
        flat("docs", "maintainers.md")


def test_the_map_of_the_course_has_a_row_for_every_section():
    """CONTRIBUTING.md's list for a new section names §0.3's map of the course (read55 found it left out, and no
    test held the map): the map in src/chapters/00_start.py has one row per section notebook of _toc.yml, in
    order, each with its notebook, and names the exercise set of every section that has one."""
    import yaml
    assert "a row in §0.3's map of the course (the table in `src/chapters/00_start.py`" in flat("CONTRIBUTING.md")
    source = (ROOT / "src" / "chapters" / "00_start.py").read_text(encoding="utf-8")
    table = source.split("## 0.3 Map of the course", 1)[1].split('""")', 1)[0]
    rows = re.findall(r"^\| §(\d+) \| `(\d\d_\w+)` \|.*\| (`ex\d\d_\w+`|—) \|$", table, re.M)
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    chapters = [toc["root"].split("/")[-1]] + [entry["file"].split("/")[-1] for part in toc["parts"]
                                               for entry in part.get("chapters", [])
                                               if entry["file"].split("/")[0] == "chapters"
                                               and re.match(r"\d\d_", entry["file"].split("/")[-1])]
    assert [name for _, name, _ in rows] == chapters, (rows, chapters)
    assert all(int(number) == int(name[:2]) for number, name, _ in rows)
    sets = {p.stem[2:4]: p.stem for p in (ROOT / "src" / "solutions").glob("ex[0-9][0-9]_*.py")}
    for number, name, exercises in rows:
        assert exercises == (f"`{sets[name[:2]]}`" if name[:2] in sets else "—"), (name, exercises)


def _terms(cell):
    """The terms of one cell of a glossary table: its alternatives (a / b, a, b), without what is in parentheses,
    code font or maths, nor a single-letter symbol (W_O, E, P)."""
    cell = re.sub(r"`[^`]*`|\([^)]*\)|（[^）]*）|\$[^$]*\$", " ", cell)
    cell = re.sub(r"(?<!\w)[A-Z](?:_\w+)?(?!\w)", " ", cell)
    return {" ".join(p.split()) for p in re.split(r"[/，,；;]| / ", cell) if p.strip(" .")}


def test_the_appendix_glossary_uses_the_glossarys_terms():
    """docs/glossary.md says that the appendix's glossary shows a selection of its terms in the same words (it once
    said that every term learners meet goes there, which held for none of masked softmax, token id, prompt and
    more: read57 G C1), and that the test reads the built notebooks (it once named only the source, read58 G C4,
    so a new row seemed checked before it was translated and rebuilt): in each language, every term of the
    appendix's table, as each language's appendix notebook shows it (the columns in its own order), is a term of
    docs/glossary.md, and the appendix has fewer."""
    import json
    from course_i18n import LANGUAGES
    from tools import search_index
    text = flat("docs", "glossary.md")
    assert ("The appendix's glossary shows learners a selection of these terms. It is the last table of "
            "`src/chapters/appendix.py`, translated in each `src/locales/<lang>/LC_MESSAGES/chapters.po`. If it has "
            "or should have the term, change or add its row there too. `tests/test_guides.py` checks that each of its "
            "terms is a term of this page, in the same words.") in text     # read66 G L7: once a 40-word sentence
    # read71 G L6, read74 G L9: the rebuild is step 4's, said where step 3 changes the table
    assert ("term of this page, in the same words. It reads the built `chapters/<lang>/appendix.ipynb`, so it sees "
            "the change only after step 4.") in text
    # read63 G L15: the zh and ru tables are the catalogues' translations of that cell
    for lang in ("zh", "ru"):
        po = (ROOT / "src" / "locales" / lang / "LC_MESSAGES" / "chapters.po").read_text(encoding="utf-8")
        # the English cell and its translation (audit 23, 00-4: the English column glosses its terms)
        assert po.count("| wrap around (modulo) / clamp (reuse the last row) |") == 2, lang
    header, rows = search_index.glossary_rows()
    for lang in LANGUAGES:
        cells = json.loads((ROOT / "chapters" / lang / "appendix.ipynb").read_text(encoding="utf-8"))["cells"]
        text = "".join(cells[-1]["source"])
        assert "\n## " in "\n" + text and text.count("\n| ") > 20, f"the appendix's last cell is not its glossary: {lang}"
        table = [[c.strip() for c in line.strip().strip("|").split("|")] for line in text.splitlines()
                 if line.startswith("|")]
        shown = table[0]                             # each page puts its own language's column first
        assert sorted(shown) == sorted(header), (lang, shown)
        table = [cells for cells in table[1:] if not set(cells[0]) <= set("-: ")]
        assert len(table) < len(rows), f"{lang}: the appendix is said to show a selection of the glossary"
        for column, name in enumerate(header):
            ours = set().union(*(_terms(cells[column]) for cells in rows))
            theirs = set().union(*(_terms(cells[shown.index(name)]) for cells in table))
            assert theirs <= ours, f"{lang} notebook, column {name}: not in docs/glossary.md: {sorted(theirs - ours)}"


def test_renaming_a_term_rebuilds_what_contributing_md_says():
    """docs/glossary.md's step for changing a term once said "rebuild with `--prose-only`", which keeps the saved
    outputs of an interactive figure and never redraws a diagram, though many terms are diagram words (残差流,
    KV 缓存: read61 G C2). It now sends the reader to steps 3 and 4 of CONTRIBUTING.md's "When the English changes"
    without repeating them; step 3 is the one that names what `--prose-only` leaves, and step 4 confirms."""
    text = flat("docs", "glossary.md")
    step = text[text.index("4. Update the catalogues, rebuild and confirm"):text.index("5. Add to [words.md](words.md) the word")]
    # read75 G L9: step 2 already changed the translations, so "Translate" read as a second pass
    assert ("4. Update the catalogues, rebuild and confirm: steps 1–4 of CONTRIBUTING.md's [\"When the English changes\"]"
            "(../CONTRIBUTING.md#when-the-english-changes) if the English changed, else only its steps 3 and 4. "
            "`--prose-only` redraws no figure or diagram: step 3 of \"When the English changes\" says how to redraw "
            "those that show the term.") in step   # read82 G L7: "that page's step 3" left the page to be worked out
    # read76 G L7: "which `--prose-only` leaves alone" could attach to the term, the diagrams or step 3
    assert "leaves alone" not in step
    # read69 G L6 made the appendix's rebuild a step of its own; read71 G L6 found it read as a second rebuild
    # read63 G L14: "its", so that no step reads as this page's; read66 G L8: the appendix no longer reads as step 3's
    assert "rebuild with `--prose-only`" not in text
    contributing = flat("CONTRIBUTING.md")
    loop = contributing[contributing.index("### When the English changes"):contributing.index("## One source, three")]
    # read74 A L5 found the two procedures pointing into each other by step number; read76 A L2 found the loop opening
    # with the translation procedure. The everyday loop now comes first, and each names the other, by link only
    assert contributing.index("### Set up once") < contributing.index("### Build and test one source") < \
        contributing.index("### When the English changes")
    one = contributing[contributing.index("### Build and test one source"):contributing.index("### When the English")]
    assert ("1. If its English prose changed, first update the catalogues and translate, as [When the English "
            "changes](#when-the-english-changes) says.") in one
    assert ("3. If its English prose changed, confirm the translations, as [When the English "
            "changes](#when-the-english-changes) says.") in one
    assert "rebuild its source with `--prose-only`, as [Build and test one source](#build-and-test-one-source) says." \
        in loop
    assert not re.search(r"steps? \d", one) and not re.search(r"steps? \d", loop[:loop.index("If you cannot")])
    three, four = loop[loop.index(" 3. "):loop.index(" 4. ")], loop[loop.index(" 4. "):]
    assert "`--prose-only`" in three and "without `--prose-only`" in three and "tools/diagrams.py" in three, three
    assert "tools/translations.py status" in four and "tools/translations.py confirm" in four, four


def test_every_glossary_cell_reads_as_whole_terms(tmp_path):
    """docs/glossary.md says how the tools read a cell (read58 G C1-C3: it named `/` and `,` only, and rows broke what
    it said): tools/search_index.py splits a cell at `/ , ; ， ；` and drops what is in parentheses, code font or
    maths (read60 G L4: the page left out the maths, which glossary_terms then kept). So in
    every row the three cells give as many terms, in the same order; no term is empty, nor one character but a
    Chinese word (头, 键); code font stands only inside parentheses; and glossary_pairs pairs every term of a Chinese
    and Russian cell with the English one, the Chinese as the text writes it, without a one-letter symbol (位置表 P
    once went in as 位置表P: read61 G C1). A comma inside «параметры, заданные вручную» once made two terms of it,
    and "free / decided target" paired "free" alone with 自由目标."""
    import inspect

    import test_glossary
    from tools import search_index
    text = flat("docs", "glossary.md")
    # read62 G L4: it said "two tools", though tests/test_glossary.py reads every cell too, with the search's reader
    assert ("Three programs read each table cell as a list of terms: the site's search (`tools/search_index.py`), "
            "`tests/test_glossary.py`, which uses the search's reader, and `tests/test_guides.py`.") in text
    assert "search_index._terms_of(cell)" in inspect.getsource(test_glossary.terms_not_written)
    assert "terms_not_written(" in inspect.getsource(test_glossary.test_every_term_of_the_glossary_is_the_courses_word)
    rules = text[text.index("In a cell: * "):text.rindex("[site/README.md, \"Search\"]")]   # read62 G L2: once a 60-word sentence
    # read78 G L5: "nowhere else outside" stacked two negatives
    assert ("* separate terms with `/`, `,` or `;` (in Chinese also `，` and `；`); outside parentheses and maths, use "
            "these marks for nothing else: write «заданные вручную параметры», not «параметры, заданные вручную»;") \
        in rules           # read63 G C6: rows use them inside parentheses (h, t, a), which pieces() drops below
    assert "* write each term whole (training mode / evaluation mode, not training / evaluation mode);" in rules
    assert "* put a gloss in parentheses or maths ($…$): the programs drop both;" in rules
    assert ("* use code font only inside parentheses: write 只用 reshape 的拆分 where the prose writes "
            "只用 `reshape` 的拆分;") in rules                       # (search_index drops code font as well)
    assert ("* give each of a row's three cells as many terms; * write no one-character term, except a Chinese word "
            "such as 头. `tests/test_guides.py` checks code font, the number of terms per cell and one-character "
            "terms.") in rules   # read61 G L3: once unsaid; read82 G L4: "the last three rules" made the reader count
    header, rows = search_index.glossary_rows()
    # what the page says is what the tools do, on a row made for it
    sample = tmp_path / "glossary.md"
    sample.write_text("# G\n\n## Glossary\n\n| " + " | ".join(header) + " |\n| --- | --- | --- |\n"
                      "| " + " | ".join({"English": "one (a) / two, three; four `x` $y$", "中文": "甲乙（注）$x$ / 丙丁，戊己；庚辛",
                                          "Русский": "раз (a) $x$ / два, три; четыре"}[name] for name in header) + " |\n",
                      encoding="utf-8")
    assert search_index.glossary_terms("zh", sample) == ["丙丁", "庚辛", "戊己", "甲乙"]
    assert search_index.glossary_pairs("ru", sample) == [("one", "раз"), ("two", "два"), ("three", "три"),
                                                         ("four", "четыре")]

    def pieces(cell):
        cell = re.sub(r"\([^)]*\)|（[^）]*）|\$[^$]*\$", " ", cell)
        assert "`" not in cell, f"code font outside parentheses, cut out of a term: {cell!r}"
        return [" ".join(p.split()).strip(" .") for p in re.split(r"[/，,；;]| / ", cell)]
    wanted = {lang: [] for lang in ("zh", "ru")}
    en = header.index("English")
    for cells in rows:
        split = [pieces(cell) for cell in cells]
        assert len({len(terms) for terms in split}) == 1, f"the cells do not give as many terms: {cells}"
        for name, terms in zip(header, split):
            assert all(terms), f"an empty term in {cells}"
            short = [t for t in terms if len(t) < 2 and not (name == "中文" and "\u3400" <= t <= "\u9fff")]
            assert not short, f"a term of one character in {cells}: {short}"
        for lang, name in (("zh", "中文"), ("ru", "Русский")):
            local = split[header.index(name)]
            if lang == "zh":     # as the text writes it: a space only next to Latin (KV 缓存), no symbol (位置表 P),
                local = ["" if re.search(r"[\u3400-\u9fff] [A-Z] [\u3400-\u9fff]", y) else   # which cuts 练习 N 参考解答
                         re.sub(r"(?<=[\u3400-\u9fff]) (?=[\u3400-\u9fff])", "",
                                re.sub(r" ?(?<!\w)[A-Z](?:_\w+)?(?!\w)", "", y)) for y in local]
            wanted[lang] += [(x, y) for x, y in zip(split[en], local) if len(x) > 1 and len(y) > 1]
    for lang, pairs in wanted.items():
        got = [(" ".join(x.split()), " ".join(y.split())) for x, y in search_index.glossary_pairs(lang)]
        assert got == pairs, (lang, [p for p in pairs if p not in got], [p for p in got if p not in pairs])


def test_what_the_language_test_catches_is_what_translating_md_says(tmp_path):
    """docs/translating.md says which forms tests/test_languages.py catches (it once said "a module that lists the
    languages again", though §8's source lists them as `"zh en ru".split()` and passes: read56 A2 C4). A tuple, a
    list or a set of all the codes, a pattern that alternates between them and a locale that is not its code are
    caught; §8's form is not, and §8's source holds it. A list, a pattern, a table or arguments that lack a language
    pass (read61 T C1: the guide said "a text in several languages", and a table written before a new language was
    added holds several but not every one)."""
    from course_i18n import LANGUAGES, language
    from test_languages import second_lists
    import test_languages
    text = adding_a_language()
    # the forms caught are listed in the test's docstring, which the guide points to
    assert ("`tests/test_languages.py` checks that `course_i18n` alone lists the languages. Its docstring says what it "
            "fails on, and what it lets through, such as a list written before `xx` existed.") in text
    said = " ".join(test_languages.__doc__.split())
    assert ("a module that writes the language codes out again (a tuple, list or set of all of them, a pattern "
            "that alternates between them) or names a Sphinx locale that differs from its code "
            f"(`{language('zh').locale}`)") in said
    # read71 T L9: what the test lets through, once a hard sentence of the guide, is said in its docstring
    assert ("What they let through: a list, pattern, table or set of arguments is flagged only when it names every "
            "language. One written before a new language existed passes; only the tests that fail for the new language "
            'show it. The two lists `"zh en ru".split()` in §8\'s code pass too, a form these tests do not look for: '
            'step 8 of "Adding a language" adds the new code to them.') in said
    assert "the language in the two lists" in text                      # step 8
    quoted = ", ".join(f'"{code}"' for code in LANGUAGES)          # (written out here, this test would be caught)
    sample = tmp_path / "sample.py"
    sample.write_text(f"A = ({quoted})\nB = [{quoted}]\nC = {{{quoted}}}\nD = r\"#({'|'.join(LANGUAGES)}) \"\n"
                      f"E = \"{language('zh').locale}\"\nF = \"{' '.join(LANGUAGES)}\".split()\n", encoding="utf-8")
    assert [line for line, _ in second_lists(sample)] == [1, 2, 3, 4, 5]
    # read61 T C1: each form counts only with every language in it, so one written before a language was added
    # (here, every code but the last) passes unseen, in a module and in a script of the site alike
    from test_languages import script_tables, translation_tables

    def forms(codes):
        table, named = ", ".join(f'"{c}": "{c}"' for c in codes), ", ".join(f"{c}={c!r}" for c in codes)
        return (f"A = ({', '.join(repr(c) for c in codes)},)\nD = r\"#({'|'.join(codes)}) \"\nW = {{{table}}}\n"
                f"md({named})\ndef words({', '.join(codes)}):\n    pass\n")
    older, every = tmp_path / "older.py", tmp_path / "every.py"
    older.write_text(forms(LANGUAGES[:-1]), encoding="utf-8")
    every.write_text(forms(LANGUAGES), encoding="utf-8")
    assert not list(second_lists(older)) and not list(translation_tables(older))
    assert [line for line, _ in second_lists(every)] == [1, 2]
    assert sorted(line for line, _ in translation_tables(every)) == [3, 4, 5]
    script = tmp_path / "older.js"
    script.write_text("var CLOSE = {" + ", ".join(f'{c}: "{c}"' for c in LANGUAGES[:-1]) + "};\n", encoding="utf-8")
    assert not list(script_tables(script))
    from tools.nbsource import load
    section_8 = ROOT / "src" / "chapters" / "08_real_text.py"
    cells = [c.text["en"] for c in load(section_8) if c.kind == "code" and '"zh en ru".split()' in c.text["en"]]
    assert len(cells) == 2 and 'f"verse_{lang}.txt"' in cells[0] and "assert " in cells[1], cells
    assert not list(second_lists(section_8))


def test_translating_md_describes_every_test_of_test_languages():
    """tests/test_languages.py's docstring, to which docs/translating.md points, says what each of its tests fails on
    (read57 T C4: the guide gave three forms of the modules and left out _config.yml's blocks, the folders of
    site/locale and the sources of src/; read69 T L19: the list moved from the guide to the docstring, one form a
    line); the tests of the checks themselves need no words."""
    import test_languages
    text = adding_a_language()
    assert "### What tests/test_languages.py catches" not in text and "Its docstring says what it fails on" in text
    part = " ".join(test_languages.__doc__.split())
    described = {
        "test_no_module_lists_the_languages_again": "a module that writes the language codes out again",
        "test_no_module_writes_a_translation_table": "a Python module outside `tests/` that holds a text in every "
                                                     "language, as a `{language: text}` table or as arguments named "
                                                     "by language",
        "test_no_script_of_the_site_writes_a_translation_table": "a script in `site/static/` that holds such a table "
                                                                 "(only `QUESTION` in `course-search.js` may",
        "test_the_prose_of_src_is_english_with_its_translations_in_catalogues":
            "a source in `src/` that gives `T()` more than one text, or tags a comment with a language other than "
            "English",
        "test_the_site_config_names_the_same_languages":
            "blocks under `languages:` in `_config.yml` that are not the languages of `course_i18n.LANGUAGE_TABLE` in "
            "its order, or whose `label` or `sphinx_language` differs from it",
        "test_every_locale_folder_of_the_site_belongs_to_a_language":
            "a folder of `site/locale/` that belongs to no language, or a language other than English without one",
        "test_an_unknown_language_is_refused_naming_the_known_ones":
            "a code the course lacks, given to `course_i18n.check_language`, which it must refuse",
        "test_the_script_check_sees_a_table": None,
        "test_the_check_sees_a_second_list": None,
    }
    assert {name for name in dir(test_languages) if name.startswith("test_")} == set(described)
    assert not [words for words in described.values() if words and words not in part]
    assert "in step 1's order" in text[text.index("4. Add its block under `languages:`"):text.index("5. Add its caption")]


def test_what_check_names_is_every_problem_the_tool_reports():
    """docs/translating.md, "What `check` reports" (once "What check names"), covers every message of `tools/i18n.py check` (read57 T C2: it left
    out a missing or stale template, a re-laid template and an entry translating other English), and says that
    check looks only at the catalogues (C1: it once said check named everything a translator still had to do, though
    it passed a changed translation that tools/translations.py status named). A message added to the tool fails
    here until the guide says it."""
    import inspect

    from tools import i18n
    text = flat("docs", "translating.md")
    part = text[text.index("## What `check` reports"):text.index("## What `check` does not see")]
    assert ("`check` compares the catalogues and their templates with the English that the code and `src/` write "
            "now.") in part
    unseen = text[text.index("## What `check` does not see"):text.index("Some tests quote a translation")]
    # read66 T C3; read69 T L15: the summary was shorter than the list, so it points to the list
    assert ("`check` does not read what you rebuild or confirm: the Chinese and Russian notebooks, the SVGs and "
            "`src/translations/`. In the catalogues, it checks only what the previous section lists.") in unseen
    assert 0 < text.index("## What `check` does not see") - text.index("## What `check` reports") and "## " not in \
        text[text.index("## What `check` reports") + 3:text.index("## What `check` does not see")]  # the section before
    guide = {                           # the start of each message, after the file and entry it names -> the guide's words
        "missing; run tools/i18n.py extract": "a template that is missing",
        "not what the code says": "no longer holds the English of the code or of `src/`",
        "not what src/": "no longer holds the English of the code or of `src/`",
        "not laid out as tools/i18n.py writes it": "laid out differently from what `extract` writes",
        "missing; run tools/i18n.py init": "a catalogue that is missing",
        "not translated": "an entry that is untranslated",
        "fuzzy (the English changed": "untranslated, fuzzy or obsolete",
        "obsolete (#~)": "untranslated, fuzzy or obsolete",
        "the old English (#| lines) is left": "no longer fuzzy but still carrying its `#|` lines",
        "missing; run tools/i18n.py update": "an entry that is missing",
        "no such text in": "whose English the code or `src/` no longer writes (run `update`)",
        "translates other English than the code's": "whose English the code or `src/` no longer writes",
        "placeholders": "a translation whose placeholders differ from those of the English",
        "the placeholders": "the notebook builder's `{{name}}` in the three prose catalogues",
    }
    source = "".join(inspect.getsource(f) for f in (i18n.problems, i18n.prose_problems, i18n._existing, i18n.relaid))
    messages = re.findall(r'f"\{[^"]*?[}\]]: ([^"{]+)', source)
    # an entry's unfinished translation: both functions append what tools.i18n._unfinished returns
    unfinished = inspect.getsource(i18n._unfinished)
    messages += re.findall(r'return "([^"]+)"', unfinished)
    delegated = source.count('found.append(f"{where}: {unfinished}")')
    assert delegated == 2 and len(messages) == (source.count("found.append(") - delegated + source.count("return [f")
                                                + source.count("return (f") + unfinished.count('return "'))
    unsaid = [m for m in messages if not any(m.startswith(start) for start in guide)]
    assert not unsaid, f"messages of check that docs/translating.md does not list: {unsaid}"
    assert not [words for words in guide.values() if words not in part], part
    assert "laid out differently from what `update` writes" in part
    # the {fields} it compares: course.po's, and of the prose catalogues those str.format fills
    assert i18n.FORMATTED == ("quizzes",) and "`{name}` in `course.po` and `quizzes.po`" in part
    # the loop's step 2 names both sets by the line `check` prints for each (read61 T L4: "both sets" came before
    # the section that introduces them)
    assert 'until `check` prints "all translated" for both the interface and the prose catalogues' in text
    main = inspect.getsource(i18n.main)
    assert '"interface catalogues: all translated"' in main and '"prose catalogues: all translated"' in main


def test_check_reads_none_of_the_files_translating_md_says_it_does_not(monkeypatch, capsys):
    """docs/translating.md, "What `check` does not see": `tools/i18n.py check` reads the catalogues and their templates and the
    English of the code and src/, and none of what a translator rebuilds or confirms: no SVG, no record of
    src/translations/, no notebook of a language other than English (read58 T C1: the guide once said check looked
    only at the catalogues, and its own list compared them with the code; a quiz source reads §7's English notebook
    to learn its own English)."""
    import builtins
    import io

    from course_i18n import SOURCE_LANGUAGE
    from tools import i18n
    opened, real = [], io.open

    def recording(file, *args, **kwargs):
        opened.append(pathlib.Path(file).resolve())
        return real(file, *args, **kwargs)
    monkeypatch.setattr(io, "open", recording)
    monkeypatch.setattr(builtins, "open", recording)
    i18n.main(["check"])
    capsys.readouterr()
    assert {path.suffix for path in opened} >= {".po", ".pot", ".py"}
    translations = ROOT / "src" / "translations"
    read = [path for path in opened if path.suffix == ".svg" or path.is_relative_to(translations)
            or path.suffix == ".ipynb" and path.parent.name != SOURCE_LANGUAGE]
    assert not read, read


def test_the_tests_translating_md_says_quote_a_translation_do():
    """docs/translating.md names tests that quote a translation word for word, so that a translator who changes one
    expects the test to fail (read57 T C3: the guide said no committed file held an interface text, and a changed
    rubric title failed tests/test_grading_exports.py). Each named test holds a string that is a translation of
    course.po or of a prose catalogue, or holds a piece of one (a message filled with its values); a test that quotes
    none holds neither. read73 T C2: the list left out test_prose_numbers.py and test_glossary.py, which quote the
    Chinese and Russian of §1, §2, §3 and §5."""
    import ast

    from course_i18n.catalogue import DOMAIN, LOCALES_DIR, read_po
    from course_i18n import LANGUAGES, SOURCE_LANGUAGE
    text = flat("docs", "translating.md")
    m = re.search(r"Some tests quote a translation word for word, among them (.*?)\. Such a test fails once you "
                  r"change the translation it quotes: change its expected text in the same commit", text)
    assert m, "docs/translating.md no longer names the tests that quote a translation"
    named = re.findall(r"`(tests/test_\w+\.py)`", m.group(1))
    whole, pieces = set(), set()
    prose = [ROOT / "src" / "locales" / lang / "LC_MESSAGES" / f"{kind}.po" for lang in LANGUAGES
             if lang != SOURCE_LANGUAGE for kind in ("chapters", "solutions", "quizzes")]
    for path in [LOCALES_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po" for lang in LANGUAGES
                 if lang != SOURCE_LANGUAGE] + prose:
        for entry in read_po(path):
            if entry["msgid"] and re.search(r"[^\x00-\x7f]", entry["msgstr"]):
                whole.add(entry["msgstr"])
                pieces |= {p for p in re.split(r"\{[^{}]*\}", entry["msgstr"]) if len(p) >= 10}

    def quoted(path):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
        return [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in docstrings and (len(node.value) >= 4 and node.value in whole
                                                    or any(piece in node.value for piece in pieces))]
    assert len(named) >= 3 and all(quoted(ROOT / path) for path in named), [p for p in named if not quoted(ROOT / p)]
    assert {"tests/test_prose_numbers.py", "tests/test_glossary.py"} <= set(named), named
    assert not quoted(ROOT / "tests" / "test_code_width.py")
    assert "FAILURES = {" in (ROOT / "tests" / "test_exercises.py").read_text(encoding="utf-8")


def test_the_prose_numbers_bullet_says_what_the_file_checks():
    """docs/translating.md's bullet on tests/test_prose_numbers.py (read73 T C2: it named one of the file's tests, the
    bound of §7, and left out its title test and the tests that quote §3's and §5's Chinese and Russian, so that a
    translator who rewords §3's opening met a failure the guide did not explain)."""
    import inspect

    import test_prose_numbers as t
    text = flat("docs", "translating.md")
    # "among others": its title test reads the English only (README.md says what it checks), the rest every language
    # read74 T L13: "in words quoted in every language" said who quotes them only in passing
    # read75 T L6: "comes just before" did not say what comes there: the Markdown states the bound
    # read83 R C1: "a few sentences of §3, §5 and §3's quiz" left out §2.7, §8's opening and §5's quiz
    # (test_the_guide_names_every_page_whose_words_test_prose_numbers_quotes checks the list)
    assert ("* `tests/test_prose_numbers.py`: among others, any error bound of §7 other than 10⁻⁶ is stated in the "
            "Markdown just before the cell that prints it. In every language, some sentences of ") in text
    assert "`tests/test_prose_numbers.py`: where §7 prints a bound" not in text
    assert "stated in the Markdown just before the cell that prints it" in " ".join(
        t.test_a_tighter_bound_a_cell_prints_is_said_before_it.__doc__.split())
    assert t.__doc__.startswith("Every number with three or more decimals that a section's prose states is one its")
    assert 'c.text["en"] for c in cells if c.kind == "markdown"' in inspect.getsource(t)
    assert "three or more decimal places" in flat("README.md") and "`tests/test_prose_numbers.py`" in flat("README.md")
    assert "какие ключи стоят не позже него" in inspect.getsource(t.test_section_3_opens_with_the_keys_a_query_may_read)
    assert "множества `cached_layers`" in inspect.getsource(t.test_section_5_calls_cached_layers_what_its_code_passes)
    assert "запроса 5 с ключом 2" in inspect.getsource(t.test_section_3_5_scores_rope_only_on_pairs_the_causal_mask_allows)


def pages_test_prose_numbers_quotes():
    """(sections, quizzes): the numbers of the sections whose Markdown, and of the quizzes whose texts,
    tests/test_prose_numbers.py quotes in every language. A test quotes every language when it names every
    language's code ("en", "zh", "ru" as keys or indexes); the pages it reads are the notebooks and sources it names
    as "NN_name" (or "NN_name.ipynb"), the sources it loads with `nbsource.load(SECTIONS_BY_NUMBER[N])` (whose cells
    hold every language; `_cells` reads only the English and the code), and the quizzes it passes to
    `_quiz_questions("NN_name")`."""
    from course_i18n import LANGUAGES
    tree = ast.parse((ROOT / "tests" / "test_prose_numbers.py").read_text(encoding="utf-8"))
    sections, quizzes = set(), set()
    for test in tree.body:
        if not (isinstance(test, ast.FunctionDef) and test.name.startswith("test_")):
            continue
        nodes = list(ast.walk(test))
        constants = [n for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        if not set(LANGUAGES) <= {n.value for n in constants}:
            continue
        quiz_names = [n.args[0] for n in nodes if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "_quiz_questions"]
        quizzes |= {int(n.value[:2]) for n in quiz_names}
        sections |= {int(m.group(1)) for n in constants if n not in quiz_names
                     for m in [re.fullmatch(r"(\d\d)_[a-z_]+(?:\.ipynb)?", n.value)] if m}
        sections |= {n.args[0].slice.value for n in nodes
                     if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "load"
                     and getattr(n.func.value, "id", None) == "nbsource" and isinstance(n.args[0], ast.Subscript)
                     and getattr(n.args[0].value, "id", None) == "SECTIONS_BY_NUMBER"}
    return sections, quizzes


def test_the_guide_names_every_page_whose_words_test_prose_numbers_quotes():
    """docs/translating.md's bullet on tests/test_prose_numbers.py names each section and each quiz whose words the
    file quotes in every language, so that a translator who rewords one knows the test reads it (read83 R C1: it named
    §3, §5 and §3's quiz, and left out §2.7, §8's opening and §5's quiz). The list is read from the test file."""
    sections, quizzes = pages_test_prose_numbers_quotes()
    assert {2, 3, 5, 8} <= sections and {3, 5} <= quizzes, (sections, quizzes)     # the reading finds what it should
    text = flat("docs", "translating.md")
    bullet = text.split("* `tests/test_prose_numbers.py`:", 1)[1].split(" * ", 1)[0]
    m = re.search(r"In every language, some sentences of (.+?), and of the quizzes of (.+?), keep the words the test "
                  r"quotes\.", bullet)
    assert m, "docs/translating.md no longer lists the sections and quizzes test_prose_numbers.py quotes: " + bullet
    named = [{int(n) for n in re.findall(r"§(\d)", group)} for group in m.groups()]
    assert named == [sections, quizzes], (named, sections, quizzes)


def test_the_install_note_has_one_entry_per_exercise_source():
    """docs/translating.md: the note on installing the course appears in every exercise notebook, so solutions.po
    holds it once per exercise source, and its translations are alike (read57 T L10)."""
    from grading.notebook_setup import INSTALL_NOTE
    from tools import i18n, prose
    text = flat("docs", "translating.md")
    assert ('Every exercise notebook shows the note that begins "If you opened this notebook outside the course", so '
            "`solutions.po` holds it once per exercise set: give every copy the same translation.") in text
    assert "translate them alike" not in text            # read76 T L11: "them" had no clear antecedent
    assert INSTALL_NOTE.strip().startswith("If you opened this notebook outside the course,")   # read63 T L6
    sources = [f"solutions/{path.stem}" for path in i18n.prose_sources("solutions")]
    entries = [m for m in i18n.read(prose.template_path("solutions")) if m.id and m.id.strip() == INSTALL_NOTE.strip()]
    assert [m.context for m in entries] == sources and len(sources) > 1
    for lang in prose.translated_languages():
        catalogue = i18n.read(prose.catalogue_path(lang, "solutions"), lang)
        assert len({catalogue.get(m.id, context=m.context).string for m in entries}) == 1, lang


def test_a_new_languages_search_words_are_what_step_9_names(monkeypatch):
    """docs/translating.md, "Adding a language", step 9: the site's search index of a language reads its terms in
    site/search-terms.yml, its column of docs/glossary.md's tables (headed by its own name) and its groups in
    site/search-synonyms.yml, and stops without any of them (read57 T L16: the steps named none of the last two)."""
    import inspect

    from course_i18n import Language, language
    from tools import build_site, search_index
    text = adding_a_language()
    step = text[text.index("9. Add the words of its search"):text.index("10. ")]
    assert re.findall(r"`(site/[\w-]+\.yml)`", step) == ["site/search-terms.yml", "site/search-synonyms.yml"]
    assert "its column in the tables of [glossary.md](glossary.md) (headed by its own name)" in step
    new = Language("xx", "Xx", "xx", "xx")
    monkeypatch.setattr(search_index, "language", lambda code: new if code == "xx" else language(code))
    for read in (search_index.search_terms, search_index.synonyms, search_index.glossary_pairs,
                 search_index.glossary_terms):
        with pytest.raises(ValueError):
            read("xx")
    built = inspect.getsource(search_index.build)
    assert all(call in built for call in ("search_terms(lang,", "glossary_pairs(lang)", "synonyms(lang)"))
    assert "search_index.build(" in inspect.getsource(build_site.publish)


def test_a_plural_category_the_course_does_not_list_gets_the_other_form(monkeypatch):
    """docs/translating.md, "Adding a language", step 1: a plural rule with a category beyond one, few, many and other
    needs it in PLURAL_CATEGORIES, or `plural` makes no entry for it and a number of that category gets the "other"
    form (read57 T L17)."""
    import course_i18n
    from course_i18n import catalogue
    step = re.search(r"1\. Add the language to `LANGUAGE_TABLE`.*? 2\. ", adding_a_language()).group(0)
    assert ("A category beyond `one`, `few`, `many` and `other`, such as `two`, must also go into `PLURAL_CATEGORIES`, "
            "or its numbers get the `other` form.") in step
    assert catalogue.PLURAL_CATEGORIES == ("one", "few", "many", "other")
    monkeypatch.setattr(catalogue, "_written", dict(catalogue._written))     # the made-up texts stay in this test
    monkeypatch.setitem(course_i18n.PLURAL_RULES, "east-slavic",
                        (("one", "two", "other"), lambda n: "one" if n == 1 else "two" if n == 2 else "other"))
    points = catalogue.plural("tests.guides.points", "n", "{n} point", "{n} points")
    assert sorted(points.forms) == ["one", "other"] and course_i18n.plural_category("ru", 2) == "two"
    assert points.form("ru", {"n": 2}) == points.forms["other"]["ru"]
    monkeypatch.setattr(catalogue, "PLURAL_CATEGORIES", ("one", "two", "few", "many", "other"))
    assert sorted(catalogue.plural("tests.guides.marks", "n", "{n} mark", "{n} marks").forms) == ["one", "other", "two"]


def test_the_commands_translating_md_gives_are_the_tools():
    """Every `.venv/bin/python tools/….py` command of docs/translating.md names a script that exists, and each
    subcommand and option it gives is one the script defines (`diagrams.py --check`, `translations.py confirm
    --cell`, ...)."""
    text = (ROOT / "docs" / "translating.md").read_text(encoding="utf-8")
    commands = re.findall(r"\.venv/bin/python (tools/\w+\.py)((?: [\w./<>-]+)*)", text)
    assert len(commands) > 10
    unknown = []
    for script, args in commands:
        source = (ROOT / script).read_text(encoding="utf-8")
        words = args.split()
        given = [w for w in words if w.startswith("--")] + [w for w in words[:1] if re.fullmatch(r"[a-z]+", w)]
        unknown += [f"{script} {w}" for w in given if f'"{w}"' not in source]
    assert not unknown, unknown


def test_the_interactive_figures_words_are_in_the_outputs_translating_md_names():
    """docs/translating.md: the words of the interactive figures are written, in every language, into the saved
    outputs of §1 and §2, which a change to one of them must rebuild without --prose-only (read56 A1 C2: the guide
    said a changed interface text had nothing to rebuild). Every language's notebooks of §1 and §2 carry every
    language's words of the figures in their outputs, and no other notebook does."""
    import json
    from course_i18n import LANGUAGES
    from figures import interactive
    text = flat("docs", "translating.md")
    assert ("**The words of the interactive figures** (the keys `figures.interactive.*` of `course.po`) are written, "
            "in every language, into the saved outputs of §1 and §2.") in text
    assert ".venv/bin/python tools/build_notebooks.py src/chapters/01_allowed_set.py src/chapters/02_heads.py" in text
    note = interactive.TEXTS["static_note"]
    for lang in LANGUAGES:
        holding = set()
        for path in sorted((ROOT / "chapters" / lang).glob("*.ipynb")) + sorted((ROOT / "solutions" / lang).glob("*")):
            outputs = json.dumps([c.get("outputs", []) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]],
                                 ensure_ascii=False)
            if any(note[other] in outputs for other in LANGUAGES):
                assert all(note[other] in outputs for other in LANGUAGES), path
                holding.add(path.stem)
        assert holding == {"01_allowed_set", "02_heads"}, (lang, holding)


def test_the_mutant_commands_contributing_gives_are_the_tools():
    """docs/maintainers.md runs one mutant with `tools/mutants.py --only NAME` (it once sent the reader to `make mutants`,
    which runs them all for minutes: read56 A1 L11) and shows a real line of `MUTANTS`, which is one of the file's;
    `--every` is the tool's option too. How a line of MUTANTS reads is said once, in "Changing lib", which the
    steps for a new function point to and which does not point back (read57 A1 L11, A2 L10: the two parts sent the
    reader to each other)."""
    from tools import mutants
    text = flat("docs", "maintainers.md")     # "Changing lib" moved there from CONTRIBUTING.md (audit 23, T-1)
    changing = text[text.index("## Changing `lib`"):text.index("## The test suite")]
    mutants_part = changing[changing.index("### Mutants"):]
    # what a mutant is and how to run one is said once, in "Changing lib", "Mutants" (read61 A2 L11: step 6 of a
    # new function gave the command and sent the reader to the end of the guide for the rest)
    # read76 A L17: the lib tests are named, so that a reader can run them alone while changing lib
    assert ("Run `.venv/bin/python tools/mutants.py --only NAME`. It runs the lib tests (`LIB_TESTS` in "
            "`tools/mutants.py`: no notebooks, no grading or site tests) without the mutant, then "
            "with it, and prints which test catches it.") in mutants_part   # read66 A L23: the lib tests run twice
    assert "the lib tests alone run (LIB_TESTS: no notebooks, no grading or site tests," in " ".join(mutants.__doc__.split())
    assert all((ROOT / path).is_file() and "notebook" not in path and "grading" not in path and "site" not in path
               for path in mutants.LIB_TESTS), mutants.LIB_TESTS
    assert "Where a change goes" not in changing and "add a line to `MUTANTS` in `tools/mutants.py`. It names" \
        in mutants_part
    assert text.count("`m(\"") == 1 and text.count("--only NAME") == 1
    assert "6. Add a mutant of it and check that a test catches it ([Mutants](#mutants))." in text
    assert text.count("*mutant*") == 1 and text.index("*mutant*") > text.index("### Mutants")  # defined once
    # read69 A L21: the warning to leave lib alone follows the command it belongs to
    assert ("the next run restores it first. `make mutants` runs every mutant, which takes minutes.") in mutants_part
    assert "`.venv/bin/python tools/mutants.py --every lib.module.function` tries every bug" in text
    source = (ROOT / "tools" / "mutants.py").read_text(encoding="utf-8")
    assert 'parser.add_argument("--only"' in source and 'parser.add_argument("--every"' in source
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^mutants: dev\n\t\$\(PY\) tools/mutants\.py\n", makefile, re.M)
    # read79 A L14: the abbreviation is explained before the line that uses it
    shown = re.search(r'The file abbreviates module names \(`A = "([\w.]+)"`\), so a line reads '
                      r'`m\("([\w-]+)", f"\{A\}\.(\w+)", "([^"]+)"\)`\.', text)
    assert shown, "CONTRIBUTING.md no longer shows a line of MUTANTS"
    module, name, function, selector = shown.groups()
    assert f'm("{name}", f"{{A}}.{function}", "{selector}")' in source and mutants.A == module
    assert any(m.name == name and m.target == f"{module}.{function}" and m.selector == selector
               for m in mutants.MUTANTS)


def test_a_mutant_run_restores_the_lib_file_it_rewrites(tmp_path, monkeypatch):
    """docs/maintainers.md, "Mutants" (read57 A2 L11: the guide never said that tools/mutants.py edits lib
    in place): the mutant stands in the function's file while its tests run, and the file is restored when they
    end, on Ctrl-C, or, after a crash, by the next run, which restores before anything else."""
    import inspect
    from tools import mutants
    assert ("Leave `lib` alone meanwhile: the run writes the mutant into the function's file and restores the file "
            "when the tests end or on Ctrl-C; after a crash, the next run restores it first.") in flat("docs", "maintainers.md")
    original, mutated = "def f():\n    return 1\n", "def f():\n    return 2\n"
    path = tmp_path / "lib" / "demo.py"
    path.parent.mkdir()
    path.write_text(original, encoding="utf-8")
    monkeypatch.setattr(mutants, "ROOT", tmp_path)
    monkeypatch.setattr(mutants, "BACKUP", tmp_path / "_build" / "mutants")
    monkeypatch.setattr(mutants, "mutated_text", lambda mutant: (path, mutated))
    seen = []

    def tests(timeout, tests=None):
        seen.append(path.read_text(encoding="utf-8"))
        return "tests/test_demo.py::test_f", 0.0

    monkeypatch.setattr(mutants, "run_tests", tests)
    mutant = mutants.m("demo", "lib.demo.f", "whatever")
    assert mutants.run_mutant(mutant, 10)[0] == "tests/test_demo.py::test_f"
    assert seen == [mutated] and path.read_text(encoding="utf-8") == original

    def interrupted(timeout, tests=None):
        seen.append(path.read_text(encoding="utf-8"))
        raise KeyboardInterrupt

    monkeypatch.setattr(mutants, "run_tests", interrupted)
    with pytest.raises(KeyboardInterrupt):
        mutants.run_mutant(mutant, 10)
    assert seen[-1] == mutated and path.read_text(encoding="utf-8") == original
    assert not list(mutants.BACKUP.rglob("*.py"))
    # a crash leaves the mutated file and its backup; the next run restores the file first
    backup = mutants.BACKUP / "lib" / "demo.py"
    backup.write_text(original, encoding="utf-8")
    path.write_text(mutated, encoding="utf-8")
    mutants.restore_leftovers()
    assert path.read_text(encoding="utf-8") == original and not backup.exists()
    main = inspect.getsource(mutants.main)
    assert -1 < main.index("restore_leftovers()") < main.index("run_tests(args.timeout)")


def test_the_code_calls_a_section_a_chapter_and_a_subsection_a_section():
    """CONTRIBUTING.md's opening and docs/glossary.md say how code names what the prose calls a section and a
    subsection (read57 A2 C1: they said code's *chapter* and prose's *section* meant the same, and left out that code
    calls §N.M a *section*): grading/sections.py links §N.M as section_href(chapter=N, section=M), as the guide's
    example `section_href(2, 3, lang)` does for §2.3 (read63 A L2: the rule read backwards without one), and a quiz's
    section() names the §N.M the questions stand at the end of."""
    import inspect
    from grading import sections
    from tools import quizzes
    # read73 A L6: "and a subsection a *section*", elliptical, read as a tongue-twister
    said = re.search(r"In code and file names, a section is a \*chapter\* \(`chapters/`, `CHAPTER_PAGES`\), "
                     r"and a subsection is a \*section\*\. For example, `section_href\((\d+), (\d+), lang\)` in `grading/sections\.py` takes "
                     r"§(\d+)\.(\d+) as chapter (\d+), section (\d+)\.", flat("CONTRIBUTING.md"))
    assert said and said.group(1, 2) == said.group(3, 4) == said.group(5, 6), \
        "CONTRIBUTING.md no longer says how code names a section"
    # read69 A C2: the example said it "links to §2.3", but without a site address (the repository ships none) the
    # call returns None; the guide now says only how it names the subsection
    assert "links to §" not in flat("CONTRIBUTING.md")
    assert sections.section_href(2, 3, "en", base="") is None
    assert sections.section_href(int(said.group(1)), int(said.group(2)), "en", base="https://x.org").endswith(
        f"#sec-{said.group(1)}-{said.group(2)}")
    # read66 G L4: a bullet of its own, after the prose rule's (words.md) marker; "there" once named the code.
    # read71 G: said once, in CONTRIBUTING.md's "Terms" (checked above), to which the glossary's bullet points
    assert ("* In code, a section is a *chapter* and a subsection a *section* ([CONTRIBUTING.md, \"Terms\"]"
            "(../CONTRIBUTING.md#terms)).") in flat("docs", "glossary.md")
    contributing = flat("CONTRIBUTING.md")
    assert contributing.index("## Terms") < contributing.index(said.group(0)) < contributing.index("## Layout")
    # the call as written is a valid one (read58 A1 C2: `lang` is required, and the guides left it out)
    parameters = list(inspect.signature(sections.section_href).parameters.values())
    assert [p.name for p in parameters[:3]] == ["chapter", "section", "lang"]
    assert all(p.default is inspect.Parameter.empty for p in parameters[:3])
    assert all(p.default is not inspect.Parameter.empty for p in parameters[3:])
    assert sections.section_href(2, 3, "en", base="https://x.org").endswith("#sec-2-3")
    assert [s.questions[0].section for s in quizzes.load_all()["chapters/02_heads"]][0].startswith("2.")


def test_the_quiz_witnesses_are_said_to_run_where_a_question_has_one():
    """CONTRIBUTING.md's quiz loop: test_quiz_witnesses.py runs a question's witness "if it has one" (read57 A1 C1,
    A2 C3: it said each question had one, though some are about a definition and some have none). It says what a
    question without one does instead, as tools/quizzes.py's "Witnesses" does (read59 A L8: "the other ways" named
    none): it names the subsection that defines its term (read63 A2 L9: it said "section", and every `defined_in`
    is a §N.M), or says why no code can check it."""
    from tools import quizzes
    text = flat("CONTRIBUTING.md")
    assert ("`tests/test_quiz_witnesses.py` runs each question's *witness*: a few lines of code that check "
            "its answer. A question without one names the subsection that defines its term, or says why no code can "
            "check it (`tools/quizzes.py`, \"Witnesses\").") in text
    assert "**Witnesses.**" in quizzes.__doc__
    questions = [q for sections in quizzes.load_all().values() for s in sections for q in s.questions]
    witnessed = [q for q in questions if q.witness is not None]
    assert 0 < len(witnessed) < len(questions)
    assert all(q.witness is not None or q.defined_in or q.unwitnessed for q in questions)
    defined_in = [q.defined_in for q in questions if q.defined_in]
    assert defined_in and all(re.fullmatch(r"\d+\.\d+", d) for d in defined_in), defined_in


def test_update_keeps_a_prose_translation_only_for_an_edit_it_can_match(tmp_path):
    """CONTRIBUTING.md's loop, step 1 (read57 A1 C2): `update` marks fuzzy a translation whose English changed, but
    a paragraph of prose rewritten too far to be matched starts untranslated and its old translation becomes
    obsolete, which `check` fails on; an interface text, matched by its key, stays fuzzy however far it changed."""
    from tools import i18n
    text = flat("CONTRIBUTING.md")
    # read74 A L10: the step says what extract and update write; *fuzzy* is glossed here, its first use since read74 A L5
    # read75 A L4: the object of "marks" no longer split by the gloss
    assert ("`extract` writes the English texts into the templates (`.pot`). `update` merges them into each "
            "language's catalogue. It marks each translation whose English changed as *fuzzy*, gettext's flag for "
            "\"check this translation again\". A paragraph of prose rewritten until it is less than 60% like its old "
            "English (`SIMILAR` in `tools/i18n.py`) starts untranslated, and its old translation becomes *obsolete*"
            ) in text and i18n.SIMILAR == 0.6     # read80 A L4: "too far" given as the limit the code uses
    assert "the English texts of the code and of src/ -> the templates (.pot)" in i18n.__doc__
    assert "merge the templates into every language's catalogues" in i18n.__doc__
    # *fuzzy* is defined once, where the guide first uses it (read62: it was used in "A quick loop" before its gloss)
    assert text.count("*fuzzy*") == 1 and text.index("*fuzzy*, gettext's flag for \"check this translation again\"") \
        < text.index("fuzzy ")
    old = i18n._prose_catalogue("chapters", "ru")
    old.add("The mask keeps every key at or before the query.", "Маска оставляет ключи до запроса.",
            context="chapters/01_a")
    old.add("Heads split the width.", "Головы делят ширину.", context="chapters/01_a")
    entries = [("chapters/01_a", "The mask keeps every key at or before its query."),
               ("chapters/01_a", "Positions are added to the token vectors before anything else happens.")]
    new = i18n.merge_prose(old, "chapters", entries, "ru")
    edited, rewritten = (new.get(english, context=context) for context, english in entries)
    assert edited.fuzzy and edited.string == "Маска оставляет ключи до запроса."
    assert not rewritten.string and not rewritten.fuzzy
    assert [m.id for m in new.obsolete.values()] == ["Heads split the width."]
    interface = i18n._new_catalogue("ru")
    interface.add("Heads split the width.", "Головы делят ширину.", context="demo.text")
    merged = i18n.merge(interface, {"demo.text": "Something else entirely, and much longer than before."}, "ru")
    assert merged.get("Something else entirely, and much longer than before.", context="demo.text").fuzzy


def test_the_builder_stops_at_the_first_source_with_a_missing_translation(monkeypatch):
    """CONTRIBUTING.md, "Build and test one source", step 1 (read57 A1 C7, A2 C4: it said the builder stopped before it
    wrote anything): the builder takes its sources one at a time, so the sources before the failing one are
    written; within a source, the prose is loaded, in every language, before any notebook is written. It takes any
    number of sources (read58 A1 L14, A2 L15: "takes one source at a time" read as "accepts one")."""
    from tools import build_notebooks
    from tools.prose import ProseError
    text = flat("CONTRIBUTING.md")
    # read76 A L2: the loop now comes before "When the English changes", which defines *fuzzy*, so it says what fuzzy means
    # read78 A L3, L13: the tool's three refusals in its own terms, --prose-only's own refusal, and what to do next
    # read79 A L3: the command comes first, then --prose-only, then the refusals, each in its own paragraph
    assert ("2. Rebuild its notebooks: ```bash .venv/bin/python tools/build_notebooks.py src/chapters/02_heads.py ``` "
            "If only prose changed (Markdown, comments, alt text), add `--prose-only`: it keeps the committed outputs "
            "instead of running the notebooks, and refuses if any code changed. The builder refuses a source whose translation is missing, empty or flagged as out of "
            "date (its English changed since it was translated), and names the texts. Given several sources, it stops at the "
            "first one it refuses, having rebuilt those before it. Fix that source, then rerun the builder on it and the "
            "sources after it.") in text    # read82 A L6: one sentence of three instructions, split
    assert "older than its English" not in text
    assert '"is empty" if entry else "is missing"' in (ROOT / "tools" / "prose.py").read_text(encoding="utf-8")
    assert "code cell {after.id} changed" in (ROOT / "tools" / "build_notebooks.py").read_text(encoding="utf-8")
    assert "is marked fuzzy (its English changed since it was translated)" in (ROOT / "tools" / "prose.py").read_text(
        encoding="utf-8")   # read63 A L4, A2 L3: it said "it has built those before that one"
    # what --prose-only does is said once, where the loop first uses it (read60 A2 L19: it was said four times)
    # read76 A L2, L16: its first use is again step 2 of "Build and test one source", now the loop's first procedure
    assert text.count("keeps the committed outputs") == 1 and 0 < text.index("keeps the committed outputs") - text.index(
        "`--prose-only`") < 40
    built = []

    def build(path, run=True, prose_only=False):
        built.append(path)
        if path == "b.py":
            raise ProseError("b.py: no ru translation")

    monkeypatch.setattr(build_notebooks, "build", build)
    with pytest.raises(SystemExit, match="b.py: no ru translation"):
        build_notebooks.main(["a.py", "b.py", "c.py"])
    assert built == ["a.py", "b.py"]
    monkeypatch.undo()

    def load(path):
        raise ProseError("no ru translation")

    monkeypatch.setattr(build_notebooks, "load", load)
    monkeypatch.setattr(build_notebooks, "write_atomically", lambda *args: pytest.fail("a notebook was written"))
    with pytest.raises(ProseError):
        build_notebooks.build(ROOT / "src" / "chapters" / "02_heads.py")


def test_a_new_diagram_is_registered_where_tools_diagrams_reads_it():
    """CONTRIBUTING.md's "A figure" (read75 A L15c: it said where a new diagram's image line goes, not that
    tools/diagrams.py must know the diagram): the four tables it names are the module's, and every diagram has an
    entry in each. Also read75 A L2: which language decides opens "One source, three languages", not the loop's
    procedure; L15b: the guide says how to run tests in one process, which pyproject.toml's two workers prevent."""
    from tools import diagrams
    text = flat("CONTRIBUTING.md")
    assert ("Register the diagram in `tools/diagrams.py`: its function in `DIAGRAMS`, its section in `PLACES`, its "
            "words in `WORDS` and its alt text in `ALT`.") in text
    assert set(diagrams.DIAGRAMS) == set(diagrams.PLACES) == set(diagrams.WORDS) == set(diagrams.ALT)
    assert all(callable(f) for f in diagrams.DIAGRAMS.values())
    assert all((ROOT / "src" / "chapters" / f"{stem}.py").is_file() for stem in diagrams.PLACES.values())
    # read76 A L3: the rule matters to whoever changes English, so it now opens "When the English changes";
    # read78 A C2: it settles a disagreement someone finds, as docs/translating.md says, and does not undo a
    # meaning changed on purpose, whose Chinese is retranslated in step 2 (named by what it does: no step numbers)
    assert text[text.index("### When the English changes"):].startswith(
        "### When the English changes The sources are written in English, but the Chinese text is authoritative. "
        "Where you find that an English passage and the "
        "Chinese disagree, the Chinese is right, and the English is corrected ([docs/translating.md, \"Which language "
        "decides\"](docs/translating.md#which-language-decides)). If you change what a passage means on purpose, the "
        "Chinese must change too: have it retranslated, as the steps below say. If you cannot translate into Chinese "
        "or Russian, stop after step 1")
    assert "2. Translate the new and fuzzy entries." in text
    # read78 A L2: both procedures have a step 1; the fallback names its own list
    # read79 A L7: "do step 1 of this list only", before a further instruction, read oddly
    # read82 A L5: said after step 4, it reached a reader who cannot translate too late; it now precedes step 1
    fallback = ("If you cannot translate into Chinese or Russian, stop after step 1 of the list below: commit the source "
                "and its updated catalogues without rebuilding, and ask for translations in your [pull request](#terms).")
    assert fallback in text and "do step 1" not in text
    assert text.index("### When the English changes") < text.index(fallback) < text.index("1. Update the catalogues")
    assert "Where the English and the Chinese disagree, the Chinese is right" in flat("docs", "translating.md")
    # read80 A L2: "reference" is the grader's word for its answers (grading/references.py)
    assert text.count("the Chinese text is authoritative") == 1 and "reference text" not in text
    assert "Chinese, not English, decides" not in text
    # read76 A L13: the workers were named, not explained
    # read79 A L10, L16: one parenthesis inside another; and which tests cover lib
    # read80 A L13: "the lib tests that Mutants names", though that section names none and points to LIB_TESTS
    # read81 A C1: LIB_TESTS (the tests a mutant must fail) leave out the two files that hold lib's own rules
    assert ("run the tests that cover your change; for `lib`, those are the files in `LIB_TESTS` of "
            "`tools/mutants.py`, with `tests/test_lib_size.py` (size, line length, docstrings) and "
            "`tests/test_plain_python.py`. "
            "Pytest runs them in two worker processes (`-n 2` in `pyproject.toml`); add `-n 0` to run them in one."
            ) in text and "not on two workers" not in text
    maintainers = flat("docs", "maintainers.md")        # "Changing lib" moved there (audit 23, T-1)
    assert "It runs the lib tests (`LIB_TESTS` in `tools/mutants.py`" in maintainers[maintainers.index("### Mutants"):]
    from tools import mutants
    assert mutants.LIB_TESTS and all((ROOT / t).is_file() for t in mutants.LIB_TESTS)
    own_rules = ["tests/test_lib_size.py", "tests/test_plain_python.py"]
    assert all((ROOT / t).is_file() and t not in mutants.LIB_TESTS for t in own_rules)
    assert "MOST_LINES" in (ROOT / own_rules[0]).read_text(encoding="utf-8")
    assert " -n 2 " in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    # read76 A L17: where a pull request goes, as README.md's hosting note has it, and what LICENSE says of licences
    # read80 A L15: what a contributor does with the branch; no file names a channel, and the guide invents none
    # read82 A L13: "pull request" was used from the loop on and explained only here; Terms now defines it
    terms = text[text.index("## Terms"):text.index("## Layout")]
    assert ("* A *pull request* is a branch of your own, made from `main`, that you offer to the course's maintainers, "
            "who merge it into `main`. The repository is not hosted publicly yet (README.md) and names no place to send "
            "changes to.") in terms
    body = text[text.index("## Terms"):].lower()    # the contents above name "Before you open a pull request"
    assert body.index("pull request") < len(terms)
    assert "* Work in small commits that say what changed and why." in text
    assert "neither the website nor the repository is public yet." in flat("README.md")
    # read79 A C1: it named two licences, though LICENSE's section 3 puts a few files under terms of their own; each
    # of those files' folders is named with its terms, as LICENSE (and tests/test_release.py) has them
    # read82 A C1: "prose, documentation and figures under CC BY-SA" put the texts the code shows (MIT, with their
    # translations) and the READMEs of the code's folders (site/README.md) under the wrong licence
    # read82 A L15: one sentence of four semicolons became a list of the three licences
    said = ("[LICENSE](LICENSE) lists the files each licence covers: * the MIT License: the code, the texts the "
            "code shows (`check()`'s messages, the grader's and the site's words, and their translations in "
            "`course_i18n/locales/` and `site/locale/`) and the READMEs in the code's folders; * CC BY-SA 4.0: the "
            "course's prose, README.md, CONTRIBUTING.md, CHANGELOG.md, `docs/` and the figures; * terms of their own, "
            "in its section 3: the verse "
            "of `lib/corpus/` (public domain), a schema in `tests/data/` (CC BY 4.0) and the templates in "
            "`site/templates/` adapted from the site's themes (BSD 3-Clause License). A file you adapt from elsewhere "
            "goes in that section, with its terms stated in its header or in its folder's README. LICENSE sets no "
            "separate terms for contributions.")
    # read79 A L12: not a step before a pull request, so a paragraph after the list, not one of its bullets
    # read80 A L14: under a heading of its own, which the contents list, so that a reader looking for it finds it
    assert f"say what changed and why. ## Licences {said} ## Where a change goes" in text
    licence = flat("LICENSE")
    section_3 = licence[licence.index("3. Files under terms of their own"):licence.index("A file or a part of a notebook")]
    for item in section_3.split(" * ")[1:]:
        [term] = [t for t in ("public domain", "CC BY 4.0", "BSD 3-Clause License") if t in item]
        folders = {p.rsplit("/", 1)[0] + "/" for p in re.findall(r"(?<![\w/.:-])([\w.-]+(?:/[\w.-]+)+\.\w+)", item)}
        folder = min(folders, key=len)      # site/templates/sections/header.html is under site/templates/
        assert f"`{folder}` ({term})" in said or f"`{folder}` adapted from the site's themes ({term})" in said, item
    assert "header" in section_3 and "README" in section_3     # where a file's own terms are stated
    assert "1. The code: MIT License" in licence and "2. The text and the figures: Creative Commons " \
        "Attribution-ShareAlike 4.0 International" in licence and "the documentation: README.md, CONTRIBUTING.md" in licence
    assert "contribution" not in licence.lower()
    code_part = licence[licence.index("1. The code: MIT License"):licence.index("2. The text and the figures")]
    assert all(f"{folder}" in code_part for folder in ("course_i18n/locales/", "site/locale/", "site/,"))
    text_part = licence[licence.index("2. The text and the figures"):licence.index("3. Files under terms of their own")]
    assert "the documentation: README.md, CONTRIBUTING.md, CHANGELOG.md and docs/" in text_part


def test_the_words_of_figures_and_diagrams_are_rebuilt_as_translating_md_says():
    """CONTRIBUTING.md's loop, step 3 (read57 A1 C3, A2 C2: read inside "with --prose-only", it sent the words of a
    figure or a diagram to the same rebuild): it names what rebuilds them, as docs/translating.md does, and points
    there. The command it names for the diagrams is translating.md's."""
    text, guide = flat("CONTRIBUTING.md"), flat("docs", "translating.md")
    assert ("3. Rebuild what shows the texts you changed ([docs/translating.md, \"What to rebuild after "
            "translating\"](docs/translating.md#what-to-rebuild-after-translating)):") in text
    # read75 A L5: each bullet says what to do with a verb
    figure = re.search(r"\* Words of an interactive figure: rebuild `(src/chapters/\w+\.py)` and "
                       r"`(src/chapters/\w+\.py)` without `--prose-only`\.", text)    # the files to build, named (read63 A2 L18: "§1 and §2")
    assert figure and [p[:len("src/chapters/NN")] for p in figure.groups()] == ["src/chapters/01", "src/chapters/02"]
    assert all((ROOT / p).is_file() for p in figure.groups()) and f"{figure.group(1)} {figure.group(2)}" in guide
    # a diagram's alt text is in its section's Markdown too (read61 A L22, A2 L9: the step left that out), and is
    # changed there before the catalogues are updated: changed at this step, after them, its new English had no
    # translation in chapters.po and the builder refused the --prose-only rebuild (read63 A2 C1, A L9)
    # read80 A L6: the step said to rebuild but not that the image line changes too, in the source and chapters.po
    # read82 A L10: the English half said "before you update the catalogues" at step 3, after that step; it is now step 1's
    assert ("* Words of a diagram: run `.venv/bin/python tools/diagrams.py`. If its alt text changed, each translation "
            "of its image line in `chapters.po` must say the words of the new translation in `course.po` "
            "(`.venv/bin/python tools/diagrams.py --markdown` prints every line). Then rebuild that section with "
            "`--prose-only`.") in text
    step_1 = text[text.index("1. Update the catalogues"):text.index("2. Translate the new and fuzzy entries.")]
    assert ("If you changed a diagram's alt text in `ALT`, first change its image line in `src/chapters/` to the same "
            "words.") in step_1
    # read69 A L9: said before step 1, the rule interrupted the procedure; it now stands with the rule for alt text,
    # which is written before any step runs, and "A figure" gives the command that prints an image line
    loop = text[text.index("## When the English changes"):text.index("1. Update the catalogues")]
    alt = text[text.index("### Translated comments and alt text"):text.index("### Rules for code cells")]
    assert ("A diagram's alt text is written twice: in `ALT` of `tools/diagrams.py` and in its image line in the "
            "section's Markdown. Keep both identical in every language.") in alt and "alt text" not in loop
    # read82 A L21: --markdown prints only a registered diagram's line, and the SVGs and translations were left out
    figure = text[text.index("### A figure"):text.index("### An interface text")]
    assert ("1. Register the diagram in `tools/diagrams.py`: its function in `DIAGRAMS`, its section in `PLACES`, its "
            "words in `WORDS` and its alt text in `ALT`. 2. Its words and alt text are interface texts: update the "
            "catalogues and translate them in each `course.po`, as [When the English changes](#when-the-english-changes) "
            "says. 3. Write its SVGs with `.venv/bin/python tools/diagrams.py`. 4. `.venv/bin/python tools/diagrams.py "
            "--markdown` prints its image line in every language. Put the English line in its section's Markdown in "
            "`src/chapters/`, update the catalogues again, and give each translation of that paragraph in `chapters.po` "
            "the line of its language. Then rebuild the section with `--prose-only`.") in figure
    diagrams_source = (ROOT / "tools" / "diagrams.py").read_text(encoding="utf-8")
    assert 'texts("tools.diagrams.words.' in diagrams_source and '"tools.diagrams"' in (
        ROOT / "tools" / "i18n.py").read_text(encoding="utf-8")
    assert "return f\"![{ALT[name][lang]}](figures/{name}.svg)\"" in diagrams_source
    assert "ALT = texts(" in (ROOT / "tools" / "diagrams.py").read_text(encoding="utf-8")
    assert "diagrams.markdown(name, lang) in c.text[lang]" in (ROOT / "tests" / "test_diagrams.py").read_text(
        encoding="utf-8")
    part = guide[guide.index("## What to rebuild after translating"):guide.index("## Confirming the translations")]
    assert "rebuild those two sections without `--prose-only`" in part and "saved outputs of §1 and §2" in part
    assert "Draw them again with `.venv/bin/python tools/diagrams.py`." in part
    assert "alt text also appears in its section's Markdown" in part and "with `--prose-only`" in part


def test_the_stale_cells_are_numbered_as_the_confirm_command_takes_them():
    """CONTRIBUTING.md's loop, step 4 (read57 A1 L9: it never said what N was): `tools/translations.py status` lists
    the stale cells with their numbers, and in a quiz N is the question, counted from 0."""
    from tools import translations
    text = flat("CONTRIBUTING.md")
    assert ("`.venv/bin/python tools/translations.py status` lists each *stale* cell (one changed since its three "
            "languages were last confirmed together) with its number N. In a quiz, N counts the questions of the whole "
            "file, from 0."
            ) in text
    doc = " ".join(translations.__doc__.split())
    assert "In a quiz source, ``--cell N`` is question N (counted from 0" in doc
    source = (ROOT / "tools" / "translations.py").read_text(encoding="utf-8")
    # read76 A L10: across the file's subsections, not restarting in each
    assert "for section in quizzes.load(pathlib.Path(source), strict=False) for q in section.questions" in source
    assert 'sub.add_parser("status"' in source and "{'question' if is_quiz(source) else 'cell'} {index}" in source


def test_make_dev_installs_no_debian_packages_and_make_test_can_go_on_without_them(monkeypatch, capsys):
    """CONTRIBUTING.md (read57 A1 L5, L10, A2 L5, L9): `make dev` installs the Python packages and no Debian ones;
    `make test` installs those it needs, as root or with sudo, stops without either, and goes on without them under
    SYSTEM_PACKAGES=skip, where the tests that need them skip, or fail under CI=true (read59 A L12)."""
    sys.path.insert(0, str(ROOT / "tools"))
    import system_packages
    text = flat("CONTRIBUTING.md")
    # read69 A L4: no longer contrasted with `make test`, which the next paragraph introduces
    # read71 A L2: under a heading of its own, "Set up once"
    assert ("### Set up once You need `make` and Python 3.11 or newer") in text
    # read73 A L1: the one setup step described `make dev` without asking the reader to run it
    assert ("Run `make dev`: it creates `.venv` and installs the Python packages, but no Debian packages.") in text
    # said once, in "A quick loop", for every target that installs them (read61 A L4: `make book` needs root or sudo
    # too; A2 L11: the packages were described twice; read71 A L3: "which needs root" had no clear antecedent)
    assert ("`make test`, `make book` and `make pdf` first install any Debian package they need that the machine lacks "
            "(`tools/system-packages.txt`). Installing needs root or sudo. Without either, each of them stops and names "
            "what it lacks; `make test SYSTEM_PACKAGES=skip` goes on instead, and skips the tests that need a missing "
            "package. In continuous integration (CI, "
            "the automatic test run), `.ci/run` sets `CI=true`, and those tests fail instead of skipping.") in text
    assert "There, those tests" not in text   # read75 A L3: "There" had two readings
    # read73 A L3: "they fail instead" read as the packages or the targets; it is the tests
    assert "they fail instead" not in text
    assert text.count("Debian package") == 2, text.count("Debian package")
    targets = {target for p in system_packages.read() for target in p.targets}
    assert targets == {"book", "test", "pdf"}, targets
    assert "skip, naming the tool, except under ``CI=true``, where they fail" in " ".join(system_packages.__doc__.split())
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^dev: \$\(VENV\)/\.installed-dev$", makefile, re.M)
    assert not re.search(r"^\$\(VENV\)/\.installed(?:-dev)?:.*system-packages", makefile, re.M)
    assert re.search(r"^test: system-packages-test\b", makefile, re.M)
    assert re.search(r"^book: system-packages-book\b", makefile, re.M)
    assert re.search(r"^pdf: system-packages-pdf\b", makefile, re.M)
    package = system_packages.read()[0]
    monkeypatch.setattr(system_packages, "missing", lambda target=None, path=None: [package])
    monkeypatch.setattr(system_packages.shutil, "which", lambda name: "/usr/bin/" + name)
    monkeypatch.setattr(system_packages.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(system_packages, "_can_sudo", lambda: False)
    monkeypatch.setattr(system_packages.subprocess, "run", lambda *a, **k: pytest.fail(f"ran {a}"))
    monkeypatch.delenv("SYSTEM_PACKAGES", raising=False)
    assert system_packages.ensure("test") == 1
    assert "`make test SYSTEM_PACKAGES=skip` to go on without them" in capsys.readouterr().err
    # read76 A L12: `make book` without root stops too, naming the package (the guide once said only what make test does)
    assert system_packages.ensure("book") == 1 and package.name in capsys.readouterr().err
    monkeypatch.setenv("SYSTEM_PACKAGES", "skip")
    assert system_packages.ensure("test") == 0
    assert "the tests that need them skip" in capsys.readouterr().err


def test_the_prose_tests_of_the_quick_loop_are_every_test_that_reads_the_prose():
    """CONTRIBUTING.md's quick loop names the tests to run after a prose change (read57 A2 L7: it named none of the
    tests that fail on prose; read61 A C1: it left out four that do, tests/test_quizzes.py, test_quiz_witnesses.py,
    test_sections.py and test_code_sections.py, which read the headings, the defined terms and the §N.M the code
    cites). The list is derived, not kept by hand: every test file that reads the section sources or notebooks is
    named in the loop's command for a section or in the file its command after a prose change runs
    (tests/prose_tests.txt), or below with the reason it is not, and each named file reads them."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    loop = text[text.index("### Build and test one source"):text.index("### When the English changes")]
    # read75 A C3: the list left out tests/test_guides.py, which reads the appendix's glossary and §0's opening; the
    # list now lives in one file, which pytest expands (`@file`), as tests/translation_tests.txt does for translators
    # read76 A L8: the command follows the sentence that names the list, not the one about Chromium
    # read79 A L5: the count had to be kept in step with the list, and said nothing the list does not
    said = re.search(r"After any change to prose, also run the test files that read prose, listed "
                     r"in `(tests/prose_tests\.txt)`: ```bash \.venv/bin/python -m pytest -q @tests/prose_tests\.txt "
                     r"``` With Chromium installed, `tests/test_diagrams\.py` also builds the whole site, which takes "
                     r"several minutes\.", " ".join(loop.split()))
    assert said, "the sentence before the command after a prose change"
    commands = [" ".join(c.replace("\\\n", " ").split()) for c in re.findall(r"^ *```bash\n(.*?)^ *```", loop, re.M | re.S)]
    assert f".venv/bin/python -m pytest -q @{said.group(1)}" in commands, commands
    files = (ROOT / said.group(1)).read_text(encoding="utf-8").split()
    assert len(files) == len(set(files)), files
    assert "tests/test_guides.py" in files and "test_the_appendix_glossary_uses_the_glossarys_terms" in globals()
    first = re.search(r"^ *\.venv/bin/python -m pytest -q chapters/(?:.*\\\n)*.*$", loop, re.M).group(0)
    assert len(files) >= 5 and all(re.fullmatch(r"tests/test_\w+\.py", f) for f in files), files
    assert not [f for f in files if f in first], files
    named = set(files) | set(re.findall(r"tests/test_\w+\.py", first))     # the two commands every prose change runs
    readers = _test_files(re.compile(r'"src" / "chapters"|"chapters" / lang|ROOT / "chapters"|/ "chapters" /|'
                                     r'chapters/\*|quizzes\.load_all|load_all\(\)|chapter_headings|'
                                     r'from test_glossary import|def source_texts'))
    not_named = {   # read the sections, but are not for the loop, and why
        "tests/test_release.py": "counts the sections for CHANGELOG.md: in \"Before you open a pull request\"",
        "tests/test_nbsource.py": "the source format, on made-up sources",
        "tests/test_numeric_configs.py": "the notebooks' numerical configuration, not their text",
        "tests/test_torch_alignment.py": "runs §5's code against torch, not its prose",
        "tests/test_search_terms.py": "the search terms, against the built site",
        "tests/test_site_config.py": "the site's configuration",
        "tests/test_site_launch.py": "the built site in a browser",
        "tests/test_site_quiz.py": "the built site in a browser",
        "tests/test_fresh_clone.py": "builds everything from a fresh clone",
    }
    _named_or_excused(readers, named, not_named, "the sections", "the quick loop")
    for name in files:
        assert name in readers, f"{name} is named after a prose change, yet reads no section"



def test_the_glossarys_step_6_runs_both_commands_of_the_quick_loop_after_a_prose_change():
    """docs/glossary.md, "Changing the glossary", step 6 (read78 G C2): it once said that tests/prose_tests.txt "lists
    every test that reads the prose", yet the list leaves out the tests of the quick loop's step 4, among them
    tests/test_translations.py, which fails on the very catalogues step 2 edits. The step now sends the reader to both
    commands, and what it says of them holds: test_translations.py is in step 4's command and not in the list, a quiz
    has a command of its own that runs it, and the tests neither names are excused in the test above."""
    import inspect
    text = flat("docs", "glossary.md")
    step = text[text.index("6. Run `.venv/bin/python -m pytest tests/test_guides.py"):text.index("7. Before sending")]
    assert "it lists every test that reads the prose" not in step
    assert "but a few" not in step          # read82 G L6: read as "only a few" before it read as "except"
    assert ("If step 2 changed prose, run instead the two commands that CONTRIBUTING.md's [Build and test one "
            "source](../CONTRIBUTING.md#build-and-test-one-source) gives after a prose change: its step 4 for each "
            "source you rebuilt (for a quiz, the command it gives for a quiz), then "
            "`.venv/bin/python -m pytest -q @tests/prose_tests.txt`. The list alone leaves out the tests of step 4, "
            "such as `tests/test_translations.py`, which fails until the cells you changed are confirmed. Together, "
            "the two commands run every test that reads the sections, except a few that test something else in "
            "them, such as the release notes or the built site; `tests/test_guides.py` names those few.") in step
    loop = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    loop = loop[loop.index("### Build and test one source"):loop.index("### When the English changes")]
    step4 = re.search(r"^4\. Test the notebooks.*?```bash\n(.*?)```", loop, re.M | re.S).group(1)
    quiz = re.search(r"Test a quiz with:\s*```bash\n(.*?)```", loop, re.S).group(1)
    listed = (ROOT / "tests" / "prose_tests.txt").read_text(encoding="utf-8").split()
    assert "tests/test_translations.py" in step4 and "tests/test_translations.py" in quiz
    assert "tests/test_translations.py" not in listed
    assert "def test_every_translated_cell_is_confirmed" in (ROOT / "tests" / "test_translations.py").read_text(
        encoding="utf-8")
    excused = inspect.getsource(test_the_prose_tests_of_the_quick_loop_are_every_test_that_reads_the_prose)
    assert '"tests/test_release.py": "counts the sections for CHANGELOG.md' in excused
    assert '"tests/test_site_launch.py": "the built site in a browser"' in excused

def _test_files(reads):
    """The test files of tests/ whose source matches the pattern `reads`, as "tests/test_….py"."""
    return {f"tests/{p.name}" for p in (ROOT / "tests").glob("test_*.py") if reads.search(p.read_text(encoding="utf-8"))}


def _named_or_excused(readers, named, not_named, what, where):
    """Each test file of `readers` is `named` by a guide's command or, with the reason it is not, in `not_named`, and
    `not_named` holds no other file: a new test that reads `what` fails here until `where` or the list names it."""
    assert readers - named == set(not_named), (
        f"tests that read {what} and that neither {where} nor this list names: "
        f"{sorted(readers - named - set(not_named))}; named here but not readers, or now in {where}: "
        f"{sorted(set(not_named) - (readers - named))}")

def test_the_grader_speed_command_prints_the_seconds_per_submission():
    """docs/maintainers.md's sandbox part (CONTRIBUTING.md's until read71 A) compares the seconds per submission of
    `bench/grading_speed.py --count 20`
    before and after a change (read57 A2 L15: it sent the reader to `make bench`, which runs four benchmarks)."""
    assert ("compare the seconds per submission that `.venv/bin/python bench/grading_speed.py --count 20` prints "
            "before and after it.") in _sandbox_tests_part()
    source = (ROOT / "bench" / "grading_speed.py").read_text(encoding="utf-8")
    assert 'parser.add_argument("--count"' in source and "the seconds per submission" in " ".join(source.split())


def _lib_functions():
    """(module, qualified name, FunctionDef) of every function and method of lib but lib/validate.py."""
    for path in sorted((ROOT / "lib").glob("*.py")):
        if path.name == "validate.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            defs = [(node.name, node)] if isinstance(node, ast.FunctionDef) else \
                [(f"{node.name}.{f.name}", f) for f in node.body if isinstance(f, ast.FunctionDef)] \
                if isinstance(node, ast.ClassDef) else []
            for name, function in defs:
                yield path.stem, name, function


def _first_statement(function):
    body = function.body[1:] if ast.get_docstring(function) else function.body
    return body[0] if body else None


def test_the_checks_of_lib_are_called_as_changing_lib_says():
    """docs/maintainers.md, "Changing lib" (read57 A2 C7: it said a checked function called only the bodies of other
    checked functions, `f.plain`, though two call a checked function itself). A function names its check with
    @checked, except those whose check returns other values than their arguments (lib.decoder.train, and
    lib.checks.chapter_model, whose dtype check returns the dtype bare, not a sequence that @checked can zip with
    the arguments), which call it on their first line. The direct
    calls of a checked function from a checked one are those that check a value no check has seen: forward_with's
    batch, which its layer `before` returned; train's texts and vocabulary, which validate.train leaves to collate;
    and AttentionModel.embed's ids and offset, which its check of use_positions leaves to positions.embed."""
    text = flat("docs", "maintainers.md")     # "Changing lib" moved there from CONTRIBUTING.md (audit 23, T-1)
    # read73 A C1: the guide said such a check "converts its arguments and returns the new values", which every
    # check does (checked() writes them back); what sets these two apart is that their check's values are not the
    # arguments one for one (validate.train turns `seed` into a list of seeds, float_dtype returns the dtype alone)
    # read74 A L21: "one for one" was jargon
    # read75 A L10: ", in order," read as an aside
    # read76 A L14: the rule, the exception and the examples had one sentence
    # read79 A C2: "returns only the dtype" suggested that arguments went missing, though chapter_model has only the
    # dtype; what @checked cannot take is the dtype bare, where it zips a sequence of arguments
    first_line_sentence = ("A function whose check returns something else calls the check on the first line of its "
                           "body instead: `lib.decoder.train`, whose check turns `seed` into a list, and "
                           "`lib.checks.chapter_model`, whose check (`validate.float_dtype`) returns the dtype "
                           "itself rather than a sequence of arguments.")
    assert ("A function names its check with `@checked(validate.its_check)`, which needs the check to return the "
            "function's arguments in order. " + first_line_sentence + " * A method "   # read79 A L13: its own bullet
            "calls `validate` before it computes with a value: `Decoder.backward` checks `d_logits` against the shape "
            "its `saved` record implies.") in text       # read59 A C3: not every method checks on its first line
    assert "converts its arguments and returns the new values" not in text
    checked_source = (ROOT / "lib" / "validate.py").read_text(encoding="utf-8")
    assert "bound.arguments.update(zip(bound.arguments, check(*bound.arguments.values())))" in checked_source
    assert "return values, steps, batch_size, [seed]" in checked_source
    assert "return values, steps, batch_size, list(seed)" in checked_source
    assert 'd_logits = validate.shape(d_logits, shape + (self.vocab_size,), "d_logits")' in \
        (ROOT / "lib" / "decoder.py").read_text(encoding="utf-8")
    # read76 A L15: with an example, which lib.attention holds
    assert "return masked_softmax.plain(" in inspect.getsource(__import__("lib.attention").attention.causal_attention)
    assert ("With values already checked, it calls another checked function `f` through its unchecked body, `f.plain` "
            "(`causal_attention` calls `masked_softmax.plain`). It calls `f` itself only with a value no check has seen, as `lib.checks.forward_with` does with the output "
            "of the `before` layer its caller passes.") in text   # read62 A L16, A2 L15; read69 A L18; read75 A L11
    assert "before=None" in (ROOT / "lib" / "checks.py").read_text(encoding="utf-8")   # a keyword its caller passes
    functions = list(_lib_functions())
    decorated = {name for _, name, f in functions
                 if any(isinstance(d, ast.Call) and getattr(d.func, "id", None) == "checked" for d in f.decorator_list)}
    first_line = {}
    for module, name, function in functions:
        first = _first_statement(function)
        calls = [c for c in ast.walk(first) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
                 and getattr(c.func.value, "id", None) == "validate"] if first is not None else []
        if calls and "." not in name and name not in decorated:
            first_line[f"{module}.{name}"] = calls[0].func.attr
    assert first_line == {"checks.chapter_model": "float_dtype", "decoder.train": "train"}, first_line
    assert all(f"`lib.{name}`" in first_line_sentence for name in first_line), first_line   # the guide names each
    validate = {f.name: f for f in ast.parse((ROOT / "lib" / "validate.py").read_text(encoding="utf-8")).body
                if isinstance(f, ast.FunctionDef)}
    for check in first_line.values():       # the check returns something else than its arguments, in order
        returns = [r.value for r in ast.walk(validate[check]) if isinstance(r, ast.Return)]
        assert not any(isinstance(r, ast.Tuple) and [getattr(e, "id", None) for e in r.elts]
                       == [a.arg for a in validate[check].args.args] for r in returns), check
    # float_dtype's one argument is chapter_model's one argument, and it comes back bare, a dtype and no sequence
    assert [a.arg for a in validate["float_dtype"].args.args] == ["dtype"]
    assert [a.arg for f in functions if f[:2] == ("checks", "chapter_model") for a in f[2].args.args] == ["dtype"]
    assert [ast.unparse(r.value) for r in ast.walk(validate["float_dtype"]) if isinstance(r, ast.Return)] == ["dtype"]
    direct, plain = set(), 0
    for module, name, function in functions:
        if name in decorated or f"{module}.{name}" in first_line or "." in name:
            for call in ast.walk(function):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in decorated:
                    direct.add((f"{module}.{name}", call.func.id))
                plain += isinstance(call, ast.Call) and getattr(call.func, "attr", None) == "plain"
    assert direct == {("checks.forward_with", "multi_head_attention"), ("decoder.train", "collate"),
                      ("model.AttentionModel.embed", "embed")}, direct
    assert plain >= 20, plain


def test_the_appendix_asserts_the_docstring_rule_the_guide_states():
    """read75 A C2: the appendix's check was weaker than CONTRIBUTING.md's rule. It never looked for the full stop
    after the sections, so `§2 Splits the heads` passed, and in `layers`, `decoder` and `plain_python` any docstring
    without a section fell back to the module's. Now only the exceptions its prose names fall back. Run on lib as it
    is, the appendix's code cell passes; with a function added whose docstring breaks the rule, it fails."""
    import contextlib
    import importlib
    import io
    from tools import nbsource
    cells = nbsource.load(ROOT / "src" / "chapters" / "appendix.py", strict=False)
    cell = next(c.text["en"] for c in cells if c.kind == "code" and "SECTIONS = re.compile" in c.text["en"])

    def passes(module_name=None, name=None, doc=None):
        module = importlib.import_module(f"lib.{module_name}") if module_name else None
        if module:
            def bad():
                pass
            bad.__doc__, bad.__module__, bad.__name__ = doc, module.__name__, name
            setattr(module, name, bad)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(cell, {})
            return True
        except AssertionError:
            return False
        finally:
            if module:
                delattr(module, name)

    assert passes()
    assert passes("attention", "well_documented", "§2. Splits the heads.")
    assert not passes("attention", "no_full_stop", "§2 Splits the heads.")
    assert not passes("decoder", "no_section", "Splits the heads.")
    assert not passes("layers", "no_full_stop", "§7 Splits the heads.")
    assert passes("layers", "NewSaved", "NewSaved(x)")


def test_the_docstring_example_of_changing_lib_is_how_lib_starts_its_docstrings():
    """docs/maintainers.md, "Changing lib": a docstring starts with the section that teaches it (`§2.`, or `§5.9.` for a
    subsection); read57 A1 C6, A2 C6: the example was `§2.2`, a subsection by the guide's own terms, and rare in lib."""
    # read71 A L16, L17: whether the full stop belongs to the form, and what enforces the rule
    assert ("Outside `lib/validate.py`, the docstring of a public function or class starts with the sections that "
            "teach it, followed by a full stop: `§2.`, `§5.9.` (a subsection), `§1, §5.` or `§4-§6.` (a list or a "
            "range). The appendix names the few exceptions and asserts the rule for the rest. A method's docstring "
            "need not follow the rule.") in flat("docs", "maintainers.md")
    appendix_code = (ROOT / "src" / "chapters" / "appendix.py").read_text(encoding="utf-8")   # what asserts it
    assert "section = SECTIONS.match(doc)" in appendix_code and "assert section, " in appendix_code
    # read66 A L21: several docstrings start with a list or a range of sections, which the appendix's SECTIONS takes
    pattern = re.search(r'^SECTIONS = re\.compile\(r"(.*)"\)$', (ROOT / "src" / "chapters" / "appendix.py").read_text(
        encoding="utf-8"), re.M).group(1).replace("\\\\", "\\")   # a line of a code cell: its backslashes doubled
    SECTIONS = re.compile(pattern)
    docstrings = [ast.get_docstring(node) or "" for path in (ROOT / "lib").glob("*.py")
                  for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                  if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
    for form in ("§2.", "§5.9.", "§1, §5.", "§4-§6."):
        assert any(doc.startswith(form + " ") for doc in docstrings), form
        assert SECTIONS.fullmatch(form.rstrip(".")), form
    # read63 A L21: the rule read as if it covered lib/validate.py, whose checks name no section (the appendix, which
    # names the exceptions, leaves that module out)
    validate = [node for node in ast.parse((ROOT / "lib" / "validate.py").read_text(encoding="utf-8")).body
                if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_")]
    assert validate and not any(re.match(r"§\d", ast.get_docstring(node) or "") for node in validate)
    appendix = flat("src", "chapters", "appendix.py")
    assert ("The exceptions, whose docstrings name no section, are the `*Saved` records of `layers` and `decoder` (what "
            "a forward pass keeps for its backward pass) and the two functions of `plain_python`") in appendix
    # read59 A C4: the guide stated the rule without them; read62 A2 C3: the rule read as if it covered methods, and
    # many public methods (KVCache.append, Decoder.copy, Adam.step, ...) start otherwise or have no docstring
    exceptions, methods = set(), set()
    for path in sorted((ROOT / "lib").glob("*.py")):
        if path.name == "validate.py":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                if not re.match(r"§\d", ast.get_docstring(node) or ""):
                    exceptions.add((path.stem, node.name))
                methods |= {f"{node.name}.{f.name}" for f in getattr(node, "body", ()) if isinstance(f, ast.FunctionDef)
                            and not f.name.startswith("_") and not re.match(r"§\d", ast.get_docstring(f) or "")}
    plain = {(module, name) for module, name in exceptions if module == "plain_python"}
    assert len(plain) == 2 and all(name.endswith("Saved") and module in ("layers", "decoder")
                                   for module, name in exceptions - plain), exceptions
    assert {"KVCache.append", "Decoder.copy", "Adam.step"} <= methods
    starts = [ast.get_docstring(f) or "" for _, _, f in _lib_functions()]
    assert sum(s.startswith("§2. ") for s in starts) >= 2 and sum(s.startswith("§5.9. ") for s in starts) >= 2
    assert sum(bool(re.match(r"§\d+\. ", s)) for s in starts) > sum(bool(re.match(r"§\d+\.\d+\. ", s)) for s in starts)


def test_contributing_sends_an_editor_of_a_guide_to_this_test():
    """CONTRIBUTING.md says that this file checks the guides' sentences against the code (read57 A1 L19, A2 L18: an
    editor who reworded a guide met failing tests unwarned): every guide of docs/ is one it reads."""
    assert ("After editing a guide, run `.venv/bin/python -m pytest tests/test_guides.py -q`: it checks many of the "
            "guides' sentences against the code, some word for word.") in flat("CONTRIBUTING.md")
    assert {"README.md", "CONTRIBUTING.md", "site/README.md"} | {
        f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")} <= set(GUIDES)


def test_what_the_parity_test_compares_is_what_contributing_says():
    """CONTRIBUTING.md on the parity test (read58 A2 C1, C5: it said the test named every untagged comment written in
    words, and that it checked the outputs of the three languages alike, though it compares an image by its type
    only): an untagged comment is named when it has two words of three or more Latin letters, or two Chinese or
    Cyrillic characters in a row, and a single word passes; an image's bytes are not compared."""
    import nbformat
    import test_language_parity
    from tools.nbsource import untranslated_prose_comments
    text = flat("CONTRIBUTING.md")
    # read74 A L12: the comments are read in the sources, not in the committed notebooks the parity test compares
    assert ("The parity test also reads the section and exercise sources: it flags an untagged "
            "comment with two or more words of at least three Latin letters, or with two Chinese or Cyrillic "
            "characters in a row. It misses a lone English word, such as `# logits`: tag that yourself.") in text
    # read75 A L8: a lone Cyrillic word, or two Chinese characters, is flagged; only a lone Latin word slips through
    assert untranslated_prose_comments('x = 1  # logits\ny = 2  # логиты\nz = 3  # 对数\n') == ["# логиты", "# 对数"]
    read = {p.values[0].parent.relative_to(ROOT).as_posix() for p in test_language_parity.all_sources()}
    assert read == {"src/chapters", "src/solutions"}, read
    assert "load(source)" in inspect.getsource(test_language_parity.test_comments_in_code_are_translated)
    assert ("The *parity test*, `tests/test_language_parity.py`, checks this on the committed notebooks, comparing "
            "images by type only.") in text
    named = {c: bool(untranslated_prose_comments(f"x = 1  {c}\n"))
             for c in ("# logits", "# scaled by d", "# the scores", "# 春", "# 春风", "# я", "# ок")}
    assert named == {"# logits": False, "# scaled by d": False, "# the scores": True, "# 春": False, "# 春风": True,
                     "# я": False, "# ок": True}, named
    image = nbformat.v4.new_code_cell(outputs=[nbformat.v4.new_output("display_data", {"image/png": "AAAA"})])
    other = nbformat.v4.new_code_cell(outputs=[nbformat.v4.new_output("display_data", {"image/png": "BBBB"})])
    assert test_language_parity.comparable_outputs(image) == test_language_parity.comparable_outputs(other)


def test_contributing_names_the_release_checks_a_change_can_fail():
    """CONTRIBUTING.md's "Before you open a pull request" (read58 A1 L17, L19; read71 A L12 renamed it): the counts
    CHANGELOG.md's newest entry
    states, which tests/test_release.py checks against the code (exercises and points, wrong answers, quiz questions,
    the last section), and LICENSE, which must name every top-level file or folder git tracks."""
    text = flat("CONTRIBUTING.md")
    assert ("Say what changed under `## [Unreleased]` in `CHANGELOG.md`, and update any count there that your change "
            "alters (exercises, exercise notebooks, points, wrong answers, quiz questions, sections): "
            "`tests/test_release.py` checks them.") in text
    assert "A new top-level file or folder must be named in `LICENSE` (`tests/test_release.py`)." in text
    release = (ROOT / "tests" / "test_release.py").read_text(encoding="utf-8")
    for claim in (r'r"(\d+) exercises in (\d+) notebooks, (\d+) points"',
                  r'r"a corpus of (\d+) realistic wrong answers"', r'r"(\d+) in all"', r'r"§0–§(\d+)"', 'f"LICENSE does not say which licence covers {unnamed}"'):
        assert claim in release, claim


def test_the_translators_guide_takes_the_python_from_contributing():
    """docs/translating.md's set-up names no Python version of its own: it points to CONTRIBUTING.md's "A quick loop",
    which names one (read58 T L2), with the package python3-venv that Debian's and Ubuntu's Python needs for `make dev`
    (read63 A L1: README.md named it, this guide did not)."""
    guide, text = flat("docs", "translating.md"), flat("CONTRIBUTING.md")
    assert ('**Set up once** with `make dev`, using the Python version that [CONTRIBUTING.md, "A quick '
            'loop"](../CONTRIBUTING.md#a-quick-loop) requires.') in guide
    loop = text[text.index("## A quick loop"):]
    assert re.match(r"## A quick loop ### Set up once You need `make` and Python \d\.\d+ or newer \(on Debian or "
                    r"Ubuntu, also the package `python3-venv`\)\. Run every command from the top of the repository\. "
                    r"Run `make dev`: it creates", loop)      # read73 A L1: the guide now says to run it
    assert not re.search(r"Python \d", guide)


def test_step_5_of_the_translators_loop_runs_the_tests_translating_md_says_read_the_translations():
    """docs/translating.md, "Your loop", step 5 runs every test that "What `check` does not see" names, and nbval on the
    rebuilt notebooks, and calls them a subset before `make test` (read58 T C2, C3: it said its six tests checked
    "the rest of your work", and let through stale quiz texts, diagrams, the rules of glossary.md and the words of
    an interactive figure, which only nbval sees). The list is derived, not kept by hand (read62 T C2: it left out
    test_i18n_plurals.py, test_hint_readability.py and test_sections.py, which fail on a translation that `check`
    passes; deriving it found two more, test_quiz_witnesses.py and test_site_config.py): every test file that reads a
    text in Chinese or Russian (the catalogues, the notebooks built from them, or the interface texts in every
    language: found as one that names the catalogues, the list of languages, "zh" or "ru") is named in step 5, or below
    with the reason it is not."""
    text = flat("docs", "translating.md")
    step = text[text.index("5. Run the notebooks you rebuilt"):text.index("7. Commit the catalogues")]
    command = re.search(r"```bash (\.venv/bin/python -m pytest .*?)```", step).group(1).replace("\\", " ")
    # read71 T L12: the 20 files, unscannable in the command, are read from a file pytest expands (`@file`)
    args = re.fullmatch(r"\.venv/bin/python -m pytest -q chapters/\*/02_heads\.ipynb @(tests/translation_tests\.txt) ",
                        command)
    assert args and f"test files listed in `{args.group(1)}`" in step, command
    import importlib.metadata
    assert tuple(int(n) for n in importlib.metadata.version("pytest").split(".")[:2]) >= (8, 2)   # @file arguments
    run = (ROOT / args.group(1)).read_text(encoding="utf-8").split()
    assert all(re.fullmatch(r"tests/test_\w+\.py", name) for name in run), run
    part = text[text.index("## What `check` does not see"):text.index("Some tests quote a translation")]
    said = re.findall(r"`(tests/test_\w+\.py)`", part)
    assert sorted(run) == sorted(said) and len(run) == len(set(run)) == 20, (run, said)
    readers = _test_files(re.compile(r'locales|read_po|\bLANGUAGES\b|"zh"|"ru"'))
    # read73 T C1: "the 20 test files that read the translations" made them all, yet the grader's tests quote
    # course.po too (the Russian class report's «Доля сдавших»); step 5 runs 20 of them and names where the rest run
    # read74 T L5: "20 of the test files" read as a sample; they are the 20 the file lists, which read translations
    assert f"and the {len(run)} test files listed in `tests/translation_tests.txt` ([What `check` does not" in step
    assert f"the {len(run)} test files that read the translations" not in step
    # read75 T L3: the step's four clauses, once one sentence, are three
    # read83 R L10: "for many minutes" where the README gives the time
    assert ("run `make test`. It runs the whole suite, about 25 minutes on two cores. This includes the grader's tests "
            "(`tests/test_grading_*.py`), some of which also quote interface texts.") in step
    # read75 T L12: the advice to change a test that quotes a translation stands where a failure appears
    # read83 R L9: it points to the paragraph that names such tests and says what to do
    assert ("A test that quotes your old words fails until you change it too ([What `check` does not "
            "see](#what-check-does-not-see) names such tests).") in step
    # read74 T L6: "pass none" read as the word; the command without a notebook is spelt out
    assert "If you rebuilt no notebook, give pytest only `@tests/translation_tests.txt`." in step
    grader = {f"tests/{p.name}" for p in (ROOT / "tests").glob("test_grading_*.py")}
    assert grader & readers and not grader & set(run), sorted(grader & readers)
    # read76 A L11: CONTRIBUTING.md's "An interface text" runs the same file, which holds the tests of course.po's
    # plurals and hints (read76 A also asked whether test_code_sections.py belongs here: it reads only the English
    # sources and lib, figures and grading, no translation, so the derivation above rightly leaves it out)
    contributing = flat("CONTRIBUTING.md")
    interface = contributing[contributing.index("### An interface text"):contributing.index("### The grader's sandbox")]
    assert ("says. Then run the tests that translators run: `.venv/bin/python -m pytest -q "
            f"@{args.group(1)}`.") in interface
    assert {"tests/test_i18n_plurals.py", "tests/test_hint_readability.py"} <= set(run)
    assert "tests/test_code_sections.py" not in readers
    assert "Доля сдавших" in (ROOT / "tests" / "test_grading_exports.py").read_text(encoding="utf-8")
    # read71 T C1: test_guides.py was left out as "the guides' sentences", yet it fails on a translated term of the
    # appendix's glossary that is not docs/glossary.md's (and quotes Russian catalogue text word for word)
    assert "tests/test_guides.py" in run and "test_the_appendix_glossary_uses_the_glossarys_terms" in globals()
    not_named = {   # read a translation, but are not for step 5, and why
        "tests/test_languages.py": "that the code lists the languages once (\"Adding a language\")",
        "tests/test_nbsource.py": "the source format, on made-up catalogues",
        "tests/test_references.py": "the reference answers' code in each language's solutions, not their text",
        "tests/test_numeric_configs.py": "each language's numerical configuration, not its text",
        "tests/test_torch_alignment.py": "§5's code in each language, run against torch",
        "tests/test_grading_units.py": "the grader's pieces, on made-up notebooks",
        "tests/test_measure_feedback.py": "the measuring tool, on made-up answers",
        "tests/test_grading_exports.py": "quotes the rubric's title: named among the tests that quote a translation",
        "tests/test_exercises_evidence.py": "quotes a message of check(): found by searching tests/ for the old words",
        "tests/test_grading.py": "grades every notebook, for minutes (step 6); quotes a message of the grader",
        "tests/test_grading_class.py": "grades a class, for minutes (step 6)",
        "tests/test_hidden_secrecy.py": "grades hostile notebooks in the sandbox (step 6)",
        "tests/test_mistakes.py": "runs the corpus of wrong answers, for minutes (step 6)",
        "tests/test_mistakes_batch.py": "grades the corpus of wrong answers, for minutes (step 6)",
        "tests/test_learner_outside.py": "installs the course in a fresh Python (step 6)",
        "tests/test_fresh_clone.py": "builds everything from a fresh clone",
        "tests/test_pdf.py": "builds the PDF",
        "tests/test_search_terms.py": "site/search-terms.yml (\"Texts outside the course's catalogues\") and the built site",
        "tests/test_site.py": "the built site in a browser (step 6)",
        "tests/test_site_figure_sizes.py": "the built site in a browser (step 6)",
        "tests/test_site_interactive.py": "the built site in a browser (step 6)",
        "tests/test_site_phone.py": "the built site in a browser (step 6)",
        "tests/test_site_quiz.py": "the built site in a browser (step 6)",
        "tests/test_grading_pages_phone.py": "the grader's pages in a browser, on made-up results",
    }
    _named_or_excused(readers, set(run), not_named, "a translation", "step 5")
    assert not set(run) - readers, f"{sorted(set(run) - readers)}: in step 5, yet read no translation"
    assert {"tests/test_quizzes.py", "tests/test_diagrams.py", "tests/test_notation.py",
            "tests/test_cross_references.py", "tests/test_seed_tables.py", "tests/test_math_notation.py",
            "tests/test_harness_talk.py"} <= set(run)
    assert re.search(r"chapters/\*/\w+\.ipynb", command) and "nbval" in part
    # a subset (read63 T L9: step 5 once said "Step 6 runs the rest of the suite", and step 6 "the whole suite")
    assert "The tests read what a translation says and the files built from it. The loop's step 5 runs these:" in part
    assert "run `make test`. It runs the whole suite" in text[text.index("6. Before you send"):]
    assert "--nbval" in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_step_6_of_the_translators_loop_links_where_system_packages_skip_is_explained():
    """docs/translating.md, "Your loop", step 6 names `make test SYSTEM_PACKAGES=skip` and links the section of
    CONTRIBUTING.md that says what it does (read62 T C4: it linked "Before you send a change", which never names it)."""
    text = flat("docs", "translating.md")
    step = text[text.index("6. Before you send, run `make test`"):text.index("7. Commit the catalogues")]
    m = re.search(r"`make test SYSTEM_PACKAGES=skip`[^(]*\(\[CONTRIBUTING\.md, \"[^\"]+\"\]\(\.\./CONTRIBUTING\.md#([\w-]+)\)\)",
                  step)
    assert m, step
    section, level = [], None
    for line in (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8").splitlines():
        heading = re.match(r"(#{1,6}) ", line)
        if heading and level is not None and len(heading.group(1)) <= level:
            break
        if heading and m.group(1) in heading_anchors(line):
            level = len(heading.group(1))
        if level is not None:
            section.append(line)
    assert section and "SYSTEM_PACKAGES=skip" in " ".join(section), m.group(1)


def test_the_translators_guide_says_test_glossary_holds_every_term_of_glossary_md():
    """docs/translating.md, "What `check` does not see": tests/test_glossary.py fails not only on a word words.md rules
    out but also when a term of glossary.md no longer occurs in its language's texts, so a translator who rewords a
    term in a catalogue edits glossary.md too (read62 T C3: the guide named only the first)."""
    import inspect

    import test_glossary
    assert ("`tests/test_glossary.py`: no word that [words.md](words.md) rules out appears, and every term of "
            "[glossary.md](glossary.md) does (to reword a term, follow [glossary.md, \"Changing the "
            "glossary\"](glossary.md#changing-the-glossary)).") in flat("docs", "translating.md")    # read66 T L12
    assert "## Changing the glossary" in flat("docs", "glossary.md")
    test = inspect.getsource(test_glossary.test_every_term_of_the_glossary_is_the_courses_word)
    assert "search_index.glossary_rows()" in test and 'glossary terms the course does not write' in test
    assert "message_texts()" in test and "source_texts()" in test      # the catalogues' texts, prose and interface


def test_check_names_an_entry_as_the_translators_loop_says_to_search_for_it():
    """docs/translating.md, "Your loop", step 1 (read62 T L18: it did not say how to find, in a catalogue thousands of
    lines long, the entry `check` names): `check` names an entry by its catalogue and its `[msgctxt]`, and a prose
    entry also by its first English words."""
    from tools import i18n
    # read76 T L5: `check` names every problem, not only untranslated entries, and the example comes before the search
    text = flat("docs", "translating.md")
    assert ("`check` prints one line for each problem ([What `check` reports](#what-check-reports)): the catalogue, "
            "the `msgctxt` in brackets and, for prose, the first English words: ``` "
            "src/locales/ru/LC_MESSAGES/chapters.po [chapters/02_heads] ") in text
    assert ": not translated ``` Search the catalogue for those words, or for an interface text's key." in text
    assert "## What `check` reports" in text     # the link's target
    source = (ROOT / "tools" / "i18n.py").read_text(encoding="utf-8")
    assert 'where = message.context, f"{prose.shown(path)} [{message.context}]"' in source
    assert 'where = f"{prose.shown(path)} [{message.context}] {prose.preview(message.id)!r}"' in source
    assert source.count('unfinished := _unfinished(message)') == source.count('found.append(f"{where}: {unfinished}")') == 2
    assert i18n.prose.preview("The mask hides\nevery later key.") == "The mask hides"


def test_the_translators_guide_shows_a_real_entry_and_finds_a_cell_by_its_id():
    """docs/translating.md shows one catalogue entry, as the Russian course.po has it (read58 T L6), and says where
    to read cell N of a source in every language: the notebooks' cell ids end with the source's number of the cell,
    also in a solved notebook that leaves cells out (read58 T L3)."""
    import inspect
    import json

    from course_i18n import LANGUAGES
    from tools import build_notebooks
    guide = (ROOT / "docs" / "translating.md").read_text(encoding="utf-8")
    part = guide[guide.index("## The two sets of catalogues"):guide.index("## Your loop")]
    entry = re.search(r"```\n(.*?)```", part, re.S).group(1)
    assert "\nmsgctxt " in entry and entry in (ROOT / "course_i18n" / "locales" / "ru" / "LC_MESSAGES" / "course.po"
                                              ).read_text(encoding="utf-8"), entry
    text = flat("docs", "translating.md")
    assert ("* in a section, cell 7 of `src/chapters/02_heads.py` has the id `02-heads-07` in "
            "`chapters/{zh,en,ru}/02_heads.ipynb`; * in an exercise set, the numbering is the same (`ex02-heads-07`), "
            "in `solutions/{zh,en,ru}/`, except for the set's title and introduction (tagged `exercise`), which only "
            "`exercises/{zh,en,ru}/` shows;") in text       # read69 T L11: one line for each kind of source
    for lang in LANGUAGES:                  # read76 T L14: an exercise set's ids start with its stem, ex02
        cells = json.loads((ROOT / "solutions" / lang / "ex02_heads.ipynb").read_text(encoding="utf-8"))["cells"]
        assert "ex02-heads-07" in [c["id"] for c in cells], lang
    # read76 T L4: the example's space before «с» is a no-break space, and the guide says so
    assert "{seconds}\u00a0с\"" in entry
    assert ('The space before «с» is a no-break space, U+00A0 ([glossary.md, "Rules the tests '
            'check"](glossary.md#rules-the-tests-check)).') in text
    rules = flat("docs", "glossary.md").split("## Rules the tests check", 1)[1].split("## ", 1)[0]
    assert "in Russian, a no-break space, U+00A0, joins a number to its unit" in rules
    # read76 T L13: status ends each file's list with the confirm command, a --cell per stale cell
    assert ("`status` ends each file's list with the `confirm` command for its stale cells: run it once you have read "
            "them all.") in text
    from tools import translations
    describe = inspect.getsource(translations.describe)
    assert 'f" --cell {i}" for i, _, _ in stale' in describe and "translations.py confirm {rel}{cells}" in describe
    from tools import nbsource                  # read59 T C1: those cells are in the exercise notebooks alone
    tagged = {kind: sum(nbsource.EXERCISE_TAG in c["metadata"].get("tags", []) for c in json.loads(
        (ROOT / kind / "en" / "ex01_allowed_set.ipynb").read_text(encoding="utf-8"))["cells"])
        for kind in ("exercises", "solutions")}
    assert nbsource.EXERCISE_TAG == "exercise" and tagged["exercises"] > 0 == tagged["solutions"], tagged
    assert "new[\"id\"] = f\"{stem.replace('_', '-')}-{i:02d}\"" in inspect.getsource(build_notebooks.make_notebook)
    for lang in LANGUAGES:
        cells = json.loads((ROOT / "chapters" / lang / "02_heads.ipynb").read_text(encoding="utf-8"))["cells"]
        assert cells[7]["id"] == "02-heads-07"


def test_an_exercise_title_stands_in_course_po_and_in_its_heading():
    """docs/translating.md: an exercise's title is an interface text, `grading.exercise.<id>.title`, and the heading
    of the exercise in its solved source says it again in the same words (read58 T L17; audit23 REM-1, when the
    English still differed: "Fixing the split", "fix the split"), which tests/test_exercises.py compares."""
    from grading.exercises import EXERCISES
    from tools import i18n
    assert ("An exercise's title appears twice: in `course.po` (`grading.exercise.<id>.title`, the name the grader "
            "gives it) and in the exercise's heading in `solutions.po`, in the same words") \
        in flat("docs", "translating.md")
    assert "`tests/test_exercises.py` compares them: change both together." in flat("docs", "translating.md")
    assert "def test_each_heading_names_its_exercise_by_the_graders_title():" in \
        (ROOT / "tests" / "test_exercises.py").read_text(encoding="utf-8")
    keys = {m.context for m in i18n.read(i18n.template_path()) if m.id}
    solved = "".join(path.read_text(encoding="utf-8") for path in (ROOT / "src" / "solutions").glob("ex*.py"))
    for exercise_id in EXERCISES:
        assert f"grading.exercise.{exercise_id}.title" in keys
        assert re.search(rf"^## {re.escape(exercise_id)}: ", solved, re.M), exercise_id


def test_git_ignores_the_mo_files_a_po_editor_saves():
    """docs/translating.md: git ignores the `.mo` file Poedit may save beside a catalogue, and the tools read only
    the `.po` (the site's build compiles its own .mo files into _build; read58 T L18)."""
    import inspect

    from tools import build_site
    assert "Git ignores the `.mo` file that Poedit may save beside the catalogue" in flat("docs", "translating.md")
    assert "*.mo" in (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert '.glob("*.po")' in inspect.getsource(build_site.compile_catalogs)


def test_step_7_of_adding_a_language_names_every_numerical_configuration_table():
    """docs/translating.md, "Adding a language", step 7 names each table of tools/numeric_configs.py keyed by
    language (read58 T C8: it named one configuration, and the module keeps one table for x86-64 and one for other
    processors)."""
    from course_i18n import LANGUAGES
    from tools import numeric_configs
    text = adding_a_language()
    step = text[text.index("7. Add its numerical configurations"):text.index("8. Give §8 its inputs")]
    tables = [name for name, value in vars(numeric_configs).items()
              if isinstance(value, dict) and set(value) == set(LANGUAGES)]
    assert len(tables) == 2 and all(f"`{name}`" in step for name in tables), (tables, step)


def test_step_8_of_adding_a_language_names_the_licence_and_the_result_of_each_text():
    """docs/translating.md, "Adding a language", step 8 (read61 T C3: it left out both): a new verse file must be named
    in section 3 of LICENSE, which tests/test_release.py checks for every lib/corpus/verse_*.txt, and §8.2 states each
    text's result in one sentence, which a new language joins: that sentence gives one result per language, as many
    as the results the source asserts."""
    import inspect

    import test_release
    from course_i18n import LANGUAGES
    text = adding_a_language()
    step = text[text.index("8. Give §8 its inputs"):text.index("9. Add the words of its search")]
    # read66 T L17: the three tasks, one item each
    assert ("* a verse file `lib/corpus/verse_<xx>.txt` in the public domain, with its source in "
            "`lib/corpus/README.md`; * the file's name in section 3 of `LICENSE`, which `tests/test_release.py` "
            "checks;") in step
    assert ("* in `src/chapters/08_real_text.py`, the language in the two lists, the asserted results, and each "
            "sentence that counts \"three texts\" or gives each text's result, such as §8.1's share of `<unk>` and "
            "§8.2's count of seeds.") in step
    check = inspect.getsource(test_release.test_the_files_license_excepts_exist_and_state_their_terms)
    assert 'glob("verse_*.txt")' in check and 'split("\\n3. ", 1)' in check, check
    licence = " ".join((ROOT / "LICENSE").read_text(encoding="utf-8").split())
    assert all(f"lib/corpus/verse_{lang}.txt" in licence for lang in LANGUAGES)
    source = (ROOT / "src" / "chapters" / "08_real_text.py").read_text(encoding="utf-8")
    section = source[source.index("## 8.2 "):source.index("## 8.3 ")]
    asserted = re.search(r'assert below == dict\(zip\("zh en ru"\.split\(\), \(([\d, ]+)\)\)\)\[PAGE\]', section)
    # read68 zh C1, read72 en-68 C1: the sentence names the measure the assertion counts (the trained model's loss
    # over all training lines, the quantity the bound holds for)
    sentence = re.search(r"The unmasked model's loss over all training lines goes below "
                         r"\$\\mathcal\{L\}\^\*\$ ([^.]*)\.", section)
    assert asserted and sentence, "§8.2 no longer asserts and states each text's result"
    results = re.findall(r"\bat (?:all )?\w+(?: seeds)? on the \w+ (?:text|one)\b", sentence.group(1))
    assert len(results) == len(asserted.group(1).split(",")) == len(LANGUAGES), results
    # read63 T L23: more of §8 than §8.2's sentence counts the texts: the two lists, "three texts", and §8.1's
    # share of <unk>, one asserted value and one clause per text
    assert source.count('"zh en ru".split()') == 2 and len(re.findall(r"\bthree texts\b", source)) >= 3
    section = source[source.index("## 8.1 "):source.index("## 8.2 ")]
    shares = re.search(r"assert \[round\(ref\[4\], 3\) for ref in reference\.values\(\)\] == \[([\d., ]+)\]", section)
    assert shares and len(shares.group(1).split(",")) == len(LANGUAGES), "§8.1 no longer asserts each <unk> share"
    assert "`<unk>`. It is 8% for the Chinese text" in section
    assert "0 for the English text and 0.1% (one character) for the Russian one" in section  # read68 en L15


def test_a_new_language_needs_a_table_of_its_own_in_words_md():
    """docs/translating.md, "Adding a language" (read63 T C1: it spoke of the "rows" of words.md by language, though
    each language now has a table of its own): tests/test_glossary.py reads a table under a heading that ends with a
    language's code, and fails until every language has one with a row."""
    import inspect

    import test_glossary
    from course_i18n import LANGUAGES
    # read66 T C1: the heading names the language in English, as words.md's do, with its code in brackets;
    # read66 T L16: a numbered step says it (step 9), not a note after the steps
    text = adding_a_language()
    step = text[text.index("9. Add the words of its search"):text.index("10. ")]
    assert ("Also give it a table in [words.md](words.md), with at least one row, under a heading that names the "
            "language in English with its code, as `### Russian (ru)` does: until then, `tests/test_glossary.py` "
            "fails.") in step
    assert "### Russian (ru)" in (ROOT / "docs" / "words.md").read_text(encoding="utf-8")
    table = "# Words we do not use\n\n### {} ({})\n\n| pattern | use instead |\n| --- | --- |\n| `abc` | d |\n"
    rows, unreadable = test_glossary.read_table(table.format("Russian", "ru"))
    assert [row[0] for row in rows] == ["ru"] and not unreadable
    assert test_glossary.read_table(table.format("Xx", "xx")) == ([], ["### Xx (xx)", "| `abc` | d |"])
    assert "langs == set(LANGUAGES)" in inspect.getsource(test_glossary.test_the_table_is_read)
    assert {row[0] for row in test_glossary.RULES} == set(LANGUAGES)


def test_step_10_of_adding_a_language_names_the_appendix_glossary_and_its_test():
    """docs/translating.md, "Adding a language", step 10 (read61 T C2: no step named it): the column step 9 adds to
    docs/glossary.md's tables goes into the appendix's glossary too, whose header names the same columns; the test
    that compares them reads the built appendix notebooks, so it fails until step 11 builds them again."""
    import inspect

    from tools import search_index
    text = adding_a_language()
    step = text[text.index("10. Add that column to the appendix's glossary"):text.index("11. Build its notebooks")]
    # read66 T L15: the changed English must go through the catalogues before its translations take the column
    assert ("the last table of `src/chapters/appendix.py`. Run `extract` and `update`, then add the column to the "
            "table's translations in `chapters.po`. Until step 11 rebuilds the appendix, `tests/test_guides.py` fails "
            "(`test_the_appendix_glossary_uses_the_glossarys_terms`)") in step
    assert "`.venv/bin/python tools/build_notebooks.py` (every source, in every language)" in text
    header, _ = search_index.glossary_rows()
    source = (ROOT / "src" / "chapters" / "appendix.py").read_text(encoding="utf-8")
    tables = re.findall(r"^\| (.*?) \|\n\| -", source, re.M)                 # the header row of each table
    assert tables and sorted(c.strip() for c in tables[-1].split("|")) == sorted(header), (tables, header)
    test = inspect.getsource(test_the_appendix_glossary_uses_the_glossarys_terms)
    assert '"chapters" / lang / "appendix.ipynb"' in test and "assert sorted(shown) == sorted(header)" in test


def test_update_makes_a_changed_text_fuzzy_and_only_a_dropped_one_obsolete():
    """docs/translating.md, "How `update` keeps a translation" (read61 T C4: it said a translation whose English the code
    no longer writes becomes obsolete, though an interface text whose English changed keeps its translation, fuzzy,
    under its key). In course.po a changed English is fuzzy and only a dropped key's translation is obsolete; in a
    prose catalogue a text edited within SIMILAR inherits the old translation, fuzzy, and one rewritten further starts
    untranslated while the translation nothing inherited becomes obsolete. An untranslated entry is not kept."""
    from tools import i18n
    text = flat("docs", "translating.md")
    part = text[text.index("## How `update` keeps a translation"):text.index("## Editing an entry")]
    assert ("A translation becomes *obsolete* when no entry takes it over: the code dropped its key (interface texts), "
            "or no new text inherited it (prose). `update` keeps it at the end of the file, in lines that start with "
            "`#~`.") in part and "a text rewritten further starts untranslated" in part
    old = i18n._new_catalogue("ru")
    old.add("Bye, {name}", "Пока, {name}", context="demo.changed")
    old.add("Gone", "Ушло", context="demo.gone")
    old.add("Never translated", "", context="demo.empty")
    old.add("Not yet translated, {n}", "", context="demo.blank", flags={"python-brace-format"})
    new = i18n.merge(old, {"demo.changed": "Goodbye, {name}", "demo.blank": "Not translated yet, {n}"}, "ru")
    changed = new.get("Goodbye, {name}", context="demo.changed")
    assert changed.fuzzy and changed.string == "Пока, {name}" and list(changed.previous_id) == ["Bye, {name}"]
    # read69 T C2: an entry with no translation has none to keep, so it is not marked fuzzy either (it was, with no
    # `#|` lines, and check asked to remove the mark once the entry was translated)
    blank = new.get("Not translated yet, {n}", context="demo.blank")
    assert not blank.fuzzy and not blank.string and not blank.previous_id and "python-brace-format" in blank.flags
    assert [(m.id, m.context) for m in new.obsolete.values()] == [("Gone", "demo.gone")]
    source, edited = "chapters/99_demo", "The mask hides every later position from the query."
    rewritten = "A paragraph that the author wrote again from its first word."
    prose_old = i18n._prose_catalogue("chapters", "ru")
    prose_old.add(edited, "Маска скрывает от запроса все более поздние позиции.", context=source)
    prose_old.add(rewritten, "Абзац, который автор написал заново.", context=source)
    entries = [(source, "The mask hides each later position from the query."),
               (source, "Quite another text, in words of its own.")]
    new = i18n.merge_prose(prose_old, "chapters", entries, "ru")
    kept = new.get(entries[0][1], context=source)
    assert kept.fuzzy and kept.string.startswith("Маска") and list(kept.previous_id) == [edited]
    assert not new.get(entries[1][1], context=source).string
    assert [m.id for m in new.obsolete.values()] == [rewritten]


def test_the_diagnoses_are_counted_and_placed_as_translating_md_says():
    """docs/translating.md names the diagnoses among the interface texts and says what they are (read61 T L9: the
    word came unexplained, though they are two fifths of course.po): about 500 entries under grading.diagnosis.*,
    each mistake's sentence, which check() and the grader add after the failed tests, and its few words for the
    instructor's reports."""
    import inspect

    from grading import exercises
    from grading.batch import report, runner
    from tools import i18n
    text = flat("docs", "translating.md")
    # read66 T L4: it counted entries, and a diagnosis has two
    assert ("About 250 *diagnoses* (`grading.diagnosis.*`) have two entries each. `.text` explains a known mistake; "
            "`check()` and the grader print it below the failed tests. `.short` names the mistake in a few words in "
            "the class report that the batch grader writes for the instructor.") in text     # read83 R L13
    keys = [m.context for m in i18n.read(i18n.template_path()) if m.id and m.context.startswith("grading.diagnosis.")]
    assert {key.rsplit(".", 1)[1] for key in keys} == {"text", "short"}, keys
    by_kind = {kind: {key.rsplit(".", 1)[0] for key in keys if key.endswith("." + kind)} for kind in ("text", "short")}
    assert by_kind["text"] == by_kind["short"] and len(keys) == 2 * len(by_kind["text"])
    assert abs(len(by_kind["text"]) - 250) < 25, len(by_kind["text"])
    assert "diagnoses.explain_mistake(" in inspect.getsource(exercises)
    assert "diagnoses.explain_mistake(" in inspect.getsource(runner)
    assert "diagnoses.short_name(" in inspect.getsource(report)


def test_the_translators_guide_gives_a_diagnosis_the_form_and_the_limits_its_tests_hold():
    """docs/translating.md, where a translator meets the diagnoses, says how a `.text` is written: clauses joined by
    ": " and "; " (in Chinese "：" and "；"), no final full stop and no §, since `check()` adds "See §N.M." (read63 T C3:
    the rule stood nowhere in the guide, and the check that held it was in tests/test_guides.py, which step 5 does
    not run; it now stands in tests/test_hint_readability.py, which step 5 runs). The bullet on that file says what
    it checks (read63 T C2: it said a diagnosis has at most 45 words "(in Chinese, 120 字)", though the whole printed
    line is measured and Latin letters and digits count too, and it left out the reading level), with the test's
    numbers."""
    import inspect

    import test_hint_readability
    from grading import diagnoses
    from tools import hint_readability
    text = flat("docs", "translating.md")
    editing = text[text.index("## Editing an entry"):text.index("## Plural forms")]   # read74 T L4: a rule for editing
    # read75 T L4: one rule a bullet, and the rule names brackets and backticks, inside which no clause ends
    assert ("Write a diagnosis's `.text` as the English does: * Join its clauses with `: ` and `; ` (in Chinese `：` and "
            "`；`). `check()` makes each clause a sentence. * End it with no full stop and name no §: `check()` adds "
            '"See §N.M.". * In English and Russian, a `: ` or `; ` ends a clause only after a letter, a digit, `_` or '
            "`)`, and never inside brackets or backticks. * `check()` capitalises the first word of each later clause. "
            "Put code that may start a clause in backticks (`` `eps` ``, not eps, which would become Eps).") in editing
    for lang in ("en", "ru"):
        assert [diagnoses.sentences(t, lang) for t in ("use f(a: b) here", "use x[a; b] here", "use `a: b` here")] \
            == ["use f(a: b) here", "use x[a; b] here", "use `a: b` here"]
    assert "makes each clause a sentence and adds \"See §N.M.\" itself. It capitalises" not in text
    # read74 T C1: "makes each clause a sentence" promised a break at every ": " and "; ", but one after a closing
    # backtick or quotation mark ends no sentence (the Russian cache-1/targets-fed: "`inputs[b, :n]`: это токены")
    assert diagnoses._CLAUSE["en"].pattern == diagnoses._CLAUSE["ru"].pattern == r"(?<=\w|\))[:;] "
    for lang in ("en", "ru"):
        assert [diagnoses.sentences(f"feed {w}: these are the tokens", lang) for w in
                ("the inputs", "inputs_", "inputs2", "(inputs)", "`inputs`", "«inputs»", "“inputs”")] \
            == ["feed the inputs. These are the tokens", "feed inputs_. These are the tokens",
                "feed inputs2. These are the tokens", "feed (inputs). These are the tokens",
                "feed `inputs`: these are the tokens", "feed «inputs»: these are the tokens",
                "feed “inputs”: these are the tokens"]
    # read73 T C4: "a clause's first word" said the first clause too, which follows "What this suggests: " uncapitalised
    assert "capitalises a clause's first word" not in text
    assert diagnoses.sentences("eps is small: eps is small", "en") == "eps is small. Eps is small"
    assert diagnoses._CLAUSE["zh"].pattern == "[：；]" and diagnoses._CLAUSE["en"].pattern.endswith("[:;] ")
    assert diagnoses.sentences("one: two; three", "en") == "one. Two. Three"
    assert diagnoses.sentences("甲：乙；丙", "zh") == "甲。乙。丙"
    assert all(t.endswith("§{section}." if lang != "zh" else "§{section}。") for lang, t in diagnoses.TEMPLATE.items())
    # read71 T: the rule stands once, with the diagnoses; the test's bullet points to it
    # read74 T: the bullet points to the rule, which Editing an entry gives once (no final full stop, no §, code that
    # may start a clause in backticks: editing, read above)
    assert "* the form of a `.text` that [Editing an entry](#editing-an-entry) gives." in text
    assert "no full stop at the end, no §, and no code capitalised" not in text
    form = inspect.getsource(test_hint_readability.test_a_hint_ends_without_a_full_stop_or_a_section)
    assert """if "§" in hint or hint.rstrip().endswith((".", "。"))""" in form
    m = re.search(r"`tests/test_hint_readability\.py`, on each diagnosis as `check\(\)` prints it \(\"What this "
                  r"suggests: … See §N\.M\.\"\): \* at most (\d+) words; in Chinese, at most (\d+) characters, not "
                  r"counting spaces and punctuation; \* in English and in Russian, at most (\d+)% of the "
                  r"diagnoses may score above US school grade (\d+) on the Flesch–Kincaid scale \(for Russian, its "
                  r"Russian adaptation; `tools/hint_readability\.py`\);", text)   # read75 T L5: "each" read as a modifier   # read73 T C3, L12: 5 % of the hints, by a named scale      # read66 T L13: one rule a line; read69 T L17-18
    assert m, "docs/translating.md no longer says what tests/test_hint_readability.py checks"
    words, characters, share, grade = m.groups()
    limits = inspect.getsource(test_hint_readability.test_the_hints_meet_the_target)
    assert limits.count(f") <= {words}") == 2 and limits.count(f") <= {characters}") == 1
    assert limits.count(f"<= 0.{int(share):02d} * len(") == 2 and limits.count(f"> {grade}]") == 2
    assert "hard = [(i, round(g, 1)) for i, _, g, _ in en if g > 9]" in limits       # a share of hints, not of grade 9
    assert "at most 5% above US grade 9" not in text
    scale = " ".join(hint_readability.__doc__.split())
    assert "the Flesch–Kincaid grade" in scale and "the Russian adaptation" in scale
    assert "diagnoses.explain_mistake(m, lang)" in inspect.getsource(hint_readability.hints)   # the printed line
    assert hint_readability.length("masked_softmax：见 §1.7。", "zh") == 14 + 1 + 3             # letters, 见, §, 1, 7
    bare, quoted = "сумма не та: eps слишком мал", "сумма не та: `eps` слишком мал"
    assert [test_hint_readability.capitalised_code(diagnoses.sentences(hint, "ru"), hint,
                                                   test_hint_readability.CODE_WORDS) for hint in (bare, quoted)] \
        == [["Eps"], []]


def test_the_quiz_witnesses_bullet_says_what_each_of_its_tests_checks():
    """docs/translating.md's bullet on tests/test_quiz_witnesses.py (read71 T L7: it said "a quiz cites the same
    sections as the English, in its language's typography", one check that does not exist, and left out the code
    arguments) names what each of its tests of a translation checks."""
    import test_quiz_witnesses as witnesses
    text = flat("docs", "translating.md")
    assert ("* `tests/test_quiz_witnesses.py`: a translated question cites the same sections as the English, writes "
            "numbers, units, ranges and quotes as its language does, and names no code argument that the English does "
            "not.") in text and "in its language's typography" not in text
    assert {name for name in dir(witnesses) if name.startswith("test_")} >= {     # the others check the English
        "test_every_language_cites_the_same_sections", "test_russian_numbers_follow_russian_typography",
        "test_chinese_ranges_and_quotes_follow_chinese_typography", "test_no_question_talks_about_the_test_harness",
        "test_a_translation_names_no_argument_in_code_the_english_does_not"}
    import inspect
    assert "байт" in inspect.getsource(witnesses.test_russian_numbers_follow_russian_typography)     # units


def test_the_status_lines_translating_md_quotes_are_the_tools():
    """docs/translating.md quotes what `tools/translations.py status` prints for a new language ("Adding a language",
    step 12) and relies on what it prints for a cell in which one language alone changed, which a translator who
    does not read Chinese may confirm ("Which language decides", read61 T L10): the lines are the tool's."""
    from tools import translations
    text = flat("docs", "translating.md")
    assert ("every cell and quiz question (`no xx translation in the catalogues`, then `xx changed since the languages "
            "were last confirmed together`)") in text
    # read71 T L5: the line the reader will see is quoted
    assert ("If you do not read Chinese, confirm only the cells for which `status` names your language alone, as in "
            "`ru changed since the languages were last confirmed together`. Their English and Chinese are still the "
            "confirmed pair.") in text          # read74 T L12: "are as last confirmed together"
    source = ROOT / "src" / "chapters" / "02_heads.py"
    lines = translations.describe(source, [(0, "a", ("missing", ["xx"])), (1, "b", ["xx"]), (2, "c", ["ru"])])
    assert "no xx translation in the catalogues" in lines[0]
    assert "xx changed since the languages were last confirmed together" in lines[1]
    assert "ru changed since the languages were last confirmed together; zh/en may be stale" in lines[2]



def test_the_terms_define_an_exercise_set_by_its_notebook_and_an_exercise_by_its_id():
    """CONTRIBUTING.md's Terms (read63 A L3, A2 L5: *exercise set*, *exercise notebook* and ids such as heads-3 were
    used and never defined): a section's exercise set is one notebook of exercises/<lang>/, and the example id is the
    third exercise of §2's notebook, in the registry's order."""
    from grading import registry
    # read69 A L2: only §1–§7 have a set, and the solution notebook is defined with it
    said = re.search(r"\* Sections §(\d+)–§(\d+) each have an \*exercise set\*: one \*exercise notebook\*, "
                     r"`exercises/<lang>/exNN_name\.ipynb`, and its solved copy, the \*solution notebook\*, "
                     r"`solutions/<lang>/exNN_name\.ipynb`\. §(\d+) and §(\d+) have none\. "
                     r"Each exercise has an id made of a topic and a number within that topic: §(\d+) has "
                     r"`(\w+)-1` to `\w+-(\d+)` and `(\w+)-1`\.",
                     flat("CONTRIBUTING.md"))
    assert said, "CONTRIBUTING.md's Terms no longer define an exercise set"
    first, last, none_a, none_b, section, topic, count, other = said.groups()
    ids = [ex.id for ex in registry.Registry().values() if ex.notebook[2:4] == f"{int(section):02d}"]
    # read74 A L3: "heads-3, the third exercise of §2" read as if ids were named after their section; read76 A L5: it
    # still read as if the number counted the section's exercises, though it counts within the topic (cost-1 is 4th)
    assert ids == [f"{topic}-{n}" for n in range(1, int(count) + 1)] + [f"{other}-1"], ids
    sources = sorted(p.stem for p in (ROOT / "src" / "solutions").glob("ex[0-9][0-9]_*.py"))
    assert len({s[2:4] for s in sources}) == len(sources)       # one exercise notebook per section that has a set
    assert all((ROOT / kind / "en" / f"{s}.ipynb").is_file() for s in sources for kind in ("exercises", "solutions"))
    assert [int(s[2:4]) for s in sources] == list(range(int(first), int(last) + 1))
    sections = {int(p.stem[:2]) for p in (ROOT / "src" / "chapters").glob("[0-9][0-9]_*.py")}
    assert sections - set(range(int(first), int(last) + 1)) == {int(none_a), int(none_b)}


def test_only_the_search_script_holds_words_of_its_own():
    """CONTRIBUTING.md on the site's scripts (read63 A C1, A2 C2: it said they held no words of their own, though
    course-search.js holds, per language, the words it uses to read a query): that script holds them, and
    site/README.md, which the guide links, says where the others get theirs and what that data is for."""
    text = flat("CONTRIBUTING.md")
    # read71 A L13: "show no words of their own ... Only course-search.js holds words" read as a contradiction
    # read75 A L12: "gives them theirs"
    # read80 A L16: "hold no words ... Only ... holds words" still read as a contradiction
    said = re.search(r"The site's scripts \(`site/static/\*\.js`\) show no words of their own: the site build "
                     r"supplies the words they show \(\[site/README\.md\]\(site/README\.md\) says how\)\. One of them, "
                     r"`([\w-]+\.js)`, holds words: those of each language it needs to parse a query, which it never "
                     r"shows\.", text)
    assert said, "CONTRIBUTING.md no longer says which of the site's scripts holds words"
    from course_i18n import LANGUAGES
    script = (ROOT / "site" / "static" / said.group(1)).read_text(encoding="utf-8")
    question = re.search(r"var QUESTION = \{(.*?)\n  \};", script, re.S)
    assert question and sorted(re.findall(r"^    (\w+):", question.group(1), re.M)) == sorted(LANGUAGES)
    readme = flat("site", "README.md")
    assert "The site's scripts hold no text that a reader sees." in readme
    assert f"The language-specific data in `{said.group(1)}` is used only to parse a query and is never shown" \
        in readme


def test_the_functions_of_lib_that_check_nothing_are_those_contributing_names():
    """docs/maintainers.md, "Changing lib" (read59 A C2: it said every public function checks its arguments): the
    public functions of lib that take arguments and have no check of their own are the backward functions but
    masked_softmax_backward, parameter_shapes and cache_error (read61 A C3: the test read only lib.layers and
    lib.decoder, and the guide left cache_error out); now every module is read but lib.validate, the checks
    themselves, and lib.plain_python, which checks its own arguments. A `model` argument is not checked: every
    public function that takes one fails on a wrong object with an AttributeError (read61 A C3: the guide promised a
    TypeError)."""
    import importlib
    import inspect
    text = flat("docs", "maintainers.md")
    assert ("A `model` argument is not checked: a wrong object fails with an `AttributeError` when the function first "
            "uses it.") in text
    assert ("A few functions check nothing: the backward functions of `lib/layers.py` (except "
            "`masked_softmax_backward`), which take a gradient and a `saved` record; "
            "`lib.decoder.parameter_shapes`; and `lib.checks.cache_error`, which passes its arguments to checked "
            "functions.") in text
    modules = [importlib.import_module(f"lib.{p.stem}") for p in sorted((ROOT / "lib").glob("*.py"))
               if p.stem not in ("__init__", "validate", "plain_python")]
    public = [(m, name, f) for m in modules for name, f in vars(m).items()
              if inspect.isfunction(f) and f.__module__ == m.__name__ and not name.startswith("_")]
    unchecked = {f"{m.__name__}.{name}" for m, name, f in public
                 if inspect.signature(f).parameters                   # mirror_language() takes nothing
                 and not hasattr(f, "plain") and "validate." not in inspect.getsource(f)}
    from lib import checks, decoder, layers
    backward = {f"lib.layers.{name}" for name in vars(layers) if name.endswith("_backward")}
    assert unchecked == (backward - {"lib.layers.masked_softmax_backward"}) | {
        "lib.decoder.parameter_shapes", "lib.checks.cache_error"}, unchecked
    # cache_error's arguments go on to checked functions
    source = inspect.getsource(checks.cache_error)
    assert "incremental_forward(model, ids)" in source and hasattr(checks.incremental_forward, "plain")
    calls = {"lib.checks.forward_with": lambda: checks.forward_with("x", [1]),
             "lib.checks.incremental_forward": lambda: checks.incremental_forward("x", [1]),
             "lib.checks.cache_error": lambda: checks.cache_error("x", [1]),
             "lib.decoder.train": lambda: decoder.train("x", ["ab"], None, steps=1, batch_size=1, lr=0.1)}
    assert {f"{m.__name__}.{name}" for m, name, f in public if "model" in inspect.signature(f).parameters} == set(calls)
    for name, call in calls.items():
        with pytest.raises(AttributeError):
            call()

def test_the_example_key_of_a_new_interface_text_is_no_key_of_the_catalogue():
    """CONTRIBUTING.md's step for a new interface text gives an example of a new key (read60 A C1, A2 L17: it gave
    `grading.messages.passed`, a key `grading/messages.py` already uses, and `text()` refuses a key used for two
    English texts): the example is shaped as `text()` requires and is no key of course.pot."""
    from course_i18n import catalogue
    said = re.search(r"under a new dotted key such as `([^`]+)`", flat("CONTRIBUTING.md"))
    assert said, "CONTRIBUTING.md no longer gives an example of a new key"
    key = said.group(1)
    pot = (ROOT / "course_i18n" / "locales" / "course.pot").read_text(encoding="utf-8")
    keys = set(re.findall(r'^msgctxt "([^"]+)"$', pot, re.M))
    assert catalogue.KEY.match(key) and key.rsplit(".", 1)[0] in {k.rsplit(".", 1)[0] for k in keys}, key
    assert key not in keys, f"{key} is already a key of course.pot: give an example no text uses"


def test_every_count_of_the_sections_is_the_courses():
    """CONTRIBUTING.md's list for a new section says that this test names each place that gives the number of
    sections (read60 A L16, A2: the list left out §0's opening, the guide's own "§0–§8" and docs/maintainers.md's
    layout): every "§0–§N" of the guides, §0's "The course has nine sections, §0–§8" and the notebooks
    `00_start` … `NN_name` of docs/maintainers.md's layout end at the last section source, and README.md's "After
    each of §1–§N, work through its exercise notebook; §M has none." names the sections with an exercise set and
    those without (read61 A2 C2: no test read it, and the guide did not name it). README.md's opening counts the
    sections in words as §0 does, "The course has nine sections, §0–§8" (read63 A C4, A2 C3: the list left it out,
    and only its "§0–§8" was read, so a stale "nine" passed). CHANGELOG.md's newest entry is tests/test_release.py's."""
    # read73 A L7: the five places, once a run-on sentence, are a list of their own
    assert ("the new section's number wherever the last section is named or the sections are counted: * §0's opening; * README.md's "
            "opening and its \"The course\"; * this guide's Terms; * docs/maintainers.md's layout; * `CHANGELOG.md`'s "
            "newest entry. `tests/test_guides.py` and `tests/test_release.py` name any left out of date.") in flat(
        "CONTRIBUTING.md")
    sources = sorted((ROOT / "src" / "chapters").glob("[0-9][0-9]_*.py"))
    last = int(sources[-1].name[:2])
    stale = [f"{guide}: {m.group(0)}" for guide in GUIDES
             for m in re.finditer(r"§0–§(\d+)", flat(guide)) if int(m.group(1)) != last]
    assert "§0–§" in flat("CONTRIBUTING.md")
    words = dict(NUMBERS, nine=9, ten=10, eleven=11, twelve=12)
    for where in (("src", "chapters", "00_start.py"), ("README.md",)):
        opening = re.search(r"The course has (\w+) sections, §0–§(\d+)", flat(*where))
        assert opening, f"{'/'.join(where)} no longer says how many sections the course has"
        if (words.get(opening.group(1)), int(opening.group(2))) != (last + 1, last):
            stale.append(f"{'/'.join(where)}: {opening.group(0)}")
    readme_opening = flat("README.md").split("## ", 1)[0]    # the README's opening, above its first section
    assert "The course has " in readme_opening
    layout = re.search(r"`00_start` … `(\d\d)_\w+`", flat("docs", "maintainers.md"))
    assert layout, "docs/maintainers.md's layout no longer names the section notebooks"
    if layout.group(0) != f"`00_start` … `{sources[-1].stem}`":
        stale.append(f"docs/maintainers.md: {layout.group(0)}")
    course = flat("README.md").split("## The course", 1)[1]
    said = re.search(r"After each of §1–§(\d+), work through its exercise notebook(?:; ((?:§\d+(?:, | and )?)+) "
                     r"(?:has|have) none)?\.", course)
    assert said, "README.md's \"The course\" no longer says which sections have an exercise notebook"
    with_set = sorted(int(p.name[2:4]) for p in (ROOT / "src" / "solutions").glob("ex[0-9][0-9]_*.py"))
    without = [n for n in range(1, last + 1) if n not in with_set]
    said_without = [int(n) for n in re.findall(r"§(\d+)", said.group(2) or "")]
    if with_set != list(range(1, int(said.group(1)) + 1)) or said_without != without:
        stale.append(f"README.md: {said.group(0)}")
    assert not stale, f"the last section is {sources[-1].stem}; these give another: {stale}"


def test_a_number_of_a_seed_table_is_asserted_in_the_cell_before_it():
    """CONTRIBUTING.md's rule that every number the prose states is asserted in the cell that prints it (read61 A
    C2: §7's seed tables are Markdown, and their numbers are asserted in the code cell before them, which
    tests/test_seed_tables.py compares with the tables): the guide says so, and the code cell before the tables holds
    the asserts of their rows."""
    text = flat("CONTRIBUTING.md")
    assert ("A number shown only in a Markdown table (§7's seed tables) is asserted in the code cell before the table; "
            "`tests/test_seed_tables.py` checks that the two agree.") in text
    assert "the code cell before the tables asserts every row" in flat("tests", "test_seed_tables.py")
    source = (ROOT / "src" / "chapters" / "07_decoder.py").read_text(encoding="utf-8")
    cells = [(node.func.id, node.args[0].value) for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Call)
             and getattr(node.func, "id", None) in ("md", "code") and node.args
             and isinstance(node.args[0], ast.Constant)]
    tables = [i for i, (kind, body) in enumerate(cells) if kind == "md" and "| seed | 0 | 1 |" in body]
    assert tables and all(cells[i - 1][0] == "code" and "assert shown(" in cells[i - 1][1] for i in tables[:1])


def test_only_sections_and_exercise_sets_are_written_as_md_and_code_calls():
    """CONTRIBUTING.md, "One source, three languages" (read61 A2 C1: it said every source in src/ called md() and
    code()): section and exercise sources do; a quiz source calls neither, and src/translations/ holds JSON."""
    text = flat("CONTRIBUTING.md")
    assert ("A section source (`src/chapters/`) or an exercise source (`src/solutions/`) is a Python file that calls "
            "`md()` and `code()`, one call per cell, in reading order:") in text   # read69 A L10: two functions
    assert ("* `src/quizzes/NN_name.py`: a section's questions, in English (the docstring of `tools/quizzes.py` gives "
            "the format);") in text
    said = re.search(r"\* `src/translations/\{([\w,]+)\}/<name>\.json`: which translations were last confirmed "
                     r"together", text)   # the folders named (read66 A L5: `<kind>` was never defined)
    assert said and sorted(said.group(1).split(",")) == sorted(
        p.name for p in (ROOT / "src" / "translations").iterdir() if p.is_dir()), said
    called = lambda path: {node.func.id for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))  # noqa: E731
                           if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    for folder in ("chapters", "solutions"):
        assert all({"md", "code"} <= called(p) for p in (ROOT / "src" / folder).glob("*.py")), folder
    quizzes = sorted((ROOT / "src" / "quizzes").glob("*.py"))
    assert quizzes and not any({"md", "code"} & called(p) for p in quizzes)
    records = [p for p in (ROOT / "src" / "translations").rglob("*") if p.is_file()]
    assert records and all(p.suffix == ".json" for p in records)


def test_only_the_cells_of_section_8_that_print_the_pages_own_verse_carry_the_page_text_tag():
    """CONTRIBUTING.md on the tag `page-text` (read60 A2 C1: it said every cell of §8 that prints the verse or a
    number measured on it carries the tag, though §8.1's cells, which print what they measure on all three texts,
    do not): a cell that prints a line for each of zh, en and ru, and the same in every language, is untagged, and
    cells that print the page's own verse carry the tag."""
    import nbformat
    import test_language_parity
    assert ("It refuses the tag in any other notebook, and on a cell that prints the same in every language, such as "
            "one that prints what it measures on all three texts.") in flat("CONTRIBUTING.md")
    tag = test_language_parity.PAGE_TEXT_TAG
    [(kind, name)] = test_language_parity.PAGE_TEXT_NOTEBOOKS
    from course_i18n import LANGUAGES
    notebooks = [[c for c in nbformat.read(ROOT / kind / lang / name, as_version=4).cells if c.cell_type == "code"]
                 for lang in LANGUAGES]
    english = LANGUAGES.index("en")
    printed = lambda cell: "".join(o.get("text", "") for o in cell.get("outputs", [])  # noqa: E731
                                   if o.get("output_type") == "stream")
    alike = [cells[english] for cells in zip(*notebooks) if len({printed(c) for c in cells}) == 1
             and set(LANGUAGES) <= {line.split(" ", 1)[0] for line in printed(cells[english]).splitlines()}]
    assert alike and not [c.id for c in alike if tag in c.metadata.get("tags", [])]
    assert [c for c in notebooks[english] if tag in c.metadata.get("tags", [])]


def test_the_readme_says_which_outputs_the_suite_leaves_out():
    """README.md (read61 R C1, C2): the exercises are shown without outputs, and the test suite compares the
    outputs of the sections and worked solutions, all but those of timing cells and the plots' images. Every cell the
    comparison leaves out (`nbval-ignore-output`) times something, and every exercise notebook is committed without
    outputs."""
    import nbformat
    text = flat("README.md")
    assert ("The sections and worked solutions are saved with their outputs; the exercises are left for you to "
            "run.") in text
    # read75 R L10: "the saved ones" and an unnamed comparison; the README names nbval
    # read78 R L15: nbval is said to be a pytest plugin
    assert ("The suite reruns the notebooks of `chapters/` (the sections and the appendix) and `solutions/` with "
            "nbval, a pytest plugin, and compares their outputs with the saved outputs.") in text
    import nbval.plugin
    assert callable(nbval.plugin.pytest_collect_file)                                # a pytest hook
    assert "appendix.ipynb" in {p.name for p in (ROOT / "chapters" / "en").glob("*.ipynb")}
    assert {"chapters", "solutions"} <= set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"]["pytest"]["ini_options"]["testpaths"])
    # read71 R L5: three items separated by semicolons, and "masked before the comparison", not "before it";
    # read76 R L15: the three items side by side, the reason of the first in parentheses
    # read78 R L15: "masks memory addresses first" left "first" unclear; the sanitizer replaces them before comparing
    assert ("Before comparing, it replaces memory addresses (`0x…`) with a placeholder. The comparison ignores timings "
            "(they change from run to run), the plots' images and the interactive widgets' ids.") in text
    # read69 R C1: it said "two kinds", but nbval also drops the widgets' view data (their model ids) by default,
    # and the suite's --nbval-sanitize-with file masks memory addresses
    assert "two kinds of output" not in text.lower()
    import inspect
    import nbval.plugin
    assert "application/vnd.jupyter.widget-view+json" in inspect.getsource(nbval.plugin.IPyNbFile.__init__)
    sanitize = (ROOT / "tests" / "nbval_sanitize.cfg").read_text(encoding="utf-8")
    assert "regex: 0x[0-9a-fA-F]" in sanitize and "replace: 0xADDRESS" in sanitize, sanitize
    # read66 R C2: "every number" once claimed more than the test of prose numbers checks; the README says its scope.
    # read71 R C1: it then said "must print or assert", stricter than the test, which takes any number of the
    # section's code or saved output; it read only the English, counted a cited section only when the same
    # Markdown cell cites it, and exempted two constants the README did not name
    # read75 R L10: one 45-word sentence, now three
    # read78 R C1: "a section's English text" left out the appendix and the figures' alt texts, which the test did not
    # read; it now reads them (and they pass), and the README names what it reads
    # read83 R L3: the paragraph moved to docs/maintainers.md, "The test suite"; the README points there
    maintainers = flat("docs", "maintainers.md")
    assert ("`tests/test_prose_numbers.py` checks each number with three or more decimal places in the English text "
            "of §0–§8 and the appendix: their Markdown cells and the alt texts of their figures. The number must "
            "appear, to those places, in the code or saved output of the same notebook. It may also appear in the "
            "code or saved output of a section that the same Markdown cell or alt text cites. Two constants are "
            "exempt: 1/√2 ≈ 0.707 and GELU's 0.044715.") in maintainers
    assert ("`tests/test_prose_numbers.py` also checks each number with three or more decimal places in the English "
            "text against the code and saved outputs of the notebooks ([docs/maintainers.md, \"The test "
            "suite\"](docs/maintainers.md#the-test-suite) says how).") in text
    for guide in (text, maintainers):
        assert "checks each number that a section's English text gives to" not in guide
        assert "must print or assert that number" not in guide and "or a section it cites" not in guide
        assert "or in those of a section" not in guide       # read73 R L9: hard to parse
    source = (ROOT / "tests" / "test_prose_numbers.py").read_text(encoding="utf-8")
    [constants] = [node.value for node in ast.parse(source).body if isinstance(node, ast.Assign)
                   and [ast.unparse(target) for target in node.targets] == ["CONSTANTS"]]
    assert set(ast.literal_eval(constants)) == {"0.707", "0.044715"}, ast.unparse(constants)
    assert "three or more decimals" in source[:200]
    assert 'c.text["en"] for c in cells if c.kind == "markdown"] + alts' in source    # the English text only
    assert 'c.lang_metadata["en"]["mystnb"]["image"]["alt"]' in source                  # ... with the alt texts
    assert 'PAGES = SECTIONS + [APPENDIX]' in source and '"path", PAGES' in source     # §0–§8 and the appendix
    import test_prose_numbers
    assert [p.stem for p in test_prose_numbers.PAGES] == sorted(
        p.stem for p in (ROOT / "src" / "chapters").glob("*.py"))                    # every page of chapters/
    assert "ANY_NUMBER.finditer(code + \"\\n\" + _printed(number))" in source        # any number of code or output
    assert r're.findall(r"§(\d+)", paragraph)' in source and "for paragraph in paragraphs" in source
    # the images (read63 R C3): nbval compares them only with --nbdime, which the suite's options do not give
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "--nbval" in options["addopts"].split() and "--nbdime" not in options["addopts"]
    assert "--nbval-sanitize-with tests/nbval_sanitize.cfg" in options["addopts"]
    ignored = []
    for kind in ("chapters", "solutions"):
        for path in sorted((ROOT / kind / "en").glob("*.ipynb")):
            for cell in nbformat.read(path, as_version=4).cells:
                if "nbval-ignore-output" in cell.metadata.get("tags", []):
                    ignored.append((path.name, cell.source))
    assert ignored, "no cell is left out of the comparison: the README's sentence says otherwise"
    untimed = [name for name, source in ignored if not re.search(r"perf_counter|\bseconds\b|_seconds\b", source)]
    assert not untimed, f"cells left out of the comparison that time nothing: {untimed}"
    for path in sorted((ROOT / "exercises").glob("*/*.ipynb")):
        outputs = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code" and c.outputs]
        assert not outputs, f"{path.relative_to(ROOT)} is committed with outputs"


def test_the_readme_gives_the_rule_of_generated_notebooks_to_whoever_changes_the_course():
    """README.md (read71 R C2): "Every notebook is generated from `src/`: edit the source, never the notebook" stood
    in the learner's paragraph, while every exercise notebook asks the learner to replace a line with code (its
    opening, from src/solutions/exNN_*.py). The rule is for whoever changes the course: tools/build_notebooks.py
    writes every notebook from its source."""
    text = flat("README.md")
    assert "never the notebook" not in text and "Every notebook is generated from `src/`: edit" not in text
    # read75 R L9: a paragraph of its own, addressed to whoever changes the course; read76 R L9: it moved out of the
    # learner's section, onto CONTRIBUTING.md's item of "Further documentation"
    further = text.split("## Further documentation", 1)[1].split(" ## ", 1)[0]
    assert ("* [CONTRIBUTING.md](CONTRIBUTING.md): to change the course. All the notebooks are generated from `src/`, "
            "so edit the source, not the notebook;") in further
    assert "generated from `src/`" not in text.split("## Further documentation", 1)[0]
    sets = sorted((ROOT / "src" / "solutions").glob("ex[0-9][0-9]_*.py"))
    assert sets and all(re.search(r"[Rr]eplace (?:that|the|each) line", p.read_text(encoding="utf-8")) for p in sets)
    builder = ast.get_docstring(ast.parse((ROOT / "tools" / "build_notebooks.py").read_text(encoding="utf-8")))
    assert "Each ``src/<kind>/<name>.py`` becomes ``<kind>/{zh,en,ru}/<name>.ipynb``" in builder
    assert "also yields ``exercises/{zh,en,ru}/<name>.ipynb``" in builder


def test_the_readme_names_the_mask_bugs_section_1_shows():
    """README.md (read63 R C1): it said "the three common mask bugs"; §1 shows four, the fourth the complement
    `~allowed` passed for the allowed set (§1.4). Each bug the README names has its place in §1's source, and
    the third is said as §1.7 says it, "$j \\le i$ is mistyped as $j < i$" (read69 R L2: code font on `j ≤ i`,
    which is not code; read73 R L2: the four bugs are said as four actions, "mistyping j ≤ i as j < i")."""
    text = flat("README.md")
    assert "four mask bugs that §1 shows" in text
    source = (ROOT / "src" / "chapters" / "01_allowed_set.py").read_text(encoding="utf-8")
    for readme, section in (("setting forbidden scores to 0 instead of −∞", "## 1.5 A score of 0 forbids nothing"),
                            ("zeroing future weights after softmax", "## 1.6 The wrong order: softmax first"),
                            ("mistyping j ≤ i as j < i", "## 1.7 `<` instead of `≤`"),
                            ("passing the mask's complement (`~allowed`) instead of the mask",
                             "the complement `~allowed`")):
        assert readme in text and section in source, (readme, section)
    # read78 R L3: the bugs in §1's order, each with the subsection that shows it
    bugs = text.split("four mask bugs that §1 shows:", 1)[1].split("* split the model's width", 1)[0]
    said = re.findall(r"\* (.*?) \(§1\.(\d)\);", bugs)
    assert [n for _, n in said] == ["4", "5", "6", "7"], said
    subsections = re.split(r"^## 1\.(\d+) ", source, flags=re.M)
    body = dict(zip(subsections[1::2], subsections[2::2]))
    for words, n in said:
        assert {"4": "If the complement `~allowed` is passed by mistake", "5": "A score of 0 forbids nothing",
                "6": "The wrong order: softmax first", "7": "`<` instead of `≤`"}[n] in body[n], (words, n)
    assert "mistyping j ≤ i as j < i (query i, key j), which leaves query 0 no key to read (§1.7)" in text
    assert r"Suppose the condition $j \le i$ is mistyped as $j < i$" in source


def test_an_interface_text_is_what_the_course_catalogues_translate():
    """CONTRIBUTING.md's Terms (read62 A2 C6): an interface text is what the course's Python code shows and
    `course.po` translates; it once said "any text a learner sees that does not come from src/", which took in the
    sidebar's captions, the site's titles and the theme's words, translated elsewhere. The modules the examples come
    from are among those `tools/i18n.py extract` imports, and the page it links to lists the others. Adding one
    runs steps 1-3 of "When the English changes" (read62 A C3: steps 1 and 2 left a figure's or diagram's words
    unbuilt), and step 3 says what those words need."""
    from tools import i18n
    text = flat("CONTRIBUTING.md")
    assert ("An *interface text* is a text that the course's Python code shows to a learner or an instructor: a "
            "message from `check()` or the grader, a button or heading on the site, or the words of an interactive "
            "figure or a diagram. Interface texts are translated in the `course.po` catalogues. The site's theme, "
            "sidebar captions, site titles and search words are translated "
            "[elsewhere](docs/translating.md#texts-outside-the-courses-catalogues).") in text
    assert {"grading.feedback", "grading.messages", "landing_texts", "figures.interactive", "tools.diagrams"} <= {
        source.split(":")[0] for source in i18n.SOURCES}
    outside = flat("docs", "translating.md").split("## Texts outside the course's catalogues", 1)[1].split("## ", 1)[0]
    assert all(word in outside for word in ("theme", "`_config.yml`", "site title", "captions", "`_toc.yml`",
                                            "`site/search-terms.yml`"))
    part = text[text.index("### An interface text"):text.index("### The grader's sandbox")]
    assert ("4. Update the catalogues, translate the text in each `course.po` and rebuild what shows it, as [When the "
            "English changes](#when-the-english-changes) says.") in part   # its steps named, not numbered (read63)
    step_3 = text[text.index("3. Rebuild what shows the texts you changed"):text.index("4. Confirm the translations")]
    assert "Words of an interactive figure:" in step_3 and "Words of a diagram:" in step_3


def test_the_languages_outputs_also_differ_in_the_ids_of_widgets():
    """CONTRIBUTING.md (read62 A C5): besides the tagged cells, the languages' outputs differ in the ids of
    interactive widgets, which the builder derives from the language and the parity test leaves out."""
    import nbformat
    import test_language_parity
    from tools import build_notebooks
    text = flat("CONTRIBUTING.md")
    assert ("Their outputs differ only in cells tagged `page-text` or `nbval-ignore-output` ([Rules for code "
            "cells](#rules-for-code-cells)), in the ids of interactive widgets, and in images. The heatmaps of "
            "`figures/plots.py`, passed `\"{{lang}}\"` as their language, write their numbers as the page's language "
            "does, so the Russian images in §1, §2, §3 "
            "and §7 differ from the Chinese and English ones. §8's plot of the losses differs in every language, "
            "because each trains on its own verse. The *parity test*, `tests/test_language_parity.py`, checks this "
            "on the committed notebooks, comparing images by type only.") in text
    # read78 A C1: the images of untagged cells differ too, where the guide now says and nowhere else
    from course_i18n import LANGUAGES
    differ = {}
    for en in sorted((ROOT / "chapters" / "en").glob("*.ipynb")):
        cells = {lang: nbformat.read(ROOT / "chapters" / lang / en.name, as_version=4).cells for lang in LANGUAGES}
        for i, cell in enumerate(cells["en"]):
            if {"page-text", "nbval-ignore-output"} & set(cell.metadata.get("tags", [])):
                continue
            png = {lang: [out["data"]["image/png"] for out in cells[lang][i].get("outputs", [])
                          if "image/png" in out.get("data", {})] for lang in cells}
            if png["en"] and len({str(v) for v in png.values()}) > 1:
                differ[en.name[:2]] = "".join(sorted(lang for lang in LANGUAGES if png[lang] != png["en"]))
    assert differ == {"01": "ru", "02": "ru", "03": "ru", "07": "ru", "08": "ruzh"}, differ
    assert "localise_numbers(str(text), lang)" in (ROOT / "figures" / "plots.py").read_text(encoding="utf-8")
    assert ("* Printed outputs are language-neutral: numbers, arrays, `True`, symbols. Print no prose, and label "
            "plots with symbols (i, j, t, h), not words.") in text
    # read80 A L10: the heatmaps' numbers were stated here and again in the rule for printed outputs
    assert "the same in each notebook. * Only §8" in text and text.count("as the page's language does") == 1
    assert "* Outputs are language-neutral" not in text
    assert test_language_parity.PAGE_TEXT_TAG == "page-text"
    assert test_language_parity.comparable_outputs(nbformat.v4.new_code_cell(
        outputs=[nbformat.v4.new_output("stream", text="1.5\n")], metadata={"tags": ["nbval-ignore-output"]})) == "ignored"
    assert 'f"{stem}/{lang}/{i}"' in (ROOT / "tools" / "build_notebooks.py").read_text(encoding="utf-8")
    assert build_notebooks.stable_widget_ids.__name__ == "stable_widget_ids"
    view = "application/vnd.jupyter.widget-view+json"
    ids, compared = {}, {}
    for lang in ("en", "zh"):
        for cell in nbformat.read(ROOT / "chapters" / lang / "02_heads.ipynb", as_version=4).cells:
            shown = [out for out in cell.get("outputs", []) if view in out.get("data", {})]
            if shown:
                ids[lang] = shown[0]["data"][view]["model_id"]
                compared[lang] = test_language_parity.comparable_outputs(cell)
    assert len(ids) == 2 and ids["en"] != ids["zh"] and compared["en"] == compared["zh"], ids


def test_only_cells_that_print_times_are_left_out_of_nbval():
    """CONTRIBUTING.md (read62 A C2): the tag `nbval-ignore-output` goes on a cell that prints a time (it said "a
    cell that measures time", though §7.3 and §7.5 measure in untagged cells, whose other outputs nbval compares).
    Every tagged cell prints a time; an untagged cell that reads the clock prints none of what it measured, and
    §7.3 and §7.5, the examples, both measure in an untagged cell and print in a tagged one."""
    from tools.nbsource import load
    assert ("* Only a cell that prints a time gets the tag `nbval-ignore-output`, which keeps its outputs out of "
            "nbval's comparison. If the cell that measures also prints results that do not depend on speed (losses, "
            "counts), leave it untagged and print the times in a tagged cell of their own (§7.3, §7.5).") in flat(
        "CONTRIBUTING.md")   # read63 A L14: it said "prints what speed does not change"
    tag, measured_apart = "nbval-ignore-output", []
    for path in sorted((ROOT / "src").glob("[cs]*/*.py")):
        if path.parent.name not in ("chapters", "solutions"):
            continue
        for cell in load(path, strict=False):
            if cell.kind != "code":
                continue
            if tag in cell.tags:
                assert "print(" in cell.source and re.search(r"\bseconds\b|_seconds\b", cell.source), path.name
            elif "perf_counter" in cell.source:
                tree = ast.parse(cell.source)
                clocked = {getattr(target, "value", target).id for assign in ast.walk(tree)      # x = …, x[n] = …
                           if isinstance(assign, ast.Assign) and "perf_counter" in ast.unparse(assign.value)
                           for target in assign.targets}
                printed = {node.id for call in ast.walk(tree) if isinstance(call, ast.Call)
                           and isinstance(call.func, ast.Name) and call.func.id == "print"
                           for node in ast.walk(call) if isinstance(node, ast.Name)}
                assert not clocked & printed, (path.name, clocked & printed)
                measured_apart.append(path.name)
    assert measured_apart.count("07_decoder.py") >= 2, measured_apart


def test_an_exercises_answer_is_its_reference_unless_the_spec_names_another():
    """docs/exercises.md, where CONTRIBUTING.md's "An exercise" points (read62 A C4, A2 C1): every exercise's answer
    is a function of grading/references.py, and its reference too, unless the spec names another: a `lib` function,
    or another
    function of grading/references.py for the exercises the guide names (it once said only "unless a lib function
    computes the expected results", though heads-3's reference is multi_head_causal and its answer
    multi_head_attention). The exceptions are read from the registry, not from the guide."""
    from grading import references, registry
    text = flat("CONTRIBUTING.md")
    # answer and reference defined (read63 A2 L8); the function named (read66 A L19); read71 A L15: a convoluted
    # sentence that repeated docs/exercises.md, which now says it alone, and which the guide links
    assert ("and its answer, which the solution notebook shows, in `grading/references.py`. [docs/exercises.md, "
            "\"Adding an exercise\"](docs/exercises.md#adding-an-exercise) gives every step, and says which function "
            "computes the expected results.") in text
    said = re.search(r"A reference written in `grading/references\.py` is also the answer .* the spec names it with "
                     r"`answer=\"grading\.references\.\w+\"`\. This is the case for every `lib` reference, and for "
                     r"([\w-]+), whose reference \(`(\w+)`\)", flat("docs", "exercises.md"))
    registry_source = (ROOT / "grading" / "registry.py").read_text(encoding="utf-8")
    assert ("answer_spec: object = None          # the notebook's answer: a callable or its dotted name (None: the "
            "reference)") in registry_source
    assert said, "docs/exercises.md no longer says which exercises' answer is not their reference"
    other_reference = set()
    for ex in registry.Registry().values():
        assert ex.answer.__module__ == references.__name__, ex.id
        if ex.reference is not ex.answer:
            assert ex.reference.__module__ in (references.__name__,) or ex.reference.__module__.startswith("lib."), ex.id
            if ex.reference.__module__ == references.__name__:
                other_reference.add((ex.id, ex.reference.__name__))
    assert other_reference == {said.group(1, 2)}, other_reference


def test_the_validation_tables_are_the_kinds_contributing_names():
    """docs/maintainers.md, step 2 of a new function (read62 A2 C2: it said the tables of tests/test_validation.py sent
    the same bad inputs through every checked function, though each table holds the functions that take one kind of
    argument, and 16 of lib's checked functions are in none): the kinds it names are the tables', one each."""
    text = flat("docs", "maintainers.md")
    said = re.search(r"2\. If it checks its arguments, add it to each table of `tests/test_validation\.py` that sends "
                     r"bad values of a kind it takes: ([^.]+)\.", text)
    assert said, "docs/maintainers.md no longer names the kinds of the validation tables"
    kinds = re.split(r", | or ", said.group(1))
    source = (ROOT / "tests" / "test_validation.py").read_text(encoding="utf-8")
    tables = re.findall(r"^# (Every public function [^\n]*)\n(WITH_\w+) = \{", source, re.M)
    assert len(tables) == len(kinds) == len(set(re.findall(r"^(WITH_\w+) = \{", source, re.M))), (kinds, tables)
    for kind in kinds:
        assert sum(kind.removeprefix("a ") in comment for comment, _ in tables) == 1, (kind, tables)


def test_contributing_says_where_to_run_and_what_to_commit():
    """CONTRIBUTING.md (read62 A L2, A2 L2, L3, L9): its contents list "When the English changes", the procedure
    it points to most; it says to run every command from the top of the repository (docs/translating.md says so,
    this guide did not); and what to commit names every generated file git keeps: the diagrams and the stored
    expected values besides the notebooks, catalogues and records."""
    from grading import registry
    text = flat("CONTRIBUTING.md")
    contents = text[text.index("In this guide:"):text.index("README.md's [\"Further documentation\"]")]
    assert "[When the English changes](#when-the-english-changes)" in contents
    # read79 A L1: only some sections had their subsections listed; now every heading of the guide is linked there
    headings = re.findall(r"^#{2,3} (.+)$", (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8"), re.M)
    assert all(f"[{h}](#" in contents for h in headings), [h for h in headings if f"[{h}](#" not in contents]
    loop = text[text.index("## A quick loop"):text.index("### Build and test one source")]
    assert "Run every command from the top of the repository." in loop
    assert ("* Commit generated files with their source: notebooks, catalogues and their templates (`.pot`), "
            "records in `src/translations/`, "
            "diagrams (`chapters/<lang>/figures/*.svg`) and expected values (`grading/specs/*.expected.json`).") in text
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "chapters", "grading/specs"], capture_output=True,
                             text=True).stdout.split()
    if tracked:
        assert any(re.fullmatch(r"chapters/\w+/figures/[\w-]+\.svg", path) for path in tracked)
        assert any(path.endswith(".expected.json") for path in tracked)
    assert registry.expected_path("grading.specs.ex01_allowed_set").name == "ex01_allowed_set.expected.json"


def test_the_glossary_rules_say_what_words_md_checks_and_allows():
    """docs/glossary.md (read66 G C1-C3): a writing rule that a words.md row checks says so, the seed rule and the
    rule on «попозиционный MLP» and «промпт» among them; the "chapter" rule names the exception words.md allows (a
    chapter of a quoted work, which §8 cites); and the interleaved split is "a wrong split" of §6.2, where the course
    names it, not "the" wrong split of §2 (which is the reshape alone)."""
    glossary, words = flat("docs", "glossary.md"), flat("docs", "words.md")
    # read76 G L4: "a text of its own" did not say what it implied
    assert ("then «начальное значение генератора». Each exercise set, and each interface text of `grading` (a "
            "message of check()), has a first mention of its own, since a learner may read it first. (words.md "
            "catches «зерно» and a bare «seed»; `tests/test_glossary.py` checks the first mention" in glossary
            and "зерн" in words)
    assert "is a text of its own" not in glossary
    seed_test = (ROOT / "tests" / "test_glossary.py").read_text(encoding="utf-8")
    seed_test = seed_test[seed_test.index("def test_a_seed_is_named_in_full_at_its_first_mention_in_each_section"):]
    seed_test = seed_test[:seed_test.index("\ndef ")]
    # read75 G C1: the test reads what the rule says, the exercise sets and the grading interface texts among it
    assert 'where.startswith("src/solutions/")' in seed_test and '"[grading." in where' in seed_test
    assert "(words.md checks the terms, not the explanation.)" in glossary and "попозиционный MLP" in words
    assert "A chapter of a quoted work (Onegin's «глава первая») is fine. (words.md)" in glossary
    assert "«глава первая»" in words and "глава первая" in (ROOT / "src" / "locales" / "ru" / "LC_MESSAGES" /
                                                           "chapters.po").read_text(encoding="utf-8")
    assert "a wrong split, §6.2) |" in glossary and "the wrong split" not in glossary
    section = (ROOT / "src" / "chapters" / "06_evidence.py").read_text(encoding="utf-8")
    assert "split the features into heads by interleaving" in section.split("## 6.2 ", 1)[1].split("## 6.3 ", 1)[0]


def test_the_glossary_says_which_writing_rules_a_test_checks():
    """docs/glossary.md once said that only review checks a writing rule not marked (words.md), though the rule on
    编号 and 检查 N names tests/test_glossary.py, which checks it, and this file checks the rule on «Пример N»
    (read69 G C1). A rule that names a test is checked by that test: each test it names exists and reads
    docs/glossary.md; the table rule, which once named two browser tests that check the cards' layout but not the
    length of a cell, names none."""
    text = flat("docs", "glossary.md")
    rules = text[text.index("## Writing rules"):text.index("## Rules the tests check")]
    # read75 G L11: the test of the 编号 rule checks only part of it, as a words.md row may
    assert ("A rule marked (words.md) is checked, at least in part, by a row of [words.md](words.md). A rule that "
            "names a test is checked, at least in part, by that test. A reviewer checks the rest.") in rules
    assert "Only review checks the others" not in text
    named = set(re.findall(r"`(tests/test_\w+\.py)`", rules))
    assert named == {"tests/test_glossary.py", "tests/test_guides.py"}, named
    for path in named:
        assert "docs\" / \"glossary.md\"" in (ROOT / path).read_text(encoding="utf-8"), path
    assert "test_site_phone" not in rules


def test_the_glossary_gives_section_4_only_the_masked_model():
    """docs/glossary.md and docs/words.md once gave "unmasked model" to §4's hand-chosen model, though §4 says only
    "masked model" and calls its version with the mask off the negative control (read69 G C2); §7.3 and §8.2 train
    the unmasked model."""
    glossary, words = flat("docs", "glossary.md"), flat("docs", "words.md")
    # read73 G C1: "trained with and without the mask" made §4's untrained masked model no masked model at all
    # read76 G C2: "trained in §7.2, §7.3, §8.2" said both models are trained ones, but §4 (untrained) says "masked model"
    assert ("| masked model / unmasked model (with and without the causal mask; the unmasked model is the one §7.3 and "
            "§8.2 train) |" in glossary)
    assert "trained in §7.2, §7.3, §8.2" not in glossary + words
    assert "(with and without the causal mask; 无掩码模型 is the model §7.3 and §8.2 train) |" in words
    assert "trained with and without the causal mask" not in glossary + words
    # read71 G L2: what §4 has is said under the table, not in a 40-word cell
    # read74 G L2: the note is labelled, and "it" no longer reads first as §4; read74 G C1: words.md checks it
    # read75 G L2: a bare "(words.md)" on its own line read as a stray citation; the note says which row checks it
    # read76 G C1, C2, L3: the note names §4's masked model, and says which rows check which Russian wordings, where
    # read82 G L3: "…, never the unmasked model" made the reader untangle what "never" applied to
    assert ("Note: §4 trains no model. Its masked model is §4.1's, with hand-chosen parameters. Its negative control "
            "is the same model with the mask off (关掉掩码, с выключенной маской); do not call it the unmasked model, "
            "which is §7.3's and §8.2's. Three rows "
            "of words.md's Russian table catch other wordings: «модель без маски» and «отрицательный контроль без "
            "маски» in §4's texts, «с отключённой маской» in every text.") in glossary
    assert "A [§4] row of words.md checks the Russian." not in glossary
    ru_rows = words.split("### Russian (ru)", 1)[1].split("## What the test reads", 1)[0]
    assert "| `модел\\w* без маски` | [§4]" in ru_rows
    assert "| `отрицательн\\w* контрол\\w* без маски` | [§4]" in ru_rows
    assert "| `с отключённ\\w* маск` | с выключенной маской" in ru_rows
    four_one = (ROOT / "src" / "chapters" / "04_causality.py").read_text(encoding="utf-8")
    assert "## 4.1 A small model with hand-chosen parameters" in four_one
    assert re.search(r"rows = \[checks\.row_changes\(f, ids8, other8\)\s+for f in \(model\.forward,", four_one)
    assert four_one.count("\nmodel = ") == 1 and "\nmodel = checks.chapter_model()" in four_one
    assert "| `модел\\w* без маски` | [§4] модель с выключенной маской" in words
    assert "with its mask off, it is §4's negative control" not in glossary
    assert "calls the same model with the mask off" not in glossary
    assert "§4's hand-chosen model" not in glossary and "mask: §4," not in words
    section = (ROOT / "src" / "chapters" / "04_causality.py").read_text(encoding="utf-8")
    assert "the masked model" in section and "negative control with the mask off" in section
    assert not re.search(r"unmasked model|model without the mask", section, re.I)
    for number, source in (("7.3", "07_decoder.py"), ("8.2", "08_real_text.py")):
        text = (ROOT / "src" / "chapters" / source).read_text(encoding="utf-8")
        part = text.split(f"## {number} ", 1)[1].split("\n## ", 1)[0]
        assert "causal=False" in part, number
    seven_two = (ROOT / "src" / "chapters" / "07_decoder.py").read_text(encoding="utf-8")
    seven_two = seven_two.split("## 7.2 ", 1)[1].split("\n## ", 1)[0]
    assert "masked_losses = train(masked," in seven_two


def test_the_glossary_names_what_the_search_tests_need():
    """docs/glossary.md's last step once said that the browser tests need Chromium and that `make test` installs it,
    though they also need the Noto CJK fonts (tests/conftest.py's browser_executable) and `make test` goes on to run
    the whole suite (read69 G C3). The step names the fonts and the command that installs the packages alone; both
    are packages of the `test` target."""
    import inspect

    import conftest
    from tools import system_packages
    text = flat("docs", "glossary.md")
    step = text[text.index("Before sending the change"):]
    assert ("Its tests that build the site need Node.js and, the first time, npm; its browser tests also need "
            "Chromium and the Noto CJK fonts. `python3 tools/system_packages.py test` installs them all (`make test` "
            "runs it first).") in step
    assert "`make test` installs them." not in step
    source = inspect.getsource(conftest.browser_executable)
    assert 'need("chromium"' in source and 'need("Noto Sans CJK"' in source
    for tool in ("chromium", "Noto Sans CJK", "node", "npm"):
        assert "test" in system_packages.find(tool).targets, tool
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "test: system-packages-test" in makefile


def test_words_md_names_every_row_the_check_cannot_read():
    """docs/words.md says which rows fail the glossary check instead of being skipped; it once left out a row under no
    heading, which tests/test_glossary.py's read_table reports too (read69 G L10)."""
    import test_glossary
    assert ("A row the test cannot read fails it instead of being skipped: a pattern out of code font, a row under no "
            "heading, or a heading that names no language of the course.") in flat("docs", "words.md")
    # read75 G L12: the page says how a heading names its language, as read_table reads it
    assert "Each language has its own table, under a heading that ends with its code: `### Russian (ru)`." in \
        flat("docs", "words.md")
    rows, unreadable = test_glossary.read_table("# Words we do not use\n\n| `stray` | a row under no heading |\n")
    assert not rows and unreadable == ["| `stray` | a row under no heading |"]


def _words_rule(text):
    """The rule of "Rules for code cells" on which cells print words, or None."""
    rule = re.search(r"Print no prose, and label plots with symbols \(i, j, t, h\), not words\. (.*?) \* Only §8", text)
    return rule and rule.group(1)


def test_the_rule_on_printed_words_leaves_room_for_section_8s_page_text_cells():
    """CONTRIBUTING.md, "Rules for code cells" (read71 A C1: it said only the interactive figures print words, though
    the next rule has §8's `page-text` cells print verse and text a model generates, and the English notebook's
    second such cell prints lines of it). The rule names those cells; the old wording fails the same reading."""
    import json
    said = _words_rule(flat("CONTRIBUTING.md"))
    assert said and said.startswith("Apart from §8's `page-text` cells (next rule), only the interactive figures "
                                    "(`figures/interactive.py`) print words"), said
    old = ("Print no prose, and label plots with symbols (i, j, t, h), not words. Only the interactive figures "
           "(`figures/interactive.py`) print words: those of every language, the same in each notebook. * Only §8 may")
    assert not _words_rule(old).startswith("Apart from §8's `page-text` cells")     # the negative control
    cells = json.loads((ROOT / "chapters" / "en" / "08_real_text.ipynb").read_text(encoding="utf-8"))["cells"]
    printed = ["".join(out.get("text", "")) for cell in cells if "page-text" in cell.get("metadata", {}).get("tags", [])
               for out in cell.get("outputs", [])]
    assert any(len(re.findall(r"\b[A-Za-z]{2,}\b", out)) >= 10 for out in printed), "§8's page-text cells print no words"


def _dtype_step(text):
    step = re.search(r"3\. (Add it to `tests/test_dtypes\.py`.*?)\. 4\. Test it on random shapes", text)
    return step and step.group(1)


def test_a_new_functions_tests_name_the_dtype_test_that_fails_without_it():
    """docs/maintainers.md, "A new function", step 3 (read71 A C2: it sent the reader to tests/test_properties.py for
    dtypes, though tests/test_dtypes.py holds the dtype rule and fails on a public function of the modules it reads
    that it does not name). The modules the step names are the test's; the old step names no dtype test."""
    step = _dtype_step(flat("docs", "maintainers.md"))   # "Changing lib" moved there (audit 23, T-1)
    assert step, "CONTRIBUTING.md's step 3 for a new function no longer names tests/test_dtypes.py"
    assert "checks the dtype rule of `lib/__init__.py`" in step
    # read78 A L10: the rule is stated, as lib/__init__.py states it
    assert ("`lib/__init__.py` (a result comes in the common float dtype of its numeric array arguments; integers "
            "count as float64)") in step
    assert "*common float dtype of the numeric array arguments*" in (ROOT / "lib" / "__init__.py").read_text(
        encoding="utf-8")
    source = (ROOT / "tests" / "test_dtypes.py").read_text(encoding="utf-8")
    assert "The package's one dtype rule (lib/__init__)" in source and "* dtypes:" in (ROOT / "lib" / "__init__.py").read_text(encoding="utf-8")
    read = re.search(r"for module in \(([\w, ]+)\):\n.*\n.*\n.*\n.*\n.*missing\.append", source).group(1).split(", ")
    assert set(re.findall(r"`(\w+)`", step.split("public function of", 1)[1])) == set(read) - {"fast"}, read
    old = ("3. Test it on random shapes and dtypes (`tests/test_properties.py`) and against what the section states "
           "(`tests/test_chapter_numbers.py`).")
    assert _dtype_step(old) is None                                               # the negative control


def _chapter_functions():
    """{section "x.y": names of the functions and classes its code cells define at the top level}, read from
    src/chapters/*.py, and the set of names lib/*.py defines at the top level."""
    defined = {}
    for path in sorted((ROOT / "src" / "chapters").glob("*.py")):
        section = None
        for kind, body in re.findall(r'^(md|code)\(r?"""(.*?)"""', path.read_text(encoding="utf-8"), re.M | re.S):
            if kind == "md":
                section = (re.findall(r"^## (\d+\.\d+) ", body, re.M) or [section])[-1]
            else:
                for name in re.findall(r"^(?:def|class) (\w+)", body, re.M):
                    defined.setdefault(section, set()).add(name)
    in_lib = set()
    for path in (ROOT / "lib").rglob("*.py"):
        in_lib |= set(re.findall(r"^(?:def|class) (\w+)", path.read_text(encoding="utf-8"), re.M))
    return defined, in_lib


def _own_functions(text):
    """The functions a sentence says a notebook defines itself, not in lib (read76 R C2): {section: names}, where
    "§3.5's position encodings" stands for sinusoidal and rope_score, and "§7's" for any subsection of §7; None
    when the sentence names no such function."""
    said = re.search(r"(?:position encodings that §(\d+\.\d+) compares|§(\d+\.\d+)'s position encodings), "
                     r"(?:and )?§(\d+\.\d+)'s `(\w+)`,? (?:and|or) §(\d+)'s ((?:`\w+`(?:, | and )?)+)", text)
    if not said:
        return None
    return {said.group(1) or said.group(2): {"sinusoidal", "rope_score"}, said.group(3): {said.group(4)},
            said.group(5): set(re.findall(r"`(\w+)`", said.group(6)))}


def _check_own_functions(text, where):
    named = _own_functions(text)
    assert named, f"{where} no longer names the functions a notebook defines itself, which lib does not hold"
    defined, in_lib = _chapter_functions()
    # the rule the sentences state: nothing a chapter notebook defines at the top level is defined in lib
    assert not {n for names in defined.values() for n in names} & in_lib
    for section, names in named.items():
        mine = set().union(*(v for k, v in defined.items() if k and (k == section or k.startswith(section + "."))))
        assert names <= mine, (where, section, names - mine)
    assert "prefix_loss_and_grads" in named["7"] and "dropout_forward" in named["4.8"]
    return named


def test_the_layout_says_which_taught_code_is_not_in_lib():
    """CONTRIBUTING.md's layout (read71 A C3: it said lib held every function a section teaches, though §3.5 defines
    the position encodings it compares in its own notebook; read76 R C2: so do §4.8 and §7.3, whose
    `dropout_forward` and `prefix_loss_and_grads` they teach). The entry says most, and names functions each section
    defines itself, as the chapter sources' code cells show; the old entries fail the same reading."""
    entry = flat("CONTRIBUTING.md")
    assert ("* `lib/`: the shared library, where most functions a section teaches are written once (a function a "
            "notebook defines itself, such as") in entry
    _check_own_functions(entry, "CONTRIBUTING.md's layout")
    assert "shared NumPy code" not in entry                 # read76 A L18: lib/plain_python.py uses no NumPy
    for old in ("* `lib/`: the shared library, where each function a section teaches is written once;",
                "* `lib/`: the shared library, where each function a section teaches is written once (except the "
                "position encodings that §3.5 compares, which stay in its notebook);"):
        assert _own_functions(old) is None                                       # the negative controls
    source = (ROOT / "src" / "chapters" / "03_positions.py").read_text(encoding="utf-8")
    for name in ("sinusoidal", "rope_score"):
        assert f"\ndef {name}(" in source


def test_the_readme_says_which_taught_code_is_not_in_lib():
    """README.md and §0.6 (read74 R C1: the README said the sections import the code they teach from `lib`, though
    §3.5 defines the position encodings it compares in its own notebook; read76 R C2: §4.8 defines `dropout_forward`
    and §7 `prefix_loss_and_grads`, `hidden_future_logits` and `generate_without_cache` too). Both say "most" and
    name, as functions a notebook keeps out of `lib`, functions that the chapter sources' code cells define in those
    sections and lib does not; the old sentences fail the same reading."""
    readme = flat("README.md")
    assert "The sections import most of the code they teach from `lib`, the course's small NumPy library." in readme
    start = flat("src", "chapters", "00_start.py")
    assert "Most of the code the course teaches lives in one small NumPy package, `lib`." in start
    named = _check_own_functions(readme, "README.md")
    assert named == _check_own_functions(start, "§0.6")
    assert named["7"] == {"prefix_loss_and_grads", "hidden_future_logits", "generate_without_cache"}
    for old in ("Apart from the position encodings that §3.5 compares in its notebook, the sections import the code "
                "they teach from `lib`, the course's small NumPy library.",
                "Apart from the position encodings that §3.5 compares in its notebook, the code the course teaches "
                "lives in one small NumPy package, `lib`."):
        assert _own_functions(old) is None                                       # the negative controls


def test_the_readme_offers_practice_with_the_kinds_of_the_hidden_tests():
    """README.md (read75 R L8): a learner is told of `check(..., practice=True)`, which draws cases of the hidden
    kinds with a fresh seed (grading/exercises.py's `check`), right after the grader's hidden tests."""
    text = flat("README.md").split("## The course", 1)[1]
    assert ("the grader also runs hidden tests on random inputs; `check(..., practice=True)` runs tests of those kinds "
            "on new random data.") in text
    source = (ROOT / "grading" / "exercises.py").read_text(encoding="utf-8")
    assert "``practice=True`` (or a seed) runs tests of the hidden kinds on fresh random data." in source
    assert "seed = secrets.randbelow(1_000_000) if practice is True else int(practice)" in source
    assert "cases = exercise.hidden_cases(seed)" in source
    # read76 R L17: what a passing exercise prints, as check() writes it and a worked solution shows it
    assert "when all pass, it prints a single line such as `mask-2 · masked_softmax: 8/8 ✓`." in text   # read83 R L16
    assert 'lines.append(f"{header}: {passed}/{len(results)} ✓")' in source
    assert "mask-2 · masked_softmax: 8/8 ✓" in (ROOT / "solutions" / "en" / "ex01_allowed_set.ipynb").read_text(
        encoding="utf-8")


def test_the_readme_says_which_python_make_runs():
    """README.md (read78 R L11): the Makefile runs python3.11 if there is one, else python3, and checks its version
    before it makes .venv; a learner whose python3 is older but who has, say, python3.12 is told to name it."""
    text = flat("README.md")
    # the requirement itself (3.11 or newer, with python3-venv) is said once, before (see the python3_venv test)
    assert ("`make` runs `python3.11` if there is one, else `python3`. To use another Python, name it, as in "
            "`make book PYTHON=python3.12`.") in text
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "PYTHON ?= $(shell command -v python3.11 || command -v python3)" in makefile.splitlines()
    assert "@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11)" in makefile
    assert "test -x $(PY) || $(PYTHON) -m venv $(VENV)" in makefile


def test_the_readme_spells_out_what_a_newcomer_cannot_guess():
    """README.md (read78 R L6, L7, L14, L17): the three special tokens are named as lib.data names them; RoPE and
    ALiBi are spelled out as §3.5 spells them; who checks each result is said unambiguously; and the naming of
    chapters is said as a plain sentence, true of folders (chapters/), files (test_chapter_numbers.py) and code."""
    import lib.data
    text = flat("README.md")
    assert lib.data.SPECIAL_TOKENS == ["<unk>", "<bos>", "<eos>"]
    assert ("with `|` and the three special tokens `<unk>`, `<bos>` and `<eos>`, the vocabulary has 10 tokens."
            in text)
    positions = (ROOT / "src" / "chapters" / "03_positions.py").read_text(encoding="utf-8")
    assert "**RoPE** (rotary position embedding)" in positions and "**ALiBi** (attention with linear biases)" in positions
    assert ("sinusoids, rotary position embedding (RoPE) and attention with linear biases (ALiBi) compared |"
            in text)
    assert ("each result is checked, either by an `assert` in its cell or by the test suite." in text
            and "an `assert` in a cell or the test suite checks each one" not in text)
    assert "File, folder and code names say *chapter* where the text says *section*." in text
    # read78 R L2: "what §0.1 lists" came before the list, and §0.1 lists cross-entropy and gradient descent too
    assert ("You should know NumPy indexing, slicing and broadcasting, the numerically stable softmax, and how to "
            "derive one operation's backward pass by hand; §7 and §8 also use the basics of cross-entropy loss and "
            "gradient descent (§0.1 lists them all).") in text
    start = (ROOT / "src" / "chapters" / "00_start.py").read_text(encoding="utf-8")
    known = start.split("## 0.1 What you should already know", 1)[1].split('""")', 1)[0]
    for words in ("indexing, slicing and broadcasting in NumPy", "numerically stable form", "the local backward pass",
                  "the basic ideas of the cross-entropy loss and of gradient descent (used in §7 and §8)"):
        assert words in known, words
    assert (ROOT / "tests" / "test_chapter_numbers.py").exists() and (ROOT / "src" / "chapters").is_dir()


def test_the_readme_mentions_the_questions_the_site_adds():
    """README.md (read78 R L16): the website's questions (src/quizzes/, inserted at the end of their subsection, as
    site/README.md says) were never mentioned. Most subsections have questions, and no notebook holds them."""
    import nbformat

    from tools import quizzes
    assert ("On the website, most subsections end with questions that check your understanding; the notebooks leave "
            "them out.") in flat("README.md")
    assert "the questions of `src/quizzes/` are inserted at the end of their subsection" in flat("site", "README.md")
    asked = subsections = 0
    for path in sorted((ROOT / "src" / "quizzes").glob("[0-9][0-9]_*.py")):
        sections = quizzes.load(path)
        asked += len(sections)
        subsections += len(re.findall(r"^## \d+\.\d+ ", (ROOT / "src" / "chapters" / path.name).read_text(
            encoding="utf-8"), flags=re.M))
        notebook = ROOT / "chapters" / "en" / f"{path.stem}.ipynb"
        text = " ".join(" ".join(c.source.split()) for c in nbformat.read(notebook, as_version=4).cells)
        for question in (q for section in sections for q in section.questions):
            assert " ".join(question.prompt["en"].split()) not in text, (path.name, question.prompt["en"])
    assert 2 * asked > subsections, (asked, subsections)


def test_the_readmes_row_of_section_0_names_its_subsections():
    """README.md's table (read75 R L15): §0's row once left out what you should know (§0.1) and `lib` (§0.6); it now
    names §0.1-§0.6 in their order. The make targets need a Unix-like system: the Makefile runs .venv/bin/python."""
    row = re.search(r"^\| 0 \| `00_start` \|(.*)\|$", (ROOT / "README.md").read_text(encoding="utf-8"), re.M).group(1)
    said = [part.strip() for part in row.split(";")]
    headings = re.findall(r"^## 0\.\d (.*)$", (ROOT / "src" / "chapters" / "00_start.py").read_text(encoding="utf-8"),
                          re.M)
    assert headings == ["What you should already know", "One attention head: a recap", "Map of the course",
                        "Notation", "How to read and run the notebooks", "The shared library `lib`"], headings
    assert said == ["what you should know", "a recap of one attention head", "a map of the course", "the notation",
                    "how to run the notebooks", "the library `lib`"], said
    assert "PY     := $(VENV)/bin/python" in (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "You also need `make`, on a Unix-like system (not Windows)." in flat("README.md")


def test_the_translators_guide_writes_the_maths_as_the_catalogue_holds_it():
    """docs/translating.md's example of a number in the maths is what a catalogue's `msgstr` holds, with its backslash
    doubled, and the guide says why (read71 T C2: it showed `$557\\,056$` with one backslash; typed so, `check` stops
    on "unknown escape \\,", and a `\\times` typed so is read as a tab and "imes" and passes `check`)."""
    from course_i18n.catalogue import _unquote
    text = flat("docs", "translating.md")
    steps = text[text.index("## Editing an entry"):text.index("## Plural forms")]
    # read74 T L8: the example says it is the file's form, and what a PO editor takes instead
    # read76 T L10: the rule on backslashes comes before the example that uses it
    # read83 R L8: "shows them single" did not fit a quote; the editor's form is shown
    assert "In the file, as in the `msgid`, a backslash is written `\\\\` and a double quote `\\\"`; a PO editor " \
           "shows them as `\\` and `\"`. Write a number in the maths as your language does: in Russian `$0{,}5$`, " \
           "and `$557\\\\,056$` as the file holds it." in steps
    assert "`$557\\,056$`" not in steps                                     # the old, one-backslash example
    po = (ROOT / "src" / "locales" / "ru" / "LC_MESSAGES" / "chapters.po").read_text(encoding="utf-8")
    assert "557\\\\,056$" in po and "557\\,056$" not in po.replace("557\\\\,056$", "")
    assert _unquote('"$557\\\\,056$"', "x.po", 1) == "$557\\,056$"
    assert _unquote('"\\"a\\""', "x.po", 1) == '"a"'
    with pytest.raises(ValueError, match="unknown escape"):
        _unquote('"$557\\,056$"', "x.po", 1)
    assert _unquote('"$D \\times d$"', "x.po", 1) == "$D \times d$"          # a tab: why the guide says it


def test_the_readme_says_the_unmasked_model_reads_the_future_also_where_the_past_decides():
    """README.md's "The experiment (§7)" once said the unmasked decoder copies the answer from a later position
    where the tokens so far do not determine the next token, which reads as "only there" (read73 R C1). §7's
    Figure 7.3 asserts that rows 0-3 of `aжb|bжa` read their target from a later position with weight above 0.9,
    and row 3's target, `|`, is decided: no position from 3 on is free. The README says so, and not the old
    sentence."""
    part = flat("README.md").split("## The experiment (§7)", 1)[1].split(" ## ", 1)[0]
    assert "Where the tokens so far do not determine the next token, it copies" not in part
    # read75 R L2: "where ... leave the next token open" once hung on a colon; two sentences now. read76 R L6: three
    # sentences began with "It", and the step from "below the causal bound" to "reads ahead" went unsaid
    # read78 R L6: "both where ... and at some positions where" needed a second reading
    # read83 R L1: "not only where ... but also at some positions where they already do" was hard to follow
    assert ("the decoder brings its training loss below the causal bound, which only a model that reads ahead can "
            "do. It takes the answer from a later position of its input where the tokens so far cannot determine the "
            "next token, and also at some positions where they can.") in part, part
    assert "not only where the tokens so far" not in part
    assert "both where the tokens so far" not in part
    assert "The *causal bound* is the lowest loss a causal model can reach on this corpus (§7.2)." in part
    # read76 R L7: §7.2 counts lines, not words (the README once said "252 words")
    assert "The rule allows 252 lines;" in part and "252 words" not in part
    assert "The language has $6^2 + 6^3 = 252$ lines." in flat("src", "chapters", "07_decoder.py")
    assert "leave the next token open" not in part
    code = (ROOT / "src" / "chapters" / "07_decoder.py").read_text(encoding="utf-8")
    assert 'encode("aжb|bжa", vocab)' in code
    assert "assert np.all(on_answer.max(axis=0)[:4] > 0.9)" in code
    assert "list(free.sum(axis=0)) == [216, 216, 216, 0, 0, 0, 0, 0]" in code


def test_the_glossary_gives_a_symbol_in_every_column():
    """docs/glossary.md says its Chinese and Russian columns give a term with its symbol where it has one, yet three
    rows gave the symbol only in English: the causal bound L*, the output layer W_head, and layer normalisation's
    γ / β (read73 G C2). Maths outside the English cell's parentheses is in every column, and these rows name theirs.
    read75 G C2: the rule said the symbol stands outside the parentheses, yet W_head stood inside; one rule now
    places it, and every row follows it."""
    from tools import search_index
    header, rows = search_index.glossary_rows()
    symbol = re.compile(r"\$[^$]*\$|(?<![\w§])[A-Z](?:_\w+)?(?!\w)")       # maths, or a letter symbol: P, W_O, W_head
    parentheses = re.compile(r"\([^)]*\)|（[^）]*）")

    def misplaced(cells):
        """read75 G C2: the page's rule, a term's symbol follows it outside the parentheses in every column (only
        index letters and Greek symbols go inside): what the English cell gives outside and another cell does not,
        and a letter symbol or maths inside a Chinese or Russian cell's parentheses."""
        outside = [symbol.findall(parentheses.sub(" ", cell)) for cell in cells]
        inside = [found for cell in cells[1:] for p in parentheses.findall(cell) for found in symbol.findall(p)]
        return [s for s in outside[0] if any(s not in other for other in outside[1:])] + inside

    for cells in rows:
        assert not misplaced(cells), cells
    # negative control: the old row of the output layer, its symbol in parentheses in every column
    assert misplaced(["output layer (W_head)", "输出层（W_head）", "выходной слой (W_head)"]) == ["W_head", "W_head"]
    named = {cells[0]: cells[1:] for cells in rows}
    assert named["causal bound $\\mathcal L^*$ (§7.2)"] == [
        "因果模型的下界 $\\mathcal L^*$", "нижняя граница для причинных моделей $\\mathcal L^*$"]
    assert named["output layer W_head"] == ["输出层 W_head", "выходной слой W_head"]
    assert named["slot (h, t, a)"] == ["槽位 (h, t, a)", "место (h, t, a)"]
    glossary = flat("docs", "glossary.md")
    assert ("A term's symbol follows it, outside the parentheses, in every column: 位置表 P, выходной слой W_head."
            in glossary)
    # read76 G L1: the exception (Greek symbols and index letters inside) once stood in the "Context" bullet, as if
    # γ were context; the rule and its exception are now said together
    assert ("выходной слой W_head. A Greek symbol or index letters go inside them instead: 增益（γ）, место (h, t, a). "
            "Anything else in parentheses is one of two things:") in glossary
    assert "Index letters and Greek symbols go here too" not in glossary
    assert named["gain / bias (of layer normalisation: γ / β, §0.4, §7.7)"] == [
        "增益（γ） / 偏置（β）", "множитель (gain, γ) / свободный член (bias, β)"]


def test_the_gradescope_failure_message_is_listed_among_the_texts_outside_the_catalogues():
    """tools/gradescope/run_autograder writes its own message, one paragraph per language, when the grader wrote no
    result: Gradescope's fallback runs the image's python3, not the course's environment (which may be what failed),
    so it does not import course_i18n and its catalogues. docs/translating.md lists it among the texts outside the catalogues and in "Adding a
    language" (read75 T C1: the list said it held "the rest" and left it out)."""
    import ast
    from course_i18n import LANGUAGE_TABLE
    script = (ROOT / "tools" / "gradescope" / "run_autograder").read_text(encoding="utf-8")
    assert 'python3 - "$RESULTS" "$status" <<\'PY\'' in script
    embedded = ast.parse(script.split("<<'PY'\n", 1)[1].split("\nPY\n", 1)[0])
    text, = [ast.literal_eval(node.value) for node in ast.walk(embedded)
             if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "text"]
    assert len(text.split("\n\n")) == len(LANGUAGE_TABLE)
    guide = flat("docs", "translating.md")
    outside = guide.split("## Texts outside the course's catalogues", 1)[1].split("## ", 1)[0]
    assert ("the message a student sees on Gradescope when the grader writes no result, one paragraph per language, "
            "in `tools/gradescope/run_autograder`;") in outside
    # The paragraph is written only when the grader left no results.json; an upload the grader cannot grade (no
    # notebook) gets the grader's own translated reason instead (read76 T C1: step 13 said the opposite).
    guarded = script.split('if [ ! -s "$RESULTS" ]; then\n', 1)
    assert len(guarded) == 2 and "text = (" in guarded[1] and "text = (" not in guarded[0]
    assert "nothing_gradable" in (ROOT / "grading" / "messages.py").read_text(encoding="utf-8")
    assert ("Add its paragraph to the message in `tools/gradescope/run_autograder` that a student sees when the grader "
            "itself did not finish and wrote no result.") in adding_a_language()
    assert "could not grade" not in adding_a_language()


def test_adding_a_language_names_the_files_that_name_every_language():
    """README.md's opening and CITATION.cff's abstract name each language by its own name, so a new one must be
    added there by hand: docs/translating.md's "Adding a language" says so (read75 T L8: it left both out)."""
    from course_i18n import LANGUAGE_TABLE
    readme_opening = flat("README.md").split("## ", 1)[0]
    abstract = flat("CITATION.cff").split("abstract:", 1)[1].split("authors:", 1)[0]
    assert all(lang.name in readme_opening and lang.name in abstract for lang in LANGUAGE_TABLE)
    assert ("Name it where README.md's opening and CITATION.cff's `abstract` name the three languages."
            in adding_a_language())


def test_the_guides_give_one_time_for_the_whole_suite():
    """README.md's test command and CONTRIBUTING.md's "Before you open a pull request" both say how long `make test`
    takes; after read75 R the README said about 25 minutes (the clean-clone runs: 22-26 minutes on two cores) while
    CONTRIBUTING.md still said about 20. They give one figure; docs/maintainers.md's list of benchmarks says which
    notebooks bench/notebook_times.py times (read75 A C1 in CONTRIBUTING.md, the same words there)."""
    minutes = {name: re.findall(r"about (\d+) minutes on two cores", (ROOT / name).read_text(encoding="utf-8"))
               for name in ("README.md", "CONTRIBUTING.md")}
    assert all(len(found) == 1 for found in minutes.values()) and len({found[0] for found in minutes.values()}) == 1, \
        minutes
    maintainers = flat("docs", "maintainers.md")
    assert "`bench/notebook_times.py`: the execution time of each notebook in `chapters/` and `solutions/`" in maintainers
    assert "`bench/notebook_times.py`: each notebook's execution time" not in maintainers


def test_the_translators_guide_says_what_diagrams_check_does():
    """docs/translating.md, "What to rebuild after translating": after a redraw, `tools/diagrams.py --check` writes
    nothing and names every stale file, the wide versions too (read76 T L12: "names any file still stale" right after
    a redraw left the reader to wonder why to run it)."""
    text = flat("docs", "translating.md")
    assert ("`.venv/bin/python tools/diagrams.py --check` writes nothing and names every stale file, wide versions "
            "(`*-wide.svg`) included.") in text
    source = (ROOT / "tools" / "diagrams.py").read_text(encoding="utf-8")
    assert 'help="compare with the committed files, write nothing"' in source
    assert "(render_wide(name, lang), wide_path(name, lang))" in source and "stale.append(" in source


def test_a_quantity_at_rounding_level_prints_its_bound():
    """CONTRIBUTING.md (read78 A C3): it offered `round(abs(gap), 12)` for a gap at rounding level, which prints the
    `0.0` that its next sentence keeps for what is exact by construction. It now gives the course's own form, a
    printed bound, and names the rounding as the thing not to do."""
    text = flat("CONTRIBUTING.md")
    assert ("Assert it against a stated bound and print the claim, as §1 does: `print(\"max|Δ| < 1e-12:\", gap < "
            "1e-12)`, which prints `True` on every machine. Do not round such a quantity: `round(abs(gap), 12)` prints "
            "`0.0`, which looks exact. Print an exact `0.0` only where it is exact by construction.") in text
    assert "`print(gap < 1e-12)`, or `round(abs(gap), 12)`" not in text
    assert round(abs(1.1e-16), 12) == 0.0 and str(round(abs(1.1e-16), 12)) == "0.0"
    source = (ROOT / "src" / "chapters" / "01_allowed_set.py").read_text(encoding="utf-8")
    assert 'print("max|Δ| < 1e-12:", gap < 1e-12)\nassert gap < 1e-12\n' in source


def test_the_autograder_commands_write_where_instructors_md_says(monkeypatch, capsys):
    """docs/instructors.md, "Gradescope": each `tools/make_autograder.py` command is followed by the folder and the
    zip it writes (read84 I C2: `--exercises` was an alternative on the `--notebook` line, whose comment named
    `_build/autograder/ex01_allowed_set/`, though it writes `_build/autograder/exercises/`). The commands run with
    `make` replaced, so nothing is built."""
    from tools import make_autograder
    text = (ROOT / "docs" / "instructors.md").read_text(encoding="utf-8")
    part = text[text.index("## Gradescope"):]
    block = part[part.index("```bash\n") + 8:part.index("```", part.index("```bash\n") + 8)]
    pairs = re.findall(r"^\.venv/bin/python tools/make_autograder\.py (.+)\n# -> (\S+)/ and (\S+)$", block, flags=re.M)
    assert len(pairs) == 2 and len(block.strip().splitlines()) == 4, block
    written = []
    monkeypatch.setattr(make_autograder, "make", lambda out, exercises, *a, **k: (
        written.append(out), (out, out.with_suffix(".zip")))[1])
    for args, folder, archive in pairs:
        make_autograder.main(args.split())
        assert written[-1] == ROOT / folder and written[-1].with_suffix(".zip") == ROOT / archive, (args, written)
    assert {a.split()[0] for a, _, _ in pairs} == {"--notebook", "--exercises"}
    capsys.readouterr()
