# Generated from the status-code catalog (the YAML files in catalog/). Do not edit: run `make generate`.
"""MkDocs hook: teach jieba the catalog's search words before Material's search
plugin segments Chinese text for its index.

A word is kept whole ("建链"); "A B" makes jieba split a dictionary word into
A and B ("内存 不足"), so that a search for either part finds it.
"""
import logging

import jieba

jieba.setLogLevel(logging.WARNING)


def on_config(config):
    for word in config.extra.get("search_words", []):
        parts = tuple(word.split())
        jieba.suggest_freq(parts if len(parts) > 1 else word, tune=True)
    return config
