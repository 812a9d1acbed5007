"""The synthetic catalogs `make bench` measures: N codes over EDITIONS editions, with texts in zh
and en, and the edits it times."""
from __future__ import annotations

from pathlib import Path


EDITIONS = 8
_WORDS_ZH = (
    "检查 链路 内存 超时 建链 断链 集群 参数 请求 日志 重试 释放 缓存 前缀 网络 连接 配置 接口 返回 异常".split()
)
_WORDS_EN = ("check link memory timeout establish release cluster parameter request log retry cache prefix network "
             "connection configure interface return exception device").split()


def _sentence(words: list[str], index: int, length: int, joiner: str) -> str:
    return joiner.join(words[(index * 7 + k * 3) % len(words)] for k in range(length))


SITE = """format: 6
site:
  languages: [zh, en]
  language_names: {zh: 中文, en: English}
  name: {zh: 基准状态码, en: Benchmark codes}
  families: [bench]
repositories:
  bench/repo: {url: "https://example.org/bench/repo", default_branch: main}
"""
FAMILY = """family:
  id: bench
  name: {zh: 基准, en: Benchmark}
  description: {zh: 基准状态码, en: the status codes of a benchmark}
  languages: [zh, en]
  python: {module: bench_codes, shape: enum, class: BenchCode, lookup: lookup, default_page: py,
           exception: BenchException, default_status: LLM_CODE_00000, status: BenchStatus,
           code_2_status: code_2_status, unknown_status: LLM_CODE_00001}
  c: {header: bench_codes, guard: BENCH_CODES_H, namespace: bench_codes, name_function: bench_status_name,
      message_function: bench_status_message}
  headers:
    - {path: bench/bench.h, namespace: bench}
  recoverable_labels:
    "yes": {zh: [是], en: ["Yes"]}
    "no": {zh: [否], en: ["No"]}
    n/a: {zh: [无], en: [None]}
    not known: {zh: [未知], en: [Not known]}
  pages:
    - id: py
      name: {zh: Python 页面, en: Python page}
      title: {zh: BenchCode, en: BenchCode}
      intro: {zh: 基准用的状态码。, en: Status codes of a benchmark.}
      rows: python
      columns: [name, meaning, recoverable, solution]
      headings:
        name: {zh: [枚举值], en: [Value]}
        meaning: {zh: [含义], en: [Meaning]}
        recoverable: {zh: [是否可恢复], en: [Recoverable]}
        solution: {zh: [解决办法], en: [Solution]}
      timelines:
        - {id: v1, suffix: -v1, name: {zh: v1 副本, en: v1 copy}, repo: bench/repo, paths: [docs/v1.md]}
        - {id: v2, suffix: -v2, name: {zh: v2 副本, en: v2 copy}, repo: bench/repo, paths: [docs/v2.md]}
"""


def synthetic_catalog(size: int, target: Path) -> Path:
    """A catalog with the real one's shape: every field filled, zh and en texts of realistic
    length, 8 editions on 2 timelines with per-edition differences."""
    family = target / "bench"
    family.mkdir(parents=True, exist_ok=True)
    (target / "site.yaml").write_text(SITE, encoding="utf-8")
    (family / "family.yaml").write_text(FAMILY, encoding="utf-8")
    (family / "editions.yaml").write_text(_editions_yaml(size), encoding="utf-8")
    (family / "codes.yaml").write_text(_codes_yaml(size), encoding="utf-8")
    return target


def edition_ids() -> list[str]:
    return [f"{release}-{page}" for release in ("8.0.0", "8.5.0", "9.0.0", "9.5.0") for page in ("v1", "v2")][:EDITIONS]


def _listed(code: int, edition: int) -> bool:
    return (code + edition) % 10 != 0  # each edition drops a different tenth


def _has_texts(edition: int) -> bool:
    return edition >= EDITIONS // 2


