"""Charts of the site's odds, drawn as SVG at build time from exact answers.

The pictures take their colours from the palette of `rulesref.views.svg`, so they follow
the light and dark themes, and they scale to the column, with labels large enough to
read on a phone. No rule is decided here: every value comes from a function of the rules
modules.

```python
from sympy import Rational

from rulesref.views.charts import Series, line_chart

svg = line_chart([Series("a coin", [(0, Rational(1, 2)), (1, Rational(1, 4))])], "flips", "heads")
print(svg.startswith("<figure"), "50%" in svg)
#> True True
```
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from rulesref.errors import RulesError, sequence_of
from rulesref.exact import Rational
from rulesref.views import percent
from rulesref.views.svg import SERIES, Colour, Dash, circle, line, polyline, rect, svg, swatch, text

__all__ = ["STYLES", "Series", "line_chart", "bar_chart", "probability_bars", "break_test_charts"]

WIDTH, HEIGHT = 360, 230
LEFT, RIGHT, TOP, BOTTOM = 56, 10, 12, 40  # room for the axes' labels, the title clear of the ticks
STYLES = ("solid", "dashed", "dotted")
"""The ways a `Series` line may be drawn."""


@dataclass(frozen=True)
class Series:
    """One line or one set of bars: a label and (x, probability) points."""

    label: str
    points: Sequence[tuple[int, Rational]]
    style: str = "solid"  # solid, dashed or dotted
    colour: int = 0  # the index of its colour in `rulesref.views.svg.SERIES`

    @property
    def dash(self) -> Dash:
        return Dash[self.style.upper()]


def _tip(s: Series, x_label: str, x: int, p: Rational) -> str:
    """The tooltip of one point: the exact fraction beside the percentage."""
    return f"{s.label}, {x_label} {x}: {percent(p)} ({p})"


def _x_scale(xs: Sequence[int], pad: float) -> Callable[[int], float]:
    low, high = min(xs), max(xs)
    span = (high - low) or 1
    inner = WIDTH - LEFT - RIGHT - 2 * pad
    return lambda x: LEFT + pad + (x - low) * inner / span


def _y(p: Rational) -> float:
    return TOP + (1 - float(p)) * (HEIGHT - TOP - BOTTOM)


def _frame(
    xs: Sequence[int], x_of: Callable[[int], float], x_label: str, y_label: str
) -> list[str]:
    parts = []
    for tick in (0, 25, 50, 75, 100):
        y = _y(Rational(tick, 100))
        parts.append(line(LEFT, y, WIDTH - RIGHT, y, colour="rr-grid"))
        parts.append(text(LEFT - 5, y + 4, f"{tick}%", anchor="end"))
    parts += [text(x_of(x), HEIGHT - BOTTOM + 16, str(x), anchor="middle") for x in xs]
    parts.append(text((LEFT + WIDTH - RIGHT) / 2, HEIGHT - 4, x_label, anchor="middle"))
    middle = (TOP + HEIGHT - BOTTOM) / 2
    parts.append(
        text(0, 0, y_label, anchor="middle", transform=f"translate(11 {middle}) rotate(-90)")
    )
    return parts


def _figure(parts: list[str], series: Sequence[Series], x_label: str, y_label: str) -> str:
    chart = svg(WIDTH, HEIGHT, parts, title=f"{y_label} against {x_label}", cls="rr-chart")
    key = "".join(
        f'<span class="rr-key">{swatch(SERIES[s.colour], s.dash)}{escape(s.label)}</span>'
        for s in series
    )
    return f'<figure class="rr-figure">{chart}<figcaption>{key}</figcaption></figure>'


def _xs(series: Sequence[Series]) -> list[int]:
    """The x values of a chart's series, in order: at least one, or nothing to draw."""
    xs = sorted({x for s in sequence_of("series", series, Series, low=1) for x, _ in s.points})
    if not xs:
        raise RulesError(
            parameter="series", value=series, allowed="Series with at least one point among them"
        )
    return xs


def line_chart(series: Sequence[Series], x_label: str, y_label: str) -> str:
    """Lines of chances (0 to 100%) against whole-number x values, one per series."""
    xs = _xs(series)
    x_of = _x_scale(xs, 8)
    parts = _frame(xs, x_of, x_label, y_label)
    for s in series:
        colour = SERIES[s.colour]
        parts.append(polyline([(x_of(x), _y(p)) for x, p in s.points], colour=colour, dash=s.dash))
        if s.style == "solid":
            parts += [
                circle(x_of(x), _y(p), 3, colour=colour, tip=_tip(s, x_label, x, p))
                for x, p in s.points
            ]
    return _figure(parts, series, x_label, y_label)


def bar_chart(series: Sequence[Series], x_label: str, y_label: str) -> str:
    """Bars of chances grouped by x value, each group centred on its x label."""
    xs = _xs(series)
    step = (WIDTH - LEFT - RIGHT) / len(xs)
    x_of = _x_scale(xs, step / 2)
    width = step * 0.8 / len(series)
    parts = _frame(xs, x_of, x_label, y_label)
    for n, s in enumerate(series):
        for x, p in s.points:
            left, top = x_of(x) - step * 0.4 + n * width, _y(p)
            tip = _tip(s, x_label, x, p)
            parts.append(rect(left, top, width, _y(0) - top, colour=SERIES[s.colour], tip=tip))
    return _figure(parts, series, x_label, y_label)


def probability_bars(chances: Sequence[tuple[str, Rational, Colour]], title: str) -> str:
    """One bar a chance, each under its label with its percentage beside it: (label,
    probability, colour) in the order given. As narrow as a phone's column, so its words
    keep their size there.

    ```python
    from sympy import Rational

    from rulesref.views.charts import probability_bars
    from rulesref.views.svg import Colour

    svg = probability_bars([("heads", Rational(1, 2), Colour.BLUE)], "A coin")
    print('role="img"' in svg, "50.0%" in svg)
    #> True True
    ```
    """
    bar, label, length = 16, 18, WIDTH - 64  # room for ">99.9%" after a whole bar
    body = []
    for row, (words, p, colour) in enumerate(chances):
        y = row * (label + bar + 10)
        end = float(p) * length
        body += [
            text(0, y + 14, words),
            rect(0, y + label, end, bar, colour=colour, rx=2),
            text(end + 6, y + label + 13, percent(p)),
        ]
    return svg(WIDTH, len(chances) * (label + bar + 10), body, title=title, cls="rr-chart")


def break_test_charts() -> list[tuple[int, str]]:
    """BR-3, BR-5, BR-6: for each Leadership, the chance to stand by the margin of defeat,
    with the re-roll variant and a Steadfast unit (which ignores the margin) overlaid."""
    from rulesref.break_test import break_test_probability
    from rulesref.tables import LEADERSHIP, LOST_BY

    charts = []
    for ld in LEADERSHIP:
        series = [
            Series("Break test", [(n, break_test_probability(ld, n)) for n in LOST_BY]),
            Series(
                "re-roll variant",
                [(n, break_test_probability(ld, n, reroll=True)) for n in LOST_BY],
                "dashed",
                1,
            ),
            Series(
                "Steadfast",
                [(n, break_test_probability(ld, n, steadfast=True)) for n in LOST_BY],
                "dotted",
                2,
            ),
        ]
        charts.append((ld, line_chart(series, "lost the combat by", "chance to stand")))
    return charts
