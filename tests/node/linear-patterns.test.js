// The site's scripts cannot be made to run long by a query (a paste, a ?q= address): every regular
// expression in the search worker and the page's script nests no repeat in another, costs at most
// RATIO_BOUND times more on adversarial texts of 10,000 characters than on texts of 1,000, and the
// worker reads at most MAX_QUERY characters of a query. Both checks are shown failing on planted
// patterns. Run by tests/test_search.py (node --test tests/node/).
"use strict"

const test = require("node:test")
const assert = require("node:assert/strict")
const fs = require("node:fs")
const path = require("node:path")

const ASSETS = path.join(__dirname, "..", "..", "site", "docs", "assets", "javascripts")
const WORKER = path.join(ASSETS, "search-worker.js")
const worker = require(WORKER)
const RATIO_BOUND = 20

// -- regular expression literals in a script -----------------------------------------------------

/* Every /pattern/flags literal of a script (strings, templates and comments skipped; a slash
   starts a literal where an expression may start, as a JavaScript parser decides). */
function regexLiterals(source) {
  const found = []
  let i = 0, last = ""
  const regexMayStart = () => last === "" || "(,=:[!&|?{};+-*%<>~^".includes(last) || /\b(?:return|typeof|case)$/.test(source.slice(Math.max(0, i - 7), i).trimEnd())
  while (i < source.length) {
    const c = source[i]
    if (c === "/" && source[i + 1] === "/") { i = source.indexOf("\n", i); if (i < 0) break; continue }
    if (c === "/" && source[i + 1] === "*") { i = source.indexOf("*/", i + 2) + 2; continue }
    if (c === '"' || c === "'" || c === "`") {
      let j = i + 1
      while (j < source.length && source[j] !== c) j += source[j] === "\\" ? 2 : 1
      i = j + 1; last = c; continue
    }
    if (c === "/" && regexMayStart()) {
      let j = i + 1, inClass = false
      while (j < source.length && (inClass || source[j] !== "/")) {
        if (source[j] === "\\") j += 1
        else if (source[j] === "[") inClass = true
        else if (source[j] === "]") inClass = false
        j += 1
      }
      let k = j + 1
      while (/[a-z]/.test(source[k] || "")) k += 1
      found.push({ pattern: source.slice(i + 1, j), flags: source.slice(j + 1, k), line: source.slice(0, i).split("\n").length })
      i = k; last = "/"; continue
    }
    if (!/\s/.test(c)) last = /[\w$]/.test(c) ? "w" : c
    i += 1
  }
  return found
}

/* Whether a repeat that may run more than once (*, +, {n,}, {n,m} with m > 1) applies to a group
   that holds a repeat of any kind. */
function nestedRepeat(pattern) {
  const groups = [{ repeats: false }]
  let atom = null  // the last atom: {group: bool, repeats: bool}
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]
    if (c === "\\") {
      if ("pPuk".includes(pattern[i + 1]) && "{<".includes(pattern[i + 2])) i = pattern.indexOf(pattern[i + 2] === "{" ? "}" : ">", i)
      else i += 1
      atom = { group: false }
    } else if (c === "[") {
      for (i += 1; i < pattern.length && pattern[i] !== "]"; i++) if (pattern[i] === "\\") i += 1
      atom = { group: false }
    } else if (c === "(") {
      groups.push({ repeats: false })
      atom = null
    } else if (c === ")") {
      const group = groups.pop()
      atom = { group: true, repeats: group.repeats }
      if (group.repeats) groups[groups.length - 1].repeats = true
    } else if ("*+?{".includes(c)) {
      let many = c !== "?"
      if (c === "{") {
        const bound = /^\{(\d*)(,?)(\d*)\}/.exec(pattern.slice(i))
        if (!bound) { atom = { group: false }; continue }  // a literal brace
        many = bound[2] === "," ? bound[3] === "" || Number(bound[3]) > 1 : Number(bound[1]) > 1
        i += bound[0].length - 1
      }
      if (pattern[i + 1] === "?") i += 1  // lazy
      if (atom === null) continue  // (? of a group's kind
      if (many && atom.group && atom.repeats) return true
      groups[groups.length - 1].repeats = true
      atom = { group: false }
    } else {
      atom = { group: false }
    }
  }
  return false
}

const UNITS = ["1", "1.", "1.1", "a", "a_", "A", "Aa", " ", "\t", "\n", "retry ", "retry", ".", "-", "_", "x", "0x", "::",
  ":", "(", "(1", "[", "<", "'", '"', "\\", "`", "*", "ret:", "code ", "中", "中文", "_a", "a.", "1-", "v1.", "9.0.0-beta.",
  "1.1.1-beta1", "LLM_", "pid ", "12:00:00,", "2026-12-06 "]

function texts(length) {
  return UNITS.flatMap(unit => {
    const body = unit.repeat(Math.ceil(length / unit.length)).slice(0, length)
    return [body, body.slice(0, -1) + "!", "!" + body.slice(1), body.slice(0, -1) + "_"]
  })
}

