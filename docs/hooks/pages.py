"""MkDocs hook: make every page easy to find, quote and read.

- Search: code blocks and included code are left out of the search index
  (`data-search-exclude`), so previews show prose (notebook inputs are not rendered at
  all: `no_input` in mkdocs.yml); each rule heading gets its id
  without the hyphen as a hidden alias, so "BR6" and "br6" find BR-6 ("BR-6" is
  searched as "BR" and "6", both in the rule's title).
- Glossary: the abbreviations (docs/includes/abbreviations.md) are underlined at most
  once per section, and never in a heading or a link.
- Descriptions: a notebook's `description` (its metadata) is its page's description,
  as `description:` in a Markdown page's front matter is.
"""

import json
import re

CODE_BLOCK = re.compile(r'<(div|details) class="(highlight|abstract)')
RULE_HEADING = re.compile(r'(<h([2-6]) id="((?:br|ld|ca|st)-c?\d+)"[^>]*>.*?)(</h\2>)', re.S)
TAG = re.compile(r"<(/?)(h[1-6]|a|abbr)\b([^>]*)>")


def on_page_markdown(markdown, page, config, files):
    if page.file.src_uri.endswith(".ipynb"):
        with open(page.file.abs_src_path, encoding="utf-8") as notebook:
            description = json.load(notebook).get("metadata", {}).get("description")
        if description:
            page.meta["description"] = description
    return markdown


def _search_aliases(html: str) -> str:
    def alias(match: re.Match) -> str:
        short = match[3].replace("-", "").upper()
        return f'{match[1]}<span class="rr-alias" hidden> {short}</span>{match[4]}'

    return RULE_HEADING.sub(alias, html)


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
    html = CODE_BLOCK.sub(lambda m: f'<{m[1]} data-search-exclude class="{m[2]}', html)
    return underline_once(_search_aliases(html))
