"""validator: build verified, multilingual rules reference sites.

Rules are YAML with English source text, translated through gettext catalogues;
worked examples are run against an executable rules core; one MkDocs + Material
site is built per language.
"""

__version__ = "0.1.0"
