"""The site: pages rendered from the model with Jinja, built per language with MkDocs."""
