"""Pictures and HTML drawn from the rules: charts, formations, diagrams and decision tables,
and `percent`, `points` and `rounded`, how every page, the command line and the Workbench
write a probability, a difference of two and an expected number to read.

Nothing here decides a rule: each view reads the answers of the rules and odds modules and
draws them as theme-aware SVG or HTML, with no asset from another host.
"""

from rulesref.errors import probability as checked_probability
from rulesref.errors import rational, whole_number
from rulesref.exact import Rational

__all__ = ["percent", "points", "rounded"]

MAX_DIGITS = 12  # decimals of a percentage: beyond that no reader tells them apart
MAX_ROUNDED = 10**6  # an expected number `rounded` writes: the rules' are far smaller


def percent(probability: Rational, digits: int = 1) -> str:
    """A probability as a percentage for reading (never for computing), rounded half up
    to `digits` decimals exactly, as a reader would. The one place the site, the command
    line and the Workbench format a percentage: a probability strictly between 0 and 1
    never shows as 0% or 100%, but as the nearest bound it is beyond.

    ```python
    from rulesref.exact import Rational
    from rulesref.views import percent

    print(percent(Rational(5, 18)), percent(Rational(1, 8), 0), percent(Rational(1)))
    #> 27.8% 13% 100.0%
    print(percent(Rational(215, 216), 0), percent(Rational(1, 46656)), percent(Rational(0), 4))
    #> >99% <0.1% 0.0000%
    ```
    """
    p = checked_probability("probability", probability)
    digits = whole_number("digits", digits, 0, MAX_DIGITS)
    scale = 10**digits
    shown = int((p * 100 * scale * 2 + 1) // 2)
    if 0 < p and shown == 0:
        return f"<{_decimal(1, digits)}%"
    if p < 1 and shown == 100 * scale:
        return f">{_decimal(100 * scale - 1, digits)}%"
    return f"{_decimal(shown, digits)}%"


def points(difference: Rational) -> str:
    """A difference of two probabilities in percentage points, with its sign, rounded as
    `percent` rounds: a difference that is not nought never reads as nought, nor one short
    of 100 points as 100.

    ```python
    from rulesref.exact import Rational
    from rulesref.views import points

    print(points(Rational(5, 81)), points(Rational(-1, 10**6)), points(Rational(0)))
    #> +6.2 points -<0.1 points no change
    print(points(Rational(-9999, 10**4)), "|", points(Rational(-1)))
    #> nearly -100 points | -100.0 points
    ```
    """
    difference = rational("difference", difference, -1, 1)
    if difference == 0:
        return "no change"
    sign = "+" if difference > 0 else "-"
    size = percent(abs(difference)).removesuffix("%")
    # ">99.9" after a sign would read as an arrow ("->99.9")
    return f"nearly {sign}100 points" if size.startswith(">") else f"{sign}{size} points"


def rounded(value: Rational, digits: int = 2) -> str:
    """A number from 0 to `MAX_ROUNDED` (an expected number of hits) as a decimal to read,
    rounded half up to `digits` decimals exactly; one above 0 never reads as 0, but as
    under the least it can show.

    ```python
    from rulesref.exact import Rational
    from rulesref.views import rounded

    print(rounded(Rational(35, 12)), rounded(Rational(1, 7776)), rounded(Rational(0)))
    #> 2.92 <0.01 0.00
    ```
    """
    value = rational("value", value, 0, MAX_ROUNDED)
    digits = whole_number("digits", digits, 0, MAX_DIGITS)
    shown = int((value * 10**digits * 2 + 1) // 2)
    if value > 0 and shown == 0:
        return f"<{_decimal(1, digits)}"
    return _decimal(shown, digits)


def _decimal(units: int, digits: int) -> str:
    """A whole number of 10**-digits as a decimal: 278 with 1 digit is "27.8"."""
    whole, part = divmod(units, 10**digits)
    return f"{whole}.{part:0{digits}d}" if digits else str(whole)
