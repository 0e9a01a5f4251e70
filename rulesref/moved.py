"""Names that moved to `rulesref.odds` or `rulesref.views`, still importable from their old module.

The rules modules hold rules; the exact-odds algorithms live in `rulesref.odds` and the
drawing in `rulesref.views`. Code written against the old layout keeps working: each old
module ends with `__getattr__ = moved_from(__name__)`, which imports a moved name from its
new home on first use. The Python API page documents each name once, at its new home, and
keeps the old address (`/api/#rulesref.leadership.cascade_probabilities`) as an anchor
beside it (docs/hooks/api_aliases.py reads `MOVED`).

```python
from rulesref.moved import MOVED

print(MOVED["rulesref.leadership.cascade_probabilities"])
#> rulesref.odds.cascade
```
"""

from collections.abc import Callable
from importlib import import_module

__all__ = ["MOVED", "moved_from"]

# "old module.name": "new module". Never remove a line: someone's code imports it.
MOVED: dict[str, str] = {
    "rulesref.leadership.Cascade": "rulesref.odds.cascade",
    "rulesref.leadership.cascade_probabilities": "rulesref.odds.cascade",
}


def moved_from(module: str) -> Callable[[str], object]:
    """The module `__getattr__` (PEP 562) that finds `module`'s moved names in their new home."""

    def __getattr__(name: str) -> object:
        home = MOVED.get(f"{module}.{name}")
        if home is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        return getattr(import_module(home), name)

    return __getattr__
