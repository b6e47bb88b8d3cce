"""Finding submissions on disk, reading notebooks, recognising which exercise notebook each is.

Nothing here executes student code, and nothing can block or run away:

* the folders are walked with ``os.scandir`` without following a single
  symbolic link, to a fixed depth and a fixed number of entries per submission;
* a file is opened only if ``lstat`` says it is a regular file, and then with
  ``O_NOFOLLOW | O_NONBLOCK`` (a FIFO or a device named like a notebook is
  reported, never opened), and read up to a size limit;
* a symbolic link inside a submission is followed only when it points to a
  regular file inside the same submission; anything else is reported;
* file names that are not valid UTF-8 (an archive made on another system) are
  read through their bytes and shown decoded as GB18030 when that works, with
  escapes otherwise; stray spaces and leading dots are forgiven;
* every problem becomes a row of the report (a ``(message key, fields)``
  worded in the notebook's language later), never an exception.
"""

import json
import os
import pathlib
import re
import stat
from dataclasses import dataclass, field

from course_i18n import LANGUAGES

from ..cells import top_level_functions

MAX_NOTEBOOK_BYTES = 32 * 1024 * 1024
MAX_CELL_CHARS = 1_000_000
MAX_CELLS = 5_000
MAX_DEPTH = 16                       # folders below a PATH
MAX_ENTRIES = 20_000                 # directory entries looked at per submission folder
SKIPPED_FOLDERS = {".ipynb_checkpoints", "__MACOSX", "__pycache__", ".git", ".venv", ".Trash"}
LANGUAGE_LINE = re.compile(r"^[ \t]*COURSE_LANGUAGE\b[^=\n]*=[ \t]*[\"'](" + "|".join(LANGUAGES) + r")[\"']", re.M)

_EX_TOKEN = re.compile(r"(?<![a-z0-9])ex0*(\d{1,2})(?![0-9])", re.IGNORECASE)


