// The Workbench: a form for a force or a battle; rulesref itself computes the answer, in
// Python (Pyodide) in a Worker, from files of this site only (workbench/pyodide/). No rule
// is written here: the choices, defaults and limits come from data/workbench.json, which
// the build writes from the package (rulesref.workbench_choices); this file builds the
// form, sends its JSON to rulesref.workbench.answer, and shows what comes back (exact
// fractions and percents, or a bad field's message).
//
// The page never freezes: every size is checked before the work it bounds (an address's
// length before it is inflated, the inflated bytes as they stream, the nesting before
// JSON.parse, the counts before the form is drawn), and the form draws a bounded number
// of cards. Names are data: a description is read through own properties only.
//
// A description can be kept as "A": each answer then comes with A's beside it and the
// difference of each probability, worked out by rulesref (rulesref.workbench.compared),
// and the address holds both.
//
// The same file is the Worker (started with its own address): see `worker()` below.
"use strict";

const STAGES = ["Starting Python (about 4.5 MB to download the first time)", "Importing rulesref", "Ready"];
// where the Worker keeps Python as it stands once rulesref is imported (Cache Storage)
const KEPT = "workbench-python";

// ---------------------------------------------------------------- the Worker's side
// Python as it stands once rulesref is imported is kept by the browser after the first
// visit (Pyodide's memory snapshot, in Cache Storage): a return visit restores it rather
// than start Python and import rulesref again, which is most of the wait. It is kept
// under a hash of the lock, which names the wheel's and the standard library's sha256,
// so a new build of either makes a new one; one Pyodide cannot use (another runtime's) is
// thrown away and Python starts afresh.
async function keptPython(lock) {
  if (!self.caches || !crypto.subtle) return { store: null };  // not a secure context: no keeping
  try {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(lock)));
    const key = new URL(`python-${[...digest].map((b) => b.toString(16).padStart(2, "0")).join("")}`, import.meta.url).href;
    const store = await caches.open(KEPT);
    const kept = await store.match(key);
    return { store, key, snapshot: kept ? new Uint8Array(await kept.arrayBuffer()) : null };
  } catch {
    return { store: null };  // storage refused (a private window, no room): start afresh
  }
}
async function keep(pyodide, { store, key }) {
  try {
    // Pyodide writes down only the JavaScript objects Python held at its own start, its
    // list of loaded packages then empty: emptied here (a restored Python loads the wheel's
    // files again, and this one never loads a package again)
    for (const name of Object.keys(pyodide.loadedPackages)) delete pyodide.loadedPackages[name];
    const snapshot = pyodide.makeMemorySnapshot();
    for (const old of await store.keys()) await store.delete(old);
    await store.put(key, new Response(snapshot));
    return `${snapshot.length} bytes`;
  } catch (error) {  // no room, or a proxy Pyodide cannot write down: the next visit starts afresh
    return `not kept: ${error}`;
  }
}

// Python started, or restored as it was kept, with rulesref imported: its one call
// (`answer_text`) and Pyodide's type of error, taken at the start (after a fatal error
// Pyodide's API throws); `mark` notes when each step ended
async function startPython(mark) {
  const base = new URL("../workbench/pyodide/", import.meta.url).href;
  const stage = (index) => postMessage({ stage: index });
  stage(0);
  const lock = fetch(`${base}pyodide-lock.json`).then((response) => response.text());
  const [{ loadPyodide }, kept] = await Promise.all([import(`${base}pyodide.mjs`), lock.then(keptPython)]);
  mark("pyodide.mjs imported");
  // every address given: the loader's default is a CDN, and nothing may leave this host;
  // rulesref on Python's fractions (rulesref.exact): the same answers, and no sympy to load;
  // its wheel fetched while Python starts (`packages`), not after
  const options = {
    indexURL: base, packageBaseUrl: base, lockFileContents: await lock, packages: ["rulesref"],
    env: { RULESREF_FRACTIONS: "1" },
    fsInit: () => mark("WebAssembly instantiated"),  // before Python itself starts
  };
  let pyodide = null, restored = false;
  if (kept.snapshot) {
    pyodide = await loadPyodide({ ...options, _loadSnapshot: kept.snapshot }).catch(() => null);
    restored = pyodide !== null;
    if (restored) mark("Python restored");
  }
  pyodide ??= await loadPyodide({ ...options, _makeSnapshot: kept.store !== null });
  mark("Python started");
  stage(1);
  const ask = pyodide.pyimport("rulesref.workbench").answer_text;
  mark("rulesref imported");
  // kept for next time as it stands now, before any answer (keep's snapshot is taken
  // at once; storing it waits)
  const keeping = !restored && kept.store !== null;
  if (keeping) {
    keep(pyodide, kept).then((said) => postMessage({ kept: said }));
    mark("snapshot taken");
  }
  return { ask, PythonError: pyodide.ffi.PythonError, keeping };
}

// one answer of rulesref, or why there is none
function answerOf({ ask, PythonError }, question, kept) {
  const started = performance.now();
  const reply = {};
  try {
    // Python's None is JavaScript's undefined (null would reach it as JsNull)
    const text = ask(question, kept ?? undefined);
    if (typeof text !== "string") throw new Error("Python gave no answer");
    reply.answer = text;  // as text: a structured clone drops a unit named "__proto__"
  } catch (error) {
    const said = String(error).split("\n").filter(Boolean);
    if (error instanceof PythonError) {  // a failure of rulesref, not a refusal (those are answers)
      reply.answer = JSON.stringify({ error: { path: [], message: `rulesref could not answer: ${said.at(-1)}` } });
    } else {  // Pyodide itself failed (a stack overflow ...): it cannot be used again
      reply.fatal = said[0] ?? "Pyodide stopped";
    }
  }
  reply.ms = Math.round(performance.now() - started);
  return reply;
}

function worker() {
  // when each step of the start ended (ms on this Worker's clock) and what it fetched, for
  // the page to keep (root.startup: tools/measure_workbench.py reads it)
  const marks = {};
  const mark = (name) => { marks[name] = Math.round(performance.now()); };
  let keeping = false;
  const report = () => {
    const fetches = performance.getEntriesByType("resource").map(({ name, startTime, responseEnd, transferSize }) => (
      { name: name.split("/").at(-1), start: Math.round(startTime), end: Math.round(responseEnd), bytes: transferSize }));
    postMessage({ startup: { origin: performance.timeOrigin, marks, fetches, keeping } });
  };
  const ready = startPython(mark).then((python) => {
    keeping = python.keeping;
    report();
    postMessage({ stage: 2 });
    return python;
  });
  ready.catch((error) => postMessage({ failed: String(error) }));
  // The question the page opens with (its address, else the sample force), sent by its
  // first script (docs/overrides/partials/workbench-start.html) with the Workbench's
  // data: answered as soon as Python is ready, while the page still draws its form, and
  // sent to the page at once. Once drawn, the page asks its own question; the text of
  // that question and of its A must equal these to the letter for this answer to be the
  // one it gets.
  let first = null;
  onmessage = async ({ data }) => {
    if (data.opening !== undefined) {
      first = Promise.all([opening(data.opening), ready]).then(([asked, python]) => {
        if (!asked) return null;
        const reply = answerOf(python, asked.question, asked.kept);
        mark("opening question answered");
        report();
        // the page shows it for its first question if that is the very same: without
        // asking, and without drawing the build's answer first
        if (reply.answer !== undefined) postMessage({ openingAnswer: { ...asked, answer: reply.answer, ms: reply.ms } });
        return { ...asked, reply };
      }).catch(() => null);
      return;
    }
    const python = await ready;
    const early = await first;
    first = null;  // used once: the page's later questions are its own
    const same = early && early.question === data.question && early.kept === (data.kept ?? null);
    postMessage({ id: data.id, ...(same ? early.reply : answerOf(python, data.question, data.kept)) });
  };
}
// The page's opening question as the page will ask it (`ask` in page()), from the address
// the page's first script read and the data it fetched; null when the address holds a
// link the page refuses (it then asks nothing).
async function opening({ choices, hash }) {
  const { limits, samples } = JSON.parse(choices);
  const link = await readAddress(hash, limits).catch(() => undefined);
  if (link === undefined) return null;
  const { tab, data, kept } = link ?? { tab: "force", data: samples.force, kept: null };
  return { question: JSON.stringify({ [tab]: data }), kept: kept === null ? null : JSON.stringify({ [tab]: kept }) };
}

