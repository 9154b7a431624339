"""The rulebook as data: YAML loading with positions, the typed model, catalogues."""
