"""The grader's sentences in the course's three languages: everything a report row says
that is not about a test's values.

Messages about a test's result (wrong shape, wrong value, ...) come from
:mod:`grading.feedback`, the same texts ``check()`` prints in the notebook; the
ones here are about everything around it (a missing function, a crashed or
hung kernel, an unreadable file).  Each is a ``str.format`` template; a
reason inside another message (why a kernel stopped) is itself one of these
keys, so a Russian row never carries an English clause.
"""

from . import feedback

MESSAGES = {
    "passed": {
        "zh": "通过",
        "en": "passed",
        "ru": "пройдено",
    },
    "missing_function": {
        "zh": "笔记本中没有定义 {function}",
        "en": "the notebook does not define {function}",
        "ru": "в блокноте не определена функция {function}",
    },
    "not_callable": {
        "zh": "{function} 是{type}，不是函数",
        "en": "{function} is {type}, not a function",
        "ru": "{function} — это {type}, а не функция",
    },
    "missing_notebook": {
        "zh": "本次提交中没有笔记本 {notebook}.ipynb",
        "en": "no notebook {notebook}.ipynb in this submission",
        "ru": "в работе нет блокнота {notebook}.ipynb",
    },
    "empty_folder": {
        "zh": "这个文件夹里没有笔记本（*.ipynb）；{found}",
        "en": "no notebook (*.ipynb) in this folder; {found}",
        "ru": "в этой папке нет ни одного блокнота (*.ipynb); {found}",
    },
    "found_nothing": {
        "zh": "文件夹是空的",
        "en": "the folder is empty",
        "ru": "папка пуста",
    },
    "found_files": {
        "zh": "找到了 {count} 个其他文件，例如 {example}",
        "en": "found {count} other file(s), e.g. {example}",
        "ru": "найдено других файлов: {count}, например {example}",
    },
    "unknown_notebook": {
        "zh": "这不是本课程的练习笔记本（应为以下之一：{known}）",
        "en": "not an exercise notebook of this course (expected one of: {known})",
        "ru": "это не блокнот упражнений этого курса (ожидался один из: {known})",
    },
    "unrecognised_name": {
        "zh": "{name}：文件名看起来像笔记本，但不是以 .ipynb 结尾，没有评分",
        "en": "{name}: the name looks like a notebook's but does not end in .ipynb; not graded",
        "ru": "{name}: имя похоже на имя блокнота, но не оканчивается на .ipynb; не оценено",
    },
    "macos_metadata": {
        "zh": "{name}：这是 macOS 打包时附带的元数据文件，不是笔记本，已忽略",
        "en": "{name}: a metadata file that macOS adds to archives, not a notebook; ignored",
        "ru": "{name}: служебный файл, который macOS добавляет в архивы, а не блокнот; пропущен",
    },
    "unreadable": {
        "zh": "无法评分这个笔记本：{problem}",
        "en": "the notebook cannot be graded: {problem}",
        "ru": "блокнот нельзя оценить: {problem}",
    },
    "problem_too_large": {
        "zh": "文件有 {size} MiB，超过了评分程序对一个笔记本的大小上限（{limit} MiB）",
        "en": "the file is {size} MiB, more than the grader's size limit for a notebook ({limit} MiB)",
        "ru": "файл занимает {size} МиБ, больше предела системы оценивания для блокнота ({limit} МиБ)",
    },
    "problem_too_many_cells": {
        "zh": "笔记本有 {count} 个单元格，超过了评分程序的上限（{limit} 个单元格）",
        "en": "the notebook has {count} cells, more than the grader's limit of {limit} cells",
        "ru": "в блокноте {count} ячеек, больше предела системы оценивания ({limit} ячеек)",
    },
    "problem_cell_too_long": {
        "zh": "第 {cell} 个单元格有 {count} 个字符，超过了评分程序对一个单元格的上限（{limit} 个字符）",
        "en": "cell {cell} is {count} characters long, more than the grader's limit for one cell ({limit} characters)",
        "ru": "в ячейке {cell} {count} символов, больше предела системы оценивания для одной ячейки ({limit} символов)",
    },
    "problem_unreadable": {
        "zh": "无法读取这个文件（{error}）",
        "en": "the file cannot be read ({error})",
        "ru": "файл не удалось прочитать ({error})",
    },
    "problem_not_utf8": {
        "zh": "文件不是有效的 UTF-8（偏移 {offset} 处的字节 0x{byte}）；请在 Jupyter 中重新保存笔记本",
        "en": "the file is not valid UTF-8 (byte 0x{byte} at offset {offset}); save the notebook again from Jupyter",
        "ru": "файл не в кодировке UTF-8 (байт 0x{byte} по смещению {offset}); сохраните блокнот в Jupyter заново",
    },
    "problem_not_json": {
        "zh": "文件不是笔记本：它不是有效的 JSON{where}",
        "en": "the file is not a notebook: it is not valid JSON{where}",
        "ru": "файл не является блокнотом: это не корректный JSON{where}",
    },
    "problem_json_where": {
        "zh": "（第 {line} 行第 {column} 列）",
        "en": " (line {line}, column {column})",
        "ru": " (строка {line}, столбец {column})",
    },
    "problem_no_cells": {
        "zh": "文件是 JSON，但不是 Jupyter 笔记本（没有单元格列表）",
        "en": "the file is JSON but not a Jupyter notebook (no list of cells)",
        "ru": "файл в формате JSON, но это не блокнот Jupyter (нет списка ячеек)",
    },
    "problem_old_format": {
        "zh": "不支持这种笔记本格式（{error}）",
        "en": "the notebook format is not supported ({error})",
        "ru": "этот формат блокнота не поддерживается ({error})",
    },
    "problem_symlink": {
        "zh": "{name} 是一个符号链接，指向提交之外；请提交文件本身",
        "en": "{name} is a symbolic link to something outside the submission; hand in the file itself",
        "ru": "{name} — символическая ссылка за пределы работы; сдайте сам файл",
    },
    "problem_symlink_loop": {
        "zh": "{name} 是一个无法解析的符号链接（循环或断开）",
        "en": "{name} is a symbolic link that does not resolve (a loop or a broken link)",
        "ru": "{name} — символическая ссылка, которая никуда не ведёт (цикл или обрыв)",
    },
    "problem_not_regular": {
        "zh": "{name} 不是普通文件（而是{what}），没有读取",
        "en": "{name} is not a regular file but {what}; not read",
        "ru": "{name} — не обычный файл, а {what}; не прочитан",
    },
    "what_fifo": {"zh": "命名管道", "en": "a named pipe (FIFO)", "ru": "именованный канал (FIFO)"},
    "what_device": {"zh": "设备文件", "en": "a device file", "ru": "файл устройства"},
    "what_socket": {"zh": "套接字", "en": "a socket", "ru": "сокет"},
    "what_folder": {"zh": "文件夹", "en": "a folder", "ru": "папка"},
    "what_other": {"zh": "特殊文件", "en": "a special file", "ru": "специальный файл"},
    "folder_symlink": {
        "zh": "拒绝评分：学生文件夹 {name} 本身是一个符号链接",
        "en": "refused: the student folder {name} is itself a symbolic link",
        "ru": "отказано: папка студента {name} сама является символической ссылкой",
    },
    "path_symlink": {
        "zh": "拒绝评分：{name} 是一个符号链接（指向 {target}）；评分程序不跟随学生提交中的链接，请给出它指向的文件夹本身",
        "en": "refused: {name} is a symbolic link (to {target}); the grader does not follow links in what students "
              "hand in, so give the folder it points to instead",
        "ru": "отказано: {name} — символическая ссылка (на {target}); система оценивания не следует по ссылкам в "
              "сданных работах, укажите саму папку, на которую она ведёт",
    },
    "link_outside": {
        "zh": "拒绝评分：提交中的 {name} 是一个符号链接，指向提交之外（{target}）；整份提交不计分",
        "en": "refused: {name} in this submission is a symbolic link to something outside it ({target}); "
              "the whole submission gets no points",
        "ru": "отказано: {name} в этой работе — символическая ссылка за её пределы ({target}); вся работа "
              "не засчитывается",
    },
    "too_deep": {
        "zh": "{name} 下的文件夹嵌套超过 {depth} 层，更深的部分没有搜索",
        "en": "folders under {name} are nested deeper than {depth} levels; the deeper part was not searched",
        "ru": "папки внутри {name} вложены глубже {depth} уровней; глубже поиск не шёл",
    },
    "too_many_files": {
        "zh": "{name} 中的文件超过 {count} 个，其余的没有搜索",
        "en": "{name} holds more than {count} files; the rest were not searched",
        "ru": "в {name} больше {count} файлов; остальные не просматривались",
    },
    "duplicate_ignored": {
        "zh": "没有评分：本练习集只评一个笔记本，评的是 {graded}",
        "en": "not graded: one notebook per exercise set is graded, and it is {graded}",
        "ru": "не оценено: из каждого набора упражнений оценивается один блокнот, и это {graded}",
    },
    "also_handed_in": {
        "zh": "（同一练习集另有 {count} 个笔记本没有评分：{names}）",
        "en": "(also handed in for this exercise set and not graded: {names})",
        "ru": "(для этого набора сданы ещё блокноты, они не оценивались: {names})",
    },
    "also_handed_in_many": {
        "zh": "（同一练习集另有 {count} 个笔记本没有评分，例如 {names}）",
        "en": "(also handed in for this exercise set and not graded: {count} notebooks, e.g. {names})",
        "ru": "(для этого набора сданы ещё блокноты, они не оценивались: {count}, например {names})",
    },
    "case_timeout": {
        "zh": "测试“{case}”没有在 {seconds} 秒内完成",
        "en": "the test “{case}” did not finish within {seconds} s",
        "ru": "тест «{case}» не завершился за {seconds} с",
    },
    "total_timeout": {
        "zh": "本次提交用完了总时限 {seconds} 秒",
        "en": "the submission used up its total time limit of {seconds} s",
        "ru": "работа исчерпала общий лимит времени {seconds} с",
    },
    "kernel_died": {
        "zh": "{function} 运行测试时内核停止了：{reason}",
        "en": "{function}: the kernel stopped while the tests ran: {reason}",
        "ru": "{function}: ядро остановилось во время прогона тестов: {reason}",
    },
    "kernel_failed": {
        "zh": "无法运行这个笔记本：{reason}",
        "en": "the notebook could not be run: {reason}",
        "ru": "блокнот не удалось выполнить: {reason}",
    },
    "call_failed": {
        "zh": "评分程序无法调用 {function}：{error}",
        "en": "the grader could not call {function}: {error}",
        "ru": "системе оценивания не удалось вызвать {function}: {error}",
    },
    "no_result": {
        "zh": "测试“{case}”没有返回可读的结果",
        "en": "the test “{case}” returned no readable result",
        "ru": "тест «{case}» не вернул результата, который можно прочитать",
    },
    "invalid_result": {
        "zh": "笔记本的代码送回了格式错误的结果（{problem}）",
        "en": "the notebook's code sent back a malformed result ({problem})",
        "ru": "код блокнота вернул результат в неверном формате ({problem})",
    },
    "result_too_large": {
        "zh": "结果太大，评分程序不接收",
        "en": "the result is too large for the grader to receive",
        "ru": "результат слишком велик, система оценивания его не принимает",
    },
    "record_missing": {
        "zh": "测试“{case}”没有记录",
        "en": "no record for the test “{case}”",
        "ru": "нет записи для теста «{case}»",
    },
    "record_malformed": {
        "zh": "记录的格式不对",
        "en": "a record has the wrong form",
        "ru": "запись имеет неверный вид",
    },
    "record_undecodable": {
        "zh": "结果无法解码",
        "en": "a result cannot be decoded",
        "ru": "результат не удаётся декодировать",
    },
    "setup_in_kernel": {
        "zh": "笔记本的内核里无法搭建这个测试的模型（{error}）；笔记本是否改动了 numpy 或 lib？",
        "en": "the test's models could not be built in the notebook's kernel ({error}); did the notebook change numpy or lib?",
        "ru": "в ядре блокнота не удалось построить модели этого теста ({error}); не изменял ли блокнот numpy или lib?",
    },
    "relies_on_reference": {
        "zh": "{function} 离不开库中的参考实现 {name}：评分时库里的参考实现被拿掉后，它没有通过这些测试。"
              "本练习要求在笔记本里亲手写出它，这一题不计分",
        "en": "{function} relies on the library's reference implementation {name}: graded with the library's "
              "reference answers withheld, it failed these tests; this exercise asks you to write it in the "
              "notebook, so it gets no points",
        "ru": "{function} опирается на эталонную реализацию из библиотеки ({name}): при оценивании, когда "
              "эталонные ответы библиотеки недоступны, она не прошла эти тесты; в упражнении её нужно написать "
              "в блокноте самому, поэтому задача не засчитывается",
    },
    "hidden_definition": {
        "zh": "笔记本源代码里看不到的定义（例如 exec 或魔法命令）",
        "en": "a definition the notebook's source does not show (exec, a magic command, ...)",
        "ru": "определения, которого нет в исходном коде блокнота (exec, магическая команда и т. п.)",
    },
    "cell_error_hint": {
        "zh": "第 {cell} 个单元格抛出了 {error}",
        "en": "cell {cell} raised {error}",
        "ru": "ячейка {cell} выбросила исключение {error}",
    },
    "cell_skipped_hint": {
        "zh": "第 {cell} 个单元格被跳过：{reason}",
        "en": "cell {cell} was skipped: {reason}",
        "ru": "ячейка {cell} пропущена: {reason}",
    },
    "interrupted_after": {
        "zh": "运行 {seconds} 秒后被中断",
        "en": "interrupted after {seconds} s",
        "ru": "прервана через {seconds} с",
    },
    "ignored_interrupt": {
        "zh": "运行超过 {seconds} 秒，并且不理会中断",
        "en": "it ran longer than {seconds} s and ignored the interrupt",
        "ru": "выполнялась дольше {seconds} с и не реагировала на прерывание",
    },
    "gave_up": {
        "zh": "启动了 {count} 个内核后放弃（{reasons}）",
        "en": "gave up after {count} kernels ({reasons})",
        "ru": "после {count} запусков ядра система оценивания остановилась ({reasons})",
    },
    "exit_student": {
        "zh": "笔记本的代码结束了内核进程（os._exit({code}) 或类似的调用）",
        "en": "the notebook's code ended the kernel process (os._exit({code}) or the like)",
        "ru": "код блокнота завершил процесс ядра (os._exit({code}) или подобный вызов)",
    },
    "exit_signal": {
        "zh": "内核崩溃了（{signal}：{what}）",
        "en": "the kernel crashed ({signal}: {what})",
        "ru": "ядро аварийно завершилось ({signal}: {what})",
    },
    "exit_memory": {
        "zh": "本次提交的所有进程合计超出了 {limit} MiB 的内存限制，内核被终止",
        "en": "the submission's processes together went over the memory limit of {limit} MiB; the kernel was killed",
        "ru": "процессы работы вместе превысили лимит памяти {limit} МиБ; ядро остановлено",
    },
    "exit_killed": {
        "zh": "内核被终止了（可能是内存或 CPU 时间用完）",
        "en": "the kernel was killed (out of memory or CPU time, probably)",
        "ru": "ядро было остановлено (вероятно, закончилась память или процессорное время)",
    },
    "exit_gone": {
        "zh": "内核停止了",
        "en": "the kernel stopped",
        "ru": "ядро остановилось",
    },
    "start_timeout": {
        "zh": "内核没有在 {seconds} 秒内启动",
        "en": "the kernel did not start within {seconds} s",
        "ru": "ядро не запустилось за {seconds} с",
    },
    "sandbox_failed": {
        "zh": "评分沙箱没能启动（{detail}）；这不是学生的错误",
        "en": "the grading sandbox did not start ({detail}); this is not the student's fault",
        "ru": "песочница системы оценивания не запустилась ({detail}); это не ошибка студента",
    },
    "interrupted": {
        "zh": "没有评分：评分程序被中断",
        "en": "not graded: the grader was interrupted",
        "ru": "не оценено: работа системы оценивания была прервана",
    },
    "internal": {
        "zh": "评分程序内部错误（{error}），这不是学生的错误",
        "en": "internal grader error ({error}); this is not the student's fault",
        "ru": "внутренняя ошибка системы оценивания ({error}); это не ошибка студента",
    },
    # -- feedback pages and the instructor's index --------------------------------------
    "page_title": {
        "zh": "评分反馈：{submission}",
        "en": "Feedback: {submission}",
        "ru": "Отзыв о работе: {submission}",
    },
    "page_total": {
        "zh": "总分：{points} / {max_points}",
        "en": "Total: {points} of {max_points} points",
        "ru": "Итого баллов: {points} из {max_points}",
    },
    "page_row_points": {"zh": "得分 {points} / {max_points}", "en": "points: {points} of {max_points}",
                        "ru": "баллов: {points} из {max_points}"},
    "page_row_tests": {"zh": "通过 {passed} / {total} 个测试", "en": "{passed} of {total} tests passed",
                       "ru": "пройдено тестов: {passed} из {total}"},
    "page_exercise": {"zh": "练习", "en": "Exercise", "ru": "Упражнение"},
    "page_status": {"zh": "状态", "en": "Status", "ru": "Статус"},
    "page_points": {"zh": "得分", "en": "Points", "ru": "Баллы"},
    "page_tests": {"zh": "通过的测试", "en": "Tests passed", "ru": "Пройдено тестов"},
    "page_notebook": {"zh": "笔记本", "en": "Notebook", "ru": "Блокнот"},
    "page_hidden": {"zh": "隐藏测试", "en": "hidden test", "ru": "скрытый тест"},
    "page_public": {"zh": "公开测试", "en": "public test", "ru": "открытый тест"},
    "page_reproduce": {"zh": "如何重现", "en": "To reproduce", "ru": "Как воспроизвести"},
    "page_hidden_note": {
        "zh": "隐藏测试只说明哪一项性质没有满足，不给出它的数据；公开测试给出期望值与实际值。",
        "en": "Public tests show the expected and the actual value; hidden tests say which property failed, never their data.",
        "ru": "Для открытых тестов показаны ожидаемое и полученное значения; о скрытых сказано, какое свойство не выполнено, но не их данные.",
    },
    "page_row_groups": {"zh": "通过 {passed} / {total} 个测试组", "en": "{passed} of {total} test groups passed",
                        "ru": "пройдено групп тестов: {passed} из {total}"},
    "page_scoring": {
        "zh": "计分方法：一道练习的全部测试（公开测试和隐藏测试）都通过，才得到这道练习的分数；只要有一个测试没有通过，"
              "这道练习就得 0 分。",
        "en": "How points are earned: an exercise earns its points when all its tests, public and hidden, pass; "
              "a single failed test leaves it at 0 points.",
        "ru": "Как начисляются баллы: упражнение получает свои баллы, только если пройдены все его тесты, открытые "
              "и скрытые; один непройденный тест оставляет его с 0 баллов.",
    },
    "page_scoring_partial": {
        "zh": "计分方法（部分得分）：每道练习的分数平均分给它的测试组：每个公开测试是一组，同一类隐藏测试合为一组；"
              "一组的测试全部通过，就得到这一份分数。如果测试中途停止（超时或内核退出），停止之前已经全部通过的组"
              "照样得分，含有未运行测试的组不得分。",
        "en": "How points are earned (partial credit): an exercise's points are split equally over its test "
              "groups, where every public test is a group and all hidden tests of one kind are one; a group earns "
              "its share when all its tests pass. When the tests stop early (a time-out, a kernel that died), "
              "the groups that passed in full before the stop keep their share; a group with a test that never "
              "ran earns nothing.",
        "ru": "Как начисляются баллы (частичный зачёт): баллы упражнения поровну делятся между группами тестов — "
              "каждый открытый тест составляет группу, все скрытые тесты одного вида тоже; группа приносит свою "
              "долю, когда пройдены все её тесты. Если тесты остановились раньше времени (превышено время, ядро "
              "завершилось), группы, полностью пройденные до остановки, сохраняют свою долю, а группа с "
              "невыполненным тестом не получает ничего.",
    },
    "index_diagnoses": {"zh": "常见错误", "en": "Known mistakes in this class", "ru": "Типичные ошибки в группе"},
    "index_diagnosis": {
        "zh": "{id}：{total} 名学生中有 {count} 名{what}",
        "en": "{id}: {count} of {total} students: {what}",
        "ru": "{id}: {count} из {total} студентов — {what}",
    },
    "page_other": {"zh": "其他文件", "en": "Other files", "ru": "Другие файлы"},
    "page_footer": {
        "zh": "评分程序 {version}，课程版本 {course}，随机种子 {seed}",
        "en": "grader {version}, course version {course}, random seed {seed}",
        "ru": "система оценивания {version}, версия курса {course}, seed {seed}",
    },
    "page_incomplete": {
        "zh": "评分没有完成：有些练习没有评分。",
        "en": "Grading did not finish: some exercises were not graded.",
        "ru": "Оценивание не завершено: часть упражнений не оценена.",
    },
    "index_title": {"zh": "评分总览", "en": "Grading overview", "ru": "Сводка оценок"},
    "index_submission": {"zh": "提交", "en": "Submission", "ru": "Работа"},
    "index_language": {"zh": "语言", "en": "Language", "ru": "Язык"},
    "index_pages": {"zh": "反馈页面", "en": "Feedback page", "ru": "Страница отзыва"},
    "index_isolation": {"zh": "隔离", "en": "Isolation", "ru": "Изоляция"},
    "status_pass": {"zh": "通过", "en": "passed", "ru": "пройдено"},
    "status_fail": {"zh": "未通过", "en": "failed", "ru": "не пройдено"},
    "status_error": {"zh": "出错", "en": "error", "ru": "ошибка"},
    "status_timeout": {"zh": "超时", "en": "timed out", "ru": "превышено время"},
    "status_missing": {"zh": "未提交", "en": "not handed in", "ru": "не сдано"},
}

