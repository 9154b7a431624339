"""``validator scenarios``: every question the rules core answers."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from validator.commands.common import EXIT_OK
from validator.content.project import load_project, load_rules_core
from validator.store import Store


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("--format", choices=("text", "json"), default="text")


def run(project: Path, arguments: argparse.Namespace, store: Store) -> int:
    ruleset = load_rules_core(project, load_project(project))
    described = [scenario.describe() for scenario in ruleset.scenarios]
    if arguments.format == "json":
        print(json.dumps({"scenarios": described, "variants": sorted(ruleset.variants)}, indent=2,
                         ensure_ascii=False))
        return EXIT_OK
    for entry in described:
        print(f"{entry['name']}: {entry['summary']}")
        print(f"  rules:   {', '.join(entry['rule_ids'])}")
        for name, spec in entry["inputs"].items():
            optional = "" if spec["required"] else f" (optional, default {json.dumps(spec.get('default'))})"
            print(f"  input    {name}: {_schema_text(spec)}{optional}")
        for name, kind in entry["outcome"].items():
            print(f"  outcome  {name}: {kind}")
    print(f"variants: {', '.join(sorted(ruleset.variants)) or 'none'}")
    return EXIT_OK


def _schema_text(spec: dict[str, object]) -> str:
    """A JSON schema fragment in a few words: type, range, allowed values."""
    if "enum" in spec:
        return " | ".join(json.dumps(value) for value in spec["enum"])  # type: ignore[attr-defined]
    if "anyOf" in spec:
        return " | ".join(_schema_text(option) for option in spec["anyOf"])  # type: ignore[attr-defined]
    text = str(spec.get("type", "any"))
    if "minimum" in spec or "maximum" in spec:
        text += f" {spec.get('minimum', '')}..{spec.get('maximum', '')}"
    if isinstance(spec.get("items"), dict):
        text += f" of {_schema_text(spec['items'])}"  # type: ignore[arg-type]
    elif isinstance(spec.get("prefixItems"), list):
        text += " of (" + ", ".join(_schema_text(item) for item in spec["prefixItems"]) + ")"  # type: ignore[attr-defined]
    return text
