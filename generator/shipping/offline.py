"""The site's offline copy: the built site (site/build/) as a folder that works opened from disk
(file://), as a reader who downloaded it opens it, and a zip of that folder. `make docs` writes
both, beside site/build/: site/build-offline/ and site/build-offline.zip.

From disk, a link to a directory opens a listing of its files, not its page, and a page may
start no worker and fetch no file. So the copy is the built site, file for file, but:

- every link of a page to a page of the site names its file: `../codes/LLM_TIMEOUT/` becomes
  `../codes/LLM_TIMEOUT/index.html` (href, src and action of every element, the address of a
  refresh, and the address a redirect page's script goes to), as do the addresses of the
  pages in the search indexes; the site's own script does the same for the links it makes
  (assets/javascripts/extra.js: on a page whose address is a file);
- each page runs assets/javascripts/offline.js before Material's bundle: opened from disk, the
  search runs on the page, with the worker's own code, reading each index from a script
  (assets/search/index-LANG.js, written here from the index); Material reads its own
  (search/search_index.js) as its offline plugin writes it;
- the 404 pages and the sitemaps are left out: a folder on disk shows no 404 page, and their
  links are absolute addresses of the served site.

Nothing of it depends on the time or the order of the files: the same build gives the same
bytes, the zip's entries in the order of their names, each dated 1980-01-01.
"""
from __future__ import annotations

import html
import json
import os
import re
import shutil
import zipfile
from pathlib import Path

from generator.rendering.site.search_index import OFFLINE_INDEX

OFFLINE_DIR = "build-offline"  # beside site/build/, under site/
ARCHIVE = "build-offline.zip"
ARCHIVE_ROOT = "llm-status-codes-site"  # the folder the zip unpacks into
LEFT_OUT = frozenset({"404.html", "sitemap.xml", "sitemap.xml.gz"})
OFFLINE_SCRIPT = "assets/javascripts/offline.js"

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
# What of a page is not markup: comments and the text of scripts, styles and text areas.
_RAW = re.compile(r"<!--.*?-->|<(script|style|textarea)\b[^>]*>.*?</\1\s*>", re.DOTALL | re.IGNORECASE)
_TAG = re.compile(r"<[A-Za-z][^\s/>]*(?:\s+[^\s\"'>/=]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*\s*/?>")
_ATTRIBUTE = re.compile(r"(\s)([^\s\"'>/=]+)(\s*=\s*)(\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+)")
_LINKS = frozenset({"href", "src", "action"})
_REFRESH = re.compile(r"(\s*\d+\s*;\s*url=)(.*)", re.DOTALL | re.IGNORECASE)
# the redirect pages' script (site/hooks/site.py redirect_page): location.replace("../X/" + ...)
_REDIRECT = re.compile(r"(<script>location\.replace\()(\"(?:[^\"\\]|\\.)*\")")
_BUNDLE = re.compile(r'<script src="([^"]*)assets/javascripts/bundle\.[0-9a-f]+\.min\.js"></script>')


def file_link(url: str) -> str:
    """A relative link to a page (a directory: ends in /, or is . or ..) as the link to its
    index.html, its query and fragment kept; any other link as it is."""
    if not url or url.startswith(("#", "?", "/")) or _SCHEME.match(url):
        return url
    cut = min((i for i in (url.find("?"), url.find("#")) if i >= 0), default=len(url))
    path, rest = url[:cut], url[cut:]
    if path.endswith("/"):
        return path + "index.html" + rest
    if path.rsplit("/", 1)[-1] in (".", ".."):
        return path + "/index.html" + rest
    return url


def _attribute_value(quoted: str, change) -> str:
    """An attribute's written value (quoted or not) with change() applied to what it says,
    written again (escaped, in double quotes) only when it changed."""
    raw = quoted[1:-1] if quoted[:1] in "\"'" else quoted
    value = html.unescape(raw)
    new = change(value)
    return quoted if new == value else '"' + html.escape(new, quote=True) + '"'


def _refresh_link(content: str) -> str:
    """A refresh's content (0; url=../X/) with its address naming its file."""
    return _REFRESH.sub(lambda m: m.group(1) + file_link(m.group(2)), content)


def _tag_links(tag: str) -> str:
    refresh = re.search(r"""http-equiv\s*=\s*["']?refresh""", tag, re.IGNORECASE) is not None

    def attribute(match: re.Match) -> str:
        name = match.group(2).lower()
        if name in _LINKS:
            value = _attribute_value(match.group(4), file_link)
        elif name == "content" and refresh:
            value = _attribute_value(match.group(4), _refresh_link)
        else:
            return match.group(0)
        return match.group(1) + match.group(2) + match.group(3) + value

    return _ATTRIBUTE.sub(attribute, tag)


