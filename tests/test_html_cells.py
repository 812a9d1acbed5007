"""The audit's second reader of HTML-era pages (generator/audit/html_cells.py): cells as a
browser lays them out, from html5lib's tree alone, sharing nothing with the reader `import`
uses (upstream.page_table). Written in upstream's HTML (hicann/hixl v8.5.0 docs/python/LLMStatusCode.md)."""
import html5lib

from generator.audit.page import audit_page
from generator.audit.html_cells import cell_text, compare_cell, html_rows
from generator.upstream.page_table import read_table

HEADINGS = {"name": {"zh": ("枚举值",)}, "meaning": {"zh": ("含义",)}, "recoverable": {"zh": ("是否可恢复",)},
            "solution": {"zh": ("解决办法",)}}
# upstream's LLM_LINK_BUSY row at v8.5.0: two <li> and a </ul>, no <ul>
# (lines of upstream's HTML are long)
LINK_BUSY = (
    '<tr id="row4762643192212"><td class="cellrowborder"><p id="p1">LLM_LINK_BUSY</p>\n</td>\n'
    '<td class="cellrowborder"><p id="p2">链路繁忙</p>\n</td>\n'
    '<td class="cellrowborder"><p id="p3">是</p>\n</td>\n'
    '<td class="cellrowborder"><p id="p4"><a name="p4"></a>'
    "检查同时调用的接口是否有冲突，例如：同时调用如下接口时，会报该错误码。</p>\n"
    "<li>同时调用unlink</a>和pull_cache</a>。\n</li><li>使用相同链路同时调用pull_cache</a>和transfer_cache_async</a>。</li></ul>\n"
    "</td>\n</tr>\n"
)
NOTE = (
    '<tr><td><p>LLM_DEVICE_MEM_ERROR</p></td><td><p>内存UCE</p></td><td><p>是</p></td>'
    '<td><p>获取并修复内存UCE的错误虚拟地址。</p>\n<div class="note"><span class="notetitle"> 说明： </span>'
    '<div class="notebody"><p>本错误码为预留，暂不支持。</p>\n</div></div>\n</td></tr>\n')
PAGE = (
    '# LLMStatusCode\n\n<a name="table1"></a>\n<table><thead align="left">'
    '<tr><th class="cellrowborder"><p>枚举值</p></th>'
    "<th><p>含义</p></th><th><p>是否可恢复</p></th><th><p>解决办法</p></th></tr></thead>\n<tbody>"
    + LINK_BUSY
    + NOTE
    + "</tbody>\n</table>\n"
)
BULLETED = ("检查同时调用的接口是否有冲突，例如：同时调用如下接口时，会报该错误码。\n- 同时调用unlink和pull_cache。\n"
            "- 使用相同链路同时调用pull_cache和transfer_cache_async。")


def _cell(html: str) -> str:
    document = html5lib.parse(f"<table><tr>{html}</tr></table>", treebuilder="etree", namespaceHTMLElements=False)
    return cell_text(next(document.iter("td")))


def test_a_list_item_without_its_list_is_a_bullet_as_a_browser_draws_it():
    rows = html_rows(PAGE, HEADINGS)
    assert rows["LLM_LINK_BUSY"]["solution"] == BULLETED
    assert rows["LLM_LINK_BUSY"]["recoverable"] == "是"


def test_a_note_is_two_lines_its_title_then_its_body_as_a_browser_shows_it():
    """upstream's HTML: <span class="notetitle"> 说明： </span><div class="notebody"><p>…: the
    body is a block, so it starts a line of its own (ge 8.5.0 to 9.0.1, hixl 9.0.0-beta.1 to 9.0.1)."""
    assert html_rows(PAGE, HEADINGS)["LLM_DEVICE_MEM_ERROR"]["solution"] == (
        "获取并修复内存UCE的错误虚拟地址。\n说明：\n本错误码为预留，暂不支持。")
    assert _cell('<td><div class="note"><span class="notetitle">说明：</span><div class="notebody"><p>一</p>'
                 '<p>二</p></div></div><p>after</p></td>') == "说明：\n一\n二\nafter"


def test_breaks_blocks_numbered_steps_and_white_space():
    assert _cell("<td>a<br>b  c<br><br>d</td>") == "a\nb c\nd"
    assert _cell("<td><ol><li>one</li><li>two</li></ol><ul><li>x</li></ul></td>") == "1. one\n2. two\n- x"
    assert _cell('<td><ol><li>one</li><li value="7">two</li><li>three</li></ol></td>') == "1. one\n7. two\n8. three"
    assert _cell(f'<td><ol><li value="{"9" * 5000}">x</li></ol></td>') == "1. x"  # no number of 5,000 digits
    assert _cell("<td><p> first </p><div>second<span> third</span></div></td>") == "first\nsecond third"


def test_compare_cell_reports_a_lost_bullet_then_words():
    plain = BULLETED.replace("- ", "")
    lost = compare_cell("p.md", 4, "LLM_LINK_BUSY", "solution", BULLETED, plain)
    assert [(f.kind, f.upstream, f.catalog) for f in lost] == [("structure differs", "p - -", "p p p")]
    assert compare_cell("p.md", 4, "LLM_LINK_BUSY", "solution", BULLETED, BULLETED.replace("。\n-", "。 \n-")) == []
    worded = compare_cell("p.md", 4, "LLM_LINK_BUSY", "solution", BULLETED, BULLETED.replace("unlink", "link"))
    assert [f.kind for f in worded] == ["text differs"]


def test_the_audit_of_an_html_page_compares_through_it(llm):
    """On the real catalog's 8.5.0-v2 edition: the bullets match; without them it is a finding."""
    edition = llm.edition("8.5.0-v2")
    found = [f for f in audit_page(llm, edition, "LLMStatusCode.md", PAGE) if f.code == "LLM_LINK_BUSY"]
    assert not [f for f in found if f.field == "solution"], found
    flat = PAGE.replace("<li>", "<p>").replace("</li>", "</p>")
    found = [f for f in audit_page(llm, edition, "LLMStatusCode.md", flat) if f.code == "LLM_LINK_BUSY"]
    assert [(f.kind, f.field) for f in found if f.field == "solution"] == [("structure differs", "solution")]


def test_the_import_reads_a_list_item_without_its_list_as_the_audit_does():
    """upstream.page_table read LINK_BUSY's items as paragraphs (no "- "), so importing hicann/hixl
    v9.0.0-beta.1 over 8.5.0 recorded a text change upstream never made, which the audit then refused
    ("solution structure differs (upstream: 'p - -'; catalog: 'p p p')"). Found importing from scratch."""
    for is_html in (False, True):  # a page of a repository (Markdown holding HTML), a page of HTML
        rows = {row.by_column["name"].text.strip(): row for row in read_table(PAGE, HEADINGS, is_html=is_html).rows}
        assert rows["LLM_LINK_BUSY"].by_column["solution"].text == BULLETED == \
            html_rows(PAGE, HEADINGS)["LLM_LINK_BUSY"]["solution"]
    nested = PAGE.replace("<li>同时调用unlink", "<li>同时调用unlink<ol><li>一</li></ol>")
    assert {row.by_column["name"].text.strip(): row.by_column["solution"].text for row in read_table(
        nested, HEADINGS).rows}["LLM_LINK_BUSY"] == html_rows(nested, HEADINGS)["LLM_LINK_BUSY"]["solution"]