def _decode(raw):
    for encoding in ("utf-8", "gb18030"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    return raw.decode("utf-8", "backslashreplace")


def display_name(name):
    """A file or folder name as text: UTF-8, else GB18030 (archives from Chinese Windows), else escaped."""
    return _decode(os.fsencode(name))


def display_path(path):
    """A path as text, each part decoded as :func:`display_name` does."""
    return "/".join(_decode(part) for part in os.fsencode(path).split(b"/"))


def normal_name(name):
    """The name a student meant: stray spaces and dots around it dropped (``' .ex01.ipynb '``)."""
    return display_name(name).strip(" \t\r\n.")


def looks_like_notebook(name):
    return normal_name(name).lower().endswith(".ipynb")


@dataclass
class NotebookFile:
    """A file that should be a notebook of one submission."""
    path: str                        # the path to open (str, surrogate-escaped if not UTF-8)
    display: str                     # the same path as text, for reports
    problem: tuple = None            # (message key, fields) when it must not be read


@dataclass
class Submission:
    """One submission: its notebooks and what is wrong with its folder."""
    id: str
    files: list = field(default_factory=list)
    problems: list = field(default_factory=list)      # (message key, fields) -> rows with exercise "-"
    empty: tuple = None                               # (message key, fields) when it holds no notebook at all
    refused: tuple = None                             # (message key, fields): not graded at all
    student_id: str = ""                              # the LMS's id of the student (--student-pattern)
    name: str = ""                                    # the student's name in the LMS's file names


# --student-pattern presets: how learning-management systems name what they hand out.
# Canvas's bulk download of an assignment is flat: <lastfirst>[_late]_<user id>_<submission id>_<file name>;
# Moodle's "Download all submissions" names each file or folder <Full Name>_<participant id>_assignsubmission_file_,
# and with blind marking <"Participant" in Moodle's language>_<participant id>_assignsubmission_file_.
# Where a pattern has an id, the id is the student: the name is only what pages show.
STUDENT_PATTERNS = {
    "canvas": r"^(?P<student>[^_]+?)(?:_late)?_(?P<id>\d+)_\d+_",
    "moodle": r"^(?P<student>.+?)_(?P<id>\d+)_assignsubmission_",
}


def student_pattern(text):
    """The compiled --student-pattern (a preset name or a regular expression with a ``student`` group)."""
    source = STUDENT_PATTERNS.get(text, text)
    try:
        pattern = re.compile(source, re.IGNORECASE)
    except re.error as exc:
        raise ValueError(f"--student-pattern {text!r} is not a regular expression: {exc}") from None
    if "student" not in pattern.groupindex:
        raise ValueError(f"--student-pattern {text!r} needs a group (?P<student>...) that names the student "
                         f"(presets: {', '.join(STUDENT_PATTERNS)})")
    return pattern


class Discovery:
    """The walk over the PATHs (see :func:`find_submissions`).  A submission's key is a path, or, when
    ``pattern`` names an LMS id, ``("lms", top, id)``: two students of one name are two submissions."""

    def __init__(self, group_by, pattern=None):
        self.group_by = "top" if pattern is not None else group_by
        self.pattern = pattern          # --student-pattern: the student of a first-level file or folder
        self.submissions = {}
        self.usage = []

    def submission(self, key, name=""):
        if key not in self.submissions:
            if isinstance(key, tuple):
                _, top, lms_id = key
                self.submissions[key] = Submission(display_path(os.path.join(top, name)), student_id=lms_id,
                                                   name=name)
            else:
                self.submissions[key] = Submission(display_path(key))
        return self.submissions[key]

    def key_for(self, top, parts, path):
        """The submission a file at ``path`` (``parts`` below ``top``) belongs to."""
        if self.group_by == "file":
            return path
        if self.group_by == "all":
            return top
        if self.pattern is not None:
            match = self.pattern.search(display_name(parts[0]))
            if match is None or not match.group("student"):
                return os.path.join(top, parts[0])
            if "id" in self.pattern.groupindex and match.group("id"):
                key = ("lms", top, match.group("id"))
                self.submission(key, match.group("student"))
                return key
            return os.path.join(top, match.group("student"))
        if self.group_by == "top":
            return os.path.join(top, parts[0]) if len(parts) > 1 else top
        return os.path.dirname(path) or "."

    def root_of(self, top, parts, path):
        """The folder of the submission a file at ``path`` belongs to (a link must stay inside it); None for
        a file of a flat LMS download, which shares its folder with other students (its links are refused)."""
        if self.group_by == "file":
            return os.path.dirname(path)
        if self.pattern is not None:
            return os.path.join(top, parts[0]) if len(parts) > 1 else None
        return self.key_for(top, parts, path)

    def walk(self, top):
        """Every notebook-like file under ``top``; returns {first-level folder: holds a notebook?}."""
        first_level = {}
        seen = {}
        stack = [(top, ())]
        while stack:
            folder, rel = stack.pop()
            student = os.path.join(top, rel[0]) if rel else top
            try:
                with os.scandir(folder) as it:
                    listing = sorted(it, key=lambda e: os.fsencode(e.name))
            except OSError as exc:
                self.submission(student).problems.append(
                    ("problem_unreadable", {"error": f"{display_path(folder)}: {exc.strerror or exc}"}))
                continue
            for entry in listing:
                seen[student] = seen.get(student, 0) + 1
                if seen[student] > MAX_ENTRIES:
                    self.submission(student).problems.append(
                        ("too_many_files", {"name": display_path(student), "count": MAX_ENTRIES}))
                    break
                name, path, parts = entry.name, entry.path, rel + (entry.name,)
                try:
                    mode = entry.stat(follow_symlinks=False).st_mode
                except OSError:
                    continue
                hidden = name in SKIPPED_FOLDERS or name.startswith(".")
                if not rel and self.group_by in ("dir", "top") and not hidden:
                    if stat.S_ISLNK(mode) and os.path.isdir(path):
                        self.submission(path).refused = ("folder_symlink", {"name": display_path(path)})
                        continue
                    if stat.S_ISDIR(mode):
                        first_level.setdefault(path, False)
                if stat.S_ISLNK(mode) and not _leads_inside(path, self.root_of(top, parts, path)):
                    # a link out of the submission (to solutions/, a classmate, /etc): the submission is refused
                    sub = self.submission(self.key_for(top, parts, path))
                    if sub.refused is None:
                        sub.refused = ("link_outside", {"name": display_path(path), "target": _link_text(path)})
                    continue
                if stat.S_ISDIR(mode):
                    if hidden:
                        continue
                    if len(parts) > MAX_DEPTH:
                        self.submission(student).problems.append(
                            ("too_deep", {"name": display_path(student), "depth": MAX_DEPTH}))
                        continue
                    stack.append((path, parts))
                    continue
                if stat.S_ISLNK(mode) and os.path.isdir(path) and looks_like_notebook(name):
                    self.submission(self.key_for(top, parts, path)).problems.append(
                        ("problem_symlink", {"name": display_path(path)}))
                    continue
                if self.file(top, parts, path, name, mode) and len(parts) > 1:
                    first_level[os.path.join(top, parts[0])] = True
        return first_level

    def file(self, top, parts, path, name, mode):
        """Record one file; True when it is (meant to be) a notebook."""
        shown = display_path(path)
        key = self.key_for(top, parts, path)
        root = self.root_of(top, parts, path)
        if not looks_like_notebook(name):
            if "ipynb" in display_name(name).lower():
                self.submission(key).problems.append(("unrecognised_name", {"name": shown}))
            return False
        sub = self.submission(key)
        if display_name(name).lstrip(" ").startswith("._"):
            sub.problems.append(("macos_metadata", {"name": shown}))
            return False
        if stat.S_ISLNK(mode):
            target = _inside_target(path, root)
            if isinstance(target, tuple):
                sub.files.append(NotebookFile(path, shown, (target[0], {"name": shown})))
            else:
                sub.files.append(NotebookFile(target, shown))
            return True
        if not stat.S_ISREG(mode):
            sub.files.append(NotebookFile(path, shown, ("problem_not_regular", {"name": shown, "what": _what(mode)})))
            return True
        sub.files.append(NotebookFile(path, shown))
        return True


def _what(mode):
    if stat.S_ISFIFO(mode):
        return ("what_fifo", {})
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return ("what_device", {})
    if stat.S_ISSOCK(mode):
        return ("what_socket", {})
    if stat.S_ISDIR(mode):
        return ("what_folder", {})
    return ("what_other", {})


def _leads_inside(link, root):
    """Does the symbolic link ``link`` lead to something inside ``root`` (a broken link leads nowhere)?"""
    if root is None:
        return False
    try:
        target = os.path.realpath(link)
        real_root = os.path.realpath(root)
    except (OSError, ValueError):
        return False
    return target == real_root or target.startswith(real_root.rstrip("/") + "/")


def _link_text(link):
    """What a link points to, as text for a report (its own words, bounded)."""
    try:
        target = os.readlink(link)
    except OSError:
        return "?"
    return display_path(target)[:200]


def _inside_target(link, root):
    """The regular file inside ``root`` a symbolic link points to, or (problem key,) when it is not one."""
    if root is None:
        return ("problem_symlink",)
    try:
        target = os.path.realpath(link, strict=True)
        real_root = os.path.realpath(root, strict=True)
    except (OSError, RuntimeError):
        return ("problem_symlink_loop",)
    if os.path.commonpath([target, real_root]) != real_root:
        return ("problem_symlink",)
    try:
        if not stat.S_ISREG(os.lstat(target).st_mode):
            return ("problem_symlink",)
    except OSError:
        return ("problem_symlink_loop",)
    return target


def find_submissions(paths, group_by="dir", walk=None, pattern=None):
    """Group notebook files into submissions: returns (ordered {key: Submission}, usage problems).

    ``group_by``: ``dir`` (default): the folder that holds a notebook is one
    submission; ``top``: each first-level folder under a given folder is one
    submission (a student's folder with sub-folders); ``file``: every notebook
    is its own submission.  In ``dir`` and ``top`` mode a first-level folder
    with no notebook anywhere below it is a submission too (it gets ``missing``
    rows), and a first-level folder that is a symbolic link is refused.
    A PATH that does not exist, or is neither a file nor a folder, is a usage
    problem; so is a folder in which nothing at all was found.  ``group_by="all"``
    makes everything under one PATH one submission (a Gradescope upload).
    ``walk``: a Discovery to fill (its state stays readable if the walk is interrupted).
    """
    walk = walk if walk is not None else Discovery(group_by, pattern)
    for raw in paths:
        path = os.fspath(raw)
        bare = path.rstrip("/") or path              # "alice/" names the link alice, not what it points to
        try:
            info = os.stat(path)
            linked = stat.S_ISLNK(os.lstat(bare).st_mode)
        except OSError:
            walk.usage.append(f"no such file or folder: {display_path(path)}")
            continue
        if linked:
            # `python -m grading subs/*` hands each student folder over as a PATH: one that is a link
            # (to solutions/, to a classmate) is refused, whatever it holds
            sub = walk.submission(bare)
            sub.refused = ("path_symlink", {"name": display_path(bare), "target": _link_text(bare)})
            continue
        if stat.S_ISREG(info.st_mode):
            key = path if group_by in ("file", "all") else (os.path.dirname(path) or ".")
            walk.submission(key).files.append(NotebookFile(path, display_path(path)))
            continue
        if not stat.S_ISDIR(info.st_mode):
            walk.usage.append(f"not a file or folder: {display_path(path)}")
            continue
        before = len(walk.submissions)
        first_level = walk.walk(path)
        found = len(walk.submissions) > before
        for folder, has_notebook in first_level.items():
            if not has_notebook and folder not in walk.submissions and found:
                walk.submission(folder).empty = ("empty_folder", {"found": _contents(folder)})
        if not found:
            walk.usage.append(f"no notebooks (*.ipynb) in folder {display_path(path)}")
    # the same file reached twice (a PATH given twice, an inside symlink) is graded once
    for sub in walk.submissions.values():
        seen, unique = set(), []
        for f in sub.files:
            real = f.display if f.problem is not None else os.path.realpath(f.path)
            if real not in seen:
                seen.add(real)
                unique.append(f)
        sub.files = unique
    shared = {}
    for key, sub in walk.submissions.items():
        if isinstance(key, tuple):
            shared.setdefault(sub.id, []).append(sub)
    for subs in (s for s in shared.values() if len(s) > 1):        # students of one name: their LMS id follows it
        ids = sorted(s.student_id for s in subs)
        walk.usage.append(f"{len(subs)} students share the name {subs[0].name!r} in the file names (ids "
                          f"{', '.join(ids[:5])}{', ...' if len(ids) > 5 else ''}); each id is graded as a student of "
                          f"its own, named '{subs[0].name} (id)' on the pages")
        for sub in subs:
            sub.id = f"{sub.id} ({sub.student_id})"
    ordered = dict(sorted(walk.submissions.items(), key=lambda kv: (kv[1].id, repr(kv[0]))))
    ids = {}
    for sub in ordered.values():          # two folders whose names display alike keep distinct ids
        n = ids.get(sub.id, 0)
        ids[sub.id] = n + 1
        if n:
            sub.id = f"{sub.id} ({n + 1})"
    return ordered, walk.usage


def _contents(folder):
    """What a folder without notebooks holds, briefly: ("found_nothing" | "found_file" | "found_files", fields)."""
    names = []
    try:
        for root, dirs, files in os.walk(folder, followlinks=False):
            names += [os.path.join(root, f) for f in files]
            dirs[:] = [d for d in dirs if d not in SKIPPED_FOLDERS][:50]
            if len(names) > 100:
                break
    except OSError:
        pass
    if not names:
        return ("found_nothing", {})
    if len(names) == 1:
        return ("found_file", {"example": display_name(os.path.relpath(names[0], folder))})
    return ("found_files", {"count": len(names) if len(names) <= 100 else "100+",
                            "example": display_name(os.path.relpath(sorted(names)[0], folder))})


# -- one notebook ------------------------------------------------------------------

class NotebookInfo:
    """A submitted notebook: where it is, what it is, its code cells (or why not)."""

    def __init__(self, path, display=None):
        self.path = path
        self.display = display or display_path(path)
        self.name = normal_name(os.path.basename(os.fspath(path)) if display is None
                                else self.display.rsplit("/", 1)[-1])
        self.stem = None            # the course notebook it is, e.g. "ex01_allowed_set"
        self.how = ""               # how it was recognised
        self.cells = []             # [(cell number (1-based), code, tags)]
        self.defined = set()        # names of top-level functions
        self.problem = None         # (message key, fields): why it cannot be graded
        self.language = None        # zh / en / ru if the notebook says so
        self.metadata = {}

    def __repr__(self):
        return f"NotebookInfo({self.display}, stem={self.stem}, cells={len(self.cells)}, problem={self.problem!r})"


def _read_bytes(path):
    """The file's bytes, or (problem key, fields): never follows a link, never blocks on a FIFO."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        return ("problem_unreadable", {"error": exc.strerror or str(exc)})
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return ("problem_not_regular", {"name": display_path(path), "what": _what(info.st_mode)})
        if info.st_size > MAX_NOTEBOOK_BYTES:
            return ("problem_too_large", {"size": _mib(info.st_size), "limit": _mib(MAX_NOTEBOOK_BYTES)})
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_NOTEBOOK_BYTES:
                return ("problem_too_large", {"size": f"> {_mib(MAX_NOTEBOOK_BYTES)}", "limit": _mib(MAX_NOTEBOOK_BYTES)})
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        return ("problem_unreadable", {"error": exc.strerror or str(exc)})
    finally:
        os.close(fd)


def _mib(n):
    return f"{n / 1048576:.0f}" if n >= 1048576 else f"{n / 1048576:.2f}"


def read_notebook(path, display=None, problem=None):
    """Parse ``path`` into a NotebookInfo; never raises for bad content."""
    info = NotebookInfo(path, display)
    if problem is not None:
        info.problem = problem
        return info
    raw = _read_bytes(path)
    if isinstance(raw, tuple):
        info.problem = raw
        return info
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        info.problem = ("problem_not_utf8", {"byte": f"{raw[exc.start]:02x}", "offset": exc.start})
        return info
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        where = ("problem_json_where", {"line": exc.lineno, "column": exc.colno}) if hasattr(exc, "lineno") else ""
        info.problem = ("problem_not_json", {"where": where})
        return info
    if not isinstance(data, dict) or not isinstance(data.get("cells", data.get("worksheets")), list):
        info.problem = ("problem_no_cells", {})
        return info
    cells = data.get("cells") if isinstance(data.get("cells"), list) else []
    metadata = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    if not isinstance(data.get("cells"), list):
        # an old format (v3 worksheets): let nbformat upgrade it.  Imported only here:
        # importing nbformat costs seconds (jsonschema), and v4 needs no conversion.
        try:
            import nbformat
            nb = nbformat.reads(text, as_version=4)
            cells, metadata = list(nb.cells), dict(nb.metadata)
        except Exception as exc:  # noqa: BLE001 - any failure of the converter is the file's problem
            info.problem = ("problem_old_format", {"error": f"{type(exc).__name__}: {exc}"[:200]})
            return info
    # past a limit the notebook is not graded, and its rows name the limit (in its language)
    too_many = len(cells) > MAX_CELLS
    too_long = None
    number = 0
    for cell in cells:
        if not isinstance(cell, dict):
            continue
        number += 1
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        if isinstance(source, list):
            source = "".join(s for s in source if isinstance(s, str))
        if not isinstance(source, str):
            continue
        if len(source) > MAX_CELL_CHARS:
            too_long = too_long or ("problem_cell_too_long",
                                    {"cell": number, "count": len(source), "limit": MAX_CELL_CHARS})
            source = ""
        cell_meta = cell.get("metadata")
        tags = cell_meta.get("tags") if isinstance(cell_meta, dict) else None
        tags = tuple(t for t in tags if isinstance(t, str)) if isinstance(tags, list) else ()
        info.cells.append((number, source, tags))
        if too_many and len(info.cells) >= 5:        # enough to find its language
            break
    info.metadata = metadata if isinstance(metadata, dict) else {}
    info.language = _language(info)
    if too_many or too_long:
        info.problem = ("problem_too_many_cells", {"count": len(cells), "limit": MAX_CELLS}) if too_many else too_long
        info.cells = []
        return info
    for _, source, _ in info.cells:
        info.defined |= top_level_functions(source)
    return info


def _language(info):
    for _, source, _ in info.cells[:5]:
        match = LANGUAGE_LINE.search(source[:20_000])
        if match:
            return match.group(1)
    meta = info.metadata.get("language")
    if isinstance(meta, str) and meta in LANGUAGES:
        return meta
    for part in reversed(pathlib.PurePath(info.display).parts[:-1]):
        if part in LANGUAGES:
            return part
    return None


def identify(info, notebooks):
    """Set ``info.stem`` to the course notebook it is.

    ``notebooks`` maps stem -> set of function names of its exercises.  In
    order: the notebook's metadata, its file name (exact stem, a stem inside a
    longer name such as ``alice-ex01_allowed_set (1).ipynb``, or the ``exNN``
    number), then the functions it defines.
    """
    meta = info.metadata if isinstance(info.metadata, dict) else {}
    for key in ("exercise_notebook", "course_notebook", "notebook"):
        value = meta.get(key)
        if isinstance(value, str) and value in notebooks:
            info.stem, info.how = value, "metadata"
            return info.stem
    name = info.name
    stem = name[:-6] if name.lower().endswith(".ipynb") else name
    stem = stem.strip(" .")
    if stem in notebooks:
        info.stem, info.how = stem, "file name"
        return stem
    inside = [s for s in notebooks if s.lower() in stem.lower()]
    if len(inside) == 1:
        info.stem, info.how = inside[0], "file name"
        return info.stem
    numbers = {int(m.group(1)) for m in _EX_TOKEN.finditer(stem)}
    by_number = [s for s in notebooks if any(int(m.group(1)) in numbers for m in _EX_TOKEN.finditer(s))]
    if len(by_number) == 1:
        info.stem, info.how = by_number[0], "exercise number in the file name"
        return info.stem
    if info.defined:
        scores = {s: len(info.defined & fns) for s, fns in notebooks.items()}
        best = max(scores.values(), default=0)
        winners = [s for s, n in scores.items() if n == best]
        if best > 0 and len(winners) == 1:
            info.stem, info.how = winners[0], "functions it defines"
            return info.stem
    return None