def _script_links(script: str) -> str:
    def address(match: re.Match) -> str:
        target = file_link(json.loads(match.group(2)))
        return match.group(1) + json.dumps(target).replace("<", "\\u003c")

    return _REDIRECT.sub(address, script, count=1)


def offline_page(text: str) -> str:
    """A built page as the offline copy holds it: its links to pages name their files, and it
    runs offline.js before Material's bundle (a page without the bundle, a redirect, runs none)."""
    out, last = [], 0
    for raw in _RAW.finditer(text):
        out.append(_TAG.sub(lambda m: _tag_links(m.group(0)), text[last:raw.start()]))
        out.append(_script_links(raw.group(0)) if raw.group(1) else raw.group(0))
        last = raw.end()
    out.append(_TAG.sub(lambda m: _tag_links(m.group(0)), text[last:]))
    page = "".join(out)
    return _BUNDLE.sub(lambda m: f'<script src="{m.group(1)}{OFFLINE_SCRIPT}"></script>{m.group(0)}', page, count=1)


def offline_index(text: str) -> dict:
    """A search index (assets/search/index-LANG.json) with the address of each page, and of each
    family's list of codes, naming its file."""
    data = json.loads(text)
    for doc in data.get("docs", []):
        doc["l"] = file_link(doc["l"])
    for family in data.get("families", []):
        family["codes"] = file_link(family["codes"])
    return data


def _dump(data) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def index_script(data: dict) -> str:
    """The index as a script a page opened from disk may load: it sets OFFLINE_INDEX[lang]."""
    return f"(window.{OFFLINE_INDEX} = window.{OFFLINE_INDEX} || {{}})[{json.dumps(data['lang'])}] = {_dump(data)};\n"


def _read(path: Path) -> str:
    with open(path, encoding="utf-8", newline="") as handle:  # its line ends as they are
        return handle.read()


def _write(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)


def _copy_file(source: Path, target: Path, relative: str) -> None:
    if relative.endswith(".html"):
        _write(target, offline_page(_read(source)))
    elif re.fullmatch(r"assets/search/index-[^/]+\.json", relative):
        data = offline_index(_read(source))
        _write(target, _dump(data))
        _write(target.with_suffix(".js"), index_script(data))
    elif relative == "search/search_index.json":
        shutil.copyfile(source, target)
        # as Material's offline plugin writes it: its bundle loads it from disk and reads __index
        _write(target.with_name("search_index.js"), f"var __index = {_read(source)}")
    else:
        shutil.copyfile(source, target)


def offline_copy(build: Path, dest: Path) -> int:
    """Write the offline copy of the built site `build` into `dest` (emptied first, but for its
    hidden entries, as MkDocs empties site/build/); both checked by the caller
    (sitebuild.checked_build_dir). Returns the number of pages."""
    dest.mkdir(parents=True, exist_ok=True)
    for entry in sorted(dest.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    pages = 0
    for directory, subdirectories, files in os.walk(build):
        here = Path(directory)
        if here == build:
            subdirectories[:] = [d for d in subdirectories if not d.startswith(".")]
            files = [f for f in files if not f.startswith(".")]
        subdirectories.sort()
        for name in sorted(files):
            relative = (here / name).relative_to(build).as_posix()
            if name in LEFT_OUT:
                continue
            target = dest / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            _copy_file(here / name, target, relative)
            pages += relative.endswith(".html")
    return pages


def write_archive(copy: Path, archive: Path) -> None:
    """The offline copy as a zip that unpacks into ARCHIVE_ROOT/: its files in the order of their
    names, each dated 1980-01-01 and readable by all, so that the same copy gives the same bytes.
    Written beside `archive` and then moved over it."""
    files = sorted((p.relative_to(copy).as_posix(), p) for p in copy.rglob("*")
                   if p.is_file() and not p.relative_to(copy).parts[0].startswith("."))
    partial = archive.with_name(archive.name + ".partial")
    with zipfile.ZipFile(partial, "w") as bundle:
        for relative, path in files:
            info = zipfile.ZipInfo(f"{ARCHIVE_ROOT}/{relative}", date_time=(1980, 1, 1, 0, 0, 0))
            info.create_system = 3  # unix: the permissions below are read
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            bundle.writestr(info, path.read_bytes(), compresslevel=9)
    os.replace(partial, archive)
