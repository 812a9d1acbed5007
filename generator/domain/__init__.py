"""The model of the catalog (frozen dataclasses) and the questions more than one output asks."""
