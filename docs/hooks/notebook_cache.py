"""MkDocs hook: execute the notebooks only when they or the package changed.

mkdocs-jupyter caches a notebook's HTML under a key made of the notebook and its own
options, but not of the code the notebook imports: a cached page could show numbers of
an older rulesref. This hook turns the cache on in a folder named after a hash of every
source file of `rulesref/` and data file of `examples/`, so a change to the package
executes the notebooks again and a one-line edit of a Markdown page does not. Folders
of older hashes are removed.

It also points Jupyter at `docs/hooks/jupyter/`, whose nbconvert settings start the
notebooks' kernel over IPC (local sockets in Jupyter's runtime folder) rather than TCP
on 127.0.0.1, which the kernel warns about on every start.
"""

import hashlib
import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache" / "mkdocs-jupyter"
JUPYTER_CONFIG = ROOT / "docs" / "hooks" / "jupyter"


def package_hash() -> str:
    digest = hashlib.sha256()
    sources = [*(ROOT / "rulesref").rglob("*.py"), *(ROOT / "examples").glob("*.json")]
    for path in sorted(sources):
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def on_config(config):
    paths = [str(JUPYTER_CONFIG), *filter(None, [os.environ.get("JUPYTER_CONFIG_PATH")])]
    os.environ["JUPYTER_CONFIG_PATH"] = os.pathsep.join(paths)
    jupyter = config.plugins["mkdocs-jupyter"].config
    jupyter["cache"] = True
    jupyter["cache_dir"] = str(CACHE / package_hash())
    return config


def on_post_build(config):
    kept = Path(config.plugins["mkdocs-jupyter"].config["cache_dir"])
    for folder in CACHE.glob("*"):
        if folder.is_dir() and folder != kept:
            shutil.rmtree(folder)