// ---------------------------------------------------------------- read by both sides
// A description as an address or a file holds it, read within the limits of
// data/workbench.json (`limits`): the page reads what it opens; the Worker reads the
// address the page opened with, to answer it while the page is still being drawn.
// Only own properties are read (a unit may be called "__proto__" or "constructor").
const isObject = (value) => value !== null && typeof value === "object";
const isRecord = (value) => isObject(value) && !Array.isArray(value);
const own = (place, step) => (isObject(place) && Object.hasOwn(place, step) ? place[step] : undefined);
const list = (value) => (Array.isArray(value) ? value : []);  // anything else: Python refuses it by name

// --- reading a description (an address or a file): each size before the work it bounds
class Refusal extends Error {}
// nesting counted in one pass over the text (brackets inside strings skipped), before
// JSON.parse, which would recurse as deep as the text nests
function depthOf(text) {
  let depth = 0, deepest = 0, inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i += 1;  // a backslash: the next character is escaped
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) deepest = Math.max(deepest, ++depth);
    else if (c === 93 || c === 125) depth -= 1;
  }
  return deepest;
}
function parse(text, what, { bytes, depth }) {
  if (text.length > bytes) throw new Refusal(`${what} is too large: more than ${bytes} bytes`);
  const deepest = depthOf(text);
  if (deepest > depth) throw new Refusal(`${what} nests lists and objects ${deepest} deep, at most ${depth}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new Refusal(`${what} is damaged: its description could not be read`);
  }
}
// which tab a description is for, once its lists are within the limits
function checked(data, tab, what, limits) {
  if (!isRecord(data)) throw new Refusal(`${what} is damaged: it holds no description`);
  const within = (count, most, things) => {
    if (count > most) throw new Refusal(`${what} holds ${count} ${things}, at most ${most}`);
  };
  if (tab === "force") {
    const commands = own(data, "commands");
    if (!Array.isArray(commands)) throw new Refusal(`${what} is damaged: the force has no commands`);
    within(commands.length, limits.commands, "commands");
    within(commands.reduce((sum, command) => sum + list(own(command, "units")).length, 0), limits.units, "units");
    const leaders = [own(data, "leaders"), ...commands.map((command) => own(command, "leaders"))];
    within(leaders.reduce((sum, each) => sum + list(each).length, 0), limits.leaders, "leaders");
  } else {
    for (const role of ["attacker", "defender"]) {
      const platoons = own(own(data, role), "platoons");
      if (!Array.isArray(platoons)) throw new Refusal(`${what} is damaged: the ${role} has no platoons`);
      within(platoons.length, limits.platoons, `${role} platoons`);
    }
  }
  return data;
}

// --- the address: #v1.f.<payload> (a force) or #v1.b.<payload> (a battle), the payload
// base64url of deflate-raw of the JSON; with A kept, #v1.f.ab.<payload> of {"a": A,
// "b": B} (one stream: B compresses against A); a later version keeps reading v1 links
const VERSION = 1;
const LINK = /^#v(0|[1-9][0-9]{0,5})\.([fb])(\.ab)?\.([A-Za-z0-9_-]+)$/;
// two descriptions, each within the limits, in one object
const pairLimits = (limits) => ({ bytes: 2 * limits.bytes + 16, depth: limits.depth + 1 });
// inflated a small piece at a time, and stopped as soon as it passes the byte limit
async function unpack(payload, what, most) {
  const damaged = new Refusal(`${what} is damaged: its description could not be read`);
  let bytes;
  try {
    bytes = Uint8Array.from(atob(payload.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  } catch {
    throw damaged;
  }
  let offset = 0;
  const pieces = new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) controller.close();
      else controller.enqueue(bytes.subarray(offset, (offset += 1024)));
    },
  }, { highWaterMark: 0 });
  const reader = pieces.pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const chunks = [];
  let size = 0;
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.length;
      if (size > most) {
        reader.cancel();
        throw new Refusal(`${what} is too large: it holds more than ${most} bytes`);
      }
      chunks.push(read.value);
    }
    return new TextDecoder("utf-8", { fatal: true }).decode(await new Blob(chunks).arrayBuffer());
  } catch (error) {
    throw error instanceof Refusal ? error : damaged;
  }
}
// the description an address holds: null when it holds none (a heading's anchor, nothing)
const isLink = (hash) => /^#v[0-9]/.test(hash);
async function readAddress(hash, limits) {
  if (!isLink(hash)) return null;
  const what = "this link";
  // refused by its length alone, and left in the address as every refused link is (the
  // page shows its refusal): leaving an address of megabytes costs Chromium itself up to
  // a second of the main thread, paid only once the player changes the page
  if (hash.length > limits.address) {
    throw new Refusal(`${what} is too long: ${hash.length} characters, at most ${limits.address}`);
  }
  const match = LINK.exec(hash);
  if (!match || Number(match[1]) < 1) throw new Refusal("this address is not a Workbench link (it should be #v1.f.… or #v1.b.…)");
  if (Number(match[1]) > VERSION) throw new Refusal(`this link is from a newer version of the site (v${match[1]}); this page reads v${VERSION} links`);
  const tab = match[2] === "f" ? "force" : "battle";
  if (!match[3]) return { tab, data: checked(parse(await unpack(match[4], what, limits.bytes), what, limits), tab, what, limits), kept: null };
  const pair = parse(await unpack(match[4], what, pairLimits(limits).bytes), what, pairLimits(limits));
  const [a, b] = [own(pair, "a"), own(pair, "b")];
  for (const part of [a, b]) {  // each description within the limits of one
    if (JSON.stringify(part ?? null).length > limits.bytes) throw new Refusal(`${what} is too large: a description holds more than ${limits.bytes} bytes`);
  }
  return { tab, data: checked(b, tab, what, limits), kept: checked(a, tab, what, limits) };
}


if (typeof document === "undefined") worker();
else page();

// ---------------------------------------------------------------- the page's side
function page() {
  const root = document.getElementById("rr-workbench");
  if (!root) return;
  const el = (tag, attributes = {}, ...children) => {
    const element = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) {
      if (value === false || value === undefined) continue;
      if (key === "text") element.textContent = value;
      else element.setAttribute(key, value === true ? "" : value);
    }
    element.append(...children);
    return element;
  };
  // the form draws at most this many units, leaders and platoons (each a card of fields);
  // a larger description is answered as it is, and edited as a file
  const CARDS = 30;
  // the exact fraction is shown whole up to this many characters, else its length is
  const SHORT_FRACTION = 60;
  let DATA;  // data/workbench.json: choices, defaults, limits, samples and their answers

  // --- the description being edited: the JSON the command line reads (a force) or the
  // JSON of rulesref.workbench (a battle); the form is drawn from it, and only own
  // properties are read or written (a unit may be called "__proto__" or "constructor")
  const state = { tab: "force", force: null, battle: null, kept: { force: null, battle: null } };
  const define = (place, step, value) => Object.defineProperty(place, step, { value, writable: true, enumerable: true, configurable: true });
  const key = (path) => JSON.stringify(path);
  const getAt = (path) => path.reduce(own, state[state.tab]);
  function setAt(path, value) {
    let place = state[state.tab];
    path.slice(0, -1).forEach((step, index) => {
      let next = own(place, step);
      if (!isObject(next)) define(place, step, (next = typeof path[index + 1] === "number" ? [] : {}));
      place = next;
    });
    if (value !== undefined) define(place, path.at(-1), value);
    else if (!Array.isArray(place)) delete place[path.at(-1)];
  }

  // --- values as the player types them: whole numbers become numbers; anything else
  // stays text, for rulesref to refuse by name ("starting must be a whole number ...")
  const whole = (text) => (/^-?[0-9]{1,12}$/.test(text.trim()) ? Number(text) : text);
  const READ = {
    text: (input) => input.value,
    optional: (input) => (input.value.trim() === "" ? undefined : input.value),
    number: (input) => whole(input.value),
    optionalNumber: (input) => (input.value.trim() === "" ? undefined : whole(input.value)),
    leadership: (input) => {
      const parts = input.value.split(",").map((part) => whole(part.trim()));
      return parts.length > 1 ? parts : parts[0];
    },
    check: (input) => input.checked,
    select: (input) => (input.value === "" ? null : input.value),  // "": no unit, an independent leader
    names: (input) => {
      const names = input.value.split(",").map((part) => part.trim()).filter(Boolean);
      return names.length ? names : undefined;
    },
  };
  // what a field shows of any value, whatever the description holds
  const shown = (value) => (value == null ? "" : typeof value === "string" ? value : JSON.stringify(value));
  const SHOW = {
    leadership: (value) => (Array.isArray(value) ? value.map(shown).join(", ") : shown(value)),
    names: (value) => (Array.isArray(value) ? value.map(shown).join(", ") : shown(value)),
  };

  let fieldCount = 0;
  // one labelled input bound to a path of the description, with its message beside it;
  // `usual` is the value rulesref assumes when the description leaves the field out (a
  // field set back to it is left out again, so downloads stay as short as written)
  function field(label, path, kind = "text", { options, size, hint, usual } = {}) {
    const id = `wb-field-${++fieldCount}`;
    const written = getAt(path);
    const value = written === undefined ? usual : written;
    const attributes = {
      id, "data-path": key(path), "data-kind": kind, "aria-describedby": `${id}-msg`,
      "data-usual": usual === undefined ? undefined : JSON.stringify(usual),
    };
    let input;
    if (kind === "check") {
      input = el("input", { ...attributes, type: "checkbox", checked: value === true });
    } else if (kind === "select") {
      const known = options.some(([word]) => word === value);
      const all = known || value === undefined ? options : [...options, [value, shown(value)]];
      input = el("select", attributes, ...all.map(([word, text]) => el("option", { value: shown(word), text, selected: word === (value ?? all[0][0]) })));
    } else {
      const numeric = kind === "number" || kind === "optionalNumber";
      input = el("input", {
        ...attributes, type: "text", size: size ?? (numeric ? 4 : 12), autocomplete: "off",
        inputmode: numeric ? "numeric" : undefined, placeholder: hint,
      });
      input.value = (SHOW[kind] ?? shown)(written);
    }
    const message = el("span", { class: "rr-wb-msg", id: `${id}-msg`, role: "alert", hidden: true });
    const wrapper = kind === "check"
      ? el("label", { class: "rr-wb-field rr-wb-check" }, input, ` ${label}`)
      : el("label", { class: "rr-wb-field" }, el("span", { text: label }), input);
    return el("div", { class: "rr-wb-cell" }, wrapper, message);
  }
  function button(text, action, attributes = {}) {
    const element = el("button", { type: "button", class: "md-button rr-wb-button", ...attributes, text });
    element.addEventListener("click", action);
    return element;
  }
  function group(legend, path, ...children) {
    return el("fieldset", { class: "rr-wb-group", "data-path": key(path) },
      el("legend", { text: legend }), el("p", { class: "rr-wb-msg", role: "alert", hidden: true }), ...children);
  }
  function edit(change) {
    change();
    draw();
    changed();
  }
  const LEADERSHIP_HINT = "4+ or 5+, 4+";
  const named = (value, fallback) => (typeof value === "string" && value ? value : fallback);

  // --- the force (LD-1 to LD-12): what its units and leaders are, and what this phase cost
  let cards = 0;
  function more(count, what) {  // the cards of a list left undrawn
    return el("p", { class: "rr-wb-more", text: `${count} more ${what} not shown: the form shows ${CARDS} units, leaders and platoons. They are answered as they are; to change them, download the description, edit the file and load it again.` });
  }
  function doctrine(path) {
    const usual = DATA.force.defaults.doctrine;
    return el("details", { class: "rr-wb-doctrine", open: getAt(path) !== undefined },
      el("summary", { text: "Doctrine (LD-7)" }),
      el("div", { class: "rr-wb-row" },
        field("Name", [...path, "name"], "optional"),
        field("Re-rolls", [...path, "rerolls"], "optionalNumber", { hint: String(usual.rerolls) }),
        field("ignores a failure", [...path, "ignores"], "check", { usual: usual.ignores })));
  }

  function leaderRows(path, unitNames) {
    const leaders = list(getAt(path));
    const usual = DATA.force.defaults.leader;
    const rows = [];
    for (const [index, leader] of leaders.entries()) {
      if (cards++ >= CARDS) {
        rows.push(more(leaders.length - index, "leaders"));
        break;
      }
      const at = [...path, index];
      const remove = button("Remove", () => edit(() => removeLeader(leaders, index)), { "aria-label": `Remove leader ${index + 1}` });
      if (!isRecord(leader)) {
        rows.push(group(`Leader ${index + 1}`, at, remove));
        continue;
      }
      const cells = [
        field("Name", [...at, "name"]),
        field("Leadership", [...at, "leadership"], "leadership", { size: 4, hint: "3+" }),
        field("Rank", [...at, "rank"], "number"),
      ];
      if (unitNames) {
        const options = [[null, "independent"], ...unitNames.filter((name) => typeof name === "string").map((name) => [name, `in ${name}`])];
        cells.push(field("Fights", [...at, "unit"], "select", { options, usual: usual.unit }));
      }
      cells.push(field("alive", [...at, "alive"], "check", { usual: usual.alive }), remove);
      rows.push(group(named(own(leader, "name"), `Leader ${index + 1}`), at, el("div", { class: "rr-wb-row" }, ...cells)));
    }
    const add = button("Add a leader", () => edit(() => setAt(path, [...leaders, { name: `Leader ${leaders.length + 1}`, ...DATA.new.leader }])));
    return [...rows, add];
  }

  function unitCard(path, unit, remove) {
    const name = own(unit, "name");
    const usual = DATA.force.defaults.unit;
    const cells = [
      field("Name", [...path, "name"], "text"),
      field("Leadership", [...path, "leadership"], "leadership", { size: 7, hint: LEADERSHIP_HINT }),
      field("Starting models", [...path, "starting"], "number"),
      field("Models now", [...path, "current"], "optionalNumber", { hint: "all" }),
    ];
    if (typeof name === "string") cells.push(field("Lost this phase", ["casualties", name], "optionalNumber", { hint: "0" }));
    cells.push(field("removed earlier", [...path, "removed"], "check", { usual: usual.removed }));
    return group(named(name, "Unit"), path, el("div", { class: "rr-wb-row" }, ...cells), doctrine([...path, "doctrine"]), remove);
  }

  function forceForm() {
    const force = state.force;
    const commands = list(own(force, "commands"));
    const [survive] = DATA.force.readings;
    const parts = [
      el("div", { class: "rr-wb-row" }, field("Force", ["name"], "text"),
        field("Prefer among equals (LD-C8)", ["prefer"], "names", { hint: "names, comma-separated" }),
        field(survive.label, [survive.name], "check", { usual: survive.default })),
      doctrine(["doctrine"]),
      group("Independent leaders of the force", ["leaders"], ...leaderRows(["leaders"], null)),
    ];
    for (const [c, command] of commands.entries()) {
      const at = ["commands", c];
      const remove = button("Remove this command", () => edit(() => removeCommand(commands, c)));
      if (!isRecord(command)) {
        parts.push(group(`Command ${c + 1}`, at, remove));
        continue;
      }
      const units = list(own(command, "units"));
      const cardsOfUnits = [];
      for (const [u, unit] of units.entries()) {
        if (cards++ >= CARDS) {
          cardsOfUnits.push(more(units.length - u, "units"));
          break;
        }
        const removeThis = button("Remove this unit", () => edit(() => removeUnit(units, u)));
        cardsOfUnits.push(isRecord(unit) ? unitCard([...at, "units", u], unit, removeThis) : group(`Unit ${u + 1}`, [...at, "units", u], removeThis));
      }
      parts.push(group(named(own(command, "name"), `Command ${c + 1}`), at,
        el("div", { class: "rr-wb-row" }, field("Command", [...at, "name"], "text")),
        doctrine([...at, "doctrine"]),
        ...cardsOfUnits,
        button("Add a unit", () => edit(() => setAt([...at, "units"], [...units, { name: `Unit ${c + 1}.${units.length + 1}`, ...DATA.new.unit }]))),
        group("Leaders", [...at, "leaders"], ...leaderRows([...at, "leaders"], units.map((unit) => own(unit, "name")))),
        remove));
    }
    parts.push(button("Add a command", () => edit(() => setAt(["commands"], [...commands, { name: `Command ${commands.length + 1}`, units: [{ name: `Unit ${commands.length + 1}.1`, ...DATA.new.unit }] }]))));
    parts.push(orphans());
    return parts;
  }

  // casualties of no unit of the force (an address can hold them): shown, to be removed
  function orphans() {
    const casualties = own(state.force, "casualties");
    if (casualties === undefined) return "";
    const names = new Set(allUnits().map((unit) => own(unit, "name")));
    const rows = isRecord(casualties)
      ? Object.keys(casualties).filter((name) => !names.has(name)).map((name) => el("div", { class: "rr-wb-row" },
        field(`Lost this phase by ${name}`, ["casualties", name], "optionalNumber"),
        button("Remove", () => edit(() => setAt(["casualties", name], undefined)), { "aria-label": `Remove the casualties of ${name}` })))
      : [button("Remove", () => edit(() => setAt(["casualties"], undefined)), { "aria-label": "Remove the casualties" })];
    return rows.length ? group("Casualties of units not in the force", ["casualties"], ...rows) : "";
  }
  const allUnits = () => list(own(state.force, "commands")).flatMap((command) => list(own(command, "units")));
  const allLeaders = () => [own(state.force, "leaders"), ...list(own(state.force, "commands")).map((command) => own(command, "leaders"))].flatMap(list);

  // a name leaves the force with the last unit or leader that carries it: its casualties,
  // the leaders placed in it and its mention in `prefer` go with it (LD-C8)
  function forget(name, { unit }) {
    const others = unit ? allUnits() : allLeaders();
    if (typeof name !== "string" || others.some((other) => own(other, "name") === name)) return;
    if (unit) {
      setAt(["casualties", name], undefined);
      if (isRecord(own(state.force, "casualties")) && !Object.keys(state.force.casualties).length) setAt(["casualties"], undefined);
      for (const leader of allLeaders()) if (own(leader, "unit") === name) delete leader.unit;
    }
    const prefer = own(state.force, "prefer");
    if (Array.isArray(prefer) && prefer.includes(name)) {
      const kept = prefer.filter((other) => other !== name);
      setAt(["prefer"], kept.length ? kept : undefined);
    }
  }
  function removeUnit(units, index) {
    const [unit] = units.splice(index, 1);
    forget(own(unit, "name"), { unit: true });
  }
  function removeLeader(leaders, index) {
    const [leader] = leaders.splice(index, 1);
    forget(own(leader, "name"), { unit: false });
  }
  function removeCommand(commands, index) {
    const [command] = commands.splice(index, 1);
    for (const unit of list(own(command, "units"))) forget(own(unit, "name"), { unit: true });
    for (const leader of list(own(command, "leaders"))) forget(own(leader, "name"), { unit: false });
  }

  // --- the battle (CA-2 to CA-20)
  function sideForm(role) {
    const platoons = list(getAt([role, "platoons"]));
    const battle = DATA.battle;
    const usual = battle.defaults.platoon;
    const rows = [];
    for (const [index, platoon] of platoons.entries()) {
      if (cards++ >= CARDS) {
        rows.push(more(platoons.length - index, "platoons"));
        break;
      }
      const at = [role, "platoons", index];
      const remove = button("Remove", () => edit(() => platoons.splice(index, 1)), { "aria-label": `Remove ${role} platoon ${index + 1}` });
      if (!isRecord(platoon)) {
        rows.push(group(`Platoon ${index + 1}`, at, remove));
        continue;
      }
      rows.push(group(`Platoon ${index + 1}`, at, el("div", { class: "rr-wb-row" },
        field("Kind", [...at, "kind"], "select", { options: battle.kinds.map((k) => [k, k]), usual: usual.kind }),
        field("State", [...at, "state"], "select", { options: battle.states, usual: usual.state }),
        field("Rolls for", [...at, "declaration"], "select", { options: battle.declarations, usual: usual.declaration }),
        field("Name", [...at, "name"], "optional", { size: 8 }),
        field("supplied", [...at, "supplied"], "check", { usual: usual.supplied }),
        remove)));
    }
    return group(role === "attacker" ? "Attacker" : "Defender", [role], ...rows,
      button("Add a platoon", () => edit(() => setAt([role, "platoons"], [...platoons, { ...DATA.new.platoon }]))),
      field("fortified (CA-6)", [role, "fortified"], "check", { usual: battle.defaults.fortified }));
  }

  const checkMode = () => (own(own(state.battle, "leadership"), "probability") !== undefined ? "probability" : "leadership");
  function battleForm() {
    const { defaults, terrains, policies, readings } = DATA.battle;
    const mode = checkMode();
    const modes = el("select", { id: "wb-check-mode", "data-mode": "true" },
      ...[["leadership", "2D6 on Leadership"], ["probability", "a given probability"]].map(([word, text]) => el("option", { value: word, text, selected: word === mode })));
    return [
      sideForm("attacker"),
      sideForm("defender"),
      group("The battle", [], el("div", { class: "rr-wb-row" },
        field("Terrain", ["terrain"], "select", { options: terrains.map((t) => [t, t]), usual: defaults.terrain }),
        field("garrison (CA-20)", ["garrison"], "check", { usual: defaults.garrison }),
        field("Hits go", ["policy"], "select", { options: policies.map((p) => [p, p]), usual: defaults.policy }))),
      group("Loser's check (CA-C5)", ["leadership"], el("div", { class: "rr-wb-row" },
        el("div", { class: "rr-wb-cell" }, el("label", { class: "rr-wb-field", for: "wb-check-mode" }, el("span", { text: "Passes on" }), modes)),
        mode === "probability"
          ? field("Probability to pass", ["leadership", "probability"], "text", { size: 6, hint: "1/2" })
          : field("Leadership", ["leadership", "leadership"], "optionalNumber", { hint: String(defaults.leadership), usual: defaults.leadership }))),
      group("Readings", ["readings"], ...readings.map(({ name, label, default: usual }) => field(label, ["readings", name], "check", { usual }))),
    ];
  }

  // --- the form, drawn from the state; one listener reads any change back
  const form = el("form", { class: "rr-wb-form", autocomplete: "off", novalidate: true });
  const tabs = el("div", { class: "rr-wb-tabs", role: "tablist" });
  const formMessage = el("p", { class: "rr-wb-msg rr-wb-top", role: "alert", hidden: true });
  const forceNote = document.querySelector(".rr-wb-force-note");  // which document a force follows
  function draw() {
    fieldCount = 0;
    cards = 0;
    form.replaceChildren(...(state.tab === "force" ? forceForm() : battleForm()));
    if (forceNote) {
      forceNote.hidden = state.tab !== "force";
      form.prepend(forceNote);
    }
    for (const tab of tabs.children) tab.setAttribute("aria-selected", String(tab.dataset.tab === state.tab));
  }
  form.addEventListener("submit", (event) => event.preventDefault());
  form.addEventListener("input", (event) => {
    const input = event.target;
    if (input.dataset.mode) {
      setAt(["leadership"], input.value === "probability" ? { probability: "1/2" } : undefined);
      draw();
    } else if (input.dataset.path) {
      const path = JSON.parse(input.dataset.path);
      let value = READ[input.dataset.kind](input);
      if (input.dataset.usual !== undefined && JSON.stringify(value) === input.dataset.usual) value = undefined;
      if (state.tab === "force" && path[0] === "commands" && path.length === 5 && path[4] === "name") renameUnit(path, value);
      else setAt(path, value);
    } else {
      return;
    }
    changed();
  });
  // a unit's casualties are kept under its name: they follow it when it is renamed, and
  // so do the leaders who fight in it and its mention in `prefer`
  function renameUnit(path, name) {
    const old = getAt(path);
    const casualties = own(state.force, "casualties");
    if (typeof old === "string" && isRecord(casualties) && Object.hasOwn(casualties, old)) {
      const lost = casualties[old];
      delete casualties[old];
      if (typeof name === "string") define(casualties, name, lost);
    }
    setAt(path, name);
    const command = ["commands", path[1]];
    for (const leader of list(getAt([...command, "leaders"]))) if (own(leader, "unit") === old) define(leader, "unit", name);
    const prefer = own(state.force, "prefer");
    if (Array.isArray(prefer)) setAt(["prefer"], prefer.map((other) => (other === old ? name : other)));
    const card = fieldAt(path.slice(0, -1));
    card.querySelector("legend").textContent = named(name, "Unit");
    const lost = card.querySelector(`[data-path^='["casualties",']`);
    if (lost) lost.dataset.path = key(["casualties", name]);
    const names = list(getAt([...command, "units"])).map((unit) => own(unit, "name")).filter((n) => typeof n === "string");
    for (const select of fieldAt(command).querySelectorAll("select[data-path$=',\"unit\"]']")) {
      const chosen = getAt(JSON.parse(select.dataset.path)) ?? null;
      select.replaceChildren(...[[null, "independent"], ...names.map((n) => [n, `in ${n}`])]
        .map(([word, text]) => el("option", { value: shown(word), text, selected: word === chosen })));
    }
  }
  function fieldAt(path) {
    const wanted = key(path);
    return [...form.querySelectorAll("[data-path]")].find((element) => element.dataset.path === wanted);
  }

  // --- the answer
  const results = el("div", { class: "rr-wb-results", "aria-live": "polite" });
  const progress = el("progress", { max: STAGES.length - 1, value: 0 });
  const stageText = el("span", { class: "rr-wb-stage", text: `${STAGES[0]}…` });
  const stopButton = button("Stop", () => {
    clearTimeout(slow);
    restart();
    say("Stopped. Change the form to ask again.");
  }, { hidden: true });
  // the headline, kept in view at the foot of the screen while the form is edited
  const summary = el("p", { class: "rr-wb-summary", "aria-hidden": "true" });
  const status = el("p", { class: "rr-wb-status" }, progress, " ", stageText, " ", stopButton);
  function say(text) {
    results.classList.remove("rr-wb-stale");
    results.replaceChildren(el("p", { class: "rr-wb-msg rr-wb-said", text }));
    summary.textContent = "";
  }

  // a probability as the page reads it: the fraction whole while short, its bar's length
  const fractionText = (p) => (p.length <= SHORT_FRACTION ? p : `an exact fraction of ${p.length} characters`);
  function ratio(p) {  // numerator / denominator of any length, to three digits or so
    const [n, d = "1"] = p.split("/");
    const lead = (digits) => Number(digits.slice(0, 15));
    const value = (lead(n) / lead(d)) * 10 ** (Math.min(n.length, 15) - n.length - Math.min(d.length, 15) + d.length);
    return Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0;
  }
  const fraction = (exact) => el("span", { class: "rr-wb-exact" }, el("strong", { text: exact.percent }), " ", el("span", { class: "rr-wb-frac", text: fractionText(exact.probability) }));
  const barOf = (exact, tone = "rr-c0") => el("span", { class: `rr-wb-bar ${tone}`, style: `width:${100 * ratio(exact.probability)}%` });
  function table(caption, headings, rows, kind = "") {
    return el("table", { class: `rr-wb-table ${kind}`.trim() }, el("caption", { text: caption }),
      el("thead", {}, el("tr", {}, ...headings.map((h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, ...rows.map(([name, ...cells]) => el("tr", {}, el("th", { scope: "row", text: name }), ...cells.map((cell) => el("td", {}, cell))))));
  }
  function cell(exact, tone) {
    return exact ? el("div", {}, fraction(exact), el("div", { class: "rr-wb-track" }, barOf(exact, tone))) : "";
  }
  // the chain of command as the rules page shows it (rulesref.views.chain_of_command_html:
  // a tree for a wide screen, a list for a phone; the stylesheet shows one). Any character
  // XML refuses (U+FFFE ...) is replaced, the text is parsed as HTML in a document of its
  // own (where nothing runs), and only a drawing is taken into the page: rulesref's
  // elements, no handler, no link, no address. A chart too large to draw at once is left
  // out, saying so.
  const MAX_CHART = 400_000;
  const DRAWN = new Set(["div", "svg", "title", "g", "rect", "line", "text", "tspan"]);
  const drawing = (root) => [root, ...root.querySelectorAll("*")].every((node) => DRAWN.has(node.localName)
    && [...node.attributes].every(({ name, value }) => !/^on|href|src/i.test(name) && !/url\s*\(/i.test(value)));
  function chart(html) {
    const figure = el("figure", { class: "rr-wb-chart" });
    const caption = "The chain of command, shaded by each one's chance to go (LD-4 to LD-12).";
    if (typeof html !== "string" || html.length > MAX_CHART) {
      return el("p", { class: "rr-wb-more", text: "The chain of command is too large to draw here; the table gives every unit's odds." });
    }
    const clean = html.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "\uFFFD");
    const { body } = new DOMParser().parseFromString(clean, "text/html");
    const drawn = body.firstElementChild;
    if (body.childElementCount !== 1 || !drawn.matches("div.rr-chain") || drawn.querySelectorAll(":scope > svg").length !== 2 || !drawing(drawn)) {
      return el("p", { class: "rr-wb-more", text: "The chain of command could not be drawn; the table gives every unit's odds." });
    }
    figure.append(document.importNode(drawn, true), el("figcaption", { text: caption }));
    return figure;
  }

  function showForce(answer) {
    const rows = [[`${answer.force} breaks`, cell(answer.force_breaks, "rr-c1"), ""]];
    const levels = [["command", "commands"], ["unit", "units"]];
    for (const [level, plural] of levels) {
      const names = Object.keys(answer[`${level}_removed`]);
      for (const name of names.slice(0, CARDS)) rows.push([name, cell(own(answer[`${level}_fails`], name), "rr-c1"), cell(own(answer[`${level}_removed`], name), "rr-c0")]);
      if (names.length > CARDS) rows.push([`${names.length - CARDS} more ${plural}`, "", ""]);
    }
    summary.textContent = `${answer.force} breaks: ${answer.force_breaks.percent} (${fractionText(answer.force_breaks.probability)})`;
    results.replaceChildren(
      el("p", { class: "rr-wb-headline" }, el("span", { text: `${answer.force} breaks: ` }), fraction(answer.force_breaks)),
      table("Exact odds at the end of this phase", ["who", "fails its own test", "off the table"], rows), chart(answer.html));
  }

  const WHO = new Map([["attacker", "the attacker wins"], ["defender", "the defender wins"], ["none", "no victor"]]);
  // a side's fates, each once: routed is CA-16's rout (the answer's `routed` is the same
  // number), and a side must check under CA-17, CA-18 or CA-20
  const FATE = (fate) => (fate === "routed" ? "routed (CA-16)" : fate);
  const MUST_CHECK = "must check (CA-17, CA-18, CA-20)";
  function showBattle(answer) {
    const victor = Object.entries(answer.victor).map(([who, exact], index) => [WHO.get(who) ?? who, cell(exact, `rr-c${index}`)]);
    const fates = ["attacker", "defender"].map((role) => table(`The ${role}`, ["outcome", "chance"], [
      ...Object.entries(answer.fate[role]).map(([fate, exact]) => [FATE(fate), cell(exact, "rr-c0")]),
      [MUST_CHECK, cell(answer.must_check[role], "rr-c1")],
      ...Object.entries(answer.hits[role]).map(([hits, exact]) => [`takes ${hits} hit${hits === "1" ? "" : "s"}`, cell(exact, "rr-c2")]),
    ]));
    const outcomes = table("How it ends, by the deciding clause", ["outcome", "chance"],
      Object.entries(answer.outcomes).map(([outcome, exact]) => [outcome, cell(exact, "rr-c3")]));
    summary.textContent = Object.entries(answer.victor).map(([who, exact]) => `${WHO.get(who) ?? who} ${exact.percent}`).join(" · ");
    results.replaceChildren(table("Who wins", ["outcome", "chance"], victor), ...fates, outcomes);
  }
  function show(answer) {
    if (answer.error) showError(answer.error);
    else if (answer.test === "cascade") showForce(answer);
    else showBattle(answer);
    if (!answer.error && answer.a) results.prepend(...compared(answer));
  }

  // --- A and B side by side: each probability both have, and B - A as rulesref gives it
  // (exact, signed, in points); the rows that changed first, the others counted
  const ZERO = { probability: "0", percent: "0.0%" };  // an outcome a battle cannot end in
  function outcomes(answer) {  // [words, path] of every probability the page compares
    if (answer.test === "cascade") {
      const rows = [[`${answer.force} breaks`, ["force_breaks"]]];
      for (const level of ["command", "unit"]) {
        for (const name of Object.keys(own(answer.difference, `${level}_removed`) ?? {})) {
          rows.push([`${name} fails its own test`, [`${level}_fails`, name]], [`${name} is off the table`, [`${level}_removed`, name]]);
        }
      }
      return rows;
    }
    const rows = Object.keys(answer.difference.victor).map((who) => [WHO.get(who) ?? who, ["victor", who]]);
    for (const role of ["attacker", "defender"]) {
      rows.push(...Object.keys(answer.difference.fate[role]).map((fate) => [`the ${role}: ${FATE(fate)}`, ["fate", role, fate]]),
        [`the ${role}: ${MUST_CHECK}`, ["must_check", role]],
        ...Object.keys(answer.difference.hits[role]).map((hits) => [`the ${role} takes ${hits} hit${hits === "1" ? "" : "s"}`, ["hits", role, hits]]));
    }
    return [...rows, ...Object.keys(answer.difference.outcomes).map((outcome) => [outcome, ["outcomes", outcome]])];
  }
  const at = (tree, path) => path.reduce(own, tree);
  const change = (difference) => el("span", { class: "rr-wb-exact" }, el("strong", { text: difference.points }), " ",
    el("span", { class: "rr-wb-frac", text: fractionText(difference.difference) }));
  function compared(answer) {
    if (answer.a.error) return [el("p", { class: "rr-wb-msg rr-wb-ab-note", text: `A, the description kept, cannot be answered: ${answer.a.error.message}` })];
    const all = outcomes(answer).filter(([, path]) => at(answer.difference, path));
    const moved = all.filter(([, path], index) => index === 0 || at(answer.difference, path).points !== "no change");
    const rows = moved.slice(0, 2 * CARDS).map(([words, path]) => [words,
      fraction(at(answer.a, path) ?? ZERO), fraction(at(answer, path) ?? ZERO), change(at(answer.difference, path))]);
    const [words, path] = all[0];
    const first = at(answer.difference, path);
    summary.textContent = `${words}: A ${(at(answer.a, path) ?? ZERO).percent} · B ${(at(answer, path) ?? ZERO).percent} (${first.points})`;
    const same = all.length - moved.length, unshown = moved.length - rows.length;
    const notes = [
      unshown ? `${unshown} more changed outcomes not shown.` : "",
      same ? `${same} other outcome${same === 1 ? " is" : "s are"} the same in A and B.` : "",
      "Below, B in full.",
    ];
    return [
      table("A, kept, and B, the form as it is now", ["outcome", "A", "B", "B − A"], rows, "rr-wb-ab"),
      el("p", { class: "rr-wb-more", text: notes.filter(Boolean).join(" ") }),
    ];
  }

  // --- errors: the message goes beside its field (or the nearest group), never a number
  function clearErrors() {
    for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
    for (const message of root.querySelectorAll(".rr-wb-msg[role=alert]:not(#wb-import-msg)")) message.hidden = true;
  }
  // where a refusal belongs: its path, else the field its parameter names (RulesError.parameter)
  function placeOf(error) {
    const path = Array.isArray(error.path) ? error.path : [];
    if (!path.length && typeof error.parameter === "string") {
      const found = [...form.querySelectorAll("[data-path]")].find((element) => JSON.parse(element.dataset.path).at(-1) === error.parameter);
      if (found) return found;
    }
    for (let depth = path.length; depth >= 0; depth -= 1) {
      const place = fieldAt(path.slice(0, depth));
      if (place) return place;
    }
    return null;
  }
  function showError(error) {
    results.replaceChildren();
    summary.textContent = `No answer: ${error.message}`;
    const place = placeOf(error);
    let message = formMessage;
    let text = error.message;
    if (place?.tagName === "FIELDSET") {
      message = place.querySelector(":scope > .rr-wb-msg");
    } else if (place) {
      place.setAttribute("aria-invalid", "true");
      message = document.getElementById(place.getAttribute("aria-describedby"));
      // under the field's row, across it: beside the field it widened the field's cell, and
      // the row's fields moved under the player's finger
      place.closest(".rr-wb-row")?.after(message);
      // named as the form names the field ("Lost this phase: must be ..."), not as rulesref
      // names the parameter ("casualties['1st Squad'] must be ...")
      const label = place.closest("label");
      const name = label?.querySelector(":scope > span")?.textContent ?? label?.textContent.trim();
      const own = `${error.parameter} must be `;
      if (name && error.parameter && text.startsWith(own)) text = `${name}: must be ${text.slice(own.length)}`;
    }
    message.textContent = text;
    message.hidden = false;
  }

  // --- the Worker: started at once, so that Python loads while the player reads the form
  let python, asked = 0, timer, slow, openingAnswer = null, firstQuestion = null;
  const begun = self.workbenchStart;  // what the page's first script began
  delete self.workbenchStart;
  root.timings = { "script run": Math.round(performance.now()) };  // ms since the page opened, for tools/measure_workbench.py
  root.restarts = 0;
  function restart() {
    python?.terminate();
    // the first Worker was started by the page's first script
    python = begun.python ?? new Worker(import.meta.url, { type: "module" });
    const early = begun.early;
    begun.python = null;
    begun.early = [];
    openingAnswer = null;
    stopButton.hidden = true;
    status.hidden = false;
    progress.value = 0;
    stageText.textContent = `${STAGES[0]}…`;
    delete root.dataset.stage;
    python.onmessage = ({ data }) => {
      if (data.stage !== undefined) {
        root.timings[STAGES[data.stage]] ??= Math.round(performance.now());
        progress.value = data.stage;
        stageText.textContent = data.stage === STAGES.length - 1 ? "" : `${STAGES[data.stage]}…`;
        status.hidden = data.stage === STAGES.length - 1;
        root.dataset.stage = STAGES[data.stage];
      } else if (data.openingAnswer) {
        // before the page has asked anything: kept for its first question; after, while
        // that question waits (the Worker's reply to it comes later, and is not drawn again)
        if (asked === 0) openingAnswer = data.openingAnswer;
        else if (asked === 1 && sameQuestion(data.openingAnswer, firstQuestion)) answered({ id: 1, ...data.openingAnswer });
      } else if (data.kept) {
        root.dataset.kept = data.kept;
        root.dataset.settled = "true";
      } else if (data.startup) {  // on the page's clock
        const shift = (ms) => Math.round(ms + data.startup.origin - performance.timeOrigin);
        root.startup = {
          keeping: data.startup.keeping,
          marks: Object.fromEntries(Object.entries(data.startup.marks).map(([name, ms]) => [name, shift(ms)])),
          fetches: data.startup.fetches.map((entry) => ({ ...entry, start: shift(entry.start), end: shift(entry.end) })),
        };
        // Python started and, when it is being kept, not settled until it is stored:
        // the site's service worker waits for this (offline.js)
        if (!data.startup.keeping) root.dataset.settled = "true";
      } else if (data.failed) {
        stageText.textContent = `Python could not start here: ${data.failed}`;
        root.dataset.failed = "true";
        root.dataset.settled = "true";
      } else if (data.fatal) {  // Python cannot be used again: a fresh one, and say why
        root.restarts += 1;
        restart();
        say(`Python stopped (${data.fatal}) and has been started again. Change the form to ask again.`);
      } else if (data.id === asked && root.dataset.answered !== String(asked)) {
        answered(data);
      }
    };
    // an error before Python is ready (its script could not run) is its failure
    python.onerror = () => {
      if (root.dataset.stage !== "Ready") python.onmessage({ data: { failed: "its script could not run" } });
    };
    for (const event of early) (event.type === "error" ? python.onerror : python.onmessage)(event);
  }
  // the Worker's answer to the opening question is this page's answer only to the very
  // same question, A included, to the letter
  const sameQuestion = (opened, asking) => opened !== null && asking !== null
    && opened.question === asking.question && opened.kept === asking.kept;
  function answered({ id, answer: text, ms }) {
    clearTimeout(slow);
    stopButton.hidden = true;
    status.hidden = true;
    clearErrors();
    results.classList.remove("rr-wb-stale");
    const answer = JSON.parse(text);
    show(answer);
    root.answer = answer;  // the last answer as rulesref gave it, for tests and the curious
    root.timings.answer ??= Math.round(performance.now());
    root.dataset.answered = String(id);
    root.dataset.ms = String(ms);
  }
  // the answer worked out when the site was built, shown at once for a sample description
  function precomputed(text) {
    if (text !== JSON.stringify({ [state.tab]: DATA.samples[state.tab] })) return;
    clearErrors();
    show(DATA.answers[state.tab]);
    results.prepend(el("p", { class: "rr-wb-precomputed", text: "Worked out when this site was built, for the description as it opens; the live answer replaces it once Python has started." }));
  }
  function ask() {
    asked += 1;
    root.timings["first question asked"] ??= Math.round(performance.now());
    const text = JSON.stringify({ [state.tab]: question() });
    const kept = state.kept[state.tab];
    const keptText = kept === null ? null : JSON.stringify({ [state.tab]: kept });
    // the Worker's answer to the page's opening question, taken once
    const opened = openingAnswer;
    openingAnswer = null;
    firstQuestion = asked === 1 ? { question: text, kept: keptText } : null;
    drawKept();
    if (sameQuestion(opened, firstQuestion)) {
      answered({ id: asked, ...opened });
      return;
    }
    results.classList.add("rr-wb-stale");
    if (root.dataset.stage !== "Ready" && kept === null) precomputed(text);
    python.postMessage({ id: asked, question: text, kept: keptText });
    clearTimeout(slow);
    slow = setTimeout(() => {  // a big battle: say so, and let the player stop it
      status.hidden = false;
      stageText.textContent = root.dataset.stage === "Ready" ? "Computing…" : stageText.textContent;
      stopButton.hidden = root.dataset.stage !== "Ready";
    }, 800);
  }
  const question = () => state[state.tab];  // the description as written, to the letter
  function changed() {
    clearTimeout(timer);
    timer = setTimeout(() => {
      ask();
      writeAddress();
    }, 300);
  }

  async function pack(text) {
    const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 8192) binary += String.fromCharCode(...bytes.subarray(i, i + 8192));
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  const tooLong = el("span", { class: "rr-wb-msg rr-wb-too-long", role: "status", hidden: true });
  let writing = Promise.resolve();
  function writeAddress() {
    const kept = state.kept[state.tab];
    const text = JSON.stringify(kept === null ? question() : { a: kept, b: question() });
    const tab = `${state.tab === "force" ? "f" : "b"}${kept === null ? "" : ".ab"}`;
    writing = writing.then(async () => {
      const link = `#v${VERSION}.${tab}.${await pack(text)}`;
      const fits = link.length <= DATA.limits.address;
      // a description too long for an address is shared as a file: the address then holds none
      history.replaceState(null, "", `${location.pathname}${location.search}${fits ? link : ""}`);
      tooLong.textContent = `This description is too long to share by address (${link.length} characters, at most ${DATA.limits.address}): the address no longer holds it. Download it and share the file.`;
      tooLong.hidden = fits;
    }).catch((error) => {  // the address is never left holding another description
      history.replaceState(null, "", `${location.pathname}${location.search}`);
      tooLong.textContent = `The address could not be written (${error.message}): download the description to share it.`;
      tooLong.hidden = false;
    });
  }
  // --- import and export: the force file the command line reads
  const importMessage = el("span", { class: "rr-wb-msg", id: "wb-import-msg", role: "alert", hidden: true });
  const fileInput = el("input", { type: "file", accept: ".json,application/json", hidden: true, "aria-describedby": "wb-import-msg" });
  fileInput.addEventListener("change", async () => {
    importMessage.hidden = true;
    const file = fileInput.files[0];
    fileInput.value = "";
    if (!file) return;
    const what = "the file";
    let tab, data;
    try {
      if (file.size > DATA.limits.bytes) throw new Refusal(`${what} is too large: ${file.size} bytes, at most ${DATA.limits.bytes}`);
      data = parse(await file.text(), what, DATA.limits);
      tab = Array.isArray(own(data, "commands")) || !isRecord(own(data, "attacker")) ? "force" : "battle";
      checked(data, tab, what, DATA.limits);
    } catch (error) {
      importMessage.textContent = `file must be a force file as "rulesref cascade" reads it, or a battle: ${error.message}`;
      importMessage.hidden = false;
      return;
    }
    opened(tab, data);
  });
  function download() {
    const blob = new Blob([`${JSON.stringify(question(), null, 2)}\n`], { type: "application/json" });
    const link = el("a", { href: URL.createObjectURL(blob), download: `${state.tab === "force" ? named(own(state.force, "name"), "force") : "battle"}.json` });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }
  // --- A: the description kept, to compare each change with
  const keepNote = el("span", { class: "rr-wb-ab-note", role: "status" });
  const keepButton = button("Keep as A", () => {
    state.kept[state.tab] = structuredClone(question());
    changed();
    drawKept();
  });
  const dropButton = button("Drop A", () => {
    state.kept[state.tab] = null;
    changed();
    drawKept();
    keepButton.focus();  // the focused button is hidden now: a keyboard keeps its place
  }, { hidden: true });  // the page opens with no A (a refused link draws no A either)
  const keep = el("p", { class: "rr-wb-keep" }, keepButton, " ", dropButton, " ", keepNote);
  function drawKept() {
    const kept = state.kept[state.tab] !== null;
    dropButton.hidden = !kept;
    keepNote.textContent = kept
      ? "A is kept: change the form, and each answer shows A and B side by side."
      : "";
  }
  const files = el("p", { class: "rr-wb-files" },
    button("Load a file", () => fileInput.click()), " ", button("Download this description", download), fileInput, importMessage, " ", tooLong);

  for (const [name, text] of [["force", "A force"], ["battle", "A battle"]]) {
    const tab = button(text, () => {
      state.tab = name;
      clearErrors();
      draw();
      changed();
    }, { role: "tab", "data-tab": name });
    tabs.append(tab);
  }
  // the keys of a row of tabs: an arrow, Home or End opens the tab it moves to (each tab is
  // also a stop of Tab, as before)
  tabs.addEventListener("keydown", (event) => {
    const all = [...tabs.children];
    const at = all.indexOf(event.target);
    const step = { ArrowRight: 1, ArrowLeft: -1, Home: -at, End: all.length - 1 - at }[event.key];
    if (at < 0 || step === undefined) return;
    event.preventDefault();
    const next = all[(at + step + all.length) % all.length];
    next.focus();
    if (next.getAttribute("aria-selected") !== "true") next.click();
  });

  // a description read whole: its form, its question, its address
  function opened(tab, data) {
    formMessage.hidden = true;
    state.tab = tab;
    state[tab] = data;
    clearErrors();
    draw();
    changed();
  }
  async function open(hash) {
    let link;
    try {
      link = await readAddress(hash, DATA.limits);
    } catch (error) {  // the form shows what it held before, and no number: nothing is asked
      if (!form.childElementCount) draw();
      results.replaceChildren();
      summary.textContent = "";
      formMessage.textContent = error instanceof Refusal ? error.message : `this link could not be read (${error.message})`;
      formMessage.hidden = false;
      root.dataset.refused = String(Number(root.dataset.refused ?? 0) + 1);
      return;
    }
    if (!link) return;
    formMessage.hidden = true;
    state.tab = link.tab;
    state[link.tab] = link.data;
    state.kept[link.tab] = link.kept;  // the address is the whole page: A with it, or none
    clearErrors();
    draw();
    ask();
  }
  async function start() {
    root.replaceChildren(tabs, status, keep, results, files, formMessage, form, summary);
    restart();
    try {  // asked for by the page's first script
      DATA = JSON.parse(await begun.choices);
    } catch (error) {
      stageText.textContent = `The Workbench's data could not be loaded: ${error.message}`;
      root.dataset.failed = "true";
      return;
    }
    root.timings["data read"] = Math.round(performance.now());
    state.force = structuredClone(DATA.samples.force);
    state.battle = structuredClone(DATA.samples.battle);
    // a link the page's first script took from the address before Material's could read it
    const link = begun.link ?? location.hash;
    if (isLink(link)) {
      if (link.length <= DATA.limits.address) history.replaceState(null, "", `${location.pathname}${location.search}${link}`);
      await open(link);
    } else {
      draw();
      ask();
    }
    root.dataset.ready = "true";
  }
  // a link pasted into the address of the open page; Material never sees it, as it would
  // look for an element of that id (a selector as long as the link: 1.9 MB blocks the page)
  window.addEventListener("hashchange", (event) => {
    const hash = location.hash;  // read once: each read copies the whole address
    if (!isLink(hash)) return;
    event.stopImmediatePropagation();
    if (DATA) open(hash);
  }, { capture: true });
  start();
}
