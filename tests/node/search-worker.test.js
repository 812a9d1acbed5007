// Unit tests of the site's search worker (site/docs/assets/javascripts/search-worker.js, as
// generated), without a browser: `node --test tests/node/`, run by tests/test_search.py in
// `make test-fast`. The indexes here are small fixtures written for each rule, so that a test
// fails when its rule breaks, whatever the catalog holds.
"use strict"

const test = require("node:test")
const assert = require("node:assert/strict")
const path = require("node:path")

const worker = require(path.join(__dirname, "..", "..", "site", "docs", "assets", "javascripts", "search-worker.js"))
const { words, stem, Index, answer } = worker

const LANGUAGES = [{ lang: "zh", path: "", name: "中文", script: "cjk" }, { lang: "en", path: "en/", name: "English", script: "latin" }]
const LABELS = {
  in_language: "in {language}", nothing_found: "Nothing found for “{query}”", searched: "Searched {scope} ({language}).",
  every_family: "every family", nearest: "Nearest codes:", none_near: "No code comes close.", family_has: "{family} has {count} codes:"
}
const FAMILIES = [{ name: "Demo", words: ["demo"], codes: "codes/" }, { name: "Other", words: ["other"], codes: "other/codes/" }]

function code(name, value, fields = {}) {
  return {
    l: fields.l || `en/codes/${name}/`, t: name, k: "code", f: fields.f || "Demo", n: [name, ...(fields.names || [])].join(" "),
    v: [String(value), "x" + value.toString(16)], m: fields.m || "", s: fields.s || "", ...(fields.g ? { g: fields.g } : {})
  }
}

const EN = new Index({
  lang: "en", script: "latin", labels: LABELS, languages: LANGUAGES, families: FAMILIES,
  synonyms: [["retry", "try again"], ["out of memory", "resource exhausted"]],
  docs: [
    code("DEMO_TIMEOUT", 0x5010B01A, { names: ["DEMO_TIME_OUT", "demo::DEMO_TIMEOUT", "kDemoTimeout"], m: "Processing timed out",
      s: "Increase the timeout interval and try again.", g: "Process timeout." }),
    code("DEMO_WAIT_PROCESS_TIMEOUT", 0x5010B001, { m: "Processing timeout", s: "Control the load.",
      g: "request wait to be processed timeout!" }),
    code("DEMO_LINK_BUSY", 0x5010B01B, { m: "Link busy", s: "Retry later." }),
    code("DEMO_OUT_OF_MEMORY", 0x5010B01C, { m: "Out of memory" }),
    code("DEMO_FAR", 0x5010B100, { m: "Far away" }),
    code("DEMO_UNKNOWN", -1, { m: "Unknown error" }),
    code("TIMEOUT", 103901, { f: "Other", l: "en/other/codes/TIMEOUT/", names: ["OTHER_TIMEOUT"], m: "Timed out",
      s: "Collect the logs." }),
    code("RESOURCE_EXHAUSTED", 203900, { f: "Other", l: "en/other/codes/RESOURCE_EXHAUSTED/", m: "Resources exhausted" }),
    { l: "en/editions/1.0/", t: "1.0", k: "edition", f: "Demo", x: "Demo page · 1.0" }
  ]
})

const ZH = new Index({
  lang: "zh", script: "cjk", labels: { ...LABELS, in_language: "{language}结果" }, languages: LANGUAGES, families: FAMILIES,
  synonyms: [["重试", "再试"]],
  docs: [
    code("DEMO_TIMEOUT", 0x5010B01A, { l: "codes/DEMO_TIMEOUT/", m: "处理超时", s: "加大超时时间并重试。", g: "Process timeout." }),
    code("DEMO_LINK_BUSY", 0x5010B01B, { l: "codes/DEMO_LINK_BUSY/", m: "链路繁忙", s: "请稍后再试。" }),
    code("DEMO_NOT_LINKED", 0x5010B007, { l: "codes/DEMO_NOT_LINKED/", m: "链路未建立", s: "检查链路。" }),
    code("TIMEOUT", 103901, { f: "Other", l: "other/codes/TIMEOUT/", m: "处理超时", s: "保留现场。" })
  ]
})

const load = async lang => ({ en: EN, zh: ZH })[lang] || null