# -- the instructor's workflow: copies of a notebook, damaged files, unfinished cells, Gradescope (issue 22) --
MESSAGES.update({
    "duplicates_newest": {
        "zh": "评分的是最后修改的那一份：{graded}。",
        "en": "The most recently modified copy was graded: {graded}.",
        "ru": "Оценена копия, изменённая последней: {graded}.",
    },
    "duplicates_newest_tied": {
        "zh": "几份文件的修改时间无法区分，评分的是 {graded}（按文件名选出）；请老师确认。",
        "en": "The copies were modified at the same time, so {graded} was graded (chosen by name); "
              "the instructor should check.",
        "ru": "Копии изменены одновременно, поэтому оценена {graded} (выбрана по имени); преподавателю стоит проверить.",
    },
    "duplicates_best": {
        "zh": "每一份都评了分，计入得分最高的一份：{graded}。",
        "en": "Every copy was graded and the best one counts: {graded}.",
        "ru": "Оценены все копии, засчитана лучшая: {graded}.",
    },
    "duplicates_best_tied": {
        "zh": "每一份都评了分，计入得分最高的一份：{graded}。",
        "en": "Every copy was graded and the best one counts: {graded}.",
        "ru": "Оценены все копии, засчитана лучшая: {graded}.",
    },
    "duplicates_undecided": {
        "zh": "本练习集交了 {count} 个笔记本（{names}），没有评分：由老师决定评哪一个",
        "en": "{count} notebooks were handed in for this exercise set ({names}); none was graded: "
              "the instructor decides which one counts",
        "ru": "для этого набора сдано блокнотов: {count} ({names}); ни один не оценён: "
              "какой из них засчитать, решает преподаватель",
    },
    "damaged_notebook": {
        "zh": "{name}：文件已损坏或不完整（{problem}）。请在 Jupyter 中打开它，保存后重新提交；"
              "如果 Jupyter 也打不开，请提交你最后一份完好的副本",
        "en": "{name}: the file is damaged or truncated ({problem}). Open it in Jupyter, save it and hand it in "
              "again; if Jupyter cannot open it either, hand in your last good copy",
        "ru": "{name}: файл повреждён или обрезан ({problem}). Откройте его в Jupyter, сохраните и сдайте заново; "
              "если Jupyter его тоже не открывает, сдайте последнюю исправную копию",
    },
    "damaged_see_note": {
        "zh": "没有评分：{name} 已损坏（见下方说明）",
        "en": "not graded: {name} is damaged (see below)",
        "ru": "не оценено: файл {name} повреждён (см. ниже)",
    },
    "cell_never_finished": {
        "zh": "第 {cell} 个单元格在 {seconds} 秒内没有运行完，被中断并跳过：你的笔记本不能从头到尾顺利运行",
        "en": "cell {cell} did not finish within {seconds} s and was skipped: your notebook does not run "
              "from top to bottom",
        "ru": "ячейка {cell} не завершилась за {seconds} с и была пропущена: блокнот не выполняется "
              "целиком сверху вниз",
    },
    "nothing_gradable": {
        "zh": "这次上传中没有可以评分的笔记本（需要 {expected}）。{found}。请上传 .ipynb 文件本身",
        "en": "This upload holds no notebook that can be graded (expected {expected}). {found}. "
              "Upload the .ipynb file itself",
        "ru": "В этой загрузке нет блокнота, который можно оценить (ожидался {expected}). {found}. "
              "Загрузите сам файл .ipynb",
    },
    "index_legend": {"zh": "图例", "en": "Legend", "ru": "Обозначения"},
    "index_max": {"zh": "满分", "en": "Maximum", "ru": "Максимум"},
    "index_pass_rate": {"zh": "通过率", "en": "Passed", "ru": "Доля сдавших"},
    "index_mean": {"zh": "平均分", "en": "Mean", "ru": "Среднее"},
    "index_median": {"zh": "中位数", "en": "Median", "ru": "Медиана"},
    "index_flags": {"zh": "需要留意", "en": "Check", "ru": "Проверить"},
    "index_histogram": {"zh": "总分分布", "en": "Distribution of totals", "ru": "Распределение итоговых баллов"},
    "index_students": {"zh": "人数", "en": "students", "ru": "студентов"},
    "flag_duplicates": {"zh": "同一练习集交了多个笔记本", "en": "several notebooks for one exercise set",
                        "ru": "несколько блокнотов для одного набора"},
    "flag_ambiguous": {"zh": "无法确定该评哪一个", "en": "which one to grade could not be decided",
                       "ru": "не удалось решить, какой оценивать"},
    "flag_late": {"zh": "迟交", "en": "handed in late", "ru": "сдано с опозданием"},
    "rubric_title": {"zh": "评分细则", "en": "Rubric", "ru": "Критерии оценивания"},
    "rubric_notebook": {"zh": "笔记本", "en": "Notebook", "ru": "Блокнот"},
    "rubric_function": {"zh": "函数", "en": "Function", "ru": "Функция"},
    "rubric_title_col": {"zh": "内容", "en": "Title", "ru": "Что проверяется"},
    "rubric_tests": {"zh": "公开测试 / 隐藏测试", "en": "Public / hidden tests", "ru": "Открытые / скрытые тесты"},
    "rubric_total": {"zh": "合计", "en": "Total", "ru": "Итого"},
    "rubric_groups": {"zh": "测试组", "en": "test groups", "ru": "группы тестов"},
    "rubric_rule": {
        "zh": "一道练习的所有测试都通过才得分。",
        "en": "An exercise earns its points when all its tests pass.",
        "ru": "Упражнение приносит баллы, когда пройдены все его тесты.",
    },
    "late_by": {
        "zh": "迟交 {hours} 小时",
        "en": "late by {hours} h",
        "ru": "опоздание на {hours} ч",
    },
})

