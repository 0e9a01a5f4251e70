"""What one build made, kept for the next: each value under a hash of all it was made from.

A rebuild under `properdocs serve` after a one-line edit made again what had not changed:
the highlighted code of every page, the search entries of every page, the Code pages'
Markdown, `rules.json`. The hooks that keep them (`rendering_cache.py`, `clause_code.py`,
`rules_data.py`) each have a `Kept`: a JSON file in `.cache/` read when a build starts,
from which a value is taken by the hash of its inputs (`key`), so a changed input is a new
key and is made afresh, never served stale. A build writes back only the values it used,
so the file holds one build's worth. tests/test_site_hooks.py changes each input of each
cache and sees the value made again.
"""

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from notebook_cache import package_hash

Value = TypeVar("Value")
# rulesref as this process imported it (the hooks import it when they are loaded)
IMPORTED = package_hash()


def package() -> tuple[str, str]:
    """The package's source hash as imported and as it is now: a value made from an
    imported registry after the source changed under `properdocs serve` is kept under
    both, so no build of either source reads it."""
    return IMPORTED, package_hash()


def key(*parts: object) -> str:
    """A hash of the parts, each by its `repr` (strings, numbers, tuples, dicts)."""
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Kept:
    """The values of the last build (`before`) and those this build used (`used`)."""

    path: Path
    before: dict[str, Any]
    used: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path) -> "Kept":
        """The values kept at `path`; none if it is missing or unreadable."""
        try:
            before = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            before = {}
        return cls(path, before if isinstance(before, dict) else {})

    def get(self, name: str, make: Callable[[], Value]) -> Value:
        """The value kept under `name`, else `make()` (kept from now on). It must be JSON
        that reads back equal: strings, numbers, lists, dicts with string keys."""
        if name not in self.used:
            self.used[name] = self.before[name] if name in self.before else make()
        return self.used[name]

    def write(self) -> bool:
        """Keep the values this build used, if they are not what is kept already."""
        if self.used == self.before:
            return False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        part = self.path.with_suffix(f".{os.getpid()}.part")  # another build may read it
        part.write_text(json.dumps(self.used, ensure_ascii=False), encoding="utf-8")
        part.replace(self.path)
        return True
