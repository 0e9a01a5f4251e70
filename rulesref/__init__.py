"""rulesref: a verified reference for tabletop wargame morale rules.

One module per source document, on a small exact dice core:

- `rulesref.dice`: exact outcome counts of d6 and 2D6 rolls, as sympy Rationals.
- `rulesref.break_test`: "Break?" (2D6 Break tests, Insane Courage, Steadfast,
  combat reforms), clauses BR-1 to BR-15.
"""

from rulesref.errors import RulesError

__all__ = ["RulesError"]
__version__ = "0.1.0"