// where each result leads (without ?via=c, which a test of its own reads)
async function locations(index, query) {
  return (await answer(query, index, load)).items.map(group => group[0].location.replace(/[?&]via=c$/, ""))
}

async function first(index, query) {
  return (await locations(index, query))[0]
}

// -- reading what readers paste ----------------------------------------------------------------------

test("the wrapping of a log line or a line of code is dropped", () => {
  const cases = {
    "0x5010B01AU": ["0x5010B01A"], "0x5010B01A,": ["0x5010B01A"], "1343270938UL": ["1343270938"],
    "status_code=1343270938": ["status_code", "1343270938"], "ret=-1,": ["ret", "-1"],
    "LLM_TIMEOUT(1343270938)": ["LLM_TIMEOUT", "1343270938"], "LLMStatusCode.LLM_TIMEOUT": ["LLM_TIMEOUT"],
    "llm_wrapper.kLLMTimeout": ["kLLMTimeout"], "error code: 0x5010B01A": ["error", "code", "0x5010B01A"],
    "code:0x5010B01A": ["code", "0x5010B01A"], "ge::FAILED": ["ge::FAILED"], "“重试”": ["重试"],
    "HIXL内存不足": ["HIXL", "内存不足"], "8.0.RC3": ["8.0.RC3"], "Process timeout.": ["Process", "timeout"]
  }
  for (const [query, expected] of Object.entries(cases)) assert.deepEqual(words(query), expected, query)
})

test("every pasted form of a value or a name finds its code first, and only it when it is a value", async () => {
  for (const query of ["0x5010B01AU", "0x5010B01A,", "5010b01a", "status_code=1343270938", "ret=1343270938",
    "DEMO_TIMEOUT(1343270938)", "DemoCode.DEMO_TIMEOUT", "kDemoTimeout", "demo::DEMO_TIMEOUT", "error code: 0x5010B01A",
    "DEMO_TIME_OUT", "demo_timeout"]) {
    assert.equal(await first(EN, query), "en/codes/DEMO_TIMEOUT/", query)
  }
  assert.deepEqual(await locations(EN, "error code: 0x5010B01A"), ["en/codes/DEMO_TIMEOUT/"])
  assert.deepEqual(await locations(EN, "ret=-1"), ["en/codes/DEMO_UNKNOWN/"])
})

test("a namespace no code has is dropped, one a code has is kept", async () => {
  assert.equal(await first(EN, "zz::DEMO_LINK_BUSY"), "en/codes/DEMO_LINK_BUSY/")
  assert.deepEqual(await locations(EN, "demo::DEMO_TIMEOUT"), ["en/codes/DEMO_TIMEOUT/"])
})

test("six hex digits or more find the codes whose value starts so, and nothing else", async () => {
  assert.deepEqual((await locations(EN, "0x5010b01")).sort(),
    ["en/codes/DEMO_LINK_BUSY/", "en/codes/DEMO_OUT_OF_MEMORY/", "en/codes/DEMO_TIMEOUT/"])
  assert.deepEqual((await locations(EN, "5010b1")).sort(), ["en/codes/DEMO_FAR/"])
  // five digits are too few to be the start of a value: nothing holds them
  assert.equal((await answer("0x5010b", EN, load)).items[0][0].terms["0x5010b"], undefined)
  assert.ok(!(await locations(EN, "0x5010b")).includes("en/codes/DEMO_FAR/"))
})

test("a query that is a code's log message ranks that code first", async () => {
  // DEMO_WAIT_PROCESS_TIMEOUT's names hold both words; DEMO_TIMEOUT's log message is the query
  assert.equal(await first(EN, "timeout process"), "en/codes/DEMO_WAIT_PROCESS_TIMEOUT/")
  assert.equal(await first(EN, "Process timeout."), "en/codes/DEMO_TIMEOUT/")
  assert.equal(await first(EN, "process timeout"), "en/codes/DEMO_TIMEOUT/")
  assert.equal(await first(EN, "[ERROR] request wait to be processed timeout!"), "en/codes/DEMO_WAIT_PROCESS_TIMEOUT/")
})

