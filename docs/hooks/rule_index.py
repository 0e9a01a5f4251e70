"""MkDocs hook: build the Rule index and Clarifications pages from the rule pages.

A rule or clarification is a heading of a page under `docs/rules/` of the form
`### BR-5 · Insane Courage {#br-5}`. The index pages are generated from those
headings at build time, so they cannot miss one; the tests check the headings
against the clause registry, `rulesref.clauses`, which gives the Rule index its code
column (links to the Code pages, docs/hooks/clause_code.py).
"""

import importlib.util
import posixpath
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from rulesref.clauses import clause

HEADING = re.compile(
    r"^#{2,6} +(?P<id>[A-Z]{2}-C?\d+) +· +(?P<title>.+?) +\{#(?P<anchor>[a-z0-9-]+)\}\s*$"
)
MARKERS = {"rule-index.md": "<!-- rule index -->", "clarifications.md": "<!-- clarifications -->"}
DOCUMENT_ORDER = ("BR", "LD", "CA", "ST")


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    page: str  # path from docs_dir
    anchor: str
    summary: str  # the first paragraph under the heading

    @property
    def sort_key(self) -> tuple:
        prefix, _, rest = self.id.partition("-")
        order = DOCUMENT_ORDER.index(prefix) if prefix in DOCUMENT_ORDER else len(DOCUMENT_ORDER)
        return (order, prefix, rest.startswith("C"), int(rest.lstrip("C")))


def rules(docs_dir: Path) -> list[Rule]:
    found = []
    for path in sorted((docs_dir / "rules").glob("*.md")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            match = HEADING.match(line)
            if match:
                found.append(
                    Rule(
                        match["id"],
                        match["title"],
                        path.relative_to(docs_dir).as_posix(),
                        match["anchor"],
                        _first_paragraph(lines[number + 1 :]),
                    )
                )
    return sorted(found, key=lambda rule: rule.sort_key)


def _first_paragraph(lines: list[str]) -> str:
    paragraph = []
    for line in lines:
        if line.strip():
            if line.startswith(("#", "```", "!!!", "???", "--8<--", "|", "<")):
                break
            paragraph.append(line.strip())
        elif paragraph:
            break
    return " ".join(paragraph)


def _relative(target: str, from_page: str) -> str:
    return posixpath.relpath(target, posixpath.dirname(from_page) or ".")


def _link(rule: Rule, from_page: str) -> str:
    return f"[{rule.id}]({_relative(rule.page, from_page)}#{rule.anchor})"


def _rebased(rule: Rule, from_page: str) -> str:
    """The rule's summary, its relative links rewritten to work from `from_page`."""

    def rebase(match: re.Match) -> str:
        path, _, anchor = match[1].partition("#")
        target = posixpath.normpath(posixpath.join(posixpath.dirname(rule.page), path))
        return f"]({_relative(target if path else rule.page, from_page)}#{anchor})"

    return re.sub(r"\]\(((?![a-z]+:)[^)]*)\)", rebase, rule.summary)


def _sibling(name: str) -> ModuleType:
    """Another hook of this folder (mkdocs loads each hook as a module of its own name)."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


def _code(rule: Rule, from_page: str) -> str:
    """The rule's implementing functions, each linked to its place on its Code page (a
    private helper by the public function it is shown under)."""
    code = _sibling("clause_code")
    return ", ".join(
        code.markdown_link(shown, from_page) for shown in code.public_names(clause(rule.id))
    )


def on_page_markdown(markdown, page, config, files):
    marker = MARKERS.get(page.file.src_uri)
    if marker is None:
        return markdown
    found = rules(Path(config["docs_dir"]))
    clarification = page.file.src_uri == "clarifications.md"
    rows = ["| id | rule | page | code |", "|---|---|---|---|"] if not clarification else []
    for rule in found:
        if ("-C" in rule.id) != clarification:
            continue
        if clarification:
            rows += [
                f"**{_link(rule, page.file.src_uri)} · {rule.title}**",
                "",
                _rebased(rule, page.file.src_uri),
                "",
            ]
        else:
            page_title = rule.page.removeprefix("rules/").removesuffix(".md")
            link = _link(rule, page.file.src_uri)
            rows.append(
                # an id is one word: "BR-" and "1" never on two lines of a phone's column
                f"| {link}{{ .rr-id }} | {rule.title} | {page_title} | "
                f"{_code(rule, page.file.src_uri)} |"
            )
    return markdown.replace(marker, "\n".join(rows))
