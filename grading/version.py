"""The course's version number, written once: ``version`` in pyproject.toml's ``[project]`` table.

From a checkout it is read from that file (an editable install's metadata keeps the version
it was installed with); from the installed wheel, from the package's metadata, which the
wheel took from the same file.  The site's footer, ``python -m grading --version``, the
wheel's name, CITATION.cff and CHANGELOG.md all agree with it (tests/test_release.py).
"""

import pathlib

DISTRIBUTION = "causality-heads-position"
PYPROJECT = pathlib.Path(__file__).resolve().parent.parent / "pyproject.toml"


def package_version(pyproject=PYPROJECT):
    """``"1.0.0"``: the version of the course (its code, notebooks and site together)."""
    if pyproject.is_file():
        import tomllib
        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
        if project.get("name") == DISTRIBUTION:
            return project["version"]
    import importlib.metadata
    return importlib.metadata.version(DISTRIBUTION)
