"""MkDocs hook: make every page easy to find, quote and read.

- Search: a player's page ranks above a programmer's (`search: boost` per page, set
  here by folder; the Python API page is left out of the index). Code blocks, worked
  examples, tables, pictures (SVG, figures) and notebook anchor marks ("¶") are left
  out of the index (`data-search-exclude`), so previews are prose and titles are clean
  (notebook inputs are not rendered at all: `no_input` in mkdocs.yml). Each rule's
  title in the index carries, in a hidden element, its id in other spellings ("BR6",
  "BR 6") and its key words ("Insane Courage" for BR-5): search weighs them as title
  words, no result shows them. A clarification weighs a little less than a rule.
- Glossary: the abbreviations (docs/includes/abbreviations.md) are underlined at most
  once per section, and never in a heading or a link.
- Descriptions: a notebook's `description` (its metadata) is its page's description,
  as `description:` in a Markdown page's front matter is.
"""

import json
import re
from pathlib import Path

# what search leaves out: code, worked examples, tables, pictures, notebook "¶" marks
PICTURE_OR_TABLE = re.compile(r"<(table|svg|figure)\b")
CLASSED = re.compile(r'<(div|details|a) class="([^"]*)"')
NOT_PROSE_CLASSES = {"highlight", "abstract", "example", "anchor-link", "tabbed-labels"}
RULE_ID = re.compile(r"(?:br|ld|ca|st)-c?\d+")
# a player's words for a rule that our title and its part's title do not use
KEYWORDS = {"ST-1": "captured", "LD-7": "re-roll reroll", "CA-12": "battle damage"}
CLARIFICATION_WEIGHT = 0.4  # a rule ranks above a clarification that repeats its words
PART_WEIGHT = 0.5  # and above the heading of its part ("Insane Courage" above BR-5)
SEARCH_WORDS: dict[str, str] = {}  # location in the search index -> the rule's search words
# where a page stands in search: players' pages first, the programmers' last
SEARCH_BOOST = {
    "rules/": 3,
    "odds/": 2,
    "tools/calculators": 2,
    "glossary": 2,
    "clarifications": 2,
    "rule-index": 1.5,
    "code/": 0.2,
    "tools/command-line": 0.3,
}
# pages left out of the index: the API page (its names are on the Code pages too) and the
# Performance page (measurements, not rules; and its hundreds of numbers broke the search:
# lunr's token set, in Material 9, merges unlike nodes when digits meet node ids, and a
# query with a number, "double 1", then found nothing)
NOT_SEARCHED = {"api.md", "performance.md"}
TAG = re.compile(r"<(/?)(h[1-6]|a|abbr)\b([^>]*)>")


def on_page_markdown(markdown, page, config, files):
    uri = page.file.src_uri
    if uri.endswith(".ipynb"):
        with open(page.file.abs_src_path, encoding="utf-8") as notebook:
            description = json.load(notebook).get("metadata", {}).get("description")
        if description:
            page.meta["description"] = description
    if uri in NOT_SEARCHED:
        page.meta["search"] = {"exclude": True}
    boost = next((b for start, b in SEARCH_BOOST.items() if uri.startswith(start)), None)
    if boost is not None:
        page.meta["search"] = {"boost": boost}
    return markdown


def search_prose(html: str) -> str:
    """Mark what is not prose so that search leaves it out of titles and previews."""

    def classed(match: re.Match) -> str:
        if NOT_PROSE_CLASSES.isdisjoint(match[2].split()):
            return match[0]
        return f'<{match[1]} data-search-exclude class="{match[2]}"'

    html = PICTURE_OR_TABLE.sub(r"<\1 data-search-exclude", html)
    return CLASSED.sub(classed, html)


def id_spellings(rule_id: str) -> str:
    """Other ways a player types a rule's id: "BR6", "BR 6" (search splits "BR-6" itself)."""
    prefix, _, number = rule_id.upper().partition("-")
    return f"{prefix}{number} {prefix} {number}"


def _rule_keywords(page) -> None:
    """Note the search words of each rule of a rules page: its id's other spellings, and
    for a clause the title of the part it belongs to ("Insane Courage" for BR-5)."""

    def walk(items, part: str) -> None:
        for item in items:
            if RULE_ID.fullmatch(item.id):
                group = part if "-c" not in item.id else ""
                extra = KEYWORDS.get(item.id.upper(), "")
                words = " ".join(filter(None, [id_spellings(item.id), group, extra]))
                SEARCH_WORDS[f"{page.url}#{item.id}"] = words
            walk(item.children, item.title if item.level == 2 else part)

    walk(page.toc.items, "")


def search_index_for_players(index: dict) -> dict:
    """The search index with each rule's search words in its title, hidden from view (a
    title's words weigh most), and clarifications a little below the rules they read."""
    rules_pages = {location.partition("#")[0] for location in SEARCH_WORDS}
    for doc in index["docs"]:
        page, _, anchor = doc["location"].partition("#")
        words = SEARCH_WORDS.get(doc["location"])
        if words:
            doc["title"] += f'<span class="rr-alias" hidden> {words}</span>'
            if "-c" in anchor:
                doc["boost"] = doc.get("boost", 1) * CLARIFICATION_WEIGHT
        elif page in rules_pages and anchor:  # a part's heading or an example: below its rules
            doc["boost"] = doc.get("boost", 1) * PART_WEIGHT
    return index


def underline_once(html: str) -> str:
    """Keep an <abbr> only for the first use of its term in each section, outside
    headings and links."""
    out, position = [], 0
    seen: set[str] = set()
    inside = {"heading": 0, "a": 0}
    skipping = 0  # open <abbr> elements being dropped
    for match in TAG.finditer(html):
        out.append(html[position : match.start()])
        position = match.end()
        closing, tag, attrs = match[1], match[2], match[3]
        if tag == "abbr":
            if closing:
                if skipping:
                    skipping -= 1
                    continue
            else:
                term = re.search(r'title="([^"]*)"', attrs)
                key = term[1] if term else attrs
                if inside["heading"] or inside["a"] or key in seen:
                    skipping += 1
                    continue
                seen.add(key)
        elif tag == "a":
            inside["a"] += -1 if closing else 1
        else:
            inside["heading"] += -1 if closing else 1
            if not closing:
                seen.clear()  # a new section
        out.append(match[0])
    out.append(html[position:])
    return "".join(out)


def on_page_content(html, page, config, files):
    if page.file.src_uri.startswith("rules/"):
        _rule_keywords(page)
    return underline_once(search_prose(html))


def on_post_build(config):
    path = Path(config["site_dir"]) / "search" / "search_index.json"
    index = search_index_for_players(json.loads(path.read_text(encoding="utf-8")))
    path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
