"""rulesref: a verified reference for tabletop wargame morale rules.

One module per source document, on a small exact dice core:

- `rulesref.dice`: exact outcome counts of d6 and 2D6 rolls, as sympy Rationals.
- `rulesref.break_test`: "Break?" (2D6 Break tests, Insane Courage, Steadfast,
  combat reforms), clauses BR-1 to BR-15.
- `rulesref.leadership`: "Leadership Tests" (d6 Leadership, unit, command and force
  Break tests, Doctrines, the exact cascade), clauses LD-1 to LD-12.
- `rulesref.campaign`: campaign combat (platoons, Battle Damage, hits, withdrawals,
  sieges, the Mission HQ), clauses CA-1 to CA-24, a package of one module per concern.
- `rulesref.standards`: "Army Standard" (when standards are captured, lost or kept),
  clauses ST-1 to ST-13.

Around them: `rulesref.tables` (the site's tables and calculator data),
`rulesref.views` (charts, formation diagrams, decision tables and diagrams, on the SVG
toolkit `rulesref.views.svg`), `rulesref.cli` (the `rulesref` command),
`rulesref.words` (`Word`, the type of every fixed list of the rules' words) and
`rulesref.errors` (`RulesError`, for any input no rule accepts).
"""

from typing import TYPE_CHECKING

__all__ = ["RulesError"]
__version__ = "0.1.0"

if TYPE_CHECKING:
    from rulesref.errors import RulesError
else:

    def __getattr__(name: str) -> object:
        # imported when first asked for, so that `import rulesref` (and the command line,
        # which chooses its number type first: rulesref.exact) starts fast
        if name == "RulesError":
            from rulesref.errors import RulesError

            return RulesError
        raise AttributeError(f"module 'rulesref' has no attribute {name!r}")

    def __dir__() -> list[str]:
        # with the names __getattr__ gives, for dir() and help()
        return sorted({*globals(), *__all__})
