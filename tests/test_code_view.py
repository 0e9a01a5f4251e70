"""The code of the rules is one tap away from each rule and shown once (docs/hooks/clause_code.py):
each rule heading links to its code on its document's Code page, where each registered
function or class appears once, with its source, file and lines, its Python API entry and
the ids of the rules it implements, each linking back; a players' page shows no code box
and no private name."""

import html
import importlib
import inspect
import os
import re
from pathlib import Path

from rulesref.clauses import CLAUSES, Document

ROOT = Path(__file__).resolve().parent.parent
PLAYERS_PAGES = [
    "rules/*/index.html",
    "rule-index/index.html",
    "clarifications/index.html",
    "glossary/index.html",
    "index.html",
    "odds/*/index.html",
    "tools/calculators/index.html",
]


def _section(page: str, anchor: str) -> str:
    """The HTML from the element with id `anchor` to the next heading."""
    start = page.index(f'id="{anchor}"')
    end = re.compile(r"<h[1-6][ >]").search(page, start + 1)
    return page[start : end.start() if end else len(page)]


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def _ids(page: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', page))


def _code_page(site: Path, document: Document) -> str:
    return (
        site / "code" / document.page.removeprefix("rules/").removesuffix(".md") / "index.html"
    ).read_text()


def test_every_bound_name_is_shown_once_with_its_source_lines_api_link_and_rules(site):
    api_ids = _ids((site / "api/index.html").read_text(encoding="utf-8"))
    code_pages = {d: _code_page(site, d) for d in Document}
    problems = []
    for entry in CLAUSES.values():
        for name, found in zip(entry.code, entry.implementations(), strict=True):
            homes = [d for d, page in code_pages.items() if f'id="{name}"' in page]
            if len(homes) != 1:
                problems.append(f"{name} shown on {len(homes)} Code pages")
                continue
            section = _section(code_pages[homes[0]], name)
            found = inspect.unwrap(found)  # a kernel that checks its arguments: its function
            lines, first = inspect.getsourcelines(found)
            path = Path(inspect.getsourcefile(found)).resolve().relative_to(ROOT).as_posix()
            where = f"{path}, lines {first}–{first + len(lines) - 1}"
            linked = re.findall(r'href="\.\./\.\./api/#([^"]+)"', section)
            back = f'href="../../{entry.document.page.removesuffix(".md")}/#{entry.anchor}"'
            if where not in _text(section) or "".join(lines).strip() not in _text(section):
                problems.append(f"{entry.id}: {name} without its source or lines")
            elif not linked or not set(linked) <= api_ids or not name.startswith(linked[0]):
                problems.append(f"{entry.id}: {name} without its API link")
            elif back not in section:
                problems.append(f"{entry.id}: {name} does not link back to {entry.id}")
    assert not problems, problems


def test_no_name_is_shown_twice_and_no_rules_page_shows_code(site):
    shown = [
        anchor
        for page in (site / "code").glob("*/index.html")
        for anchor in re.findall(r' id="(rulesref\.[\w.]+)"', page.read_text())
    ]
    assert shown and len(shown) == len(set(shown)), sorted(a for a in shown if shown.count(a) > 1)
    for page in (site / "rules").glob("*/index.html"):
        text = page.read_text()
        assert 'class="abstract"' not in text, page  # no collapsed code box
        for source in re.findall(r'<div class="language-python highlight">(.*?)</div>', text, re.S):
            assert "def " not in _text(source), page  # only worked examples, never a definition


def test_each_rule_links_to_its_code(site):
    """The heading's small "code" link reaches a place naming every function of the rule."""
    broken = []
    for entry in CLAUSES.values():
        rules_url = f"/{entry.document.page.removesuffix('.md')}/"
        page = (site / rules_url.strip("/") / "index.html").read_text()
        heading = re.search(rf'<h([2-6]) id="{entry.anchor}"[^>]*>(.*?)</h\1>', page, re.S)
        links = re.findall(r'<a class="rr-code-link"[^>]*href="([^"]+)"', heading[2])
        if not entry.code:
            assert not links, entry.id
            continue
        if len(links) != 1:
            broken.append(f"{entry.id}: {len(links)} code links")
            continue
        path, _, anchor = links[0].partition("#")
        target = os.path.normpath(os.path.join(rules_url, path)).strip("/")
        place = _section((site / target / "index.html").read_text(), anchor)
        if anchor not in entry.code:  # the rule's line in the index: it names each function
            names = {
                n.rpartition(".")[2] for n in entry.code if not n.rpartition(".")[2].startswith("_")
            }
            if not names <= set(re.findall(r"<code>(\w+)</code>", place)):
                broken.append(f"{entry.id}: {links[0]} does not name {names}")
    assert not broken, broken


def _private_functions() -> set[str]:
    """The private helpers of the modules the registry binds: shown on the Code pages only."""
    modules = {
        importlib.import_module(n.rpartition(".")[0]) for e in CLAUSES.values() for n in e.code
    }
    return {
        name
        for module in modules
        for name, found in vars(module).items()
        if name.startswith("_") and not name.startswith("__") and inspect.isfunction(found)
    }


def test_private_names_never_reach_a_players_page(site):
    private = _private_functions()
    assert "_roll" in private  # leadership's helper: a name no player should meet
    for pattern in PLAYERS_PAGES:
        for page in site.glob(pattern):
            text = _text(page.read_text())
            found = {name for name in private if re.search(rf"\b{name}\b", text)}
            assert not found, (page, found)


def test_no_snippet_markers_are_left():
    """The registry replaced the snippet markers: none in the code, none on a page."""
    for path in [*ROOT.glob("rulesref/**/*.py"), *ROOT.glob("docs/rules/*.md")]:
        assert not re.search(r"--8<--", path.read_text(encoding="utf-8")), path
