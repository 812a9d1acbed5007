"""Generate status-code outputs (Python, C/C++, JSON, docs) from one YAML catalog.

The pipeline, one module per layer: ``yamlsource`` (strict YAML with
positions) -> ``catalog`` (validate into the ``model``) -> ``render_*`` (pure
functions from the model to ``{path: text}``) -> ``outputs`` (the one module
that touches the disk). ``cli`` parses arguments and calls them.
"""
