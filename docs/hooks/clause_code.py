"""MkDocs hook: the code of the rules, shown once, one tap away from each rule.

Players read the rules; programmers read the code. So a rules page shows no code: each
rule heading (`### BR-5 · ... {#br-5}`) gets one small "code" link, and a section that is
not a rule but was computed by code names it in a comment line
(`<!-- code: rulesref.dice -->`), which becomes the same small link. Both lead to the
document's Code page, `code/<page>.md` under "For programmers", whose marker line
`<!-- code of the rules -->` is replaced here by the rules' index and then each
function or class the clause registry (`rulesref.clauses`) binds to the document's rules,
once, with its source (read from the module at build time, never a copy), its file and
lines, its entry on the Python API page and the ids of the rules it implements, each
linking back. A private helper is shown under the public name that calls it, so its name
never reaches a players' page; a name bound by two documents is shown on the first.

Worked examples are written on the rules page, under the rule they show (the tests run
them there), but built onto the Code page, under the function they exercise: on the
rules page each becomes a small "worked example in Python" link. Their highlighted code
was most of a rules page (one element per token: 2,368 to 4,346 per page).

Making the Code pages' Markdown took a tenth of a rebuild under `properdocs serve`; it is
kept in `.cache/code-pages.json` (`kept.Kept`) under a hash of all it is made from: this
file, the package's source, the names shown and the rules pages (their worked examples).
"""

import ast
import importlib
import inspect
import posixpath
import re
import sys
import textwrap
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from rulesref.clauses import CLAUSES, Clause, Document

# kept.py is beside this file: ProperDocs puts this folder on the path while it loads a
# hook, a test (or rule_index.py) that loads this file alone does not
sys.path.append(str(Path(__file__).parent))

from kept import Kept, key, package  # noqa: E402

RULE_HEADING = re.compile(r'(<h([2-6]) id="((?:br|ld|ca|st)-c?\d+)"[^>]*>.*?)(</h\2>)', re.S)
NAMED = re.compile(r"^<!-- code: (?P<names>[\w. ]+) -->\s*$", re.M)
API_PAGE = "api.md"
CODE_MARKER = "<!-- code of the rules -->"
EXAMPLE = re.compile(r'^\?\?\? example "Worked example in Python"\n((?:\n|    .*\n)*)', re.M)
FENCED = re.compile(r"^(`{3,}).*?^\1[ \t]*$", re.S | re.M)
HEADING = re.compile(r"^(#{1,6}) +(.*?)(?: +\{#([\w-]+)\})? *$", re.M)
IMPORTS = re.compile(r"^from (rulesref[\w.]*) import (?:\(([^)]*)\)|(.*))$", re.M)
ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
CACHE = ROOT / ".cache" / "code-pages.json"
_state = {"kept": Kept(CACHE, {})}


def _object(name: str) -> object:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        module, _, attribute = name.rpartition(".")
        # a kernel that checks its arguments (`errors.checked_by`) is shown as its function
        return inspect.unwrap(getattr(importlib.import_module(module), attribute))


def _short(name: str) -> str:
    return name.rpartition(".")[2]


def _is_private(name: str) -> bool:
    return name.rpartition(".")[2].startswith("_")


def _api_anchor(name: str) -> str:
    """The name's entry on the API page, or its module's if the name is not public."""
    module, _, attribute = name.rpartition(".")
    if attribute in getattr(importlib.import_module(module), "__all__", ()):
        return name
    return name if inspect.ismodule(_object(name)) else module


def _constants_using(source: str, word: str) -> set[str]:
    """The module constants whose value names `word` (`MODIFIERS = (_ca3_artillery, ...)`)."""
    found = set()
    for statement in ast.parse(source).body:
        if isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is not None:
            if re.search(rf"\b{word}\b", ast.get_source_segment(source, statement.value) or ""):
                targets = (
                    statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                )
                found |= {target.id for target in targets if isinstance(target, ast.Name)}
    return found


def public_caller(name: str) -> str:
    """The public name of the same module whose code reaches the private `name`, directly,
    through another private function or through a module constant that names it."""
    module_name, _, short = name.rpartition(".")
    module = importlib.import_module(module_name)
    source = inspect.getsource(module)
    seen, wanted = {short}, [short]
    while wanted:
        used = wanted.pop(0)
        words = {used} | _constants_using(source, used)
        for other, found in vars(module).items():
            if other in seen or getattr(found, "__module__", None) != module_name:
                continue
            code = inspect.getsource(found) if callable(found) else ""
            if any(re.search(rf"\b{word}\b", code) for word in words):
                if other in getattr(module, "__all__", ()):
                    return f"{module_name}.{other}"
                seen.add(other)
                wanted.append(other)
    raise ValueError(f"no public name of {module_name} reaches {name}")


