"""The built site shows the code of every rule under its heading, drawn from the clause
registry (docs/hooks/clause_code.py): the source of each registered function or class,
its file and lines, and a link to its entry on the Python API page."""

import html
import inspect
import re
from pathlib import Path

from rulesref.clauses import CLAUSES

ROOT = Path(__file__).resolve().parent.parent
CODE_BLOCK = re.compile(r'<details[^>]*class="abstract">(.*?)</details>', re.S)


def _section(page: str, anchor: str) -> str:
    """The HTML from a heading to the next heading."""
    start = page.index(f'id="{anchor}"')
    end = re.compile(r"<h[1-6][ >]").search(page, start)
    return page[start : end.start() if end else len(page)]


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def _ids(page: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', page))


def test_every_rule_shows_its_code_with_a_link(site):
    api_ids = _ids((site / "api/index.html").read_text(encoding="utf-8"))
    missing, shown = [], set()
    for entry in CLAUSES.values():
        page = (site / entry.document.page.removesuffix(".md") / "index.html").read_text()
        blocks = CODE_BLOCK.findall(_section(page, entry.anchor))
        for name, found in zip(entry.code, entry.implementations(), strict=True):
            lines, first = inspect.getsourcelines(found)
            path = Path(inspect.getsourcefile(found)).resolve().relative_to(ROOT).as_posix()
            where = f"{path}, lines {first}–{first + len(lines) - 1}"
            source = "".join(lines).strip()
            linked = [
                anchor
                for block in blocks
                if where in _text(block) and source in _text(block)
                for anchor in re.findall(r'href="\.\./\.\./api/#([^"]+)"', block)
            ]
            # the name's own entry when it is public, else its module's
            if not linked or not set(linked) <= api_ids or not name.startswith(linked[0]):
                missing.append(f"{entry.id}: {name}")
            else:
                shown.add(entry.id)
    assert not missing, f"rules without their code, its lines or its API link: {missing}"
    clauses = [entry.id for entry in CLAUSES.values() if not entry.clarification]
    assert len(clauses) == 64 and set(clauses) <= shown
    assert shown == {entry.id for entry in CLAUSES.values() if entry.code}


def test_the_code_follows_the_rule(site):
    """Players first: under each rule its prose, then the code, collapsed."""
    for entry in CLAUSES.values():
        if entry.code:
            page = (site / entry.document.page.removesuffix(".md") / "index.html").read_text()
            section = _section(page, entry.anchor)
            assert section.index("<p>") < section.index('class="abstract"'), entry.id
            assert "<details open" not in section, entry.id


def test_no_snippet_markers_are_left():
    """The registry replaced the snippet markers: none in the code, none on a page."""
    for path in [*ROOT.glob("rulesref/**/*.py"), *ROOT.glob("docs/rules/*.md")]:
        assert not re.search(r"--8<--", path.read_text(encoding="utf-8")), path