/* Seconds per call of run: the least of `trials` averages over at least `budget` seconds. */
function cost(run, budget = 0.0005, trials = 2) {
  let best = Infinity
  for (let trial = 0; trial < trials; trial++) {
    let calls = 0
    const start = process.hrtime.bigint()
    let elapsed = 0
    do {
      run()
      calls += 1
      elapsed = Number(process.hrtime.bigint() - start) / 1e9
    } while (elapsed < budget)
    best = Math.min(best, elapsed / calls)
  }
  return best
}

/* cost(long) / cost(short); a ratio over the bound is measured again, longer, before it counts
   (a pause of the collector or of the machine makes one measure, never three, look slow). */
function ratioOf(runLong, runShort) {
  let ratio = cost(runLong) / cost(runShort)
  for (let again = 1; again <= 3 && ratio > RATIO_BOUND; again++) {
    ratio = Math.min(ratio, cost(runLong, 0.002 * again, 3) / cost(runShort, 0.002 * again, 3))
  }
  return ratio
}

/* The largest cost(10x texts) / cost(texts) over the ways a script uses a pattern, each on every
   adversarial text at once (a text that costs the square of its length dominates the longer
   batch, so the batch's ratio shows it); the text that does, when one does. */
function worstRatio(regex, short = 1000, long = 10000) {
  const uses = [s => regex.test(s), s => s.split(regex), s => s.replace(regex, " ")]
  if (regex.global) uses.push(s => [...s.matchAll(regex)])
  const shorts = texts(short), longs = texts(long)
  const batch = (use, list) => () => { for (const s of list) { regex.lastIndex = 0; use(s) } }
  let worst = 0, unit = null
  for (const use of uses) {
    const ratio = ratioOf(batch(use, longs), batch(use, shorts))
    if (ratio > worst) { worst = ratio; unit = null }
    if (ratio > RATIO_BOUND) {  // which text: the one whose own ratio is the largest
      const each = shorts.map((s, i) => [ratioOf(batch(use, [longs[i]]), batch(use, [s])), s.slice(0, 12)])
      unit = each.sort((a, b) => b[0] - a[0])[0][1]
      return { worst, unit }
    }
  }
  return { worst, unit }
}

const SCRIPTS = ["search-worker.js", "extra.js"].map(name => {
  const source = fs.readFileSync(path.join(ASSETS, name), "utf8")
  return { name, source, literals: regexLiterals(source) }
})

