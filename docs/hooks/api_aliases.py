"""MkDocs hook: a name that moved or was renamed keeps its old address on the Python API page.

The API page documents each name once, at its new home (`rulesref.odds.cascade...`) or
under its new name. For every entry of `rulesref.moved.MOVED` and `RENAMED`, an empty
anchor with the old id (`rulesref.leadership.cascade_probabilities`) is put just before
the new heading, so old links land on the same documentation. An old module whose every
name moved (`rulesref.charts`) keeps its module anchor the same way.
"""

from rulesref.moved import MOVED, RENAMED


def aliases() -> dict[str, str]:
    """Old id -> the id of its heading on the API page now."""
    found = {}
    for old, home in MOVED.items():
        old_module, _, name = old.rpartition(".")
        found[old] = f"{home}.{name}"
        found.setdefault(old_module, home)
    return found | RENAMED


def on_page_content(html, page, config, files):
    if page.file.src_uri != "api.md":
        return html
    for old, new in aliases().items():
        if f'id="{old}"' in html:
            continue  # still documented where it was (a module that kept other names)
        heading = html.find(f'id="{new}"')
        if heading < 0:
            raise ValueError(f"api_aliases: {old} moved to {new}, which the API page lacks")
        start = html.rfind("<", 0, heading)
        html = f'{html[:start]}<a id="{old}"></a>{html[start:]}'
    return html
