"""The first code cell of every exercise notebook, written once.

Each ``src/solutions/exNN_*.py`` writes it as ``code(setup_cell(IMPORTS, after=LINES))``.
It sets ``COURSE_LANGUAGE`` (the notebook builder turns ``{{lang}}`` into the
notebook's language, so ``check()`` answers in it wherever the notebook is
opened) and ``COURSE_PACKAGE`` (``{{course_package}}``: the ``pip install``
address of the course, from _config.yml's repository; see
tools/build_notebooks.py), then makes the imports.  When they fail, because
the notebook was downloaded and opened outside the course, the cell prints in
the notebook's language the one command that installs the course instead of a
traceback, and every later ``check()`` repeats it.  ``after`` holds lines that
need the imports: they run only when the imports worked.
"""

import textwrap

HEAD = r'''#zh check() 用这种语言回答；在课程之外打开本笔记本时，pip 从 COURSE_PACKAGE 安装课程的代码
#en check() answers in this language; opened outside the course, pip installs the course's code from COURSE_PACKAGE
#ru на этом языке отвечает check(); если блокнот открыт вне курса, pip установит код курса из COURSE_PACKAGE
COURSE_LANGUAGE, COURSE_PACKAGE = "{{lang}}", "{{course_package}}"

try:
'''

TAIL = r'''except ImportError as missing:
    #zh 缺少课程的代码：说明怎样用 %pip 安装（装进这个内核所用的 Python），而不是给出一段回溯；之后每次 check() 都会重复
    #en the course's code is missing: say how %pip installs it (into this kernel's own Python) instead of a traceback;
    #en every check() repeats it
    #ru кода курса нет: вместо трассировки сказать, как установить его через %pip (в Python этого ядра);
    #ru каждый вызов check() это повторит
    MISSING = missing.name or "grading"

    def check(*args, **kwargs):
        import os
        command = f'%pip install "{COURSE_PACKAGE}"'
        wheel = COURSE_PACKAGE[2:].split("[")[0] if COURSE_PACKAGE.startswith("./") else ""
        text = dict(
            zh=("本笔记本需要课程的代码，但找不到模块 {0}。在一个代码单元格里运行下面这一行，然后重启内核：",
                "本笔记本需要课程的代码，但找不到模块 {0}。请从课程网站上本页的下载菜单下载课程代码包 {1}，"
                "放进本笔记本所在的文件夹，然后在一个代码单元格里运行下面这一行，再重启内核："),
            en=("This notebook needs the course's code, but the module {0} is missing. "
                "Run this line in a code cell, then restart the kernel:",
                "This notebook needs the course's code, but the module {0} is missing. "
                "Download the course package {1} from the download menu of this notebook's page on the course site "
                "into the folder of this notebook, then run this line in a code cell and restart the kernel:"),
            ru=("Этому блокноту нужен код курса, но модуль {0} не найден. "
                "Выполните эту строку в ячейке кода и перезапустите ядро:",
                "Этому блокноту нужен код курса, но модуль {0} не найден. "
                "Скачайте пакет курса {1} из меню загрузки страницы этого блокнота на сайте курса в папку блокнота, "
                "затем выполните эту строку в ячейке кода и перезапустите ядро:"),
        )[COURSE_LANGUAGE][bool(wheel) and not os.path.exists(wheel)]
        print(text.format(MISSING, wheel) + "\n\n    " + command)

    check()
'''


def setup_cell(imports, after=""):
    """The cell's source: ``imports`` inside the guard, ``after`` once they worked."""
    body = textwrap.indent(textwrap.dedent(imports).strip("\n"), "    ") + "\n"
    rest = ""
    if after.strip():
        rest = "else:\n" + textwrap.indent(textwrap.dedent(after).strip("\n"), "    ") + "\n"
    return HEAD + body + TAIL + rest