test("a word of a synonym group finds the others, after the pages that hold the word itself", async () => {
  assert.deepEqual(await locations(EN, "retry"), ["en/codes/DEMO_LINK_BUSY/", "en/codes/DEMO_TIMEOUT/"])
  assert.deepEqual(await locations(EN, "try again"), ["en/codes/DEMO_TIMEOUT/", "en/codes/DEMO_LINK_BUSY/"])
  assert.deepEqual(await locations(ZH, "重试"), ["codes/DEMO_TIMEOUT/", "codes/DEMO_LINK_BUSY/"])
  assert.deepEqual(await locations(EN, "resource exhausted"), ["en/other/codes/RESOURCE_EXHAUSTED/", "en/codes/DEMO_OUT_OF_MEMORY/"])
})

test("English words by their Porter stem", () => {
  const porter = { caresses: "caress", ponies: "poni", agreed: "agre", hopping: "hop", generalizations: "gener",
    oscillators: "oscil", controlling: "control", rational: "ration", happy: "happi", established: "establish" }
  for (const [word, expected] of Object.entries(porter)) assert.equal(stem(word), expected, word)
})

test("a run of Chinese that nothing holds is searched by its pairs, a page holding more first", async () => {
  // no page holds 链路繁忙重试; DEMO_LINK_BUSY holds 链路 and 繁忙, DEMO_NOT_LINKED holds 链路,
  // DEMO_TIMEOUT holds 重试
  const found = await locations(ZH, "链路繁忙重试")
  assert.equal(found[0], "codes/DEMO_LINK_BUSY/")
  assert.deepEqual(found.slice(1).sort(), ["codes/DEMO_NOT_LINKED/", "codes/DEMO_TIMEOUT/"])
  // a run held as written is not split
  assert.deepEqual(await locations(ZH, "链路繁忙"), ["codes/DEMO_LINK_BUSY/"])
})

test("a word that names a family limits the search to it", async () => {
  assert.deepEqual(await locations(ZH, "Other 超时"), ["other/codes/TIMEOUT/"])
  assert.deepEqual((await locations(ZH, "超时")).sort(), ["codes/DEMO_TIMEOUT/", "other/codes/TIMEOUT/"])
})

// -- the other language ----------------------------------------------------------------------------

test("a query in the other language searches that language's index, and its results say so", async () => {
  const zhOnEn = (await answer("超时", EN, load)).items.map(group => group[0])
  assert.deepEqual(zhOnEn.map(item => item.location).sort(), ["codes/DEMO_TIMEOUT/", "other/codes/TIMEOUT/"])
  assert.ok(zhOnEn.every(item => item.title.includes('lang="zh"') && item.title.includes("in 中文")), zhOnEn[0].title)
  const enOnZh = (await answer("processing", ZH, load)).items.map(group => group[0])
  assert.ok(enOnZh.length >= 2 && enOnZh.every(item => item.location.startsWith("en/") && item.title.includes("English结果")))
  // a name, a word of one in any case, or a value belongs to no language: it is searched where it is typed
  for (const query of ["TIMEOUT", "timeout", "DEMO_TIMEOUT", "0x5010B01A"]) {
    const items = (await answer(query, ZH, load)).items.map(group => group[0])
    assert.ok(items.length && items.every(item => !item.location.startsWith("en/") && !item.title.includes("结果")), query)
  }
})

test("a message a library logs, pasted on the zh pages, answers there, though it is English", async () => {
  const en = new Index({ lang: "en", script: "latin", labels: LABELS, languages: LANGUAGES, families: FAMILIES, docs: [
    code("DEMO_TIMEOUT", 0x5010B01A, { m: "Processing timed out", g: "Process timeout." })] })
  const zh = new Index({ lang: "zh", script: "cjk", labels: LABELS, languages: LANGUAGES, families: FAMILIES, docs: [
    code("DEMO_TIMEOUT", 0x5010B01A, { l: "codes/DEMO_TIMEOUT/", m: "处理超时", g: "Process timeout." })] })
  const both = async lang => ({ en, zh })[lang] || null
  const first = async (query, index) => (await answer(query, index, both)).items.map(group => group[0].location)[0]
  // (the C++ library logs it: its reader sees the C++ pages' answer first)
  assert.equal(await first("Process timeout.", zh), "codes/DEMO_TIMEOUT/?via=c")
  assert.equal(await first("[ERROR] 12:00:00 Process timeout.", zh), "codes/DEMO_TIMEOUT/?via=c")
  // English words that are no whole log message are still searched on the English pages
  assert.equal(await first("timed out", zh), "en/codes/DEMO_TIMEOUT/")
})

