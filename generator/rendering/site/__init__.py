"""The documentation site: pages of every family, the shared home page, config and assets.

Pages are Markdown for prose and headings (so MkDocs checks their links and
builds the table of contents) and raw HTML for tables and pictures, written
here with every catalog text escaped by generator.rendering.escape.
"""
