"""Release order: 8.0.RC3 < 8.0.0 < 8.2.RC1 < 8.5.0 < 9.0.0-beta.1 < 9.0.0 < 9.0.1 < 9.1.0 < unreleased.

A release is a dotted number with an optional pre-release part (`-beta.1`,
`-rc.1`, `.RC3`, `.pre`, `-beta.2.pre`); a pre-release comes before its final
release, as a trailing `.pre` comes before what it follows (9.1.0-beta.2.pre < 9.1.0-beta.2,
upstream's tag of the 9.1.0-beta.2 release branch, as 9.1.0.pre < 9.1.0), and `unreleased`
(a default-branch version no tag ships) after every release. Upstream tags are releases with a leading `v`.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

UNRELEASED = "unreleased"
# A release's parts, read without a pattern that nests one repeat in another (a release can be
# typed by a user: --edition, explain): the number before the first letter, then the pre-release.
_NUMBER = re.compile(r"[0-9]+")
_PRE = re.compile(r"[A-Za-z][0-9A-Za-z.-]*")
# Words of pre-releases, earliest first; a word not listed sorts after these.
_PRE_WORDS = ("dev", "alpha", "a", "beta", "b", "pre", "rc")


@lru_cache(maxsize=None)
def release_key(release: str) -> Optional[tuple]:
    """A sort key for a release, or None when it is not one."""
    if release == UNRELEASED:
        return ((float("inf"),), 1, ())
    parts = _release_parts(release)
    if parts is None:
        return None
    number, pre = parts
    numbers = tuple(int(part) for part in number.split("."))
    numbers = numbers + (0,) * (3 - len(numbers)) if len(numbers) < 3 else numbers
    if pre is None:
        return (numbers, 1, ())
    tokens = []
    for token in re.findall(r"[A-Za-z]+|\d+", pre):
        if token.isdigit():
            tokens.append((1, int(token), ""))
        else:
            word = token.lower()
            rank = _PRE_WORDS.index(word) if word in _PRE_WORDS else len(_PRE_WORDS)
            tokens.append((0, rank, word))
    if len(tokens) > 1 and tokens[-1][2] == "pre":
        tokens[-1] = (-2, 0, "pre")  # before the end of the release it follows
    return (numbers, 0, (*tokens, (-1, 0, "")))  # the end: before any further part (beta < beta.1)


def _release_parts(release: str) -> Optional[tuple[str, Optional[str]]]:
    """(number, pre-release or None): `9.2.0-beta.1` -> ("9.2.0", "beta.1"); None when it is no release."""
    letter = next((i for i, char in enumerate(release) if char.isascii() and char.isalpha()), None)
    if letter is None:
        number, pre = release, None
    elif letter >= 2 and release[letter - 1] in ".-" and _PRE.fullmatch(release, letter):
        number, pre = release[:letter - 1], release[letter:]
    else:
        return None
    if not all(_NUMBER.fullmatch(part) for part in number.split(".")):
        return None
    return number, pre


def edition_releases(releases: list[str]) -> tuple[list[str], bool]:
    """The releases that a version shipped by `releases` has an edition for: each final one, in
    release order; else the first pre-release alone (True: a pre-release)."""
    keyed = {r: release_key(r) for r in releases}
    finals = sorted((r for r, key in keyed.items() if key is not None and key[1] == 1), key=lambda r: keyed[r] or ())
    if finals:
        return finals, False
    return ([min(releases, key=lambda r: keyed[r] or ())], True) if releases else ([], False)


def is_final_release(release: str) -> bool:
    """A release that is neither a pre-release (9.2.0-beta.1, 8.0.RC3) nor `unreleased`."""
    key = release_key(release)
    return key is not None and release != UNRELEASED and key[1] == 1


def edition_order(release: str, page_index: int, timeline_index: int, repo_copy: bool) -> tuple:
    """Where an edition stands in a family's list: by release, then page, then timeline,
    a repository copy after the published page it differs from."""
    return (release_key(release), page_index, timeline_index, repo_copy)


def tag_release(tag: str) -> Optional[str]:
    """The release a tag names (`v9.0.0` -> `9.0.0`), or None for a tag that names none."""
    text = tag[1:] if tag[:1] in ("v", "V") else tag
    return text if release_key(text) is not None and text != UNRELEASED else None


def sort_tags(tags) -> list[str]:
    """Tags in release order; tags that name no release last, by name."""
    return sorted(tags, key=lambda t: (tag_release(t) is None, release_key(tag_release(t) or "") or (), t))
