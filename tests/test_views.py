"""The pictures (rulesref.views): one palette, defined once for each theme, and no colour
written anywhere else."""

import re
from pathlib import Path

from sympy import Rational

from rulesref.views.svg import SERIES, Colour, Dash, link, rect, shade, svg, swatch

ROOT = Path(__file__).resolve().parent.parent
CSS = (ROOT / "docs/stylesheets/extra.css").read_text(encoding="utf-8")


def _variables(block_start: str) -> set[str]:
    block = CSS[CSS.index(block_start) :]
    return set(re.findall(r"(--rr-[a-z0-9-]+):", block[: block.index("}")]))


def test_each_colour_is_a_class_with_a_light_and_a_dark_value():
    light, dark = _variables(":root {"), _variables('[data-md-color-scheme="slate"] {')
    assert light == dark
    for colour in Colour:
        variable = f"--{colour.value}"
        assert variable in light, colour
        assert f".{colour.value} {{ color: var({variable}); fill: var({variable});" in CSS
    assert {f"--rr-shade-{stop}" for stop in ("low", "mid", "high")} <= light
    assert len(set(SERIES)) == len(SERIES)


def test_no_picture_names_a_colour_of_its_own():
    for path in (ROOT / "rulesref").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"#[0-9a-fA-F]{6}\b|rgb\(", source), path


def test_the_shade_runs_from_low_through_mid_to_high():
    assert shade(Rational(0)) == "color-mix(in srgb, var(--rr-shade-mid) 0%, var(--rr-shade-low))"
    assert "var(--rr-shade-mid) 50%" in shade(Rational(1, 4))
    assert shade(Rational(1, 2)).startswith("color-mix(in srgb, var(--rr-shade-high) 0%")
    assert (
        shade(Rational(1)) == "color-mix(in srgb, var(--rr-shade-high) 100%, var(--rr-shade-mid))"
    )


def test_the_root_is_accessible_and_escapes_its_title():
    picture = svg(10, 20, [], title="A & B", origin=(-2, -2))
    assert picture.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="rr-svg"')
    assert 'viewBox="-2 -2 10 20"' in picture and 'role="img"' in picture
    assert "<title>A &amp; B</title>" in picture
    assert 'stroke-dasharray="2 4"' in swatch(Colour.GREEN, Dash.DOTTED)
    assert 'aria-hidden="true"' in swatch(Colour.GREEN)


def test_a_picture_with_links_is_a_group_not_an_image():
    """An image's children are presentational: links inside one reach no screen reader."""
    linked = svg(10, 10, [link("#st-3", [rect(0, 0, 5, 5)])], title="Steps")
    assert 'role="group"' in linked and 'role="img"' not in linked
    assert "<title>Steps</title>" in linked
