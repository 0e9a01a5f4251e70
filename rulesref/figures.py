"""The formation diagrams moved to `rulesref.views.formations`; the old imports keep working.

```python
from rulesref.figures import combat_figure
from rulesref.views import formations

print(combat_figure is formations.combat_figure)
#> True
```
"""

from rulesref.moved import moved_from

__all__: list[str] = []

__getattr__ = moved_from(__name__)
