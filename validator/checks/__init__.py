"""Checks that run before anything is published: examples, references, catalogues."""
