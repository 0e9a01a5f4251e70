"""The SVG toolkit every picture of the site is drawn with.

A picture never names a colour: it names a `Colour` of the palette, a CSS class whose
light and dark values are set once in `docs/stylesheets/extra.css`, so every picture
follows the reader's theme. Text and outlines take the page's own colour
(`currentColor`). `svg` makes the accessible root: a `viewBox`, `role="img"` and a
`<title>` that screen readers announce (a picture with links is a `group` of them).

```python
from sympy import Rational

from rulesref.views.svg import Colour, rect, shade, svg, text

key = [rect(0, 0, 40, 40, colour=Colour.BLUE), text(50, 25, "ours")]
picture = svg(120, 40, key, title="A key")
print(picture.startswith("<svg"), "<title>A key</title>" in picture, 'class="rr-c0"' in picture)
#> True True True
print(shade(Rational(3, 4)))
#> color-mix(in srgb, var(--rr-shade-high) 50%, var(--rr-shade-mid))
```
"""

from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from html import escape

from rulesref.exact import Rational

__all__ = [
    "Colour",
    "SERIES",
    "Dash",
    "svg",
    "rect",
    "text",
    "line",
    "polyline",
    "circle",
    "link",
    "arrow_marker",
    "shade",
    "swatch",
]


class Colour(StrEnum):
    """The palette: each member is the CSS class that paints a shape (fill and stroke)
    or colours HTML text in it."""

    BLUE = "rr-c0"  # our side; the first series
    RED = "rr-c1"  # the enemy; a captured standard
    GREEN = "rr-c2"  # a standard kept
    PURPLE = "rr-c3"
    AMBER = "rr-c4"  # a standard lost
    GREY = "rr-grey"  # what does not count, or is gone


SERIES = (Colour.BLUE, Colour.RED, Colour.GREEN, Colour.PURPLE, Colour.AMBER)
"""The colours of a chart's series, in order."""


class Dash(StrEnum):
    """How a line is drawn: its `stroke-dasharray`."""

    SOLID = ""
    DASHED = "7 4"
    DOTTED = "2 4"


def _number(value: float) -> str:
    return f"{round(value, 1):g}"


def _tag(name: str, attrs: Mapping[str, object], body: str | None = None) -> str:
    """An element; attributes that are None or "" are left out, numbers rounded."""
    written = "".join(
        f' {key}="{_number(value) if isinstance(value, float | int) else escape(str(value))}"'
        for key, value in attrs.items()
        if value is not None and value != ""
    )
    return f"<{name}{written}/>" if body is None else f"<{name}{written}>{body}</{name}>"


def _tip(tip: str | None) -> str | None:
    """A tooltip: the `<title>` child that shows on hover."""
    return None if tip is None else f"<title>{escape(tip)}</title>"


def svg(
    width: float,
    height: float,
    body: Iterable[str],
    *,
    title: str,
    cls: str = "rr-svg",
    origin: tuple[float, float] = (0, 0),
) -> str:
    """The root: drawn at its natural `width`, never wider than the column. A picture
    with links is a group (a screen reader reaches each link), any other one an image."""
    parts = list(body)
    role = "group" if any(part.startswith("<a ") for part in parts) else "img"
    box = " ".join(_number(v) for v in (*origin, width, height))
    return _tag(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "class": cls,
            "viewBox": box,
            "width": width,
            "role": role,
        },
        f"<title>{escape(title)}</title>" + "".join(parts),
    )


def rect(
    x: float,
    y: float,
    width: float,
    height: float,
    *,
    colour: Colour | None = None,
    tint: bool = False,
    dashed: bool = False,
    rx: float | None = None,
    style: str | None = None,
    tip: str | None = None,
) -> str:
    """A box, filled with `colour` (or `tint`ed by it, with a full-colour outline); without
    a colour, an outline in the page's colour."""
    cls = " ".join(
        filter(None, [colour, "rr-tint" if tint else "", "" if colour else "rr-outline"])
    )
    attrs = {"class": cls, "x": x, "y": y, "width": width, "height": height, "rx": rx}
    attrs |= {"stroke-dasharray": "4 3" if dashed else None, "style": style}
    return _tag("rect", attrs, _tip(tip))


def text(
    x: float,
    y: float,
    words: str,
    *,
    size: float | None = None,
    anchor: str | None = None,
    bold: bool = False,
    transform: str | None = None,
) -> str:
    """Words at (x, y), their baseline; `anchor` "middle" or "end" to centre or align right."""
    attrs = {"x": x, "y": y, "font-size": size, "text-anchor": anchor, "transform": transform}
    attrs["font-weight"] = "bold" if bold else None
    return _tag("text", attrs, escape(words))


def line(
    x1: float,
    y1: float,
    x2: float,
    y2: float,
    *,
    colour: Colour | str | None = None,
    dash: Dash = Dash.SOLID,
    arrow: str | None = None,
) -> str:
    """A straight line in `colour` (a `Colour` or a class such as "rr-grid"), or the page's
    colour; `arrow` is the id of an `arrow_marker` for its end."""
    attrs = {"class": colour or "rr-outline", "x1": x1, "y1": y1, "x2": x2, "y2": y2}
    attrs |= {"stroke-dasharray": dash, "marker-end": arrow and f"url(#{arrow})"}
    return _tag("line", attrs)


def polyline(points: Sequence[tuple[float, float]], *, colour: Colour, dash: Dash) -> str:
    """A line through `points`."""
    joined = " ".join(f"{_number(x)},{_number(y)}" for x, y in points)
    return _tag("polyline", {"class": colour, "points": joined, "stroke-dasharray": dash})


def circle(x: float, y: float, r: float, *, colour: Colour, tip: str | None = None) -> str:
    """A dot, with a tooltip."""
    return _tag("circle", {"class": colour, "cx": x, "cy": y, "r": r}, _tip(tip))


def link(href: str, body: Iterable[str]) -> str:
    """Shapes that follow a link (within the site: "#st-3")."""
    return _tag("a", {"href": href}, "".join(body))


def arrow_marker(id: str) -> str:
    """An arrowhead in the page's colour, for `line(..., arrow=id)`; `id` must be unique
    on the page."""
    head = '<path d="M0 0 L10 5 L0 10 z" fill="currentColor"/>'
    attrs = {"id": id, "viewBox": "0 0 10 10", "refX": 9, "refY": 5}
    attrs |= {"markerWidth": 7, "markerHeight": 7, "orient": "auto"}
    return f"<defs>{_tag('marker', attrs, head)}</defs>"


def shade(probability: Rational) -> str:
    """The fill of a probability: from the palette's low shade (0) through its middle
    (1/2) to its high shade (1), mixed by the browser so that it follows the theme."""
    p = float(probability)
    low, high, share = ("low", "mid", p * 2) if p < 0.5 else ("mid", "high", p * 2 - 1)
    return (
        f"color-mix(in srgb, var(--rr-shade-{high}) {round(share * 100)}%, var(--rr-shade-{low}))"
    )


def swatch(colour: Colour, dash: Dash | None = None) -> str:
    """A small key for a caption: a square of `colour`, or a line of it drawn `dash`."""
    shape = (
        rect(1, 1, 8, 8, colour=colour)
        if dash is None
        else line(1, 5, 23, 5, colour=colour, dash=dash)
    )
    width = 10 if dash is None else 24
    return _tag(
        "svg",
        {"class": "rr-swatch", "viewBox": f"0 0 {width} 10", "aria-hidden": "true"},
        shape,
    )
