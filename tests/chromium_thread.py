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

from conftest import browser_executable, unavailable

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--no-first-run", "--disable-quic", "--disable-sync", "--disable-dev-shm-usage"]


class Chromium:
    """``run(check)`` calls ``check(browser)`` in the browser's thread and returns its result
    (an assertion error raised there is raised here)."""

    def __init__(self, executable: str):
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="chromium")
        self._manager = self._browser = None
        self._pool.submit(self._start, executable).result()

    def _start(self, executable):
        from playwright.sync_api import sync_playwright
        self._manager = sync_playwright().start()
        try:
            self._browser = self._manager.chromium.launch(executable_path=executable, args=FLAGS)
        except Exception:
            self._manager.stop()
            raise

    def run(self, check, *args):
        return self._pool.submit(check, self._browser, *args).result()

    def close(self):
        def stop():
            self._browser.close()
            self._manager.stop()
        self._pool.submit(stop).result()
        self._pool.shutdown()


def start() -> Chromium:
    executable = browser_executable("the browser tests of the site")
    try:
        return Chromium(executable)
    except Exception as exc:
        unavailable(f"chromium at {executable} does not start ({exc})")