@dataclass(frozen=True)
class Shown:
    """One name on a Code page: the rules it implements, and the private helpers under it."""

    name: str
    page: str  # the Code page, from docs_dir
    rules: tuple[Clause, ...]
    helpers: tuple["Shown", ...] = ()

    @property
    def anchor(self) -> str:
        return self.name


@dataclass(frozen=True)
class Example:
    """A worked example of a rules page, as it is shown on a Code page."""

    document: Document
    anchor: str  # its id on the Code page: `example-br-3`, `example-br-3-2`
    section: str  # the anchor of the section it is written in ("" at the top of the page)
    title: str  # that section's title, or the rule's id
    code: str  # its fenced Python block

    @property
    def imports(self) -> tuple[str, ...]:
        """The qualified names it imports from rulesref, in order."""
        return tuple(
            f"{found[1]}.{name.strip()}"
            for found in IMPORTS.finditer(self.code)
            for name in (found[2] or found[3]).split(",")
            if name.strip()
        )


Placed = dict[str, tuple[Example, ...]]  # the examples under each name shown


def code_page(document: Document) -> str:
    return "code/" + document.page.removeprefix("rules/")


def _marked(document: Document) -> list[str]:
    """The names a rules page's non-rule sections name in `<!-- code: ... -->` lines."""
    text = (DOCS / document.page).read_text(encoding="utf-8")
    return [name for found in NAMED.finditer(text) for name in found["names"].split()]


def shown_names() -> dict[str, Shown]:
    """Every name shown on a Code page, helpers included, each once, by qualified name."""
    places: dict[str, Shown] = {}
    for document in Document:
        page = code_page(document)
        bound = [entry for entry in CLAUSES.values() if entry.document is document]
        order = [name for entry in bound for name in entry.code] + _marked(document)
        rules = {name: tuple(e for e in CLAUSES.values() if name in e.code) for name in order}
        helpers: dict[str, list[str]] = {}
        for name in dict.fromkeys(order):
            if name in places:
                continue  # bound by an earlier document: shown there
            if _is_private(name):
                helpers.setdefault(public_caller(name), []).append(name)
            else:
                helpers.setdefault(name, [])
        for name, private in helpers.items():
            if name in places:  # a caller shown by an earlier document takes the helpers
                raise ValueError(f"{name} is shown on {places[name].page}; move {private} there")
            under = tuple(Shown(p, page, rules[p]) for p in private)
            places[name] = Shown(name, page, rules.get(name, ()), under)
            places.update({helper.name: helper for helper in under})
    return places


def _relative(target: str, from_page: str) -> str:
    return posixpath.relpath(target, posixpath.dirname(from_page) or ".")


def _url(target: str, from_page: str) -> str:
    """The built address of the page `target` from the page `from_page` (both .md)."""
    if target == from_page:
        return ""
    return posixpath.relpath(target.removesuffix(".md"), from_page.removesuffix(".md")) + "/"


def _link(shown: Shown, from_page: str) -> str:
    """Markdown's link to a shown name, from a page of docs_dir."""
    page = _relative(shown.page, from_page)
    return f"{page}#{shown.anchor}" if shown.page != from_page else f"#{shown.anchor}"


def _section(shown: Shown, level: int, examples: Placed) -> list[str]:
    """A name's part of its Code page: title, rules, place, source, its worked examples,
    then its helpers."""
    found = _object(shown.name)
    lines, first = inspect.getsourcelines(found)
    first = max(first, 1)  # a module starts at line 0
    path = Path(inspect.getsourcefile(found)).resolve().relative_to(ROOT).as_posix()
    short = shown.name.rpartition(".")[2] if not inspect.ismodule(found) else path
    api = _relative(API_PAGE, shown.page)
    source = "".join(lines)
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", source)), default=0))
    rules = ", ".join(
        f"[{r.id}]({_relative(r.document.page, shown.page)}#{r.anchor})" for r in shown.rules
    )
    title = (
        [f"{'#' * level} `{short}` {{#{shown.anchor}}}"]
        if not _is_private(shown.name)  # a helper is no heading: its anchor is not published
        else [
            f'<p class="rr-code-helper" id="{shown.anchor}"><strong><code>{short}</code></strong>,'
            f" a helper of the function above</p>"
        ]
    )
    return [
        *title,
        "",
        *([f"Implements {rules}.", ""] if rules else []),
        f"`{path}`, lines {first}–{first + len(lines) - 1} · "
        f"[`{shown.name}` on the Python API page]({api}#{_api_anchor(shown.name)})",
        "",
        f"{fence}python",
        *(line.rstrip() for line in source.splitlines()),
        fence,
        "",
        *(
            line
            for example in examples.get(shown.name, ())
            for line in _example(example, shown.page)
        ),
        *(line for helper in shown.helpers for line in _section(helper, level, examples)),
    ]


