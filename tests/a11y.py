"""axe-core for the accessibility tests: its npm tarball, pinned by version and by the
registry's sha512 integrity, downloaded once into the machine's cache (outside the clone)
and checked on every use. The tests serve `axe.min.js` to the page themselves, so the
page under test never loads anything from another host.

    python tests/a11y.py    # download and check it (the tests do this on first use)
"""

import base64
import hashlib
import io
import os
import tarfile
import tempfile
import urllib.request
from pathlib import Path

AXE = "4.14.1"
TARBALL = f"https://registry.npmjs.org/axe-core/-/axe-core-{AXE}.tgz"
# `npm view axe-core@4.14.1 dist.integrity`
INTEGRITY = "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="  # noqa: E501


def _cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rulesref/axe-core"


def _checked(tarball: bytes) -> bytes:
    digest = "sha512-" + base64.b64encode(hashlib.sha512(tarball).digest()).decode()
    if digest != INTEGRITY:
        raise RuntimeError(f"axe-core {AXE}: integrity {digest}, expected {INTEGRITY}")
    return tarball


def axe_source() -> str:
    """The text of axe.min.js, from the checked tarball (downloaded on first use)."""
    path = _cache() / f"axe-core-{AXE}.tgz"
    if path.exists():
        tarball = _checked(path.read_bytes())
    else:
        with urllib.request.urlopen(TARBALL, timeout=120) as response:
            tarball = _checked(response.read())
        path.parent.mkdir(parents=True, exist_ok=True)
        # a name of its own: another test worker may be writing the same file
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".part", delete=False) as part:
            part.write(tarball)
        Path(part.name).replace(path)
    with tarfile.open(fileobj=io.BytesIO(tarball)) as archive:
        member = archive.extractfile("package/axe.min.js")
        assert member is not None
        return member.read().decode()


if __name__ == "__main__":
    print(f"axe-core {AXE}: {len(axe_source()):,} characters, integrity checked")
