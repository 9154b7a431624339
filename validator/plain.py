"""Outcomes of a rules core as plain data, and plain data as JSON.

Below the ruleset and the trace, which both express what a core computed this way:
a module of its own, so that neither has to import the other to do it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from typing import Any

Plain = Any
"""A JSON-like value: dict, list, str, int, bool, None, a Fraction for probabilities, or a
Decimal for a value with decimals (a float becomes the Decimal of its shortest spelling)."""


def to_plain(value: object) -> Plain:
    """Outcome objects as JSON-like data; fractions and decimals stay exact.

    A float is taken as the decimal it prints as (``2.5`` stays ``2.5``): a core
    that multiplies by a conversion factor gets the number it wrote, where refusing
    floats would make every such core import Decimal for one product.  A value with
    no decimal spelling (``nan``, ``inf``) is refused as the others are.

    >>> to_plain({"range": 2.5, "exact": Decimal("0.10")})
    {'range': Decimal('2.5'), 'exact': Decimal('0.10')}
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(key): to_plain(item) for key, item in value.items()}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [to_plain(item) for item in value]
    if isinstance(value, (Fraction, bool, int, str)) or value is None:
        return value
    if isinstance(value, float) and math.isfinite(value):
        return Decimal(repr(value))
    if isinstance(value, Decimal) and value.is_finite():
        return value
    raise TypeError(f"cannot express {type(value).__name__} {value!r} as plain data")


def to_json(value: Plain) -> Any:
    """Plain data as JSON-ready data: fractions become "a/b" strings, decimals numbers."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, Decimal):
        return decimal_number(value)
    if isinstance(value, dict):
        return {key: to_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [to_json(item) for item in value]
    return value


def decimal_number(value: Decimal) -> int | float:
    """A decimal as a JSON number: a whole one as an integer, else the float that
    prints as the same decimal (JSON has no exact decimal type of its own).

    >>> decimal_number(Decimal("5")), decimal_number(Decimal("3.75"))
    (5, 3.75)
    """
    return int(value) if value == value.to_integral_value() else float(value)
