"""Names that moved (`rulesref.moved.MOVED`) still import from their old module, as the
very same objects, and the old module no longer lists them as its own."""

import importlib
import subprocess
import sys

import pytest

from rulesref.moved import MOVED, moved_from


@pytest.mark.parametrize("old, home", sorted(MOVED.items()))
def test_every_moved_name_imports_from_its_old_module(old, home):
    module, _, name = old.rpartition(".")
    old_module, new_module = importlib.import_module(module), importlib.import_module(home)
    assert getattr(old_module, name) is getattr(new_module, name)
    assert name in new_module.__all__
    assert name not in old_module.__all__
    assert old_module.__getattr__(name) is getattr(new_module, name)


def test_from_import_of_a_moved_name_works():
    from rulesref.leadership import Cascade, cascade_probabilities
    from rulesref.odds import cascade

    assert cascade_probabilities is cascade.cascade_probabilities and Cascade is cascade.Cascade


@pytest.mark.parametrize("first", ["rulesref.leadership", "rulesref.odds.cascade"])
def test_either_module_may_be_imported_first(first):
    """A fresh interpreter: no import order makes a cycle."""
    code = f"import {first}; from rulesref.leadership import cascade_probabilities"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_name_that_never_existed_is_still_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        moved_from("rulesref.leadership")("no_such_name")
    with pytest.raises(ImportError):
        from rulesref.leadership import no_such_name  # noqa: F401
