"""One sandboxed IPython kernel, driven by jupyter_client over ZeroMQ ipc sockets.

The grader is a :class:`jupyter_client.BlockingKernelClient` with only two
channels open, shell and control (signed messages).  The kernel's IOPub
stream (prints, plots) is never subscribed: whatever a student prints is
dropped by ZeroMQ inside the kernel process, so a flood of output costs the
grader nothing.  That is why the client's own helpers that read IOPub
(``wait_for_ready``, ``execute_interactive``, ``stop_channels``) are not used
here.  Replies bigger than :data:`MAX_MESSAGE` are refused by ZeroMQ itself
(``MAXMSGSIZE``, a default of the client's ZeroMQ context).  Results of the
exercise calls do not travel in messages either, but in files of the
kernel's I/O folder (see runner).

The kernel is not started by jupyter_client's KernelManager: bwrap starts it
(see sandbox.py), and the sockets it binds live in the sandbox's own tmpfs,
reached from outside through ``/proc/<PID 1 of the sandbox>/root``.  ipc (Unix
domain) sockets cross the kernel's network namespace, in which not even
loopback TCP reaches the grader.
"""

import json
import os
import pathlib
import secrets
import shutil
import signal
import subprocess
import time
from queue import Empty

import zmq
from jupyter_client import BlockingKernelClient

from .sandbox import SandboxError, children, exit_status

try:
    import psutil
except ImportError:                       # optional: only mode none needs it, to kill what left the group
    psutil = None

MAX_MESSAGE = 8 * 1024 * 1024
# Run in every kernel before any of the student's code: nearly every notebook imports NumPy, and a
# kernel started ahead (runner.Prestart) pays for it while the run before it works.  It binds no
# name in the notebook's namespace and, like the kernel's own start, never imports ``lib``.
WARM_UP = "__import__('numpy')"
_CONTEXT = None


def _context():
    """The ZeroMQ context of every kernel client: its sockets refuse oversized messages."""
    global _CONTEXT
    if _CONTEXT is None:
        context = zmq.Context()
        context.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE)
        context.setsockopt(zmq.RECONNECT_IVL, 20)
        _CONTEXT = context
    return _CONTEXT


class ExecResult:
    """What came of one execute_request."""

    __slots__ = ("status", "ename", "evalue", "traceback", "seconds")

    def __init__(self, status, ename="", evalue="", traceback=(), seconds=0.0):
        self.status = status           # ok | error | timeout | died
        self.ename, self.evalue = ename, evalue
        self.traceback = list(traceback)
        self.seconds = seconds

    def __repr__(self):
        return f"ExecResult({self.status}, {self.ename}: {self.evalue[:60]!r}, {self.seconds:.2f}s)"


class KernelDied(RuntimeError):
    pass


