"""Every name in `rulesref.moved.MOVED` still imports from its old module, as the very
object of its new home, and is public there (so the API page documents it) and not in the
old module's list; every name in `RENAMED` still imports under its old name."""

import importlib
import subprocess
import sys

import pytest

from rulesref.moved import MOVED, RENAMED, moved_from


@pytest.mark.parametrize("old, home", sorted(MOVED.items()))
def test_a_moved_name_imports_from_its_old_module_as_the_same_object(old, home):
    old_module, _, name = old.rpartition(".")
    new = importlib.import_module(home)
    assert name in new.__all__, f"{home}.{name} is not public"
    assert name not in importlib.import_module(old_module).__all__
    assert getattr(importlib.import_module(old_module), name) is getattr(new, name)
    namespace: dict[str, object] = {}
    exec(f"from {old_module} import {name}", namespace)
    assert namespace[name] is getattr(new, name)


@pytest.mark.parametrize(
    "old, home", sorted({(old.rpartition(".")[0], home) for old, home in MOVED.items()})
)
def test_either_module_may_be_imported_first(old, home):
    """A fresh interpreter: no import order makes a cycle."""
    for first, second in ((old, home), (home, old)):
        subprocess.run([sys.executable, "-c", f"import {first}, {second}"], check=True)


def test_an_unknown_name_is_still_an_attribute_error():
    for old_module in sorted({old.rpartition(".")[0] for old in MOVED}):
        with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
            importlib.import_module(old_module).no_such_name  # noqa: B018


@pytest.mark.parametrize("old, new", sorted(RENAMED.items()))
def test_a_renamed_name_still_imports_under_its_old_name(old, new):
    old_module, _, old_name = old.rpartition(".")
    home, _, name = new.rpartition(".")
    assert old_module == home and name in importlib.import_module(home).__all__
    namespace: dict[str, object] = {}
    exec(f"from {old_module} import {old_name}", namespace)
    assert namespace[old_name] is getattr(importlib.import_module(home), name)


def test_the_lookup_made_afresh_finds_each_kind_of_name():
    """`moved_from` called here, not when a module is imported: mutation testing sees only
    what runs after the import. A moved name, a renamed one, and one that never was."""
    for old, new in [*MOVED.items(), *RENAMED.items()]:
        old_module, _, name = old.rpartition(".")
        home, _, new_name = new.rpartition(".") if old in RENAMED else (new, "", name)
        found = getattr(importlib.import_module(home), new_name)
        assert moved_from(old_module)(name) is found, old
    with pytest.raises(AttributeError) as error:
        moved_from("rulesref.campaign")("no_such_name")
    assert str(error.value) == "module 'rulesref.campaign' has no attribute 'no_such_name'"
