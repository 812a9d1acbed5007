"""The site's one jinja2 environment: every page (templates/site/pages/) and every fragment
(templates/site/macros/) of the site is a template of it; Python passes data, never HTML.

Autoescape is on, with the site's own rule: every value a template writes (`{{ value }}`) that
is not markup already goes through `written` (escape.html_in_markdown: HTML's specials, and
the brackets and braces that Markdown would read as a link or an attribute list), once.
Markup is what a template or a macro made, and what a named filter returns: `md` for text
that lands in Markdown itself (a heading), `text` for a catalog text (paragraphs, lists,
links), `code` for an identifier, `fill` for a label with placeholders, and each fragment of
templates/site/macros/ (_FRAGMENTS), which a page applies as a filter: `rows | codes_table(...)`.

The fragments of templates/site/macros/ (NAME.html.j2) are written one element a line, for reading; a line
break there and the indentation after it are not output (an HTML fragment of a Markdown page
stays on one line, where a line break could end its HTML block).
"""
from __future__ import annotations

import json
import operator
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator
from jinja2.exceptions import TemplateAssertionError
from jinja2.ext import Extension
from markupsafe import Markup

from generator.core.files import TEMPLATES
from generator.domain.blocks import blocks
from generator.rendering.environment import compiled_templates
from generator.rendering.escape import html_comment, html_in_markdown, json_in_script, md_inline
from generator.rendering.site.svg import SHAPE
from generator.rendering.site.text import line_pieces
from generator.rendering.site.worddiff import word_diff

MACROS = "site/macros/"
PAGES = "site/pages/"


def written(value: Any) -> str:
    """A value as a template writes it (`{{ value }}`): markup as it is, anything else escaped
    by the site's rule. The one escaping of every page; jinja2 calls it as the environment's
    finalize, in place of its own escape (SiteCode)."""
    kind = type(value)
    if kind is str:
        return value if _SPECIAL.search(value) is None else html_in_markdown(value)
    if kind is Markup:
        return value
    if kind is int:
        return str(value)
    if hasattr(value, "__html__"):
        return value.__html__()
    return written(str(value))


_SPECIAL = re.compile("[&<>\"'{}\\[\\]]")  # what html_in_markdown escapes


def escaped(value: Any) -> Markup:
    """A value as markup: markup as it is, anything else escaped by the site's rule."""
    return value if hasattr(value, "__html__") else Markup(written(value))


class SiteCode(CodeGenerator):
    """Compiles `{{ value }}` in an autoescaped template to one call of `written` (the
    environment's finalize), where jinja2 would call its own escape (markupsafe's rule, which
    differs from the site's) on what finalize returns: one escaping, by the site's rule, for
    the values it computes and for the constants it folds. At a fifth of the cost: a page
    of 10,000 codes writes a million values."""

    def _output_child_pre(self, node, frame, finalize) -> None:
        self._one_rule(node, frame)
        self.write("environment.finalize(")

    def _output_child_post(self, node, frame, finalize) -> None:
        self.write(")")

    def _output_child_to_const(self, node, frame, finalize) -> str:
        self._one_rule(node, frame)
        return str(node.as_const(frame.eval_ctx)) if isinstance(node, nodes.TemplateData) else \
            written(node.as_const(frame.eval_ctx))

    def _one_rule(self, node, frame) -> None:
        if frame.eval_ctx.volatile or not frame.eval_ctx.autoescape:
            raise TemplateAssertionError("the site's templates escape by one rule: no {% autoescape %} block",
                                         node.lineno, self.name, self.filename)


class OneLineFragments(Extension):
    """Drops a line break and the indentation after it from the HTML fragments' templates."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        if name is not None and name.startswith(MACROS) and name.endswith(".html.j2"):
            return re.sub(r"\n[ \t]*", "", source)
        return source


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        bytecode_cache=compiled_templates(Path(__file__)),  # its extension and code generator
        undefined=jinja2.StrictUndefined,
        auto_reload=False,  # a run renders with the templates it started with
        optimized=False,  # nothing to fold: a fifth less time compiling, which every run pays
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=True,
        finalize=written,
        extensions=[OneLineFragments, "jinja2.ext.do"],
    )
    env.code_generator_class = SiteCode
    # The data that Python passes are objects and sequences: `a.b` is Python's attribute, `a[b]`
    # its item (jinja2 tries one, then the other, in Python, for each of a page's thousands).
    env.getattr, env.getitem = getattr, operator.getitem  # type: ignore[method-assign, assignment]
    env.globals["shape"] = SHAPE
    # the id of every page's title, the same in every language; the hyphen keeps it apart from
    # the rows' anchors (a code's lower-case name)
    env.globals["title_id"] = "page-title"
    env.filters.update(
        e=escaped,
        escape=escaped,
        md=lambda text: Markup(md_inline(text)),
        # an identifier as a heading: it may break after an underscore, and nowhere else (extra.css)
        md_breaks=lambda text: Markup(md_inline(text).replace("\\_", "\\_<wbr>")),
        text=text_markup,
        code=code_markup,
        word_diff=lambda pair: word_diff_markup(*pair),
        fill=fill,
        **{name: _fragment(template, name, remembered) for name, (template, remembered) in _FRAGMENTS.items()},
        edition_link=lambda link: macro("parts.html.j2", "edition_links")((link,)),
        # a page's title in its front matter: MkDocs themes put it into <title> and the navigation as it is
        front_matter=lambda text: Markup(json.dumps(html_in_markdown(text), ensure_ascii=False)),
        comment=lambda text: Markup(html_comment(text)),
        script_json=lambda value: Markup(json_in_script(value)),
    )
    return env


def fill(phrase: tuple[tuple[str, str], ...], **values: Any) -> Markup:
    """A label (context.Phrases) as markup, each {name} in it filled with the value given for it
    (escaped, unless markup), in one pass (a value that holds "{name}" is not read again); a
    {name} with no value, and the label's own words, as text."""
    return Markup("".join(written(values[name]) if name in values else written(words) for name, words in phrase))


