"""MkDocs hook: show the code of each rule under its heading, drawn from the clause registry.

On a rules page, after the first paragraph under a clause or clarification heading
(`### BR-5 · ... {#br-5}`), one collapsed block for each function or class that
`rulesref.clauses` binds to it: its source, read from the module at build time (never a
copy), its file and lines, and a link to its entry on the Python API page. A section
that is not a rule names what it shows in a comment line: `<!-- code: rulesref.dice -->`.
"""

import importlib
import inspect
import posixpath
import re
from pathlib import Path

from rulesref.clauses import clause

RULE_HEADING = re.compile(r"^#{2,6} .*\{#(?P<anchor>[a-z]{2}-c?\d+)\}\s*$")
NAMED = re.compile(r"^<!-- code: (?P<names>[\w. ]+) -->\s*$")
API_PAGE = "api.md"
ROOT = Path(__file__).resolve().parents[2]


def _object(name: str) -> object:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        module, _, attribute = name.rpartition(".")
        return getattr(importlib.import_module(module), attribute)


def _api_anchor(name: str) -> str:
    """The name's entry on the API page, or its module's if the name is not public."""
    module, _, attribute = name.rpartition(".")
    if attribute in getattr(importlib.import_module(module), "__all__", ()):
        return name
    return name if inspect.ismodule(_object(name)) else module


def code_block(name: str, from_page: str) -> str:
    """A collapsed admonition with the source of `name` (a module, class or function)."""
    found = _object(name)
    lines, first = inspect.getsourcelines(found)
    first = max(first, 1)  # a module starts at line 0
    path = Path(inspect.getsourcefile(found)).resolve().relative_to(ROOT).as_posix()
    short = name.rpartition(".")[2]
    api = posixpath.relpath(API_PAGE, posixpath.dirname(from_page) or ".")
    source = "".join(lines)
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", source)), default=0))
    shown = f"`{short}` in `{path}`" if not inspect.ismodule(found) else f"`{path}`"
    return "\n".join(
        [
            f'??? abstract "Code: {shown}"',
            "",
            f"    `{path}`, lines {first}–{first + len(lines) - 1} · "
            f"[`{name}` on the Python API page]({api}#{_api_anchor(name)})",
            "",
            f"    {fence}python",
            *(f"    {line}".rstrip() for line in source.splitlines()),
            f"    {fence}",
            "",
        ]
    )


def with_code(markdown: str, page: str) -> str:
    """The page with the code of each rule after its first paragraph."""
    out: list[str] = []
    pending: tuple[str, ...] = ()  # names waiting for the end of the first paragraph
    in_paragraph = False
    for line in markdown.splitlines():
        named = NAMED.match(line)
        if named:
            out += [code_block(name, page) for name in named["names"].split()]
            continue
        if pending and line.strip():
            in_paragraph = True
        elif pending and in_paragraph:
            out += ["", *(code_block(name, page) for name in pending)]
            pending, in_paragraph = (), False
        out.append(line)
        heading = RULE_HEADING.match(line)
        if heading:
            pending = clause(heading["anchor"]).code
    if pending:
        out += ["", *(code_block(name, page) for name in pending)]
    return "\n".join(out) + "\n"


def on_page_markdown(markdown, page, config, files):
    if not page.file.src_uri.startswith("rules/"):
        return markdown
    return with_code(markdown, page.file.src_uri)
