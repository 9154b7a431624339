"""The executable rules core of the bundled rulebook (Warhammer Fantasy Battle, 6th edition).

Every function here is pure: it takes dice results or game facts and returns an
outcome, or an exact probability as a :class:`fractions.Fraction`.  Nothing here
reads files, YAML or catalogues, so the same functions can be tested alone,
called from the command line and run against the worked examples of the site.

Each public function names the rule ids it implements with :func:`implements`,
so a rule page can link to its implementation and a reviewer can read the two
side by side.
"""
