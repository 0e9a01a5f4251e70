"""MkDocs hook: a link to a rule names the rule's id when printed.

A link whose words are not the id (`[Steadfast](#br-6)`) gets `data-rule="BR-6"`; the
print stylesheet (docs/stylesheets/print.css) writes it after the link, so a printed page
still says which rule it means.
"""

import re

RULE_LINK = re.compile(
    r'<a (?P<attrs>[^>]*href="[^"]*#(?P<anchor>(?:br|ld|ca|st)-c?\d+)"[^>]*)>(?P<words>.*?)</a>',
    re.S,
)


def rule_ids(html: str) -> str:
    """Each link to a rule whose words do not already name it, with its id in `data-rule`."""

    def mark(match: re.Match) -> str:
        id = match["anchor"].upper()
        if id in match["words"] or "data-rule" in match["attrs"]:
            return match[0]
        return f'<a {match["attrs"]} data-rule="{id}">{match["words"]}</a>'

    return RULE_LINK.sub(mark, html)


def on_page_content(html, page, config, files):
    return rule_ids(html)
