"""The charts moved to `rulesref.views.charts`; the old imports keep working.

```python
from rulesref.charts import line_chart
from rulesref.views import charts

print(line_chart is charts.line_chart)
#> True
```
"""

from rulesref.moved import moved_from

__all__: list[str] = []

__getattr__ = moved_from(__name__)
