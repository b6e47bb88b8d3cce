"""What a release says about itself: one version everywhere, a citation that validates, a changelog
in the Keep a Changelog format whose newest entry states true counts, and a LICENSE that says which
licence covers every part of the repository.

The version is written once, in pyproject.toml (grading/version.py reads it); CITATION.cff, the
newest entry of CHANGELOG.md, `python -m grading --version`, the wheel's name, the site's footer and the
guides' two examples that carry it must all say the same. The site's footer, as built, is checked in tests/test_site.py.
"""

import datetime
import json
import pathlib
import re
import subprocess
import sys
import tomllib

import jsonschema
import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "site"))
from grading.version import DISTRIBUTION, package_version  # noqa: E402
from tools.build_notebooks import course_wheel  # noqa: E402
from conftest import unavailable  # noqa: E402

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
CITATION = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
CHANGELOG = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
# the Citation File Format's own schema, version 1.2.0 (https://github.com/citation-file-format/
# citation-file-format, schema.json at tag 1.2.0; CC BY 4.0 by the format's authors)
CFF_SCHEMA = json.loads((ROOT / "tests" / "data" / "cff-schema-1.2.0.json").read_text(encoding="utf-8"))
RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", re.M)
KINDS = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")


def releases():
    """[(version, date, text of the entry)] of CHANGELOG.md, newest first."""
    found = list(RELEASE.finditer(CHANGELOG))
    return [(m.group(1), m.group(2), CHANGELOG[m.end():found[i + 1].start() if i + 1 < len(found) else None])
            for i, m in enumerate(found)]


