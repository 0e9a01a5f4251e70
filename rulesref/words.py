"""The fixed words of the rules: one type for every document's lists of words.

```python
from rulesref.campaign import Kind
from rulesref.words import Word

print(issubclass(Kind, Word), Kind.CAVALRY == "cavalry", [Kind.CAVALRY])
#> True True ['cavalry']
```
"""

from enum import StrEnum

__all__ = ["Word"]


class Word(StrEnum):
    """A fixed word of the rules: equal to the word, and printed and shown as the word, so
    a dict of odds by role reads `{'attacker': ...}`."""

    def __repr__(self) -> str:
        return repr(self.value)