def code_markdown(document: Document, places: dict[str, Shown], examples: Placed) -> str:
    """The generated part of a document's Code page: its rules' index, then each name
    with the worked examples placed under it."""
    page = code_page(document)
    rules_url = _url(document.page, page)
    top = [shown for shown in places.values() if shown.page == page and not _is_private(shown.name)]
    index = []
    for entry in (e for e in CLAUSES.values() if e.document is document and e.code):
        links = ", ".join(
            f'<a href="{_url(s.page, page)}#{s.anchor}"><code>{_short(s.name)}</code></a>'
            for s in public_names(entry)
        )
        index.append(
            f'<li id="{entry.anchor}"><a href="{rules_url}#{entry.anchor}">{entry.id}</a>'
            f" {entry.title}: {links}</li>"
        )
    return "\n".join(
        [
            "## By rule {#by-rule}",
            "",
            '<ul class="rr-code-index">',
            *index,
            "</ul>",
            "",
            *(line for shown in top for line in _section(shown, 2, examples)),
        ]
    )


def _public(shown: Shown) -> Shown:
    """The shown name, or for a helper its public caller (under which it is shown)."""
    return shown if not _is_private(shown.name) else PLACES_BY_HELPER[shown.name]


PLACES = shown_names()
PLACES_BY_HELPER = {h.name: s for s in PLACES.values() for h in s.helpers}


def public_names(entry: Clause) -> tuple[Shown, ...]:
    """The public names under which a rule's code is shown, each once."""
    return tuple(dict.fromkeys(_public(PLACES[name]) for name in entry.code))


def markdown_link(shown: Shown, from_page: str) -> str:
    """A Markdown link to a shown name, its short name as the text."""
    return f"[`{shown.name.rpartition('.')[2]}`]({_link(shown, from_page)})"


def code_link(entry: Clause, from_page: str) -> str:
    """Where a rule's code is: its one public name's section, or its line of the index."""
    names = public_names(entry)
    if len(names) == 1:
        shown = next(iter(names))
        return f"{_url(shown.page, from_page)}#{shown.anchor}"
    return f"{_url(code_page(entry.document), from_page)}#{entry.anchor}"


def with_code_links(html: str, page: str) -> str:
    """Each rule heading with its small "code" link (site.js puts "Copy link" before it)."""

    def add(match: re.Match) -> str:
        entry = CLAUSES[match[3].upper()]
        if not entry.code:
            return match[0]
        link = (
            f'<a class="rr-code-link" data-search-exclude href="{code_link(entry, page)}"'
            f' aria-label="Code of {entry.id}">code</a>'
        )
        return f"{match[1]}{link}{match[4]}"

    return RULE_HEADING.sub(add, html)


def with_marked_links(markdown: str, page: str) -> str:
    """Each `<!-- code: NAME -->` line as a small link to NAME on the Code page."""

    def link(found: re.Match) -> str:
        names = found["names"].split()
        links = " · ".join(
            "code: " + markdown_link(shown, page)
            for shown in dict.fromkeys(_public(PLACES[name]) for name in names)
        )
        return f'<p class="rr-code-links" markdown>{links}</p>'

    return NAMED.sub(link, markdown)


def _examples(document: Document, markdown: str) -> list[tuple[re.Match[str], Example]]:
    """Each worked example of a rules page with its place in the Markdown."""
    # headings inside fenced code (a `# comment` of a drawing's block) are no headings
    masked = FENCED.sub(lambda block: re.sub(r"[^\n]", " ", block[0]), markdown)
    headings = list(HEADING.finditer(masked))
    found, seen = [], Counter[str]()
    for block in EXAMPLE.finditer(markdown):
        heading = next((h for h in reversed(headings) if h.start() < block.start()), None)
        slug = heading and (heading[3] or re.sub(r"\W+", "-", heading[2].lower()).strip("-"))
        section = slug if heading and len(heading[1]) > 1 else ""
        rule = CLAUSES.get(section.upper())
        title = rule.id if rule else heading[2] if heading and section else document.title
        seen[section] += 1
        number = f"-{seen[section]}" if seen[section] > 1 else ""
        anchor = f"example-{section or 'top'}{number}"
        code = textwrap.dedent(block[1]).strip() + "\n"
        found.append((block, Example(document, anchor, section, title, code)))
    return found


