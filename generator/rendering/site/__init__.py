"""The documentation site: pages of every family, the shared home page, config and assets.

Pages are Markdown for prose and headings (so MkDocs checks their links and
builds the table of contents) and HTML for tables and pictures. Both are
templates (templates/site/pages/ and templates/site/macros/) of one jinja2
environment (markup.py) that escapes every value it writes; the modules here
compute what each page shows, as data.
"""
