"""The clause registry is complete and true: every id it lists is a heading of the site and
is named by the code it points to; every id named in the code or the pages is listed."""

import importlib
import importlib.util
import inspect
import re
from collections import defaultdict
from pathlib import Path
from types import SimpleNamespace

import pytest

from rulesref.clauses import CLAUSES, Clause, Document, clause
from rulesref.errors import RulesError

ROOT = Path(__file__).resolve().parent.parent
ORIGINAL = ROOT.parent / "shared/rules/CLAUSES.md"  # the list the ids were first drawn from
ID = re.compile(r"\b(BR|LD|CA|ST)-(C?)(\d+)\b")
RANGE = re.compile(r"\b(BR|LD|CA|ST)-(C?)(\d+) to \1-\2(\d+)\b")
BINDINGS = [(entry.id, name) for entry in CLAUSES.values() for name in entry.code]
RULES_MODULES = ("break_test", "leadership", "campaign", "standards")
LEADING_IDS = re.compile(r"^\s*((?:[A-Z]{2}-C?\d+(?: to [A-Z]{2}-C?\d+)?[ ,()]*)+):")


def named_ids(text: str) -> set[str]:
    """The ids a text names, each `XX-a to XX-b` range counted in full."""
    ids = {match[0] for match in ID.finditer(text)}
    for prefix, c, low, high in RANGE.findall(text):
        ids |= {f"{prefix}-{c}{n}" for n in range(int(low), int(high) + 1)}
    return ids


def _source(id: str, name: str) -> str:
    entry = clause(id)
    found = dict(zip(entry.code, entry.implementations(), strict=True))[name]
    return (inspect.getcomments(found) or "") + inspect.getsource(found)


def _hook():
    spec = importlib.util.spec_from_file_location("rule_index", ROOT / "docs/hooks/rule_index.py")
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    return hook


@pytest.mark.parametrize(("id", "name"), BINDINGS, ids=[f"{i}:{n}" for i, n in BINDINGS])
def test_the_code_of_each_clause_names_it(id, name):
    """Each qualified name imports, and its docstring, source or the comment above it
    names the clause (or a range of ids that covers it)."""
    assert id in named_ids(_source(id, name)), f"{name} does not name {id}"


def test_every_registered_name_is_public():
    """The registry shows the kernel of each rule, never a private helper: each name is in
    its module's `__all__`."""
    for id, name in BINDINGS:
        module, _, attribute = name.rpartition(".")
        assert attribute in importlib.import_module(module).__all__, f"{id}: {name}"


def carried(function: object) -> set[str]:
    """The ids a rules function's docstring starts with (`"LD-5, LD-6: ..."`)."""
    leading = LEADING_IDS.match(inspect.getdoc(function) or "")
    return named_ids(leading[1]) if leading else set()


def test_each_rules_function_is_bound_to_the_clauses_it_carries():
    """A function of a rules module that the registry binds starts its docstring with the
    ids of the clauses it decides, and is bound to exactly those (no more: a resolver that
    calls the kernel of a clause is not shown under it)."""
    bound = defaultdict(set)
    for id, name in BINDINGS:
        bound[name].add(id)
    functions = 0
    for name, ids in bound.items():
        module, _, attribute = name.rpartition(".")
        found = inspect.unwrap(getattr(importlib.import_module(module), attribute))
        if module.rpartition(".")[2] in RULES_MODULES and inspect.isfunction(found):
            functions += 1
            assert carried(found) == ids, (
                f"{name}: carries {sorted(carried(found))}, bound to {sorted(ids)}"
            )
    assert functions > 50, functions


def test_every_clause_and_clarification_is_named_in_a_test():
    text = "\n".join(path.read_text() for path in (ROOT / "tests").glob("test_*.py"))
    missing = [id for id in CLAUSES if not re.search(rf"\b{id}\b", text)]
    assert not missing, f"ids named in no test: {missing}"


def test_only_pure_readings_have_no_code():
    without = [entry for entry in CLAUSES.values() if not entry.code]
    assert all(entry.clarification for entry in without), [e.id for e in without]
    assert len(without) < len(CLAUSES) // 10, "most clarifications have code"