test("a query that nothing on the zh pages holds finds the English texts, labelled, as the en pages find zh", async () => {
  // words no zh text holds and that are no lower-case English word: a hyphen, capitals, a slash
  const en = new Index({ lang: "en", script: "latin", labels: LABELS, languages: LANGUAGES, families: FAMILIES, docs: [
    code("DEMO_LINK_LOST", 0x5010B020, { m: "Link lost", s: "The link must be re-established on the NIC (N/A otherwise)." })] })
  const zh = new Index({ lang: "zh", script: "cjk", labels: { ...LABELS, in_language: "{language}结果" }, languages: LANGUAGES,
    families: FAMILIES, docs: [code("DEMO_LINK_LOST", 0x5010B020, { l: "codes/DEMO_LINK_LOST/", m: "链路断开", s: "需重新建链。" })] })
  const both = async lang => ({ en, zh })[lang] || null
  for (const query of ["re-established", "NIC", "N/A"]) {
    const items = (await answer(query, zh, both)).items.map(group => group[0])
    assert.deepEqual(items.map(item => item.location), ["en/codes/DEMO_LINK_LOST/"], query)
    assert.ok(items[0].title.includes('lang="en"') && items[0].title.includes("English结果"), items[0].title)
  }
  // the en pages: a Han word no English text holds finds the zh text, labelled (as before)
  const zhOnEn = (await answer("建链", en, both)).items.map(group => group[0])
  assert.deepEqual(zhOnEn.map(item => item.location), ["codes/DEMO_LINK_LOST/"])
  assert.ok(zhOnEn[0].title.includes("in 中文"))
  // what the page's own language holds stays there, unlabelled
  const own = (await answer("DEMO_LINK_LOST", zh, both)).items.map(group => group[0])
  assert.deepEqual(own.map(item => item.location), ["codes/DEMO_LINK_LOST/"])
  assert.ok(!own[0].title.includes("结果"))
})

test("without the other language's index, the query is searched where it is typed", async () => {
  const none = async () => null
  const items = (await answer("超时", EN, none)).items
  assert.equal(items.length, 1)
  assert.match(items[0][0].title, /Nothing found for “超时”/)
})

// -- nothing found -----------------------------------------------------------------------------------

test("an empty result says what was searched and suggests the nearest codes", async () => {
  const items = (await answer("DEMO_TIMEOT", EN, load)).items.map(group => group[0])
  assert.match(items[0].title, /Nothing found for “DEMO_TIMEOT”/)
  assert.match(items[0].text, /Searched every family \(English\)/)
  assert.match(items[0].text, /Nearest codes: <code>DEMO_TIMEOUT<\/code>/)
  assert.equal(items[1].location, "en/codes/DEMO_TIMEOUT/")
  // Chinese that no page holds, nor any pair of it: the codes whose meanings share its characters
  const zh = (await answer("忙碌链接", ZH, load)).items.map(group => group[0])
  assert.match(zh[0].title, /Nothing found/)
  assert.deepEqual(zh.slice(1).map(item => item.location), ["codes/DEMO_LINK_BUSY/", "codes/DEMO_NOT_LINKED/"])
})

test("an id no code has suggests the ids one digit away and with the nearest numbers, as explain does", async () => {
  const items = (await answer("E10004", MESSAGES, load)).items.map(group => group[0])
  assert.match(items[0].title, /Nothing found/)
  assert.deepEqual(items.slice(1, 3).map(item => item.location), ["en/ge/codes/E10003/", "en/ge/codes/E10001/"])
})

