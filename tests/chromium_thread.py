"""Headless Chromium for browser tests, driven from a thread of its own.

Playwright's sync API allows one running instance per thread. tests/test_site.py
starts one in the main thread of a pytest worker, and pytest-xdist may put
several browser test files into the same worker; a second instance in the same
thread fails ("Playwright Sync API inside the asyncio loop"). Each user of this
module gets its own thread, so the instances never meet.

The policy is every test's (tests/conftest.py): without the Python package playwright,
Debian's chromium or the CJK font the tests skip naming what is missing, except under
CI=true, where they fail.
"""

from __future__ import annotations

import concurrent.futures
import queue
import threading

from conftest import browser_executable, unavailable

CHECK_TIMEOUT = 300     # s: one check of a page (a few seconds, slower on a loaded machine)
START_TIMEOUT = 120     # s: starting or closing the browser
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--no-first-run", "--disable-quic", "--disable-sync", "--disable-dev-shm-usage"]


class Chromium:
    """``run(check)`` calls ``check(browser)`` in the browser's thread and returns its result
    (an assertion error raised there is raised here).

    Every call is bounded: a check still running after its timeout fails its test (the calls
    after it wait behind it and fail the same way if it never returns), and the thread is a
    daemon, so a browser stuck in a check cannot keep the test process from ending."""

    def __init__(self, executable: str):
        self._jobs = queue.Queue()
        self._thread = threading.Thread(target=self._serve, name="chromium", daemon=True)
        self._thread.start()
        self._manager = self._browser = None
        self._call(self._start, executable, timeout=START_TIMEOUT)

    def _serve(self):
        while (job := self._jobs.get()) is not None:
            function, args, future = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(function(*args))
            except BaseException as exc:          # handed to the caller
                future.set_exception(exc)

    def _call(self, function, *args, timeout: float):
        future = concurrent.futures.Future()
        self._jobs.put((function, args, future))
        try:
            return future.result(timeout=timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise TimeoutError(f"the browser call {getattr(function, '__name__', function)} "
                               f"took more than {timeout} s") from None

    def _start(self, executable):
        from playwright.sync_api import sync_playwright
        self._manager = sync_playwright().start()
        try:
            self._browser = self._manager.chromium.launch(executable_path=executable, args=FLAGS)
        except Exception:
            self._manager.stop()
            raise

    def run(self, check, *args, timeout: float = CHECK_TIMEOUT):
        return self._call(check, self._browser, *args, timeout=timeout)

    def close(self):
        def stop():
            self._browser.close()
            self._manager.stop()
        try:
            self._call(stop, timeout=START_TIMEOUT)
        except TimeoutError:
            pass                                   # stuck in a check: the daemon thread ends with the process
        self._jobs.put(None)


def start() -> Chromium:
    executable = browser_executable("the browser tests of the site")
    try:
        return Chromium(executable)
    except Exception as exc:
        unavailable(f"chromium at {executable} does not start ({exc})")