def test_each_document_is_numbered_without_gaps():
    numbers = defaultdict(list)
    for entry in CLAUSES.values():
        prefix, _, number = entry.id.partition("-")
        numbers[prefix, entry.clarification].append(int(number.lstrip("C")))
    assert {prefix for prefix, _ in numbers} == {document.name for document in Document}
    for key, found in numbers.items():
        assert found == list(range(1, len(found) + 1)), key


def test_the_registry_matches_the_rules_pages():
    """Every rule heading of docs/rules/ is registered with the same title, page and
    anchor, and every registered id has its heading."""
    headings = {rule.id: rule for rule in _hook().rules(ROOT / "docs")}
    assert set(headings) == set(CLAUSES), set(headings) ^ set(CLAUSES)
    for id, rule in headings.items():
        entry = CLAUSES[id]
        assert (rule.title, f"{rule.page}#{rule.anchor}") == (entry.title, entry.page), id


def test_the_rule_index_shows_the_code_of_every_clause():
    page = SimpleNamespace(file=SimpleNamespace(src_uri="rule-index.md"))
    config = {"docs_dir": str(ROOT / "docs")}
    index = _hook().on_page_markdown("<!-- rule index -->", page, config, None)
    rows = {row.split("]")[0].strip("| ["): row for row in index.splitlines()[2:]}
    assert list(rows) == [entry.id for entry in CLAUSES.values() if not entry.clarification]
    for id, row in rows.items():
        code = row.rstrip(" |").rpartition(" | ")[2]
        # each public name linked to its Code page; a private helper shown by its caller
        shown = re.findall(r"\[`(\w+)`\]\(code/[\w-]+\.md#rulesref\.[\w.]+\)", code)
        public = [n.rpartition(".")[2] for n in CLAUSES[id].code if "._" not in n]
        assert shown and set(public) <= set(shown) and not [n for n in shown if n[0] == "_"], row


def test_every_id_the_code_names_is_registered():
    """And every registered id is named somewhere in rulesref/ besides the registry."""
    files = [p for p in (ROOT / "rulesref").rglob("*.py") if p.name != "clauses.py"]
    named = set().union(*(named_ids(p.read_text()) for p in files))
    assert named <= set(CLAUSES), (
        f"ids named in rulesref/ but not registered: {named - set(CLAUSES)}"
    )
    assert not set(CLAUSES) - named, f"ids named nowhere in the code: {set(CLAUSES) - named}"


def test_documents():
    for document in Document:
        assert (ROOT / "docs" / document.page).is_file(), document
        assert document.title or document.author, document
    assert Document.ST.author == "Tom Poston" and Document.CA.date == "2001-10-29"
    assert clause("CA-7").document is Document.CA and clause("ca-c3").clarification


def test_lookup():
    assert clause("br-5") is clause("BR-5") is CLAUSES["BR-5"]
    assert isinstance(clause("ST-C8"), Clause) and clause("LD-10").anchor == "ld-10"
    for bad in ("BR-16", "BR-0", "XX-1", "", " BR-5", None, 5):
        with pytest.raises(
            RulesError, match=rf"^id must be a clause .*, got {re.escape(repr(bad))}$"
        ):
            clause(bad)


def test_the_registry_agrees_with_the_original_clause_list():
    """The registry holds every clause of the list the ids came from, in its order.

    That list sits beside the repository only in the project's own workspace (a clone has
    none), so where it is absent the test checks the counts it gave instead; it never skips.
    """
    ours = [entry.id for entry in CLAUSES.values() if not entry.clarification]
    if ORIGINAL.exists():
        assert re.findall(r"^\| ((?:BR|LD|CA|ST)-\d+) \|", ORIGINAL.read_text(), re.M) == ours
    counts = {
        prefix: sum(id.startswith(prefix + "-") for id in ours) for prefix in Document.__members__
    }
    assert counts == {"BR": 15, "LD": 12, "CA": 24, "ST": 13}