def render_page(template: str, /, **data: Any) -> str:
    """A page of the site (templates/site/pages/NAME, `template`), as text."""
    return str(environment().get_template(PAGES + template).render(**data))


@lru_cache(maxsize=None)
def macro(template: str, name: str) -> Callable[..., Markup]:
    """A macro of templates/site/macros/NAME (`template`), for Python to call (its result is markup)."""
    return getattr(environment().get_template(f"{MACROS}{template}").module, name)


# What the site repeats, remembered: 10,000 codes show about 60,000 texts and 40,000 identifiers,
# each on several pages (a smaller cache thrashed, and rendering a fragment costs a macro call).
REMEMBERED = 1 << 17


@lru_cache(maxsize=REMEMBERED)
def text_markup(text: str, tail: Markup = Markup("")) -> Markup:
    """A catalog text as HTML: paragraphs, bullets and numbered steps, URLs linked; `tail` (markup)
    at the end of its last line."""
    return macro("text.html.j2", "text")([(b.kind, b.start, [line_pieces(i) for i in b.items]) for b in blocks(text)],
                                         tail)


@lru_cache(maxsize=REMEMBERED)
def code_markup(name: str, copy: bool = True) -> Markup:
    """An identifier that wraps at underscores only, with a copy button's hook (`copy`)."""
    return macro("text.html.j2", "code")(name.split("_"), copy)


@lru_cache(maxsize=4096)
def word_diff_markup(before: str, after: str) -> Markup:
    """`after`, with what `before` had and it lacks struck, and what it adds marked."""
    return macro("text.html.j2", "word_diff")(word_diff(before, after))


# Every fragment a page writes, as a filter (value | name(arguments)): the macro NAME of
# templates/site/macros/NAME (its template), its first argument the value; remembered (True): rendered once
# per distinct data, what every page and every row repeats. The pages import nothing: a filter
# costs a tenth of an import or a macro called from a template.
_FRAGMENTS: dict[str, tuple[str, bool]] = {
    **{name: ("markdown.md.j2", remembered) for name, remembered in (("heading", True), ("page_head", False))},
    "family_block": ("family.md.j2", False),
    **{name: ("family.html.j2", False) for name in ("family_links", "family_pages")},
    **{name: ("parts.html.j2", True) for name in ("code_link", "eids", "note", "recoverable", "text_cell")},
    **{name: ("parts.html.j2", False) for name in ("edition_links", "json_script")},
    **{name: ("code.html.j2", True) for name in ("choice_form", "release_differences", "saying_body")},
    **{name: ("code.html.j2", False) for name in ("answers", "removed", "never_pictured", "history",
                                                  "never_in_history", "sayings", "facts")},
    "codes_table": ("codes.html.j2", False),
    "name_cell": ("editions.html.j2", True),
    **{name: ("editions.html.j2", False) for name in ("editions_table", "release_list", "edition_facts", "intro",
                                                      "edition_table", "not_known_codes", "malformation", "sources")},
    **{name: ("compare.html.j2", False) for name in ("differences_index", "repo_copy", "only_on", "up", "choice",
                                                     "comparison", "codes_never_listed", "picture_editions", "steps")},
    "matrix": ("svg.html.j2", False),
    **{name: ("svg.html.j2", True) for name in ("legend", "edition_ids", "cells", "uses")},
}


def _fragment(template: str, name: str, remembered: bool) -> Callable[..., Markup]:
    """A macro as a filter; remembered, it renders each value once (its data a hashable tuple)."""
    def render(*args: Any) -> Markup:
        return macro(template, name)(*args)
    return lru_cache(maxsize=REMEMBERED, typed=True)(render) if remembered else render
