"""MkDocs hook: a short address for every rule and clarification, and their previews.

`/r/br-6/` is a small page whose title (and Open Graph and Twitter title) is the rule's
id and title, and whose description is its quick answer (`Clause.quick`, the registry's
one line in a player's words): a link pasted in a chat says what the rule is and answers
it, where the first paragraph (a median of 242 characters) would be cut off mid-sentence.
It sends the reader on to the rule's anchor (a meta refresh, a script for browsers that
drop the anchor, and a visible link). `/r/index.json` holds the title and first
paragraph of every rule, by id, for the previews of cross-references on the rules pages
(docs/javascripts/site.js), where the reader has the time for the whole paragraph. Both
are drawn from the rules pages' headings and first paragraphs (docs/hooks/rule_index.py)
and from the registry, so they cannot drift from them.
"""

import html
import json
import posixpath
import re
from pathlib import Path

from rule_index import Rule, rules

from rulesref.clauses import clause

FOLDER = "r"


def plain(markdown: str) -> str:
    """A paragraph of our Markdown as plain text: links, emphasis, code and tags dropped."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)(\{[^}]*\})?", r"\1", markdown)
    text = re.sub(r"<[^>]+>", "", text)
    return re.sub(r"[*`]", "", text).strip()


def _target(rule: Rule) -> str:
    """The rule's address from its short address's folder (`r/br-6/`)."""
    page = posixpath.relpath(rule.page.removesuffix(".md"), f"{FOLDER}/{rule.anchor}")
    return f"{page}/#{rule.anchor}"


def short_page(rule: Rule, quick: str, site_name: str, site_url: str) -> str:
    """The short address's page: the rule's title and its `quick` answer in its tags, then
    on to the rule."""
    title = html.escape(f"{rule.id} · {rule.title} · {site_name}")
    words = html.escape(quick)
    target = html.escape(_target(rule))
    full = html.escape(f"{site_url.rstrip('/')}/{rule.page.removesuffix('.md')}/#{rule.anchor}")
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<meta name="description" content="{words}">
<meta property="og:type" content="article">
<meta property="og:site_name" content="{html.escape(site_name)}">
<meta property="og:title" content="{title}">
<meta property="og:description" content="{words}">
<meta property="og:url" content="{full}">
<meta name="twitter:card" content="summary">
<meta name="twitter:title" content="{title}">
<meta name="twitter:description" content="{words}">
<link rel="canonical" href="{full}">
<meta http-equiv="refresh" content="0; url={target}">
<script>location.replace({json.dumps(_target(rule))});</script>
</head>
<body>
<p><a href="{target}">{html.escape(f"{rule.id} · {rule.title}")}</a></p>
<p>{words}</p>
</body>
</html>
"""


def previews(found: list[Rule]) -> dict[str, dict[str, str]]:
    """Each rule's title and words, by anchor, with its address from the site's root."""
    return {
        rule.anchor: {
            "id": rule.id,
            "title": rule.title,
            "words": plain(rule.summary),
            "page": rule.page.removesuffix(".md") + "/",
        }
        for rule in found
    }


def on_post_build(config):
    site = Path(config["site_dir"])
    found = rules(Path(config["docs_dir"]))
    for rule in found:
        folder = site / FOLDER / rule.anchor
        folder.mkdir(parents=True, exist_ok=True)
        quick = clause(rule.id).quick
        page = short_page(rule, quick, config["site_name"], config["site_url"] or "/")
        (folder / "index.html").write_text(page, encoding="utf-8")
    index = json.dumps(previews(found), ensure_ascii=False, separators=(",", ":"))
    (site / FOLDER / "index.json").write_text(index, encoding="utf-8")
