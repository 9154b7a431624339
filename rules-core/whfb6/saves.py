"""The armour save: a roll needed, where 7 or more means the model has no save at all
(the rulebook's own shorthand: a save that no die can make is no save), shown so."""

from __future__ import annotations

from typing import Annotated

from validator.api import Shown

NO_SAVE = 7
"""A save of 7+ cannot be made: the model has no save."""

SAVE = Shown("roll", at_least=(NO_SAVE, "no save"))
"""An armour save as the roll it needs: ``4+``; 7 or more is no save."""

SaveRoll = Annotated[int, SAVE]
