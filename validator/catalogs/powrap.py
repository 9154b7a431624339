"""Babel's catalogue writer, wrapping long lines in time linear in their length.

Babel's :func:`~babel.messages.pofile.normalize` splits a line longer than the
width with the expression ``babel.messages.pofile.WORD_SEP``, whose branch for
hyphenated words is tried at every character and runs to the end of the run of
letters it starts in: a word of n letters without a space costs n² steps, and a
translation tool that pastes one long line into a target stalls the import for
minutes.  :data:`WORD_SEP` finds the same separators (the tests compare the two on
random texts): its branches start only where the original's could first match (at
the start of a run of letters or of punctuation; at a later character of the same
run the original matches only where it matched at the start), and take their runs
possessively, which the original's backtracking could never shorten to a match.

Babel reads the expression from its module when it writes, so it is replaced there
when this module is imported; every catalogue the project writes goes through
:func:`write_po` and :func:`normalize`, taken from here.
"""

from __future__ import annotations

import re

from babel.messages import pofile
from babel.messages.pofile import normalize as normalize
from babel.messages.pofile import write_po as write_po

BABEL_WORD_SEP = pofile.WORD_SEP
"""Babel's own expression, kept for the tests that compare the two."""

WORD_SEP = re.compile(
    "("
    r"\s+|"  # whitespace
    # a hyphenated word: punctuation, then two letters or more ending in an ASCII one, then the hyphen
    r"(?:(?<![^\s\w])[^\s\w]++|(?<!\w))\w\w++(?<=[a-zA-Z])-(?=\w+[a-zA-Z])|"
    r"(?<=[\w\!\"\'\&\.\,\?])-{2,}+(?=\w)"  # an em-dash written as hyphens
    ")",
)

pofile.WORD_SEP = WORD_SEP