def worked_examples(document: Document, markdown: str) -> tuple[Example, ...]:
    """The worked examples written on a document's rules page, in order."""
    return tuple(example for _, example in _examples(document, markdown))


def _exercised(example: Example, places: dict[str, Shown]) -> list[Shown]:
    """The shown names an example imports, its functions before its classes (a record is
    built to be passed to them), each in the order the example first uses it."""
    body = IMPORTS.sub("", example.code)

    def order(name: str) -> tuple[bool, int]:
        used = re.search(rf"\b{_short(name)}\b", body)
        return inspect.isclass(_object(name)), used.start() if used else len(body)

    names = sorted((name for name in example.imports if name in places), key=order)
    return list(dict.fromkeys(_public(places[name]) for name in names))


def example_home(example: Example, places: dict[str, Shown]) -> Shown:
    """The name an example is shown under: of the names it exercises, the first its rule
    is bound to, else the first its document's Code page shows, else the first."""
    shown = _exercised(example, places)
    rule = CLAUSES.get(example.section.upper())
    bound = public_names(rule) if rule else ()
    page = code_page(example.document)
    for candidates in ([s for s in shown if s in bound], [s for s in shown if s.page == page]):
        if candidates:
            return candidates[0]
    if not shown:
        raise ValueError(f"{example.anchor} of {example.document.page} imports no shown name")
    return shown[0]


def placed_examples(places: dict[str, Shown]) -> Placed:
    """Every rules page's worked examples, by the name each is shown under."""
    placed: dict[str, list[Example]] = {}
    for document in Document:
        markdown = (DOCS / document.page).read_text(encoding="utf-8")
        for example in worked_examples(document, markdown):
            placed.setdefault(example_home(example, places).name, []).append(example)
    return {name: tuple(examples) for name, examples in placed.items()}


def _example(example: Example, from_page: str) -> list[str]:
    """A worked example on a Code page, linking back to where it is written."""
    section = f"#{example.section}" if example.section else ""
    back = f'<a href="{_url(example.document.page, from_page)}{section}">{example.title}</a>'
    return [
        f'<p class="rr-code-example" id="{example.anchor}"><strong>Worked example</strong>'
        f" from {back}</p>",
        "",
        example.code,
    ]


def without_examples(markdown: str, page: str, places: dict[str, Shown]) -> str:
    """A rules page with each worked example replaced by a small link to it."""
    document = next(d for d in Document if d.page == page)
    out, position = [], 0
    for block, example in _examples(document, markdown):
        home = example_home(example, places)
        link = f"{_url(home.page, page)}#{example.anchor}"
        out += [
            markdown[position : block.start()],
            f'<p class="rr-code-links" data-search-exclude><a href="{link}">'
            "worked example in Python</a></p>\n\n",
        ]
        position = block.end()
    return "".join(out) + markdown[position:]


def kept_code_markdown(document: Document) -> str:
    """`code_markdown` of the document, from the cache while its inputs stay the same."""
    rules_pages = [(DOCS / d.page).read_text(encoding="utf-8") for d in Document]
    inputs = (Path(__file__).read_bytes(), package(), PLACES, rules_pages)
    made = lambda: code_markdown(document, PLACES, placed_examples(PLACES))  # noqa: E731
    return _state["kept"].get(key(document.name, *inputs), made)


def on_config(config):
    _state["kept"] = Kept.read(CACHE)
    return config


def on_post_build(config):
    _state["kept"].write()


def on_page_markdown(markdown, page, config, files):
    uri = page.file.src_uri
    if uri.startswith("code/"):
        document = next(d for d in Document if code_page(d) == uri)
        return markdown.replace(CODE_MARKER, kept_code_markdown(document))
    if uri.startswith("rules/"):
        return with_marked_links(without_examples(markdown, uri, PLACES), uri)
    return markdown


def on_page_content(html, page, config, files):
    if not page.file.src_uri.startswith("rules/"):
        return html
    return with_code_links(html, page.file.src_uri)
