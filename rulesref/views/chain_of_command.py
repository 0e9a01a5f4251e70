"""The chain of command of a `leadership.Force`, shaded by the exact odds of its cascade.

```python
from rulesref.leadership import Command, Force, Unit
from rulesref.odds.cascade import cascade_probabilities
from rulesref.views.chain_of_command import chain_of_command_svg

force = Force([Command("Platoon", [Unit("A", 10, "4+"), Unit("B", 10, "4+")])])
svg = chain_of_command_svg(force, cascade_probabilities(force, {"A": 6}))
print(svg.startswith("<svg"), "removed 50%" in svg)
#> True True
```
"""

from rulesref.errors import RulesError, instance_of
from rulesref.exact import Rational
from rulesref.leadership import Force
from rulesref.odds.cascade import Cascade
from rulesref.views.svg import Colour, line, rect, shade, svg, text

__all__ = ["chain_of_command_svg"]

BOX_W, BOX_H, GAP_X, ROW = 104, 50, 8, 96


def _box(x: float, y: float, lines: list[str], p: Rational | None) -> list[str]:
    """A part of the force: its name, and its chance of removal as its shade; dashed and
    grey if it is gone already (`p` None)."""
    shape = (
        rect(x, y, BOX_W, BOX_H, colour=Colour.GREY, tint=True, dashed=True, rx=6)
        if p is None
        else rect(x, y, BOX_W, BOX_H, rx=6, style=f"fill: {shade(p)}")
    )
    words = [
        text(x + BOX_W / 2, y + 20 + 19 * i, words, size=15 - i, anchor="middle")
        for i, words in enumerate(lines)
    ]
    return [shape, *words]


def _key(y: float) -> list[str]:
    """The shade of 0%, 10%, ... 100%, and what it means."""
    steps = [
        rect(i * 16, y, 16, 12, style=f"fill: {shade(Rational(i, 10))}; stroke: none")
        for i in range(11)
    ]
    return [
        *steps,
        text(11 * 16 + 8, y + 11, "chance of leaving the table this phase: 0% to 100%", size=13),
    ]


def chain_of_command_svg(force: Force, odds: Cascade) -> str:
    """An SVG tree of the force, its commands and their units, each box shaded by the
    exact chance that it is removed this phase (`odds` from `cascade_probabilities`)."""
    instance_of("force", force, Force, "a Force")
    instance_of("odds", odds, Cascade, "a Cascade, from cascade_probabilities")
    if set(odds.unit_removed) != {u.name for u in force.units} or set(odds.command_removed) != {
        c.name for c in force.commands
    }:
        raise RulesError("odds must be the cascade of this force, got the odds of another one")
    spans = [len(c.units) * (BOX_W + GAP_X) - GAP_X for c in force.commands]
    width = max(sum(spans) + 2 * GAP_X * (len(spans) - 1), BOX_W)
    body: list[str] = []
    left, middle = 0.0, width / 2  # the middle of the force's box
    for command, span in zip(force.commands, spans, strict=True):
        cx = left + (span - BOX_W) / 2
        body.append(line(middle, BOX_H, cx + BOX_W / 2, ROW, colour=Colour.GREY))
        for index, unit in enumerate(command.units):
            ux = left + index * (BOX_W + GAP_X)
            body.append(
                line(cx + BOX_W / 2, ROW + BOX_H, ux + BOX_W / 2, 2 * ROW, colour=Colour.GREY)
            )
            if unit.in_play:
                p = odds.unit_removed[unit.name]
                body += _box(ux, 2 * ROW, [unit.name, f"removed {float(p):.0%}"], p)
            else:
                body += _box(ux, 2 * ROW, [unit.name, "gone already"], None)
        p = odds.command_removed[command.name]
        body += _box(cx, ROW, [command.name, f"removed {float(p):.0%}"], p)
        left += span + 2 * GAP_X
    p = odds.force_breaks
    body += _box(middle - BOX_W / 2, 0, [force.name, f"breaks {float(p):.0%}"], p)
    body += _key(2 * ROW + BOX_H + 14)
    title = f"Chain of command of {force.name}, each part shaded by its chance of removal"
    # wide: drawn at its natural size, the page scrolls it sideways (labels stay readable)
    return svg(
        width + 4,
        2 * ROW + BOX_H + 32,
        body,
        title=title,
        origin=(-2, -2),
        cls="rr-svg rr-natural-size",
    )