test("the scripts build no pattern from text: no RegExp constructor", () => {
  for (const { name, source } of SCRIPTS) assert.ok(!/\bnew RegExp\b|\bRegExp\(/.test(source), name)
})

test("every pattern of the scripts is found (the worker's pieces of a query are among them)", () => {
  const worker = SCRIPTS[0].literals.map(l => l.pattern)
  assert.ok(worker.length >= 30, worker.length)
  assert.ok(worker.includes("^v?(\\d+\\.\\d+\\.(?:\\d+|rc\\d+))"), "RELEASE_HEAD not found")
})

for (const { name, literals } of SCRIPTS) {
  test(`${name}: no pattern nests a repeat in another`, () => {
    const nested = literals.filter(l => nestedRepeat(l.pattern)).map(l => `${name}:${l.line}: /${l.pattern}/`)
    assert.deepEqual(nested, [])
  })

  test(`${name}: every pattern costs at most ${RATIO_BOUND}x on ten times the text`, () => {
    for (const literal of literals) {
      const { worst, unit } = worstRatio(new RegExp(literal.pattern, literal.flags))
      assert.ok(worst <= RATIO_BOUND, `${name}:${literal.line}: /${literal.pattern}/ costs ${worst.toFixed(0)}x (${JSON.stringify(unit)}...)`)
    }
  })
}

test("the checks find what they are for: a nested repeat, and a pattern that fails after a long run", () => {
  for (const nested of ["(a+)+b", "^v?(\\d+\\.\\d+\\.(?:\\d+|rc\\d+)(?:[.-](?:alpha|beta|rc|pre)(?:\\.?\\d+)*)*)$", "(?:x|\\w{2,})*",
    "(?:\\d{1,3})+", "(?<name>a*)*"]) {
    assert.ok(nestedRepeat(nested), nested)
  }
  for (const flat of ["^[0-9]+$", "(?:ab)?c+", "(?:[-T ]\\d{1,2}:\\d{2})?", "[\\p{L}]+", "\\{(\\w+)\\}", "a{2}b", "(?:a\\d){1}"]) {
    assert.ok(!nestedRepeat(flat), flat)
  }
  assert.ok(worstRatio(/^[0-9a-f]*\d[0-9a-f]*u/, 200, 2000).worst > RATIO_BOUND)
  const literals = regexLiterals("const a = /x+/g, b = c / d / e\nreturn /y(?:z)*/i.test(s) // /not/\n'/no/'")
  assert.deepEqual(literals.map(l => l.pattern), ["x+", "y(?:z)*"])
})

// -- the worker's answer to a long query ---------------------------------------------------------

const LANGUAGES = [{ lang: "en", path: "en/", name: "English", script: "latin" }]
const EN = new worker.Index({
  lang: "en", script: "latin", labels: {}, languages: LANGUAGES, families: [{ name: "Demo", words: ["demo"], codes: "codes/" }],
  synonyms: [["retry", "try again"]],
  docs: [
    { l: "en/codes/DEMO_TIMEOUT/", t: "DEMO_TIMEOUT", k: "code", f: "Demo", n: "DEMO_TIMEOUT", v: ["1343270938", "x5010b01a"],
      m: "Processing timed out", s: "Increase the timeout interval and retry.", g: "Process timeout." },
    { l: "en/codes/DEMO_BUSY/", t: "DEMO_BUSY", k: "code", f: "Demo", n: "DEMO_BUSY", v: ["1", "x1"], m: "Link busy", s: "Retry later." }
  ]
})
const load = async () => EN

const QUERIES = {
  "digits after a release": n => "1.1.1-beta" + "1".repeat(n - 11) + "_",
  "a repeated word": n => "retry ".repeat(n).slice(0, n),
  "distinct words": n => Array.from({ length: n }, (_, i) => "abcdefghij"[i % 10] + (i % 7 ? "" : " ")).join("").slice(0, n),
  "separators": n => ".-".repeat(n).slice(0, n),
  "a log line": n => ("2026-12-06 12:00:00.123 pid=5 ret:1 " + "x".repeat(n)).slice(0, n)
}

test("a query longer than MAX_QUERY is read as its first MAX_QUERY characters", async () => {
  assert.equal(worker.MAX_QUERY, 500)
  for (const [kind, make] of Object.entries(QUERIES)) {
    const long = make(10000)
    assert.deepEqual(await worker.answer(long, EN, load), await worker.answer(long.slice(0, worker.MAX_QUERY), EN, load), kind)
  }
  const astral = "\u{1F600}".repeat(600)
  assert.equal(Array.from(worker.bounded(astral)).length, worker.MAX_QUERY)
  assert.ok(worker.bounded(astral).endsWith("\u{1F600}"))  // no half of a character left at the end
  assert.equal(worker.bounded("short"), "short")
})

test(`an adversarial query of 10,000 characters costs at most ${RATIO_BOUND}x one of 1,000`, async () => {
  for (const [kind, make] of Object.entries(QUERIES)) {
    const time = async query => {
      let best = Infinity
      for (let trial = 0; trial < 3; trial++) {
        const start = process.hrtime.bigint()
        await worker.answer(query, EN, load)
        best = Math.min(best, Number(process.hrtime.bigint() - start))
      }
      return best
    }
    const ratio = (await time(make(10000))) / (await time(make(1000)))
    assert.ok(ratio <= RATIO_BOUND, `${kind}: ${ratio.toFixed(1)}x`)
  }
})

test("a release is read from a query in the site's forms, and nothing else is one", () => {
  const cases = {
    "9.0.0": "9.0.0", "v9.0.0": "9.0.0", "8.0.RC3": "8.0.RC3", "9.2.0-beta.1": "9.2.0-beta.1", "9.1.0.pre": "9.1.0.pre",
    "9.0.0-v2": "9.0.0", "9.0.0-cpp-v2": "9.0.0", "9.1.0-beta.2.pre": "9.1.0-beta.2.pre", "9.0.0-beta1": "9.0.0-beta1",
    "9.0.0-beta.1-cpp-v1": "9.0.0-beta.1", "9.0.0.5": null, "9.0.0-": null, "9.0.0-v2.1": null, "9.0.0-2": null,
    "9.0": null, "timeout": null, ["1.1.1-beta" + "1".repeat(40) + "_"]: null
  }
  for (const [word, release] of Object.entries(cases)) assert.equal(worker.releaseOf(word), release, word)
})

test("fitting a message template costs time linear in the query, whatever the templates", () => {
  const { templateFit, templatePieces } = worker
  const hostile = templatePieces("a %s a %s a %s a %s a %s a %s a %s a %s b")
  const short = "a ".repeat(500), long = "a ".repeat(5000)  // 1,000 and 10,000 characters
  const ratio = ratioOf(() => templateFit(long, hostile), () => templateFit(short, hostile))
  assert.ok(ratio <= RATIO_BOUND, `10,000 characters cost ${ratio.toFixed(1)} times 1,000`)
  // a message held in part: cut inside a long last piece, or started inside a long first one
  const ends = templatePieces("b a a a a a a a a a a a a a a a a a a a a a a a a %s a a a a a a a a a a a a a a a a a a a a a a b")
  for (const [shortText, longText] of [[short, long], ["b" + short, "b" + long]]) {
    const cut = ratioOf(() => templateFit(longText, ends), () => templateFit(shortText, ends))
    assert.ok(cut <= RATIO_BOUND, `a part: 10,000 characters cost ${cut.toFixed(1)} times 1,000`)
  }
})
