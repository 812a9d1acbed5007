"""A repository source's `page` (editions.yaml) as the model holds it: the file's framing and
dialect, with the checks that keep a copied page safe (its links, its code blocks)."""
from __future__ import annotations

import re
from typing import Optional

from generator.core.problems import Reporter
from generator.domain.layout import Block, CodeBlock, PageLayout
from generator.domain.markup import link_problems
from generator.reading import format as fmt

FENCE = re.compile(r"^ {0,3}(?:```|~~~)", re.M)  # a line that opens or closes a fenced code block


def read_layout(record: fmt.PageLayout, what: str, columns: int, path: str, rep: Reporter) -> Optional[PageLayout]:
    """A source's `page`; `path`: the file's path in its repository, that its links resolve from."""
    what = f"{what}: page"
    ok = True
    if len(record.header) != columns:
        rep.error(record.at("header"), f"{what} header has {len(record.header)} cells; the page has {columns} columns")
        ok = False
    _check_links(record, path, what, rep)  # reported; the layout stays, so that its texts are checked too
    if not ok:
        return None
    return PageLayout(record.title, _blocks(record, "before"), _blocks(record, "after"), record.table,
                      tuple(record.header), tuple(record.labels.items()), record.note, tuple(record.unclosed),
                      record.bom, record.level, record.blank_after)


def _blocks(record: fmt.PageLayout, key: str) -> tuple[Block, ...]:
    return tuple(block if isinstance(block, str) else CodeBlock(
        block.code.fence, tuple(block.code.open), block.code.line, tuple(block.code.close),
        (block.code.values[0], block.code.values[1]) if block.code.values else None) for block in getattr(record, key))


def _check_links(record: fmt.PageLayout, path: str, what: str, rep: Reporter) -> None:
    """Every text of the framing links only where a copied page may (domain.markup.link_problems),
    and no piece of a code block can end it early (what follows would be read as Markdown): a
    line that is a fence, an info string with a backtick or a line break."""
    for key, text, where, in_code, is_fence in _texts(record):
        for problem in link_problems(text, (path,)):
            rep.error(where, f"{what} {key}: {problem}")
        if in_code and (FENCE.search(text) or (is_fence and re.search("[`\n]", text))):
            rep.error(where, f"{what} {key}: {text!r} would end its code block early, so that what follows is read "
                             "as Markdown; write it without a fence (``` or ~~~), an info string without ` or a line "
                             "break")


def _texts(record: fmt.PageLayout):
    """(field, text, where, in a code block, is a fence) of every text of the framing, in order."""
    yield "title", record.title, record.at("title"), False, False
    for key in ("before", "after"):
        for number, block in enumerate(getattr(record, key)):
            if isinstance(block, str):
                yield key, block, record.at(key, number), False, False
                continue
            code = block.code
            if code.given("fence"):
                yield key, code.fence, code.at("fence"), True, True
            for part in ("open", "close"):
                for index, line in enumerate(getattr(code, part)):
                    yield key, line, code.at(part, index), True, False
            yield key, code.line, code.at("line"), True, False
    for index, cell in enumerate(record.header):
        yield "header", cell, record.at("header", index), False, False
    for value, word in record.labels.items():
        yield "labels", word, record.at("labels", value), False, False
    if record.note is not None:
        yield "note", record.note, record.at("note"), False, False
