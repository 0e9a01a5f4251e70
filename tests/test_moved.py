"""Every name in `rulesref.moved.MOVED` still imports from its old module, as the very
object of its new home, and is public there (so the API page documents it); every name
in `RENAMED` still imports under its old name."""

import importlib

import pytest

from rulesref.moved import MOVED, RENAMED


@pytest.mark.parametrize("old, home", sorted(MOVED.items()))
def test_a_moved_name_imports_from_its_old_module_as_the_same_object(old, home):
    old_module, _, name = old.rpartition(".")
    new = importlib.import_module(home)
    assert name in new.__all__, f"{home}.{name} is not public"
    assert getattr(importlib.import_module(old_module), name) is getattr(new, name)
    namespace: dict[str, object] = {}
    exec(f"from {old_module} import {name}", namespace)
    assert namespace[name] is getattr(new, name)


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