def _editions_yaml(size: int) -> str:
    """Every edition its own page version (each drops a different tenth of the codes), each
    version written as the catalog writes them: based on the one before it on its timeline."""
    out = ["versions:"]
    ids = edition_ids()
    for timeline in ("v1", "v2"):
        out.append(f"  {timeline}:")
        previous = None
        for e, ident in enumerate(ids):
            release, suffix = ident.rsplit("-", 1)
            if suffix != timeline:
                continue
            out += [f"    - version: '{ident}'"]
            if previous is not None:
                out.append(f"      based_on: '{ids[previous]}'")
            out += [  # the page in each language, as upstream keeps it (docs/ and docs/en/)
                "      sources:",
                *(f"        - {{repo: bench/repo, path: docs/{folder}{timeline}.md, commit: '{e:040x}', tags: "
                  f"[v{release}], lang: {lang}}}" for lang, folder in (("zh", ""), ("en", "en/"))),
                "      texts: [zh, en]" if _has_texts(e) else "      texts: not known",
                "      order: page" if e % 2 else "      order: not known",
                "      rows:",
            ]
            out += _rows(size, e, previous)
            out.append(f"      notes: {{zh: 第{e}版的说明。, en: Notes of edition {e}.}}")
            previous = e
    return "\n".join(out) + "\n"


_VALUES = ('"yes"', '"no"', "n/a", "not known")


def _rows(size: int, e: int, previous) -> list[str]:
    """The rows of edition e: all of them, or what differs from edition `previous`."""
    if previous is None:
        return [f"        LLM_CODE_{c:05d}: {_VALUES[(c + e // 3) % 4]}" for c in range(size) if _listed(c, e)]
    lines = []
    for c in range(size):
        name, now, before = f"LLM_CODE_{c:05d}", _listed(c, e), _listed(c, previous)
        if now and not before:
            after = max((k for k in range(c) if _listed(k, e)), default=None)
            where = f", after: LLM_CODE_{after:05d}" if after is not None else \
                f", before: LLM_CODE_{min(k for k in range(c + 1, size) if _listed(k, e)):05d}"
            lines.append(f"        {name}: {{recoverable: {_VALUES[(c + e // 3) % 4]}{where}}}")
        elif before and not now:
            lines.append(f"        {name}: dropped")
        elif now and _VALUES[(c + e // 3) % 4] != _VALUES[(c + previous // 3) % 4]:
            lines.append(f"        {name}: {_VALUES[(c + e // 3) % 4]}")
    return lines


def _codes_yaml(size: int) -> str:
    out = ["codes:"]
    ids = edition_ids()
    texts = [e for e in range(EDITIONS) if _has_texts(e)]
    for c in range(size):
        out += [
            f"  - python: LLM_CODE_{c:05d}",
            f"    c: LLM_CODE_{c:05d}_C",
            f"    value: 0x{0x50000000 + c:08X}",
            f"    cpp: [{{name: 'bench::LLM_CODE_{c:05d}_C', header: bench/bench.h}}]",
            f"    log_message: code {c} happened.",
            f"    notes: {{zh: 第{c}号的说明。, en: A note on code {c}.}}",
        ]
        for field, length in (("meaning", 4), ("solution", 24)):
            out.append(f"    {field}:")
            for variant in (0, 1):  # the newer half of the editions says it differently
                starts = []  # the text is written once, from its first edition on each timeline
                for timeline in ("v1", "v2"):
                    eds = [e for e in texts
                           if ids[e].endswith(timeline) and _listed(c, e) and (e >= EDITIONS - 2) == bool(variant)]
                    starts += [ids[eds[0]]] if eds else []
                if starts:
                    out += [f"      - from: {starts!r}",
                            f"        zh: {_sentence(_WORDS_ZH, c + variant, length, '')}。",
                            f"        en: {_sentence(_WORDS_EN, c + variant, length, ' ').capitalize()}."]
    return "\n".join(out) + "\n"


def change_one_text(catalog: Path) -> None:
    codes = catalog / "bench" / "codes.yaml"
    text = codes.read_text(encoding="utf-8")
    marker = "        en: " + _sentence(_WORDS_EN, 0, 4, " ").capitalize() + "."
    codes.write_text(text.replace(marker, marker[:-1] + " (changed).", 1), encoding="utf-8")
