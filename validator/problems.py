"""Problems found in the input, reported the same way everywhere.

Every message names the file and line, the id of the rule (or other entry) it
concerns, what is wrong and how to fix it, so that a reader can go straight to
the place without a traceback.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int
    subject: str
    message: str
    fix: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        subject = f" [{self.subject}]" if self.subject else ""
        fix = f" Fix: {self.fix}" if self.fix else ""
        return f"{where}:{subject} {self.message}.{fix}"


class ProblemsFound(Exception):
    """Raised when input cannot be used; carries every problem found, sorted."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = tuple(sorted(set(problems)))
        super().__init__("\n".join(str(problem) for problem in self.problems))


def without_consequential_errors(details: list[Any]) -> list[Any]:
    """Drop a length error on a sequence whose items already failed: pydantic reports
    the emptied sequence too, which would only repeat the real problem."""
    locations = [tuple(detail["loc"]) for detail in details]
    return [
        detail for detail in details
        if not (detail["type"] == "too_short"
                and any(other[:len(detail["loc"])] == tuple(detail["loc"]) and len(other) > len(detail["loc"])
                        for other in locations))
    ]
