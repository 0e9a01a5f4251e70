"""MkDocs hook: publish the rules and the tables as data, for programs to build on.

- `rules.json`: every clause and clarification of the registry (`rulesref.clauses`), with
  its document, title, our words (HTML and plain text, from its section of the rules
  page), its quick answer (one line, from the registry), its address and short
  address, the readings it governs and the qualified names of its code;
- `odds/<table>.json`: each table of `downloads/<table>.csv`, every cell an exact
  numerator and denominator;
- `llms.txt`: the site's map for language-model tools (https://llmstxt.org), from the
  same data.

Their JSON Schemas are `docs/schemas/` (published beside them). The functions below are
plain, so the tests call them without MkDocs; the hook only adds their output to the site.
`rules.json` is kept in `.cache/rules-json.json` (`kept.Kept`) under a hash of the rules
pages, the package, the site's address and this file: a one-line edit elsewhere under
`properdocs serve` does not render its 109 rules' words again.
"""

import html
import io
import json
import posixpath
import re
import sys
from collections.abc import Iterable
from importlib.metadata import version
from pathlib import Path

import markdown
from mkdocs.structure.files import File

from rulesref.clauses import CLAUSES, Clause, Document
from rulesref.data import odds, readings
from rulesref.tables import campaign_tables, tables

# kept.py is beside this file: ProperDocs puts this folder on the path while it loads a
# hook, a test that loads this file alone does not
sys.path.append(str(Path(__file__).parent))

from kept import Kept, key, package  # noqa: E402

SCHEMA_VERSION = 1
HEADING = re.compile(r"^#{1,6} ")
LINK = re.compile(r'href="(?![a-z]+:)([^"]*)"')
TAGS = re.compile(r"<[^>]+>")
CACHE = Path(__file__).resolve().parents[2] / ".cache" / "rules-json.json"
_state = {"kept": Kept(CACHE, {})}


def words(page_markdown: str, id: str) -> str:
    """Our words for rule `id`: the Markdown between its heading and the next heading,
    without worked examples, code, figures or "Try it" links."""
    heading = re.search(rf"^#{{2,6}} +{re.escape(id)} +· .*$", page_markdown, re.MULTILINE)
    if heading is None:
        raise ValueError(f"no heading of {id} on its page")
    kept: list[str] = []
    skipping = fenced = False
    # the lines after the heading, read only as far as the rule goes (a page has dozens)
    for line in io.StringIO(page_markdown[heading.end() + 1 :]):
        line = line.rstrip("\n")
        if HEADING.match(line) and not fenced:
            break
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        if line.startswith(("???", "!!!")):
            skipping = True  # a collapsed block: its body is indented
            continue
        if skipping and (line.startswith("    ") or not line.strip()):
            continue
        skipping = False
        if line.startswith(("<p class=", "<!--", "---")):
            continue
        kept.append(line)
    return "\n".join(kept).strip()


def address(target: str, from_page: str) -> str:
    """A link of a page of docs/, made a site address from the root: `#br-6` on
    rules/break-test.md is `rules/break-test/#br-6`, `../odds/x.ipynb` is `odds/x/`."""
    path, _, anchor = target.partition("#")
    page = (
        posixpath.normpath(posixpath.join(posixpath.dirname(from_page), path))
        if path
        else from_page
    )
    page = re.sub(r"(?:^|/)index\.md$", "", page)
    page = re.sub(r"\.(md|ipynb)$", "/", page)
    return page + (f"#{anchor}" if anchor else "")


def as_html(words_markdown: str, page: str, site_url: str) -> str:
    """Our words in HTML, each link a full address on the site."""
    rendered = markdown.markdown(words_markdown, extensions=["attr_list", "md_in_html", "tables"])
    return LINK.sub(lambda m: f'href="{site_url}{address(html.unescape(m[1]), page)}"', rendered)


def as_text(words_html: str) -> str:
    """The words of the HTML, each paragraph on a line."""
    paragraphs = re.split(r"</(?:p|li|tr|h\d)>", words_html)
    text = (" ".join(html.unescape(TAGS.sub("", p)).split()) for p in paragraphs)
    return "\n".join(p for p in text if p)


def _document(rule: Clause) -> dict[str, object]:
    document = rule.document
    return {
        "prefix": document.name,
        "title": document.title,
        "author": document.author,
        "date": document.date,
        "page": address(document.page, ""),
    }