def test_one_version_everywhere():
    version = PYPROJECT["version"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), version
    assert package_version() == version and PYPROJECT["name"] == DISTRIBUTION
    assert str(CITATION["version"]) == version
    assert releases()[0][0] == version, "the newest entry of CHANGELOG.md is not pyproject.toml's version"
    assert course_wheel() == f"causality_heads_position-{version}-py3-none-any.whl"
    out = subprocess.run([sys.executable, "-m", "grading", "--version"], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    assert re.fullmatch(rf"python -m grading \({DISTRIBUTION}\) {re.escape(version)}, report format \d+\n",
                        out.stdout), out.stdout
    import course_site
    assert f"Version {version}" in str(course_site.footer({}, package_version(), "en"))


def test_the_guides_examples_name_this_version():
    """The guides' examples that carry the version (the wheel's name, the line of `--version`) are copies too:
    docs/maintainers.md's release steps name them, and each must say pyproject.toml's version."""
    version, found = PYPROJECT["version"], []
    for path in [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        found += [(path.name, m) for m in re.findall(rf"{DISTRIBUTION.replace('-', '_')}-(\d+\.\d+\.\d+)-", text)]
        found += [(path.name, m) for m in re.findall(r"… (\d+\.\d+\.\d+), report format", text)]
    assert {name for name, _ in found} == {"instructors.md"} and len(found) == 2, found
    assert all(m == version for _, m in found), found


def test_the_version_read_outside_a_checkout_is_the_installed_one(tmp_path, monkeypatch):
    """From the wheel there is no pyproject.toml beside the package: the metadata answers (and a
    pyproject.toml of another project is not taken for the course's)."""
    import importlib.metadata
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "9.9.9" if name == DISTRIBUTION else None)
    assert package_version(tmp_path / "pyproject.toml") == "9.9.9"
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "something-else"\nversion = "0.0.1"\n')
    assert package_version(tmp_path / "pyproject.toml") == "9.9.9"


def test_citation_is_valid_cff_1_2_0_with_the_title_in_every_language():
    jsonschema.validate(CITATION, CFF_SCHEMA, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    assert CITATION["cff-version"] == "1.2.0"
    version, date, _ = releases()[0]
    assert str(CITATION["date-released"]) == date
    titles = {code: spec["title"] for code, spec in CONFIG["languages"].items()}
    assert CITATION["title"] == titles["en"]
    # CFF has one title: the others are in the abstract, which names each language's title
    for code, title in titles.items():
        assert title in " ".join(CITATION["abstract"].split()), f"the abstract does not give the {code} title {title!r}"
    assert sorted(CITATION["license"]) == ["CC-BY-SA-4.0", "MIT"]
    repository = ((CONFIG.get("repository") or {}).get("url") or "").strip().rstrip("/")
    assert CITATION.get("repository-code", "").rstrip("/") == repository, (
        "CITATION.cff's repository-code must be _config.yml's repository.url (or both absent)")


def test_changelog_keeps_a_changelog():
    assert CHANGELOG.startswith("# Changelog\n") and "## [Unreleased]" in CHANGELOG
    assert CHANGELOG.index("## [Unreleased]") < CHANGELOG.index(f"## [{releases()[0][0]}]")
    found = releases()
    assert found, "no release entry (## [X.Y.Z] - YYYY-MM-DD)"
    versions = [tuple(map(int, v.split("."))) for v, _, _ in found]
    dates = [datetime.date.fromisoformat(d) for _, d, _ in found]
    assert versions == sorted(versions, reverse=True) and len(set(versions)) == len(versions)
    assert dates == sorted(dates, reverse=True)
    for version, _, text in found:
        kinds = re.findall(r"^### (.+)$", text, re.M)
        assert kinds and set(kinds) <= set(KINDS), f"{version}: sections {kinds}, Keep a Changelog has {KINDS}"


def unreleased():
    """The text of CHANGELOG.md's [Unreleased] section (empty right after a release)."""
    start = CHANGELOG.index("## [Unreleased]") + len("## [Unreleased]")
    return CHANGELOG[start:CHANGELOG.index(f"## [{releases()[0][0]}]")]


def test_the_newest_entry_states_true_counts():
    """Words are claims: a count of the whole course in the newest entry is the registry's.  While
    [Unreleased] lists changes, the newest release describes the course as it was released and
    [Unreleased] is the entry that must state today's counts."""
    from grading.exercises import EXERCISES
    from tools import quizzes
    sys.path.insert(0, str(ROOT / "tests"))
    from mistakes import entries
    text = " ".join((unreleased().strip() or releases()[0][2]).split())
    claims = {
        r"(\d+) exercises in (\d+) notebooks, (\d+) points":
            (len(EXERCISES), len({e.notebook for e in EXERCISES.values()}), sum(e.points for e in EXERCISES.values())),
        r"a corpus of (\d+) realistic wrong answers": (len(entries()),),
        r"(\d+) in all": (sum(len(v) for v in quizzes.site_quizzes("en").values()),),
        r"§0–§(\d+)": (max(int(p.name[:2]) for p in (ROOT / "src" / "chapters").glob("[0-9][0-9]_*.py")),),
    }
    for pattern, truth in claims.items():
        for match in re.finditer(pattern, text):
            assert tuple(int(g) for g in match.groups()) == truth, f"CHANGELOG.md says {match.group(0)!r}; it is {truth}"


def test_license_says_which_licence_covers_every_part_of_the_repository():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "MIT License" in text and "Permission is hereby granted, free of charge" in text
    assert "CC BY-SA 4.0" in text and "LICENSE-CC-BY-SA-4.0" in text
    legal = (ROOT / "LICENSE-CC-BY-SA-4.0").read_text(encoding="utf-8")
    assert legal.startswith("Creative Commons Attribution-ShareAlike 4.0 International Public License")
    assert "Section 8 – Interpretation." in legal
    assert PYPROJECT["license"] == "MIT" and PYPROJECT["license-files"] == ["LICENSE"]
    try:
        tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                                 check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):        # no git, or an unpacked archive
        tracked = []
    if not tracked:
        unavailable("not a git checkout: LICENSE is checked against the files git tracks")
    tops = {path.split("/", 1)[0] + ("/" if "/" in path else "") for path in tracked}
    unnamed = sorted(top for top in tops - {".gitignore", "LICENSE", "LICENSE-CC-BY-SA-4.0", "CITATION.cff"}
                     if not re.search(rf"(?<![\w/.-]){re.escape(top.rstrip('/'))}[/*\s,:;.)]", text))
    assert not unnamed, f"LICENSE does not say which licence covers {unnamed}"


def test_make_help_lists_every_target():
    """CONTRIBUTING.md says `make help` lists every target meant to be run by hand: each one in .PHONY but help itself."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    phony = re.search(r"^\.PHONY:(.*)$", makefile, re.M).group(1).split()
    said = subprocess.run(["make", "-s", "help"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    listed = set(re.findall(r"^make (\w+)", said, re.M))
    assert set(phony) - {"help"} <= listed, sorted(set(phony) - {"help"} - listed)


def test_the_files_license_excepts_exist_and_state_their_terms():
    """LICENSE, section 3, names the files under terms of their own (read60 R C4: it once put every file under lib/
    under MIT, the public-domain verse of §8 included, and named none of the templates the site adapts from its
    themes). Each file it names exists, and its terms are stated where a reader of the file finds them: in its
    header, or in the README of its folder, which names it. A template adapted from a theme says so in its
    header and is named there, and LICENSE holds the text of the BSD 3-Clause License with each holder's notice."""
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    section = text.split("\n3. ", 1)[1].split("\nA file or a part of a notebook", 1)[0]
    terms = ("public domain", "CC BY 4.0", "BSD 3-Clause License")
    named = {}
    for item in section.split("\n   * ")[1:]:
        item = " ".join(item.split())
        [term] = [t for t in terms if t in item]
        for path in re.findall(r"(?<![\w/.:-])([\w.-]+(?:/[\w.-]+)+\.\w+)", item):
            if not path.endswith("README.md"):
                named[path] = term
    assert {f"lib/corpus/{p.name}" for p in (ROOT / "lib" / "corpus").glob("verse_*.txt")} <= set(named), named
    for path, term in named.items():
        assert (ROOT / path).is_file(), f"LICENSE names {path}, which does not exist"
        header = "\n".join((ROOT / path).read_text(encoding="utf-8").splitlines()[:3])
        readme = ROOT / path.rsplit("/", 1)[0] / "README.md"
        readme = " ".join(readme.read_text(encoding="utf-8").split()) if readme.is_file() else ""
        assert term in header or (term in readme and path.rsplit("/", 1)[1] in readme), (
            f"{path}: neither its header nor its folder's README says it is under {term}, as LICENSE does")
    adapted = {p.relative_to(ROOT).as_posix() for p in (ROOT / "site" / "templates").rglob("*.html")
               if "Adapted from" in p.read_text(encoding="utf-8").split("\n", 1)[0]}
    assert adapted and {p for p, t in named.items() if t == "BSD 3-Clause License"} == adapted, adapted
    bsd = text[text.index("BSD 3-Clause License (the templates"):]
    assert "Redistribution and use in source and binary forms" in bsd
    for path in adapted:
        holder = re.search(r"Copyright \(c\) \d{4}, [^:]+", (ROOT / path).read_text(encoding="utf-8")).group(0)
        assert holder in bsd, (path, holder)
