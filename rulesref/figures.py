"""Formation diagrams, drawn as SVG from the same `Unit` objects the rules use.

Each model is a square; ranks that count for Steadfast (BR-7) are filled in the
side's colour, models in ranks that do not count are grey. The site draws its
pictures with `combat_figure` at build time, so a picture cannot drift from the code.

```python
from rulesref.break_test import Unit
from rulesref.figures import combat_figure

html = combat_figure(Unit(30, 6), Unit(12, 5), names=("Halberdiers", "Bloodletters"))
print("<svg" in html, "Halberdiers: Steadfast" in html)
#> True True
```
"""

from html import escape

from rulesref.break_test import Unit, is_steadfast, usable_ranks
from rulesref.errors import RulesError

__all__ = ["PLACES", "combat_figure"]

SIZE, GAP = 16, 3
STEP = SIZE + GAP
COLOURS = ("#2e6fba", "#b8322a")  # our side, the enemy
GREY = "#9a9a9a"
PLACES = ("front", "rear", "left flank")


def _models(unit: Unit, colour: str, x: float, y: float, *, front_on_top: bool) -> list[str]:
    """A square for each model, rank by rank, the front rank on top or at the bottom."""
    shapes = []
    for index in range(unit.models):
        rank, file = divmod(index, unit.width)
        in_rank = min(unit.width, unit.models - rank * unit.width)
        fill = colour if rank < unit.ranks else GREY
        # an incomplete rear rank is centred behind the ones in front of it
        offset = (unit.width - in_rank) * STEP / 2
        row = rank if front_on_top else (unit.models - 1) // unit.width - rank
        shapes.append(
            f'<rect x="{x + offset + file * STEP:g}" y="{y + row * STEP:g}" '
            f'width="{SIZE}" height="{SIZE}" rx="2" fill="{fill}"/>'
        )
    return shapes


def _caption(name: str, unit: Unit) -> str:
    usable = usable_ranks(unit)
    note = "" if usable == unit.ranks else f" (usable for Steadfast: {usable})"
    state = ", Disrupted" * unit.disrupted + ", Skirmishers" * unit.skirmisher
    return (
        f"{name}: {unit.models} models, {unit.ranks} ranks count{note}, "
        f"Unit Strength {unit.unit_strength}{state}"
    )


def combat_figure(
    unit: Unit,
    enemy: Unit,
    *,
    names: tuple[str, str] = ("Defeated unit", "Enemy"),
    enemy_at: str = "front",
) -> str:
    """An HTML figure of a defeated `unit` and the `enemy` fighting it at its `enemy_at`
    (front, rear or left flank): an SVG of the ranks that count, and a caption with the
    numbers and the Steadfast verdict."""
    if enemy_at not in PLACES:
        raise RulesError(f"enemy_at must be one of {', '.join(PLACES)}, got {enemy_at!r}")
    ours_w, ours_h = unit.width * STEP, -(-unit.models // unit.width) * STEP
    theirs_w, theirs_h = enemy.width * STEP, -(-enemy.models // enemy.width) * STEP
    margin = 2 * STEP
    if enemy_at == "left flank":  # the enemy turned to face right, against our left file
        width, height = theirs_h + margin + ours_w, max(ours_h, theirs_w)
        body = [f'<g transform="translate({theirs_h:g} 0) rotate(90)">']
        body += _models(enemy, COLOURS[1], 0, 0, front_on_top=True)
        body += ["</g>"]
        body += _models(unit, COLOURS[0], theirs_h + margin, 0, front_on_top=True)
    else:
        width, height = max(ours_w, theirs_w), ours_h + margin + theirs_h
        enemy_on_top = enemy_at == "front"
        enemy_y, unit_y = (0, theirs_h + margin) if enemy_on_top else (ours_h + margin, 0)
        # our front rank is drawn on top; the enemy's front rank faces us
        body = _models(
            enemy, COLOURS[1], (width - theirs_w) / 2, enemy_y, front_on_top=not enemy_on_top
        )
        body += _models(unit, COLOURS[0], (width - ours_w) / 2, unit_y, front_on_top=True)
    verdict = "Steadfast" if is_steadfast(unit, enemy) else "not Steadfast"
    label = escape(f"{names[0]} ({verdict}) against {names[1]} at their {enemy_at}")
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{label}" '
        f'viewBox="0 0 {width:g} {height:g}" width="{width:g}" height="{height:g}">'
        + "".join(body)
        + "</svg>"
    )
    key = [
        (COLOURS[0], _caption(names[0], unit)),
        (COLOURS[1], f"{_caption(names[1], enemy)}, at their {enemy_at}"),
        (GREY, "grey: models in a rank of fewer than five, which does not count"),
    ]
    caption = "".join(
        f'<span style="color: {colour}">&#9632;</span> {escape(line)}<br>' for colour, line in key
    )
    return (
        f'<figure class="formation">{svg}<figcaption>{caption}'
        f"<strong>{escape(names[0])}: {verdict}</strong></figcaption></figure>"
    )
