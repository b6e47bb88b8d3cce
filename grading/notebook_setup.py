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
    #zh 缺少课程的代码：说明用哪条命令安装，而不是给出一段回溯；之后每次 check() 都会重复这条说明
    #en the course's code is missing: say which command installs it instead of a traceback; every check() repeats it
    #ru кода курса нет: вместо трассировки стека сообщить, какой командой его установить; каждый вызов check() это повторит
    MISSING = missing.name or "grading"

    def check(*args, **kwargs):
        command = f'pip install "{COURSE_PACKAGE}"' if COURSE_PACKAGE else "pip install -r requirements.txt"
        text = dict(
            zh=("本笔记本需要课程的代码，但找不到模块 {}。请在终端里运行下面这条命令，然后重启内核：",
                "本笔记本需要课程的代码，但找不到模块 {}。请在课程仓库的文件夹里打开终端，运行下面这条命令，然后重启内核："),
            en=("This notebook needs the course's code, but the module {} is missing. "
                "Run this command in a terminal, then restart the kernel:",
                "This notebook needs the course's code, but the module {} is missing. "
                "Open a terminal in the folder of the course's repository, run this command, then restart the kernel:"),
            ru=("Этому блокноту нужен код курса, но модуль {} не найден. "
                "Выполните в терминале эту команду и перезапустите ядро:",
                "Этому блокноту нужен код курса, но модуль {} не найден. "
                "Откройте терминал в папке репозитория курса, выполните эту команду и перезапустите ядро:"),
        )[COURSE_LANGUAGE][not COURSE_PACKAGE]
        print(text.format(MISSING) + "\n\n    " + command)

    check()
'''


def setup_cell(imports, after=""):
    """The cell's source: ``imports`` inside the guard, ``after`` once they worked."""
    body = textwrap.indent(textwrap.dedent(imports).strip("\n"), "    ") + "\n"
    rest = ""
    if after.strip():
        rest = "else:\n" + textwrap.indent(textwrap.dedent(after).strip("\n"), "    ") + "\n"
    return HEAD + body + TAIL + rest
