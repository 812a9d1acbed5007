"""The one jinja2 environment: templates hold layout, Python holds logic."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import json

import jinja2

from generator import escape

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
BANNER = "Generated from the status-code catalog (the YAML files in catalog/). Do not edit: run `make generate`."


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,  # each target escapes through its own named filter
    )
    env.filters.update(
        py_str=escape.py_str, py_opt=escape.py_opt, c_str=escape.c_str,
        html=escape.html_text, md=escape.md_inline,
        yaml_str=lambda text: json.dumps(text, ensure_ascii=False),  # JSON strings are YAML scalars
    )
    env.globals["banner"] = BANNER
    return env


def render_template(name: str, **context) -> str:
    text = environment().get_template(name).render(**context)
    return text.rstrip("\n") + "\n"