class Kernel:
    """Start with :meth:`start`, always finish with :meth:`kill`."""

    def __init__(self, sandbox, lang=None, group=None, packages=None):
        self.sandbox = sandbox
        self.lang = lang
        self.packages = packages           # the folder of the lib and grading it gets (None: the usual)
        self.group = group                 # the submission's control group (cgroups.Group) or None
        self.oom_before = 0
        self.kdir = None
        self.proc = None
        self.launch = None                 # how it was started (sandbox.Launch)
        self.client = None
        self.ready = False                 # answered its first request: no code of the student ran before
        self.started = None
        self._pending = None
        self._killed = False
        self.io_dir = None
        self.grader_file = None            # the file of the runner's code for the calls in the input folder (runner)

    # -- life cycle --------------------------------------------------------

    def start(self, timeout=60):
        self.kdir = self.sandbox.new_kernel_dir()
        launch = self.launch = self.sandbox.launch_command(self.kdir, self.lang, self.group, self.packages)
        self.oom_before = self.group.oom_kills() if self.group is not None else 0
        key = secrets.token_hex(32)
        ports = {"shell_port": 1, "iopub_port": 2, "stdin_port": 3, "control_port": 4, "hb_port": 5}
        inside = {"transport": "ipc", "ip": f"{launch.inside_io}/k", "key": key,
                  "signature_scheme": "hmac-sha256", "kernel_name": "", **ports}
        conn_path = self.kdir / "in" / "kernel.json"
        with open(conn_path, "w", encoding="utf-8") as f:
            json.dump(inside, f)
        conn_path.chmod(0o644)
        self.started = time.monotonic()
        self.proc = self.sandbox.spawn(self.kdir, launch)
        with self.sandbox._lock:
            self.sandbox.live.add(self)
        if launch.mode == "none":
            self.io_dir = str(self.kdir / "io")
        else:
            pid1 = self._sandbox_init(deadline=time.monotonic() + timeout)
            if launch.warm is not None:
                try:
                    self.sandbox.fork_in(self.proc, launch, time.monotonic() + timeout)
                except SandboxError as exc:
                    raise KernelDied(("sandbox_failed", {"detail": str(exc)})) from None
            # the sandbox's own /grader/io, seen from outside through its PID 1's root
            self.io_dir = f"/proc/{pid1}/root{launch.inside_io}"
        self.client = BlockingKernelClient(context=_context())
        self.client.load_connection_info({**inside, "ip": f"{self.io_dir}/k"})
        self.client.session.username = "grader"
        self.client.start_channels(shell=True, iopub=False, stdin=False, hb=False, control=True)
        self._wait_ready(timeout)
        return self

    def _sandbox_init(self, deadline):
        """Host PID of the sandbox's PID 1 (the only child of bwrap)."""
        while True:
            found = children(self.proc.pid)
            if found:
                return found[0]
            if self.proc.poll() is not None:
                raise KernelDied(self.describe_exit())
            if time.monotonic() > deadline:
                raise KernelDied(("sandbox_failed", {"detail": "no PID 1"}))
            time.sleep(0.002)

    def io_path(self, name):
        """A file of the kernel's I/O folder, as the grader reaches it (None before start)."""
        return None if self.io_dir is None else pathlib.Path(self.io_dir) / name

    def _wait_ready(self, timeout):
        """Wait for the kernel's first answer, then for its warm-up (:data:`WARM_UP`)."""
        deadline = time.monotonic() + timeout
        self._await_reply(self.client.kernel_info(), deadline, timeout)
        self.ready = True
        warm_up = self.client.execute(WARM_UP, silent=True, store_history=False, allow_stdin=False)
        self._await_reply(warm_up, deadline, timeout)

    def _await_reply(self, msg_id, deadline, timeout):
        if self._recv(self.client.shell_channel, msg_id, deadline) is None:
            if not self.alive():
                raise KernelDied(self.describe_exit())
            raise KernelDied(("start_timeout", {"seconds": f"{timeout:.0f}"}))

    def alive(self):
        return self.exit_code() is None and self.proc is not None

    def exit_code(self):
        """The kernel's exit status (as bwrap gives it: the code, or 128 + the signal), or None.
        A warm start's kernel (sandbox.WarmStarter) has one as soon as the child that forked it
        has written it: its sandbox stays, with what the kernel wrote, until :meth:`kill`."""
        code = None if self.proc is None else self.proc.poll()
        if self.launch is not None and self.launch.warm is not None:
            said = exit_status(self.kdir)
            if said:
                return int(said)
        return code

    def describe_exit(self):
        """Why the kernel is gone, as ``(message key, fields)`` of grading.messages.

        A kernel that never answered its first request never ran any of the student's code:
        the sandbox could not start it (the grader's problem; bootstrap.log holds what bwrap
        or setpriv said).  Otherwise bwrap exits with the kernel's status, or 128 + the
        signal that ended it: a notebook that exits with a status above 128 itself is
        reported as ended by that signal.
        """
        code = self.exit_code()
        if code is None:
            return ("exit_gone", {})
        if self.group is not None and self.group.oom_kills() > self.oom_before:
            return ("exit_memory", {"limit": self.sandbox.limits.memory_mb})
        if not self.ready:
            return ("sandbox_failed", {"detail": self.log_tail() or f"exit status {code}"})
        if 0 <= code <= 128:
            return ("exit_student", {"code": code})
        sig = -code if code < 0 else code - 128
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"signal {sig}"
        if name == "SIGKILL":
            return ("exit_killed", {})
        return ("exit_signal", {"signal": name})

    def log_tail(self, n=600):
        chunks = []
        for path in (self.kdir / "bootstrap.log", self.io_path("kernel.log")):
            if path is None:
                continue
            try:
                with open(path, "rb") as f:
                    f.seek(0, os.SEEK_END)
                    size = f.tell()
                    f.seek(max(0, size - n))
                    chunks.append(f.read().decode("utf-8", "replace"))
            except OSError:
                pass
        return " ".join(c.strip() for c in chunks if c.strip())[-n:]

    def kill(self):
        """SIGKILL the sandbox; with it dies every process inside (PID namespace)."""
        with self.sandbox._lock:
            if self._killed:
                return
            self._killed = True
            self.sandbox.live.discard(self)
        if self.client is not None:
            self.client.shell_channel.close()
            self.client.control_channel.close()
            self.client = None
        if self.proc is not None:
            inner = children(self.proc.pid)
            if self.proc.poll() is None:
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)       # bwrap (and, mode none, the kernel's group)
                except OSError:
                    pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            if self.launch.mode == "none":
                _kill_tree(inner)
            else:
                _wait_gone(inner, timeout=10)
        if self.group is not None:
            with self.sandbox._lock:
                sibling = any(k.group is self.group for k in self.sandbox.live)
            # whatever is left in the submission's group, unless the next kernel of the submission is
            # already starting there (runner.Prestart): this sandbox's processes died with its PID 1,
            # and the group is killed whole when the submission is done
            if not sibling:
                self.group.kill()
        if self.launch is not None and self.launch.mode == "root":
            self.sandbox.uids.give_back(self.launch.uid)
        if self.kdir is not None and not self.sandbox.keep:
            _rmtree(self.kdir)

    def terminate(self):
        """SIGKILL the sandbox's processes only; safe from another thread (sockets untouched).
        The thread driving this kernel sees it die and calls :meth:`kill`."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass

    # -- messaging ---------------------------------------------------------

    def _recv(self, channel, msg_id, deadline):
        """The reply to ``msg_id`` on ``channel``, or None at the deadline / if the kernel died."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                msg = channel.get_msg(timeout=min(left, 0.05))
            except Empty:
                if not self.alive():
                    return None
                continue
            except (ValueError, KeyError, TypeError, zmq.ZMQError):
                continue                # a malformed or badly signed message: ignore it
            if msg and msg.get("parent_header", {}).get("msg_id") == msg_id:
                return msg

    def execute(self, code, timeout):
        """Run ``code``; returns an ExecResult (status ok / error / timeout / died)."""
        if not self.alive():
            return ExecResult("died", seconds=0.0)
        start = time.monotonic()
        self._pending = self.client.execute(code, store_history=False, user_expressions={}, allow_stdin=False,
                                            stop_on_error=False)
        reply = self._recv(self.client.shell_channel, self._pending, start + timeout)
        seconds = time.monotonic() - start
        if reply is None:
            return ExecResult("died" if not self.alive() else "timeout", seconds=seconds)
        self._pending = None
        content = reply.get("content", {})
        if content.get("status") == "ok":
            return ExecResult("ok", seconds=seconds)
        if content.get("status") == "aborted":
            return ExecResult("error", "Aborted", "execution aborted", seconds=seconds)
        tb = content.get("traceback") or []
        return ExecResult("error", str(content.get("ename", "Error"))[:200], str(content.get("evalue", ""))[:2000],
                          [str(line)[:2000] for line in tb[-20:]], seconds)

    def interrupt(self, grace=2.0):
        """Interrupt the pending execution; True if the kernel answered within ``grace`` s."""
        if not self.alive():
            return False
        pending = getattr(self, "_pending", None)
        deadline = time.monotonic() + grace
        msg = self.client.session.msg("interrupt_request", {})
        self.client.control_channel.send(msg)
        self._recv(self.client.control_channel, msg["header"]["msg_id"], deadline)
        if pending is None:
            return self.alive()
        reply = self._recv(self.client.shell_channel, pending, deadline)
        if reply is not None:
            self._pending = None
            return True
        return False


def _wait_gone(pids, timeout):
    deadline = time.monotonic() + timeout
    for pid in pids:
        while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    if f.read().rsplit(")", 1)[-1].split()[0] == "Z":
                        break
            except OSError:
                break
            time.sleep(0.01)


def _kill_tree(pids):
    """Mode none: kill the kernel's remaining descendants (they may have left its group)."""
    if psutil is None:
        return
    procs = []
    for pid in pids:
        try:
            p = psutil.Process(pid)
            procs += [p] + p.children(recursive=True)
        except psutil.Error:
            pass
    for p in procs:
        try:
            p.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(procs, timeout=5)


def _rmtree(path):
    shutil.rmtree(path, ignore_errors=True)
