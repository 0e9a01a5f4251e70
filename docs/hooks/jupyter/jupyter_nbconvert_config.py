# Read by nbconvert when mkdocs-jupyter executes the notebooks (docs/hooks/notebook_cache.py
# puts this folder on JUPYTER_CONFIG_PATH): the kernel listens on local sockets (IPC), not
# on TCP. Their path is absolute, since the kernel runs in the notebook's folder.
import os
import tempfile

c = get_config()  # noqa: F821 (given by the config loader)
c.KernelManager.transport = "ipc"
c.KernelManager.ip = os.path.join(tempfile.gettempdir(), f"rulesref-kernel-{os.getpid()}")
