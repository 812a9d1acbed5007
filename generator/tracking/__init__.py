"""Upstream's repositories and pages: reading them, auditing the catalog against them, importing releases."""
