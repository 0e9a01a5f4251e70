"""The chain of command of a `leadership.Force`, shaded by the exact odds of its cascade.

```python
from rulesref.leadership import Command, Force, Unit
from rulesref.odds.cascade import cascade_probabilities
from rulesref.views.chain_of_command import chain_of_command_html, chain_of_command_svg

force = Force([Command("Platoon", [Unit("A", 10, 4), Unit("B", 10, 4)])])
odds = cascade_probabilities(force, {"A": 6})
svg = chain_of_command_svg(force, odds)
print(svg.startswith("<svg"), "removed 50%" in svg)
#> True True
html = chain_of_command_html(force, odds)  # a tree for wide screens, a list for phones
print(html.count("<svg"))
#> 2
```
"""

from rulesref.errors import RulesError, instance_of
from rulesref.exact import Rational
from rulesref.leadership import Force
from rulesref.odds.cascade import Cascade
from rulesref.views import percent
from rulesref.views.svg import Colour, line, rect, shade, svg, text

__all__ = ["chain_of_command_svg", "chain_of_command_html"]

BOX_W, BOX_H, GAP_X, ROW = 104, 50, 8, 96
NARROW_W, STEP, ROW_GAP = 350, 22, 8  # the phone's list: its width, indent per level


def _box(
    x: float, y: float, lines: list[str], p: Rational | None, width: float = BOX_W
) -> list[str]:
    """A part of the force: its name, and its chance of removal as its shade; dashed and
    grey if it is gone already (`p` None)."""
    shape = (
        rect(x, y, width, BOX_H, colour=Colour.GREY, tint=True, dashed=True, rx=6)
        if p is None
        else rect(x, y, width, BOX_H, rx=6, style=f"fill: {shade(p)}")
    )
    words = [
        text(x + width / 2, y + 20 + 19 * i, words, size=15 - i, anchor="middle")
        for i, words in enumerate(lines)
    ]
    return [shape, *words]


def _key(y: float, wrapped: bool) -> list[str]:
    """The shade of 0%, 10%, ... 100%, and what it means (under the shades if `wrapped`)."""
    steps = [
        rect(i * 16, y, 16, 12, style=f"fill: {shade(Rational(i, 10))}; stroke: none")
        for i in range(11)
    ]
    words = "chance of leaving the table this phase: 0% to 100%"
    at = (0, y + 30) if wrapped else (11 * 16 + 8, y + 11)
    return [*steps, text(*at, words, size=14)]


def _parts(force: Force, odds: Cascade) -> list[tuple[int, list[str], Rational | None]]:
    """The force, each command, each of its units, in reading order: (depth, words, p)."""
    parts: list[tuple[int, list[str], Rational | None]] = [
        (0, [force.name, f"breaks {percent(odds.force_breaks, 0)}"], odds.force_breaks)
    ]
    for command in force.commands:
        p = odds.command_removed[command.name]
        parts.append((1, [command.name, f"removed {percent(p, 0)}"], p))
        for unit in command.units:
            if unit.in_play:
                p = odds.unit_removed[unit.name]
                parts.append((2, [unit.name, f"removed {percent(p, 0)}"], p))
            else:
                parts.append((2, [unit.name, "gone already"], None))
    return parts


def _tree(force: Force, parts: list[tuple[int, list[str], Rational | None]], title: str) -> str:
    """Wide screens: the force on top, its commands below, their units in a row."""
    spans = [len(c.units) * (BOX_W + GAP_X) - GAP_X for c in force.commands]
    width = max(sum(spans) + 2 * GAP_X * (len(spans) - 1), BOX_W)
    rest = iter(parts[1:])
    body: list[str] = []
    left, middle = 0.0, width / 2  # the middle of the force's box
    for command, span in zip(force.commands, spans, strict=True):
        cx = left + (span - BOX_W) / 2
        body.append(line(middle, BOX_H, cx + BOX_W / 2, ROW, colour=Colour.GREY))
        _, words, p = next(rest)
        body += _box(cx, ROW, words, p)
        for index in range(len(command.units)):
            ux = left + index * (BOX_W + GAP_X)
            body.append(
                line(cx + BOX_W / 2, ROW + BOX_H, ux + BOX_W / 2, 2 * ROW, colour=Colour.GREY)
            )
            _, words, p = next(rest)
            body += _box(ux, 2 * ROW, words, p)
        left += span + 2 * GAP_X
    _, words, p = parts[0]
    body += _box(middle - BOX_W / 2, 0, words, p)
    body += _key(2 * ROW + BOX_H + 14, wrapped=False)
    return svg(
        width + 4,
        2 * ROW + BOX_H + 32,
        body,
        title=title,
        origin=(-2, -2),
        cls="rr-svg rr-natural-size",
    )


def _list(parts: list[tuple[int, list[str], Rational | None]], title: str) -> str:
    """Phones: one box a line, each command and unit indented under what it belongs to,
    drawn at the column's width so its words keep their size."""
    body: list[str] = []
    for row, (depth, words, p) in enumerate(parts):
        y, x = row * (BOX_H + ROW_GAP), depth * STEP
        if depth:  # a rail down from the part above, to this box's middle
            body.append(
                line(x - STEP / 2, y - ROW_GAP, x - STEP / 2, y + BOX_H / 2, colour=Colour.GREY)
            )
            body.append(line(x - STEP / 2, y + BOX_H / 2, x, y + BOX_H / 2, colour=Colour.GREY))
        body += _box(x, y, words, p, width=NARROW_W - x)
    height = len(parts) * (BOX_H + ROW_GAP)
    body += _key(height + 6, wrapped=True)
    return svg(NARROW_W + 4, height + 44, body, title=title, origin=(-2, -2), cls="rr-svg")


def _checked(force: Force, odds: Cascade) -> list[tuple[int, list[str], Rational | None]]:
    instance_of("force", force, Force, "a Force")
    instance_of("odds", odds, Cascade, "a Cascade, from cascade_probabilities")
    if set(odds.unit_removed) != {u.name for u in force.units} or set(odds.command_removed) != {
        c.name for c in force.commands
    }:
        raise RulesError("odds must be the cascade of this force, got the odds of another one")
    return _parts(force, odds)


def _title(force: Force) -> str:
    return f"Chain of command of {force.name}, each part shaded by its chance of removal"


def chain_of_command_svg(force: Force, odds: Cascade) -> str:
    """An SVG tree of the force, its commands and their units, each box shaded by the
    exact chance that it is removed this phase (`odds` from `cascade_probabilities`)."""
    return _tree(force, _checked(force, odds), _title(force))


def chain_of_command_html(force: Force, odds: Cascade) -> str:
    """Both pictures of `chain_of_command_svg` in one block: the page shows the tree on a
    wide screen and the list on a phone or a tablet, so the words keep their size."""
    parts = _checked(force, odds)
    tree, listed = _tree(force, parts, _title(force)), _list(parts, _title(force))
    return f'<div class="rr-chain">{tree}{listed}</div>'
