"""The scenarios of the bundled rules core: every question a worked example can ask.

Each scenario pairs a typed input (a dataclass whose constraints the engine
checks before the core runs) with a core function.  The names are stable: worked
examples, club test files and ``validator calc`` refer to them.  Each chapter
keeps its scenarios in a module of its own; this one gathers them.
"""

from __future__ import annotations

from validator.api import Ruleset
from whfb6.rulings import ADOPTED, VARIANTS
from whfb6.scenarios import characters, chariots, monstrous_mounts, tables, units

RULESET = Ruleset(
    scenarios=(
        *tables.SCENARIOS,
        *characters.SCENARIOS,
        *monstrous_mounts.SCENARIOS,
        *chariots.SCENARIOS,
        *units.SCENARIOS,
    ),
    variants=VARIANTS,
    adopted=ADOPTED,
)
