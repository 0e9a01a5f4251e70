"""Every Python example on the site, in the README and in the docstrings runs, and prints
exactly the `#>` lines written under it.

`pytest --update-examples` rewrites the `#>` lines from a fresh run (then review the diff).
Blocks marked `exec="on"` are run by markdown-exec at build time to draw a picture or a
table; here they must run and produce HTML.
"""

from pathlib import Path

import pytest
from pytest_examples import CodeExample, EvalExample, find_examples

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "docs", ROOT / "README.md", ROOT / "rulesref"]
EXAMPLES = [example for source in SOURCES for example in find_examples(source)]


def test_examples_are_found():
    pages = {example.path.name for example in EXAMPLES}
    assert {"break-test.md", "index.md", "README.md", "break_test.py", "dice.py"} <= pages


@pytest.mark.parametrize("example", EXAMPLES, ids=str)
def test_example(example: CodeExample, eval_example: EvalExample):
    eval_example.set_config(line_length=100, target_version="py311", ruff_ignore=["E402"])
    if eval_example.update_examples:
        eval_example.format(example)
    else:
        eval_example.lint(example)
    if 'exec="on"' in example.prefix:
        module = eval_example.run(example)
        assert module, "a build-time block must define something"
    elif eval_example.update_examples:
        eval_example.run_print_update(example)
    else:
        eval_example.run_print_check(example)