test("an id's number alone finds the id (10003 is E10003), unless a code has it as its value", async () => {
  assert.equal(await first(MESSAGES, "10003"), "en/ge/codes/E10003/")
  assert.deepEqual(await locations(MESSAGES, "11001"), ["en/ge/codes/W11001/"])
  // a number no id has: the ids one digit away, as for E10004
  const items = (await answer("10004", MESSAGES, load)).items.map(group => group[0])
  assert.match(items[0].title, /Nothing found/)
  assert.deepEqual(items.slice(1, 3).map(item => item.location), ["en/ge/codes/E10003/", "en/ge/codes/E10001/"])
  const valued = new Index({ lang: "en", labels: LABELS, languages: LANGUAGES, families: FAMILIES,
    docs: [message("E10003", ["Cannot open %s."]), code("DEMO_VALUED", 10003)] })
  assert.deepEqual(await locations(valued, "10003"), ["en/codes/DEMO_VALUED/"])
  // among words the number is no id: the words are searched (a port, a count), and the id is only suggested;
  // a number no id is one digit from suggests none (50390 suggested E19999 and the rest: found by review)
  const among = (await answer("invalid 10003", MESSAGES, load)).items.map(group => group[0])
  assert.match(among[0].title, /Nothing found/)
  assert.equal(among[1].location, "en/ge/codes/E10003/")
  const far = (await answer("55555", MESSAGES, load)).items.map(group => group[0])
  assert.equal(far.length, 1)
  assert.match(far[0].text, /No code comes close/)
})

test("an empty result for a family lists what that family has", async () => {
  const items = (await answer("Other 磁盘损坏", ZH, load)).items.map(group => group[0])
  assert.equal(items.length, 1)
  assert.equal(items[0].location, "other/codes/")
  assert.match(items[0].text, /Searched Other \(中文\)/)
  assert.match(items[0].text, /Other has 1 codes: <code>TIMEOUT<\/code>/)
  assert.match(items[0].text, /No code comes close/)
})

test("what a query holds is escaped in the answer", async () => {
  const items = (await answer("<img src=x onerror=alert(1)>", EN, load)).items
  assert.ok(items.every(group => !/<img/.test(group[0].title + group[0].text)))
})

test("a name of a C interface finds its code first, written with or without the global namespace", async () => {
  // HIXL's C interface: ::HIXL_TIMEOUT, written HIXL_TIMEOUT, is the index's OTHER_TIMEOUT here
  for (const query of ["OTHER_TIMEOUT", "::OTHER_TIMEOUT", "ret = OTHER_TIMEOUT;", "other_timeout"]) {
    assert.equal(await first(EN, query), "en/other/codes/TIMEOUT/", query)
  }
})

// -- a release named in the query, and the numbers of a log line ---------------------------------------

test("a release the query names is no word to find: the code's page opens on that release", async () => {
  const plain = await locations(EN, "timeout")
  assert.ok(plain.length > 1)
  const forms = { "9.0.0": "9.0.0", "v9.0.0": "9.0.0", "9.0.0-v2": "9.0.0", "9.0.0-cpp-v2": "9.0.0", "8.0.RC3": "8.0.RC3",
    "9.2.0-beta.1": "9.2.0-beta.1", "9.1.0.pre": "9.1.0.pre" }
  for (const [form, release] of Object.entries(forms)) {
    for (const query of [`timeout ${form}`, `${form} timeout`]) {
      assert.deepEqual(await locations(EN, query), plain.map(l => `${l}?release=${encodeURIComponent(release)}`), query)
    }
  }
  assert.deepEqual(await locations(EN, "demo timeout 9.0.0"),
    (await locations(EN, "demo timeout")).map(l => l + "?release=9.0.0"))  // a family word and a release together
  assert.equal(await first(EN, "1.0"), "en/editions/1.0/")  // not a release form: a word as before
})

const LOGS = new Index({
  lang: "en", script: "latin", labels: LABELS, languages: LANGUAGES, families: FAMILIES, synonyms: [],
  docs: [code("SUCCESS", 0, { f: "Other", l: "en/other/codes/SUCCESS/", m: "Success" }),
    code("DEMO_TWELVE", 12, { m: "Twelve" }), code("DEMO_PID", 5678, { m: "A value that looks like a process id" }),
    code("TIMEOUT", 103901, { f: "Other", l: "en/other/codes/TIMEOUT/", m: "Timed out" })]
})

