"""Exact-odds algorithms: how the probabilities of the rules are computed when a formula is not enough.

The rules live in the rules modules (`rulesref.leadership`, `rulesref.campaign`, ...);
the modules here take their inputs and count the dice exactly, with integer weights turned
into `sympy.Rational`s at the edge.
"""

# The rules load first: the chain-of-command drawing at the end of rulesref.leadership
# imports `Cascade` from here, so importing the odds first must not start a cycle.
# (Goes away when that drawing lives in rulesref.views.)
import rulesref.leadership  # noqa: F401
