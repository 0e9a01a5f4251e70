"""`rulesref` and `python -m rulesref`: the command line, started without sympy.

The answers it prints are the same fractions; `rulesref.exact` explains the switch.
"""

import os
import sys

__all__ = ["run"]


def run() -> None:
    """The `rulesref` command's entry point."""
    os.environ.setdefault("RULESREF_FRACTIONS", "1")  # before rulesref.exact is imported
    from rulesref.cli import main  # noqa: PLC0415 (after the switch above)

    sys.exit(main())


if __name__ == "__main__":
    run()