test("a log line's status is the number after ret, status, code or error; its timestamp and ids are none", async () => {
  const line = "[ERROR] HIXL(5678,python):2025-06-01-12:00:00.123.456 [hixl_cs.cc:12] transfer failed, ret:103901"
  assert.deepEqual(await locations(LOGS, line), ["en/other/codes/TIMEOUT/"])
  for (const keyed of ["status=103901", "status_code=103901", "code 103901", "error: 103901", "ret = 103901"]) {
    assert.equal(await first(LOGS, `[12:00:00] pid 5678 ${keyed}`), "en/other/codes/TIMEOUT/", keyed)
  }
  // no key: a timestamp and a process still give no number; a bare number is still a value
  assert.deepEqual(await locations(LOGS, "2025-06-01 12:00:00 HIXL(5678,python) 103901"), ["en/other/codes/TIMEOUT/"])
  assert.deepEqual(await locations(LOGS, "12"), ["en/codes/DEMO_TWELVE/"])
  assert.deepEqual(await locations(LOGS, "5678"), ["en/codes/DEMO_PID/"])
})

// -- exact names and meanings first ---------------------------------------------------------------------

test("a code the query names, or whose meaning it is, ranks above one whose log message the query holds", async () => {
  // DEMO_TIMEOUT's log message "Process timeout." is within the query; DEMO_WAIT_PROCESS_TIMEOUT is its name
  for (const query of ["wait process timeout", "Wait_Process_Timeout", "demo wait process timeout", "DEMO_WAIT_PROCESS_TIMEOUT"]) {
    assert.equal(await first(EN, query), "en/codes/DEMO_WAIT_PROCESS_TIMEOUT/", query)
  }
  assert.equal((await locations(EN, "wait process timeout"))[1], "en/codes/DEMO_TIMEOUT/")  // the message still found
  assert.equal(await first(EN, "process timeout"), "en/codes/DEMO_TIMEOUT/")  // its message, as before
  const zh = new Index({
    lang: "zh", script: "cjk", labels: LABELS, languages: LANGUAGES, families: FAMILIES, synonyms: [],
    docs: [code("DEMO_DEVICE_OUT_OF_MEMORY", 0x5010B012, { l: "codes/DEMO_DEVICE_OUT_OF_MEMORY/", m: "设备内存不足" }),
      code("DEMO_OUT_OF_MEMORY", 0x5010B01C, { l: "codes/DEMO_OUT_OF_MEMORY/", m: "内存不足" })]
  })
  assert.deepEqual(await locations(zh, "内存不足"), ["codes/DEMO_OUT_OF_MEMORY/", "codes/DEMO_DEVICE_OUT_OF_MEMORY/"])
})

test("a code found by a C name or a value opens with the C++ pages' answers first (?via=c)", async () => {
  const raw = async query => (await answer(query, EN, load)).items[0][0].location
  // a value in hex or in decimal (HIXL's and ADXL's C literals are decimal), as the contract's "a value"
  for (const query of ["0x5010B01A", "5010b01a", "1343270938", "DEMO_TIME_OUT", "demo::DEMO_TIMEOUT",
    "error code: 0x5010B01A", "ret = 1343270938"]) {
    assert.equal(await raw(query), "en/codes/DEMO_TIMEOUT/?via=c", query)
  }
  // the message the C++ library logs for it (its log message) is a C++ reader's too
  assert.equal(await raw("Process timeout."), "en/codes/DEMO_TIMEOUT/?via=c")
  for (const query of ["DEMO_TIMEOUT", "kDemoTimeout", "processing timed out", "demo_timeout"]) {
    assert.equal(await raw(query), "en/codes/DEMO_TIMEOUT/", query)
  }
  assert.equal(await raw("0x5010B01A 9.0.0"), "en/codes/DEMO_TIMEOUT/?release=9.0.0&via=c")
})

// -- a family of messages: a pasted message fits a template ------------------------------------------

function message(id, templates, fields = {}) {
  return { l: `en/ge/codes/${id}/`, t: id, k: "code", f: "GE", n: id, v: [], m: fields.m || "", s: fields.s || "",
    p: templates }
}