def rules_json(docs_dir: Path, site_url: str) -> dict[str, object]:
    """Every clause and clarification of the registry, in its order, as `rules.json`."""
    pages: dict[str, str] = {}
    entries = []
    for rule in CLAUSES.values():
        page = rule.document.page
        if page not in pages:
            pages[page] = (docs_dir / page).read_text(encoding="utf-8")
        rule_html = as_html(words(pages[page], rule.id), page, site_url)
        text = as_text(rule_html)
        entries.append(
            {
                "id": rule.id,
                "kind": "clarification" if rule.clarification else "clause",
                "document": _document(rule),
                "title": rule.title,
                "text": text,
                "html": rule_html,
                "quick_answer": rule.quick,
                "address": address(rule.page, ""),
                "short_address": f"r/{rule.anchor}/",
                "readings": readings(rule.id),
                "code": list(rule.code),
            }
        )
    return {
        "$schema": f"{site_url}schemas/rules.schema.json",
        "version": SCHEMA_VERSION,
        "site": site_url,
        "rules": entries,
    }


def odds_json(site_url: str) -> dict[str, dict[str, object]]:
    """Each table of the site's CSV downloads as `odds/<table>.json`, by file name."""
    every = (*tables(), *campaign_tables().values())
    return {
        f"{table.name}.json": {
            "$schema": f"{site_url}schemas/odds.schema.json",
            "version": SCHEMA_VERSION,
            **odds(table),
            "csv": f"{site_url}downloads/{table.name}.csv",
        }
        for table in every
    }


def _nav(nav: Iterable[object], section: str = "") -> Iterable[tuple[str, str, str]]:
    """(section, title, page) of each page in mkdocs.yml's `nav`."""
    for item in nav:
        if isinstance(item, dict):
            for title, value in item.items():
                if isinstance(value, list):
                    yield from _nav(value, title)
                else:
                    yield section, title, value
        elif isinstance(item, str):
            yield section, item, item


def llms_txt(rules: dict[str, object], odds_names: Iterable[str], nav: list[object]) -> str:
    """The site's map in the llms.txt format: a title, a summary, then one section of
    links per part of the site; the rules' section lists every clause with its quick answer."""
    site = str(rules["site"])
    lines = [
        "# rulesref",
        "",
        "> A verified rules reference for tabletop wargame morale rules (Break tests, d6",
        "> Leadership tests, campaign battles, army standards), with exact probabilities.",
        "",
        "Every rule is restated in our own words under an id such as BR-5, with the code that",
        "implements it; every probability is an exact fraction. The rules as JSON are",
        f"{site}rules.json, each table's exact cells are {site}odds/NAME.json.",
    ]
    sections: dict[str, list[str]] = {}
    for section, title, page in _nav(nav):
        sections.setdefault(section or "Site", []).append(f"- [{title}]({site}{address(page, '')})")
    for section, links in sections.items():
        lines += ["", f"## {section}", "", *links]
    lines += ["", "## Data", ""]
    lines.append(f"- [rules.json]({site}rules.json): every clause and clarification, as data")
    lines += [f"- [odds/{name}]({site}odds/{name}): a table, exactly" for name in odds_names]
    lines += ["", "## Rules", ""]
    for rule in rules["rules"]:
        link = f"[{rule['id']} · {rule['title']}]({site}{rule['address']})"
        lines.append(f"- {link}: {rule['quick_answer']}")
    return "\n".join(lines) + "\n"


def _dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1)


def kept_rules_json(docs_dir: Path, site_url: str) -> dict[str, object]:
    """`rules_json`, from the cache while the rules pages, the package and the address stay."""
    pages = [(docs_dir / document.page).read_text(encoding="utf-8") for document in Document]
    inputs = (Path(__file__).read_bytes(), package(), version("Markdown"), pages, site_url)
    return _state["kept"].get(key(*inputs), lambda: rules_json(docs_dir, site_url))


def on_config(config):
    _state["kept"] = Kept.read(CACHE)
    return config


def on_post_build(config):
    _state["kept"].write()


def on_files(files, config):
    site_url = config["site_url"] or "/"
    rules = kept_rules_json(Path(config["docs_dir"]), site_url)
    tables_as_json = odds_json(site_url)
    generated = {
        "rules.json": _dumps(rules),
        **{f"odds/{name}": _dumps(data) for name, data in tables_as_json.items()},
        "llms.txt": llms_txt(rules, tables_as_json, config["nav"]),
    }
    for path, content in generated.items():
        files.append(File.generated(config, path, content=content))
    return files
