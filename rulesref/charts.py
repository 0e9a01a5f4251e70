"""Charts of the site's odds, drawn as SVG at build time from exact answers.

The pictures take their colours from the page (`currentColor` and CSS classes styled in
`docs/stylesheets/extra.css`), so they follow the light and dark themes, and they scale
to the column, with labels large enough to read on a phone. No rule is decided here:
every value comes from a function of the rules modules.

```python
from sympy import Rational

from rulesref.charts import Series, line_chart

svg = line_chart([Series("a coin", [(0, Rational(1, 2)), (1, Rational(1, 4))])], "flips", "heads")
print(svg.startswith("<figure"), "50%" in svg)
#> True True
```
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from sympy import Rational

__all__ = ["STYLES", "Series", "line_chart", "bar_chart", "break_test_charts"]

WIDTH, HEIGHT = 360, 230
LEFT, RIGHT, TOP, BOTTOM = 44, 10, 12, 40  # room for the axes' labels
STYLES = ("solid", "dashed", "dotted")


@dataclass(frozen=True)
class Series:
    """One line or one set of bars: a label and (x, probability) points."""

    label: str
    points: Sequence[tuple[int, Rational]]
    style: str = "solid"  # solid, dashed or dotted
    colour: int = 0  # the index of its colour, rr-c0 to rr-c5


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
        parts.append(
            f'<line class="rr-grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
        )
        parts.append(f'<text x="{LEFT - 5}" y="{y + 4:.1f}" text-anchor="end">{tick}%</text>')
    for x in xs:
        parts.append(
            f'<text x="{x_of(x):.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">{x}</text>'
        )
    parts.append(
        f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 4}" text-anchor="middle">'
        f"{escape(x_label)}</text>"
    )
    parts.append(
        f'<text transform="translate(11 {(TOP + HEIGHT - BOTTOM) / 2}) rotate(-90)" '
        f'text-anchor="middle">{escape(y_label)}</text>'
    )
    return parts


def _figure(parts: list[str], series: Sequence[Series], label: str) -> str:
    svg = (
        f'<svg class="rr-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{escape(label)}">' + "".join(parts) + "</svg>"
    )
    key = "".join(
        f'<span class="rr-key"><svg viewBox="0 0 24 10" aria-hidden="true"><line x1="1" x2="23" '
        f'y1="5" y2="5" class="rr-c{s.colour} rr-{s.style}"/></svg>{escape(s.label)}</span>'
        for s in series
    )
    return f'<figure class="rr-figure">{svg}<figcaption>{key}</figcaption></figure>'


def line_chart(series: Sequence[Series], x_label: str, y_label: str) -> str:
    """Lines of chances (0 to 100%) against whole-number x values, one per series."""
    xs = sorted({x for s in series for x, _ in s.points})
    x_of = _x_scale(xs, 8)
    parts = _frame(xs, x_of, x_label, y_label)
    for s in series:
        points = " ".join(f"{x_of(x):.1f},{_y(p):.1f}" for x, p in s.points)
        parts.append(f'<polyline class="rr-c{s.colour} rr-{s.style}" points="{points}"/>')
        if s.style == "solid":
            parts += [
                f'<circle class="rr-c{s.colour}" cx="{x_of(x):.1f}" cy="{_y(p):.1f}" r="3">'
                f"<title>{escape(s.label)}, {escape(x_label)} {x}: {float(p):.1%} ({p})</title>"
                "</circle>"
                for x, p in s.points
            ]
    return _figure(parts, series, f"{y_label} against {x_label}")


def bar_chart(series: Sequence[Series], x_label: str, y_label: str) -> str:
    """Bars of chances grouped by x value, each group centred on its x label."""
    xs = sorted({x for s in series for x, _ in s.points})
    step = (WIDTH - LEFT - RIGHT) / len(xs)
    x_of = _x_scale(xs, step / 2)
    width = step * 0.8 / len(series)
    parts = _frame(xs, x_of, x_label, y_label)
    for n, s in enumerate(series):
        for x, p in s.points:
            left = x_of(x) - step * 0.4 + n * width
            top = _y(p)
            parts.append(
                f'<rect class="rr-c{s.colour} rr-column" x="{left:.1f}" y="{top:.1f}" '
                f'width="{width:.1f}" height="{_y(0) - top:.1f}">'
                f"<title>{escape(s.label)}, {escape(x_label)} {x}: {float(p):.1%} ({p})</title>"
                "</rect>"
            )
    return _figure(parts, series, f"{y_label} against {x_label}")


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
