"""Exact-odds algorithms: how the rules' probabilities are found when a formula is not enough.

The rules live in the rules modules (`rulesref.leadership`, `rulesref.campaign`, ...);
the modules here take their inputs and count the dice exactly, with integer weights turned
into `sympy.Rational`s at the edge.
"""
