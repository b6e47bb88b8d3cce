"""Every notebook this project runs (nbval, the notebook builder, the benchmark) talks to its kernel
over Unix sockets, not TCP ports.

Over TCP, jupyter_client picks five ports that are free at that moment and lets them go for the
kernel to bind; with many kernels and their clients starting at once (two xdist workers, and the
nested run beside them) one of those ports can be taken in between, and the kernel dies "before
replying to kernel_info".  ipykernel also warns, at every start, that TCP traffic is unencrypted.
Unix sockets are files, here under a name of the kernel's own in a folder of this process's own
(an absolute path: the kernel runs in the notebook's folder), so no two kernels can want the same one.
"""

import atexit
import os
import shutil
import tempfile
import uuid

from jupyter_client.manager import KernelManager
from traitlets import CaselessStrEnum, default

_SOCKETS = tempfile.mkdtemp(prefix="kernel-sockets-")
atexit.register(shutil.rmtree, _SOCKETS, ignore_errors=True)


class UnixSocketKernelManager(KernelManager):
    """A KernelManager whose kernel listens on Unix sockets of its own (see the module's docstring)."""

    transport = CaselessStrEnum(["tcp", "ipc"], default_value="ipc", config=True)

    @default("ip")
    def _unique_socket_prefix(self):
        return os.path.join(_SOCKETS, uuid.uuid4().hex[:16])


class ConfiguredKernelManager(UnixSocketKernelManager):
    """A kernel in the numerical configuration of its notebook's folder (tools/numeric_configs.py):
    the kernels of nbval (conftest.py) and of bench/notebook_times.py."""

    numeric_config = None

    def start_kernel(self, **kw):
        from tools import numeric_configs

        self.numeric_config = numeric_configs.config_for(kw.get("cwd"))
        if self.numeric_config is not None:
            kw["env"] = numeric_configs.environment(self.numeric_config, kw.get("env"))
        return super().start_kernel(**kw)