# What a signal that ended a kernel means, for "exit_signal".
SIGNALS = {
    "SIGSEGV": {"zh": "段错误", "en": "segmentation fault", "ru": "ошибка сегментации"},
    "SIGBUS": {"zh": "总线错误", "en": "bus error", "ru": "ошибка шины"},
    "SIGABRT": {"zh": "异常中止", "en": "aborted", "ru": "аварийное прерывание"},
    "SIGFPE": {"zh": "算术错误", "en": "arithmetic error", "ru": "арифметическая ошибка"},
    "SIGILL": {"zh": "非法指令", "en": "illegal instruction", "ru": "недопустимая инструкция"},
    "SIGXCPU": {"zh": "CPU 时间用完", "en": "CPU time limit", "ru": "исчерпано процессорное время"},
    "SIGXFSZ": {"zh": "文件大小超限", "en": "file size limit", "ru": "превышен размер файла"},
    "SIGTERM": {"zh": "被终止", "en": "terminated", "ru": "завершено"},
    "SIGKILL": {"zh": "被强制终止", "en": "killed", "ru": "принудительно остановлено"},
}


def text(key, lang, **fields):
    """The grader message ``key`` (or, if it is not one, the feedback message) in ``lang``."""
    if key not in MESSAGES:
        return feedback.message(key, lang, **fields)
    return feedback.fill(MESSAGES, key, lang, fields)


def reason(value, lang):
    """A reason given as ``(key, fields)`` (or plain text) in ``lang``."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], dict):
        key, fields = value
        fields = {k: reason(v, lang) if isinstance(v, tuple) else v for k, v in fields.items()}
        if key == "exit_signal" and "signal" in fields:
            names = SIGNALS.get(fields["signal"])
            fields.setdefault("what", (names or {}).get(lang) or (names or {}).get("en") or fields["signal"])
        return text(key, lang, **fields)
    return str(value)
