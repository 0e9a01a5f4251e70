"""The public surface: each module of rulesref lists its API in `__all__`, and every name
the README, the docs and the notebooks import is in it (the Python API page documents
exactly those names)."""

import ast
import importlib
import json
import re
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = {  # every module of the package and its subpackages (rulesref.odds, ...): its file
    ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
    for path in (ROOT / "rulesref").rglob("*.py")
}
PACKAGES_OF_MODULES = {"rulesref.odds"}  # a docstring, no names of its own
MODULES = sorted(set(SOURCES) - PACKAGES_OF_MODULES)
FENCE = re.compile(r"^( *)(`{3,})python[^\n]*\n(.*?)^\1\2", re.S | re.M)


def _examples() -> list[tuple[str, str]]:
    """(where, code) of each Python example a reader sees: README, docs, notebooks."""
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for match in FENCE.finditer(path.read_text(encoding="utf-8")):
            found.append((path.name, textwrap.dedent(match[3])))
    for path in sorted((ROOT / "examples").glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                found.append((path.name, "".join(cell["source"])))
    return found


def test_every_module_lists_its_public_names():
    for name in MODULES:
        module = importlib.import_module(name)
        assert module.__all__, name
        missing = [public for public in module.__all__ if not hasattr(module, public)]
        assert not missing, f"{name}.__all__ names what it lacks: {missing}"
        assert len(set(module.__all__)) == len(module.__all__), name


def test_no_module_answers_for_names_it_lacks():
    """A module-level `__getattr__` (PEP 562) would let `mypy --strict` pass an import of a
    misspelt name; only the package's own, which defers importing `RulesError` so that
    `import rulesref` stays fast, is allowed, and mypy sees a plain import there."""
    found = [
        name
        for name, path in SOURCES.items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__"
    ]
    assert found == ["rulesref"], found
    with pytest.raises(ImportError):
        exec("from rulesref.leadership import cascade_probabilities", {})


def test_the_package_lists_the_name_it_gives_when_asked():
    """dir() and help() show `RulesError`, which `__getattr__` gives on first use."""
    import pydoc

    import rulesref

    assert "RulesError" in dir(rulesref)
    assert "class RulesError" in pydoc.render_doc(rulesref, renderer=pydoc.plaintext)


def test_layout_constants_are_not_api():
    layout = {"BOX_W", "BOX_H", "GAP_X", "ROW", "TABLE_STYLE", "FATE_COLOURS", "NOBODY", "SIZE"}
    for name in MODULES:
        assert not layout & set(importlib.import_module(name).__all__), name


def test_every_name_readers_import_is_public():
    imported = 0
    outside = []
    for where, code in _examples():
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rulesref"):
                public = importlib.import_module(node.module).__all__
                for alias in node.names:
                    imported += 1
                    if alias.name not in public:
                        outside.append(f"{where}: {node.module}.{alias.name}")
    assert imported > 100, imported
    assert not outside, f"names the docs import that are not in __all__: {outside}"


RULES_MODULES = {
    f"rulesref.{name}" for name in ("break_test", "leadership", "campaign", "standards")
}
LONGEST = 60  # lines: a function longer than a screen is two ideas
# Split on another branch (the command line's own rework); the entry goes when it lands.


def test_the_odds_import_only_public_names_of_the_rules():
    """`rulesref.odds` computes the odds of the rules it imports: each name it takes from
    a rules module is public there (in `__all__`, or a module constant such as a limit),
    never a helper the module may change."""
    taken = []
    for name, path in SOURCES.items():
        if name.startswith("rulesref.odds"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module in RULES_MODULES:
                    public = importlib.import_module(node.module).__all__
                    taken += [
                        (name, node.module, a.name)
                        for a in node.names
                        if a.name not in public and not a.name.isupper()
                    ]
    assert not taken, f"odds modules import names that are not public: {taken}"


def test_no_function_is_longer_than_a_screen():
    long = {}
    for name, path in SOURCES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > LONGEST:
                    long[f"{name}.{node.name}"] = lines
    assert not long, f"functions over {LONGEST} lines: {long}"


# The same idea in each document, so the same word (DEVELOPERS.md, One vocabulary).
SAME_IDEA = {"Unit", "Readings", "Fate"}


def test_no_two_public_classes_share_a_name_unless_they_are_one_idea():
    homes: dict[str, list[str]] = {}
    for name in MODULES:
        module = importlib.import_module(name)
        for public in module.__all__:
            found = getattr(module, public)
            if isinstance(found, type) and found.__module__ == name:
                homes.setdefault(public, []).append(name)
    shared = {public: where for public, where in homes.items() if len(where) > 1}
    assert set(shared) <= SAME_IDEA, shared