const MESSAGES = new Index({
  lang: "en", script: "latin", labels: LABELS, languages: LANGUAGES,
  families: [...FAMILIES, { name: "GE", words: ["ge"], codes: "en/ge/codes/" }], synonyms: [],
  docs: [
    message("E10001", ["Value %s for parameter %s is invalid. Reason: %s"], { m: "Invalid Argument parameter value" }),
    message("E10003", ["Value %s for parameter --%s is invalid. Reason: %s"], { m: "Invalid Argument" }),
    message("E10051", ["Value %s for parameter --job_id exceeds the allowed maximum %s.",
      "Value %s for parameter job_id exceeds the allowed maximum length %s."]),
    message("E20005", ["Cannot open %s."]),
    message("E20006", ["Cannot %s file."]),
    message("W11001", ["Op %s does not hit the high-priority operator information library, which might result in " +
      "compromised performance."]),
    message("E19999", ["%s"], { m: "Inner Error" }),
    message("E13024", ["Value %s for environment variable %s is invalid. Reason: %s."]),
    code("DEMO_TIMEOUT", 0x5010B01A, { m: "Processing timed out", g: "Process timeout." }),
    code("DEMO_SUCCESS", 0, { names: ["ge::SUCCESS"], m: "Success", s: "None: no error, the call succeeded." })
  ]
})

test("a pasted message finds the code whose template it fits, the most specific first, prefix and values ignored", async () => {
  const prefix = "[ERROR] GE(12345,python):2026-12-06-12:00:00.123.456 [ge_api.cc:123] "
  assert.equal(await first(MESSAGES, prefix + "Value 1.1,2,4,8 for parameter --dynamic_batch_size is invalid. Reason: digits only."),
    "en/ge/codes/E10003/")
  assert.equal(await first(MESSAGES, "Value 2 for parameter ge.exec.enableDump is invalid. Reason: The value must be 1 or 0."),
    "en/ge/codes/E10001/")
  // each of a code's templates counts: the registry's older text as much as the page's
  assert.equal(await first(MESSAGES, "Value 300 for parameter job_id exceeds the allowed maximum length 128."),
    "en/ge/codes/E10051/")
  assert.equal(await first(MESSAGES, "Value 300 for parameter --job_id exceeds the allowed maximum 128."),
    "en/ge/codes/E10051/")
  // a word or two is no message: a template needs a sentence to fit
  assert.notEqual(await first(MESSAGES, "cannot open"), "en/ge/codes/E20005/")
})

test("a name, an id or a status in a pasted line wins over the message it logs, as explain reads a line", async () => {
  // the brackets a log puts around values keep E10003's "--%s" from fitting; E10001's fits: the id decides
  const line = "[ERROR] GE(12345,python3):2025-01-01-10:00:00.000.000 [op_desc.cc:88]12345 E10003: " +
    "Value [1.1] for parameter [--dynamic_batch_size] is invalid. Reason: x"
  assert.equal(await first(MESSAGES, line), "en/ge/codes/E10003/")
  assert.equal(await first(MESSAGES, line.replace("E10003", "E10001")), "en/ge/codes/E10001/")
  // a code's name or hex value, or the status after ret, over another code's logged message
  assert.equal(await first(EN, "[ERROR] pull failed with DEMO_LINK_BUSY: Process timeout."), "en/codes/DEMO_LINK_BUSY/")
  assert.equal(await first(EN, "[ERROR] pull failed, ret=0x5010B01B: Process timeout."), "en/codes/DEMO_LINK_BUSY/")
  assert.equal(await first(EN, "[ERROR] pull failed, ret = 1343270939: Process timeout."), "en/codes/DEMO_LINK_BUSY/")
  // a bare number is no status: the message decides
  assert.equal(await first(EN, "[ERROR] 1343270939 caches: Process timeout."), "en/codes/DEMO_TIMEOUT/")
})

test("a GE id in a pasted block wins over a C++ name in it, as explain reads it", async () => {
  // CANN's E19999 block: its TraceBack quotes a source line that names ge::SUCCESS (LLM_SUCCESS came first)
  const block = "E19999: Inner Error!\nTraceBack (most recent call last):\n" +
    "[graph_builder.cc:455] Assert ((ret) == ge::SUCCESS) failed"
  assert.equal(await first(MESSAGES, block), "en/ge/codes/E19999/")
})

