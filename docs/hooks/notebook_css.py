"""MkDocs hook: the notebook pages' styles in one shared, cached stylesheet.

mkdocs-jupyter writes nbconvert's whole JupyterLab theme (about 590 KB of CSS) inline into
every notebook page, so each odds page carried it again and no browser could cache it.
This hook takes the `<style>` blocks out of each notebook page, links
`stylesheets/notebook.css` in their place (the cascade keeps its order), and writes that
file once: only the rules whose classes appear on some notebook page (or that the theme
adds in the browser), and only the custom properties those rules read.

The work is done by plain functions (`split_styles`, `used_classes`, `pruned`), which
tests call without MkDocs; the `on_*` functions only wire them in. Pruning takes half a
second, so its result is kept in `.cache/notebook-css/`, named after a hash of the styles
and classes it was made from (`pruned_through`).
"""

import hashlib
import re
from pathlib import Path

import tinycss2

STYLESHEET = "stylesheets/notebook.css"
CACHE = Path(__file__).resolve().parents[2] / ".cache" / "notebook-css"
STYLE = re.compile(r"<style[^>]*>(.*?)</style>\s*", re.S)
CLASS_ATTRIBUTE = re.compile(r'\bclass="([^"]*)"')
# a class a selector needs; what `:not(...)`, `:is(...)` ... hold is left out (kept, to be safe)
SELECTOR_FUNCTION = re.compile(r":[\w-]+\([^()]*\)")
SELECTOR_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
# classes the theme's script adds in the browser (tables wrapped in .md-typeset__scrollwrap)
ADDED_IN_THE_PAGE = ("md-",)
VARIABLE_READ = re.compile(r"var\(\s*(--[\w-]+)")


def split_styles(html: str) -> tuple[str, list[str]]:
    """The page with its `<style>` blocks replaced by one mark where the first was (the
    hook puts the link there, so the cascade keeps its order), and the blocks' CSS in
    order (tests/test_site_hooks.py shows both)."""
    blocks = STYLE.findall(html)
    if not blocks:
        return html, []
    marked = STYLE.sub("<!--notebook.css-->", html, count=1)
    return STYLE.sub("", marked), blocks


def used_classes(html: str) -> set[str]:
    """Every class named in the page's `class` attributes."""
    return {name for value in CLASS_ATTRIBUTE.findall(html) for name in value.split()}


def _selector_used(selector: str, classes: set[str]) -> bool:
    if ":root" in selector.strip()[1:]:
        return False  # `.jupyter-wrapper :root`: the root is inside nothing, never matched
    named = set(SELECTOR_CLASS.findall(SELECTOR_FUNCTION.sub("", selector)))
    return all(name in classes or name.startswith(ADDED_IN_THE_PAGE) for name in named)


def _kept_rules(rules: list, classes: set[str]) -> list:
    kept = []
    for rule in rules:
        if rule.type == "qualified-rule":
            selectors = tinycss2.serialize(rule.prelude).split(",")
            if any(_selector_used(selector, classes) for selector in selectors):
                kept.append(rule)
        elif rule.type == "at-rule" and rule.lower_at_keyword in ("media", "supports"):
            inner = _kept_rules(tinycss2.parse_rule_list(rule.content or []), classes)
            if inner:
                rule.content = [token for kept_rule in inner for token in _tokens(kept_rule)]
                kept.append(rule)
        elif rule.type == "at-rule" and rule.lower_at_keyword != "charset":
            kept.append(rule)  # @font-face, @keyframes ...: kept whole
    return kept


def _tokens(rule) -> list:  # type: ignore[no-untyped-def]
    return tinycss2.parse_component_value_list(tinycss2.serialize([rule]))


def _without_unread_variables(rules: list) -> str:
    """The rules with each custom property declaration that no kept rule reads dropped
    (repeated until nothing changes: a variable may only feed another)."""
    css = tinycss2.serialize(rules)
    while True:
        read = set(VARIABLE_READ.findall(css))
        lean = re.sub(
            r"(?<=[{;])\s*(--[\w-]+)\s*:[^;{}]*;?",
            lambda match, read=read: match.group(0) if match.group(1) in read else "",
            css,
        )
        if lean == css:
            return css
        css = lean


def pruned(css: str, classes: set[str]) -> str:
    """The rules of `css` a page with these classes can match (a selector without a
    class always can), and the custom properties they read."""
    rules = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    return _without_unread_variables(_kept_rules(rules, classes))


def pruned_through(cache: Path, css: str, classes: set[str]) -> str:
    """`pruned(css, classes)`, kept in `cache` under a hash of both (a build whose
    notebooks did not change reads it back; the files of other inputs are removed)."""
    digest = hashlib.sha256(css.encode() + b"\0" + " ".join(sorted(classes)).encode())
    kept = cache / f"{digest.hexdigest()[:16]}.css"
    if kept.exists():
        return kept.read_text(encoding="utf-8")
    lean = pruned(css, classes)
    cache.mkdir(parents=True, exist_ok=True)
    for old in cache.glob("*.css"):
        old.unlink(missing_ok=True)
    kept.write_text(lean, encoding="utf-8")
    return lean


# The wiring: collect each notebook page's blocks and classes, write the file at the end.
_collected: dict[str, list] = {"blocks": [], "classes": []}


def on_pre_build(config):
    _collected["blocks"], _collected["classes"] = [], []


def on_post_page(output, page, config):
    if not page.file.src_uri.endswith(".ipynb"):
        return output
    html, blocks = split_styles(output)
    for block in blocks:
        if block not in _collected["blocks"]:
            _collected["blocks"].append(block)
    _collected["classes"].append(used_classes(html))
    link = f'<link rel="stylesheet" href="{page.url.count("/") * "../"}{STYLESHEET}">'
    return html.replace("<!--notebook.css-->", link, 1)


def on_post_build(config):
    if _collected["blocks"]:
        classes = set().union(*_collected["classes"])
        path = Path(config["site_dir"]) / STYLESHEET
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(pruned_through(CACHE, "\n".join(_collected["blocks"]), classes))