test("the bare numbers of a pasted message are values it holds, no status: they find no status code", async () => {
  // "99", "0", "4" found the SUCCESS codes below E13024 (value 0): a status is the number after ret, status, code, error
  const line = "Value 99 for environment variable ASCEND_GLOBAL_LOG_LEVEL is invalid. Reason: the value must be in [0, 4]."
  assert.deepEqual(await locations(MESSAGES, line), ["en/ge/codes/E13024/"])
  assert.equal(await first(MESSAGES, "0"), "en/codes/DEMO_SUCCESS/")  // a number alone is a value
  // a status code's value, six digits or more, in a sentence still finds its code
  assert.equal(await first(EN, "pull kv cache failed 1343270939"), "en/codes/DEMO_LINK_BUSY/")
})

test("a message copied in part finds the template it holds the most of, below one it fits whole", async () => {
  // cut at the end (inside the piece after the last placeholder), whatever number it holds
  assert.equal(await first(MESSAGES, "Value [-1] for parameter [batch] is invalid."), "en/ge/codes/E10001/")
  assert.equal(await first(MESSAGES, "Op add does not hit the high-priority operator information library"),
    "en/ge/codes/W11001/")
  // cut at the start: the message begins with the end of a piece, then a placeholder's value
  assert.equal(await first(MESSAGES, "for parameter --dynamic_batch_size is invalid. Reason: digits only."),
    "en/ge/codes/E10003/")
  // a part of one piece
  assert.equal(await first(MESSAGES, "high-priority operator information library, which might"), "en/ge/codes/W11001/")
  // a message a template fits whole comes before one that holds only a part of another's
  assert.equal(await first(MESSAGES, "Value 300 for parameter --job_id exceeds the allowed maximum 128."),
    "en/ge/codes/E10051/")
  // a few words of a template in a long text are no part of it
  assert.notEqual(await first(MESSAGES, "Value x for parameter y: and then a long story that no template of any code " +
    "holds, told here in words enough to be most of what was pasted"), "en/ge/codes/E10001/")
})

test("the page a pasted message finds marks only a word that names the code, not every word of the message", async () => {
  const marks = async query => Object.keys((await answer(query, MESSAGES, load)).items[0][0].terms)
  assert.deepEqual(await marks("Value [-1] for parameter [batch] is invalid. Reason: too long."), [])
  assert.deepEqual(await marks("E10001: Value [-1] for parameter [batch] is invalid. Reason: too long."), ["E10001"])
  assert.deepEqual(await marks("Process timeout."), [])
  // words that find a page by what it says are still marked there
  assert.deepEqual(await marks("invalid argument"), ["invalid", "argument"])
  // a line that names the code among other words marks the name alone
  const named = async query => Object.keys((await answer(query, EN, load)).items[0][0].terms)
  assert.deepEqual(await named("DemoException: error code is DemoCode.DEMO_TIMEOUT"), ["DEMO_TIMEOUT"])
  assert.deepEqual(await named("DEMO_TIMEOUT"), ["DEMO_TIMEOUT"])
})

test("how much of a template a message holds", () => {
  const { templateFit, templatePieces } = worker
  const template = templatePieces("Value %s for parameter %s is invalid. Reason: %s")
  assert.deepEqual(templateFit("value 1 for parameter x is invalid. reason: y", template),
    { held: template.own, whole: true, start: 0 })
  // its end cut: the pieces before, and the start of the one it stops in
  assert.deepEqual(templateFit("value 1 for parameter x is inv", template), { held: 6 + 15 + 7, whole: false, start: 0 })
  // its start cut: the end of the piece it starts in, and the pieces after
  assert.deepEqual(templateFit("parameter x is invalid. reason: y", template),
    { held: 10 + 21, whole: false, start: 0 })
  assert.equal(templateFit("nothing of it here at all", template).held, 0)
})

test("full-width digits and letters, as a Chinese input method types them, read as ASCII", async () => {
  for (const query of ["０x５０１０Ｂ０１Ａ", "０ｘ５０１０ｂ０１ａ", "１３４３２７０９３８", "ＤＥＭＯ＿ＴＩＭＥＯＵＴ"]) {
    assert.equal(await first(EN, query), "en/codes/DEMO_TIMEOUT/", query)
  }
  assert.deepEqual(await locations(EN, "ｒｅｔ＝－１"), ["en/codes/DEMO_UNKNOWN/"])  // ＝ stays: ret= is read without it
  assert.equal(await first(ZH, "处理超时"), "codes/DEMO_TIMEOUT/")  // other full-width text is left as it is
})
