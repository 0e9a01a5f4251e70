// The Workbench: a form for a force or a battle; rulesref itself computes the answer, in
// Python (Pyodide) in a Worker, from files of this site only (workbench/pyodide/). No rule
// is written here: this file builds the form, sends its JSON to rulesref.workbench.answer,
// and shows what comes back (exact fractions and percents, or a bad field's message).
//
// The same file is the Worker (started with its own address): see `worker()` below.
"use strict";

const STAGES = ["Starting Python (about 7 MB to download the first time)", "Loading rulesref", "Importing rulesref", "Ready"];

// ---------------------------------------------------------------- the Worker's side
async function worker() {
  let ask = null;
  const ready = (async () => {
    const base = new URL("../workbench/pyodide/", import.meta.url).href;
    const stage = (index) => postMessage({ stage: index });
    stage(0);
    const { loadPyodide } = await import(`${base}pyodide.mjs`);
    // every address given: the loader's default is a CDN, and nothing may leave this host
    // rulesref on Python's fractions (rulesref.exact): the same answers, and no sympy to load
    const pyodide = await loadPyodide({
      indexURL: base, packageBaseUrl: base, lockFileURL: `${base}pyodide-lock.json`,
      env: { RULESREF_FRACTIONS: "1" },
    });
    stage(1);
    await pyodide.loadPackage("rulesref", { messageCallback: () => {} });
    stage(2);
    ask = pyodide.pyimport("rulesref.workbench").answer_text;
    stage(3);
  })();
  ready.catch((error) => postMessage({ failed: String(error) }));
  onmessage = async ({ data }) => {
    await ready;
    const started = performance.now();
    let answer;
    try {
      answer = JSON.parse(ask(data.question));
    } catch (error) {  // not a refusal of the rules (those are answers) but a failure: say so
      answer = { error: { path: [], message: `rulesref could not answer: ${String(error).split("\n").at(-2) ?? error}` } };
    }
    postMessage({ id: data.id, answer, ms: Math.round(performance.now() - started) });
  };
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

  // --- the description being edited: the JSON the command line reads (a force) or the
  // JSON of rulesref.workbench (a battle); the form is drawn from it
  const SAMPLE_FORCE_URL = root.dataset.sample;
  const state = { tab: "force", force: null, battle: defaultBattle() };
  function defaultBattle() {
    return {
      attacker: { platoons: [{ kind: "artillery" }, { kind: "infantry" }] },
      defender: { platoons: [{ kind: "infantry" }], fortified: false },
      terrain: "open",
      garrison: false,
      policy: "fewest withdrawals",
      leadership: { leadership: 7 },
      readings: {},
    };
  }
  const key = (path) => JSON.stringify(path);
  function getAt(path) {
    return path.reduce((place, step) => (place == null ? undefined : place[step]), state[state.tab]);
  }
  function setAt(path, value) {
    let place = state[state.tab];
    for (const step of path.slice(0, -1)) place = place[step] ??= typeof step === "number" ? [] : {};
    if (value === undefined) delete place[path.at(-1)];
    else place[path.at(-1)] = value;
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
    select: (input) => (input.value === "" ? undefined : input.value),
    names: (input) => {
      const names = input.value.split(",").map((part) => part.trim()).filter(Boolean);
      return names.length ? names : undefined;
    },
  };
  const SHOW = {
    leadership: (value) => (Array.isArray(value) ? value.join(", ") : value ?? ""),
    names: (value) => (value ?? []).join(", "),
  };

  let fieldCount = 0;
  // one labelled input bound to a path of the description, with its message beside it
  function field(label, path, kind = "text", { options, size, hint } = {}) {
    const id = `wb-field-${++fieldCount}`;
    const value = getAt(path);
    const attributes = { id, "data-path": key(path), "data-kind": kind, "aria-describedby": `${id}-msg` };
    let input;
    if (kind === "check") {
      input = el("input", { ...attributes, type: "checkbox", checked: Boolean(value) });
    } else if (kind === "select") {
      input = el("select", attributes, ...options.map(([word, text]) => el("option", { value: word, text, selected: word === (value ?? options[0][0]) })));
    } else {
      const numeric = kind === "number" || kind === "optionalNumber";
      input = el("input", {
        ...attributes, type: "text", size: size ?? (numeric ? 4 : 12), autocomplete: "off",
        inputmode: numeric ? "numeric" : undefined, placeholder: hint,
      });
      input.value = (SHOW[kind] ?? ((v) => v ?? ""))(value);
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

  function doctrine(path) {
    const open = getAt(path) !== undefined;
    const details = el("details", { class: "rr-wb-doctrine", open },
      el("summary", { text: "Doctrine (LD-7)" }),
      el("div", { class: "rr-wb-row" },
        field("Name", [...path, "name"], "optional"),
        field("Re-rolls", [...path, "rerolls"], "optionalNumber"),
        field("ignores a failure", [...path, "ignores"], "check")));
    return details;
  }

  function leaderRows(path, unitNames) {
    const leaders = list(getAt(path));
    const rows = leaders.map((_, index) => {
      const at = [...path, index];
      if (getAt([...at, "alive"]) === undefined) setAt([...at, "alive"], true);
      const cells = [
        field("Name", [...at, "name"]),
        field("Leadership", [...at, "leadership"], "leadership", { size: 4, hint: "3+" }),
        field("Rank", [...at, "rank"], "number"),
      ];
      if (unitNames) {
        const options = [["", "independent"], ...unitNames.map((name) => [name, `in ${name}`])];
        cells.push(field("Fights", [...at, "unit"], "select", { options }));
      }
      cells.push(field("alive", [...at, "alive"], "check"));
      cells.push(button("Remove", () => edit(() => leaders.splice(index, 1)), { "aria-label": `Remove leader ${index + 1}` }));
      return group(`Leader ${index + 1}`, at, el("div", { class: "rr-wb-row" }, ...cells));
    });
    const add = button("Add a leader", () => edit(() => setAt(path, [...leaders, { name: `Leader ${leaders.length + 1}`, leadership: "4+", rank: 1 }])));
    return [...rows, add];
  }

  // a list as the form draws it: anything else is left for rulesref to refuse by name
  const list = (value) => (Array.isArray(value) ? value : []);

  function unitCard(path, unit) {
    const casualtyPath = ["casualties", unit.name];
    return group(unit.name || "Unit", path,
      el("div", { class: "rr-wb-row" },
        field("Name", [...path, "name"], "text"),
        field("Leadership", [...path, "leadership"], "leadership", { size: 7, hint: LEADERSHIP_HINT }),
        field("Starting models", [...path, "starting"], "number"),
        field("Models now", [...path, "current"], "optionalNumber", { hint: "all" }),
        field("Lost this phase", casualtyPath, "optionalNumber", { hint: "0" }),
        field("removed earlier", [...path, "removed"], "check")),
      doctrine([...path, "doctrine"]),
      button("Remove this unit", () => edit(() => getAt(path.slice(0, -1)).splice(path.at(-1), 1))));
  }

  function forceForm() {
    const force = state.force;
    const parts = [
      el("div", { class: "rr-wb-row" }, field("Force", ["name"], "text"),
        field("Prefer among equals (LD-C8)", ["prefer"], "names", { hint: "names, comma-separated" }),
        field("removed figures survive", ["removed_figures_survive"], "check")),
      doctrine(["doctrine"]),
      group("Independent leaders of the force", ["leaders"], ...leaderRows(["leaders"], null)),
    ];
    list(force.commands).forEach((command, c) => {
      const units = list(command?.units);
      const names = units.map((unit) => unit?.name);
      parts.push(group(command?.name || `Command ${c + 1}`, ["commands", c],
        el("div", { class: "rr-wb-row" }, field("Command", ["commands", c, "name"], "text")),
        doctrine(["commands", c, "doctrine"]),
        ...units.map((unit, u) => unitCard(["commands", c, "units", u], unit ?? {})),
        button("Add a unit", () => edit(() => (command.units = units).push({ name: `Unit ${c + 1}.${units.length + 1}`, starting: 10, leadership: "4+" }))),
        group("Leaders", ["commands", c, "leaders"], ...leaderRows(["commands", c, "leaders"], names)),
        button("Remove this command", () => edit(() => force.commands.splice(c, 1)))));
    });
    parts.push(button("Add a command", () => edit(() => force.commands.push({ name: `Command ${force.commands.length + 1}`, units: [{ name: `Unit ${force.commands.length + 1}.1`, starting: 10, leadership: "4+" }] }))));
    return parts;
  }

  const KINDS = ["infantry", "cavalry", "artillery", "command"];
  const STATES = [["fresh", "fresh"], ["damaged", "damaged"], ["fubar", "FUBAR"], ["withdrawn", "withdrawn"]];
  const DECLARATIONS = [["side", "as its side"], ["attack", "attack"], ["defence", "defence"]];
  const READINGS = [
    ["fubar_modified", "other modifiers apply to a FUBAR 1 (CA-C2)", true],
    ["clamp_rolls", "a roll below 0 counts as 0 (CA-C4)", false],
    ["woods_is_forest", "woods and forest are one terrain (CA-C10)", true],
    ["mountain_both_sides", "both armies are in the mountain hex (CA-C11)", true],
  ];

  function sideForm(role) {
    const platoons = list(state.battle[role]?.platoons);
    const rows = platoons.map((platoon, index) => {
      const at = [role, "platoons", index];
      if (!platoon || typeof platoon !== "object") return group(`Platoon ${index + 1}`, at);
      if (platoon.declaration === undefined) platoon.declaration = "side";
      if (platoon.supplied === undefined) platoon.supplied = true;
      return group(`Platoon ${index + 1}`, at, el("div", { class: "rr-wb-row" },
        field("Kind", [...at, "kind"], "select", { options: KINDS.map((k) => [k, k]) }),
        field("State", [...at, "state"], "select", { options: STATES }),
        field("Rolls for", [...at, "declaration"], "select", { options: DECLARATIONS }),
        field("Name", [...at, "name"], "optional", { size: 8 }),
        field("supplied", [...at, "supplied"], "check"),
        button("Remove", () => edit(() => platoons.splice(index, 1)), { "aria-label": `Remove ${role} platoon ${index + 1}` })));
    });
    const title = role === "attacker" ? "Attacker" : "Defender";
    return group(title, [role], ...rows,
      button("Add a platoon", () => edit(() => platoons.push({ kind: "infantry" }))),
      field("fortified (CA-6)", [role, "fortified"], "check"));
  }

  function battleForm() {
    const battle = state.battle;
    const mode = battle.leadership?.probability !== undefined ? "probability" : "leadership";
    for (const [name, , usual] of READINGS) battle.readings[name] ??= usual;
    return [
      sideForm("attacker"),
      sideForm("defender"),
      group("The battle", [], el("div", { class: "rr-wb-row" },
        field("Terrain", ["terrain"], "select", { options: ["open", "forest", "woods", "mountain"].map((t) => [t, t]) }),
        field("garrison (CA-20)", ["garrison"], "check"),
        field("Hits go", ["policy"], "select", { options: [["fewest withdrawals", "fewest withdrawals"], ["most withdrawals", "most withdrawals"]] })),
      el("div", { class: "rr-wb-row" },
        field("Loser's check (CA-C5)", ["leadership", "mode"], "select", { options: [["leadership", "2D6 on Leadership"], ["probability", "a given probability"]] }),
        mode === "probability"
          ? field("Probability to pass", ["leadership", "probability"], "text", { size: 6, hint: "1/2" })
          : field("Leadership", ["leadership", "leadership"], "number"))),
      group("Readings", ["readings"], ...READINGS.map(([name, text]) => field(text, ["readings", name], "check"))),
    ];
  }

  // --- the form, drawn from the state; one listener reads any change back
  const form = el("form", { class: "rr-wb-form", autocomplete: "off", novalidate: true });
  const tabs = el("div", { class: "rr-wb-tabs", role: "tablist" });
  const formMessage = el("p", { class: "rr-wb-msg rr-wb-top", role: "alert", hidden: true });
  function draw() {
    fieldCount = 0;
    if (state.battle.leadership) state.battle.leadership.mode = state.battle.leadership.probability !== undefined ? "probability" : "leadership";
    form.replaceChildren(...(state.tab === "force" ? forceForm() : battleForm()));
    for (const tab of tabs.children) tab.setAttribute("aria-selected", String(tab.dataset.tab === state.tab));
  }
  form.addEventListener("submit", (event) => event.preventDefault());
  form.addEventListener("input", (event) => {
    const input = event.target;
    if (!input.dataset.path) return;
    const path = JSON.parse(input.dataset.path);
    const value = READ[input.dataset.kind](input);
    if (key(path) === key(["leadership", "mode"])) {
      state.battle.leadership = value === "probability" ? { probability: "1/2" } : { leadership: 7 };
      draw();
    } else if (state.tab === "force" && path.at(-1) === "name" && path[0] === "commands" && path.length === 5) {
      renameUnit(path, value);
    } else {
      setAt(path, value === "" && input.dataset.kind === "text" ? "" : value);
    }
    changed();
  });
  // a unit's casualties are kept under its name: they follow it when it is renamed
  function renameUnit(path, name) {
    const old = getAt(path);
    const casualties = (state.force.casualties ??= {});
    if (old in casualties) {
      casualties[name] = casualties[old];
      delete casualties[old];
    }
    setAt(path, name);
    const command = ["commands", path[1]];
    for (const leader of list(getAt([...command, "leaders"]))) if (leader?.unit === old) leader.unit = name;
    const card = fieldAt(path.slice(0, -1));
    card.querySelector("legend").textContent = name || "Unit";
    card.querySelector(`[data-path^='["casualties",']`).dataset.path = key(["casualties", name]);
    const names = list(getAt([...command, "units"])).map((unit) => unit?.name);
    for (const select of fieldAt(command).querySelectorAll("select[data-path$=',\"unit\"]']")) {
      const chosen = getAt(JSON.parse(select.dataset.path));
      select.replaceChildren(...[["", "independent"], ...names.map((n) => [n, `in ${n}`])]
        .map(([word, text]) => el("option", { value: word, text, selected: word === (chosen ?? "") })));
    }
  }
  function fieldAt(path) {
    return [...form.querySelectorAll("[data-path]")].find((element) => element.dataset.path === key(path));
  }

  // --- the answer
  const results = el("div", { class: "rr-wb-results", "aria-live": "polite" });
  const progress = el("progress", { max: STAGES.length - 1, value: 0 });
  const stageText = el("span", { class: "rr-wb-stage", text: `${STAGES[0]}…` });
  const stopButton = button("Stop", () => {
    restart();
    results.replaceChildren(el("p", { class: "rr-wb-msg", text: "Stopped. Change the form to ask again." }));
    summary.textContent = "";
    status.hidden = true;
  }, { hidden: true });
  // the headline, kept in view at the foot of the screen while the form is edited
  const summary = el("p", { class: "rr-wb-summary", "aria-hidden": "true" });
  const status = el("p", { class: "rr-wb-status" }, progress, " ", stageText, " ", stopButton);

  const fraction = (exact) => el("span", { class: "rr-wb-exact" }, el("strong", { text: exact.percent }), " ", el("span", { class: "rr-wb-frac", text: exact.probability }));
  const barOf = (exact, tone = "rr-c0") => {
    const [n, d = 1] = exact.probability.split("/").map(Number);
    return el("span", { class: `rr-wb-bar ${tone}`, style: `width:${(100 * n) / d}%` });
  };
  function table(caption, headings, rows) {
    return el("table", { class: "rr-wb-table" }, el("caption", { text: caption }),
      el("thead", {}, el("tr", {}, ...headings.map((h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, ...rows.map(([name, ...cells]) => el("tr", {}, el("th", { scope: "row", text: name }), ...cells.map((cell) => el("td", {}, cell))))));
  }
  function cell(exact, tone) {
    return exact ? el("div", {}, fraction(exact), el("div", { class: "rr-wb-track" }, barOf(exact, tone))) : "";
  }

  function showForce(answer) {
    const rows = [[`${answer.force} breaks`, cell(answer.force_breaks, "rr-c1"), ""]];
    for (const name of Object.keys(answer.command_removed)) {
      rows.push([name, cell(answer.command_fails[name], "rr-c1"), cell(answer.command_removed[name], "rr-c0")]);
    }
    for (const name of Object.keys(answer.unit_removed)) {
      rows.push([name, cell(answer.unit_fails[name], "rr-c1"), cell(answer.unit_removed[name], "rr-c0")]);
    }
    const chart = el("figure", { class: "rr-wb-chart" });
    chart.append(document.importNode(new DOMParser().parseFromString(answer.svg, "image/svg+xml").documentElement, true));
    chart.append(el("figcaption", { text: "The chain of command, shaded by each one's chance to go (LD-4 to LD-12)." }));
    summary.textContent = `${answer.force} breaks: ${answer.force_breaks.percent} (${answer.force_breaks.probability})`;
    results.replaceChildren(
      el("p", { class: "rr-wb-headline" }, el("span", { text: `${answer.force} breaks: ` }), fraction(answer.force_breaks)),
      table("Exact odds at the end of this phase", ["", "fails its own test", "off the table"], rows), chart);
  }

  const WHO = { attacker: "the attacker wins", defender: "the defender wins", none: "no victor" };
  function showBattle(answer) {
    const victor = Object.entries(answer.victor).map(([who, exact], index) => [WHO[who] ?? who, cell(exact, `rr-c${index}`)]);
    const fates = ["attacker", "defender"].map((role) => table(`The ${role}`, ["", "chance"], [
      ...Object.entries(answer.fate[role]).map(([fate, exact]) => [fate, cell(exact, "rr-c0")]),
      ["routed (CA-16)", cell(answer.routed[role], "rr-c1")],
      ["must check (CA-17)", cell(answer.must_check[role], "rr-c1")],
      ...Object.entries(answer.hits[role]).map(([hits, exact]) => [`takes ${hits} hit${hits === "1" ? "" : "s"}`, cell(exact, "rr-c2")]),
    ]));
    const outcomes = table("How it ends, by the deciding clause", ["", "chance"],
      Object.entries(answer.outcomes).map(([outcome, exact]) => [outcome, cell(exact, "rr-c3")]));
    summary.textContent = Object.entries(answer.victor).map(([who, exact]) => `${WHO[who] ?? who} ${exact.percent}`).join(" · ");
    results.replaceChildren(table("Who wins", ["", "chance"], victor), ...fates, outcomes);
  }

  // --- errors: the message goes beside its field (or the nearest group), never a number
  function clearErrors() {
    for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
    for (const message of root.querySelectorAll(".rr-wb-msg")) message.hidden = true;
  }
  function showError(error) {
    results.replaceChildren();
    summary.textContent = `No answer: ${error.message}`;
    for (let depth = error.path.length; depth >= 0; depth -= 1) {
      const place = fieldAt(error.path.slice(0, depth));
      if (!place) continue;
      if (place.tagName === "FIELDSET") {
        const message = place.querySelector(":scope > .rr-wb-msg");
        message.textContent = error.message;
        message.hidden = false;
      } else {
        place.setAttribute("aria-invalid", "true");
        const message = document.getElementById(place.getAttribute("aria-describedby"));
        message.textContent = error.message;
        message.hidden = false;
      }
      return;
    }
    formMessage.textContent = error.message;
    formMessage.hidden = false;
  }

  // --- the Worker: started at once, so that Python loads while the player reads the form
  let python, asked = 0, timer, slow;
  root.timings = {};
  function restart() {
    python?.terminate();
    python = new Worker(import.meta.url, { type: "module" });
    stopButton.hidden = true;
    python.onmessage = ({ data }) => {
      if (data.stage !== undefined) {
        root.timings[STAGES[data.stage]] = Math.round(performance.now());  // ms since the page opened
        progress.value = data.stage;
        stageText.textContent = data.stage === STAGES.length - 1 ? "" : `${STAGES[data.stage]}…`;
        status.hidden = data.stage === STAGES.length - 1;
        root.dataset.stage = STAGES[data.stage];
      } else if (data.failed) {
        stageText.textContent = `Python could not start here: ${data.failed}`;
        root.dataset.failed = "true";
      } else if (data.id === asked) {
        clearTimeout(slow);
        stopButton.hidden = true;
        status.hidden = true;
        clearErrors();
        results.classList.remove("rr-wb-stale");
        if (data.answer.error) showError(data.answer.error);
        else if (data.answer.test === "cascade") showForce(data.answer);
        else showBattle(data.answer);
        root.answer = data.answer;  // the last answer as rulesref gave it, for tests and the curious
        root.timings.answer ??= Math.round(performance.now());
        root.dataset.answered = String(data.id);
        root.dataset.ms = String(data.ms);
      }
    };
  }
  function ask() {
    asked += 1;
    results.classList.add("rr-wb-stale");
    python.postMessage({ id: asked, question: JSON.stringify({ [state.tab]: question() }) });
    clearTimeout(slow);
    slow = setTimeout(() => {  // a big battle: say so, and let the player stop it
      status.hidden = false;
      stageText.textContent = root.dataset.stage === "Ready" ? "Computing…" : stageText.textContent;
      stopButton.hidden = root.dataset.stage !== "Ready";
    }, 800);
  }
  // what is sent: the description without the form's own helpers
  function question() {
    if (state.tab === "force") return state.force;
    const { mode, ...check } = state.battle.leadership;
    return { ...state.battle, leadership: check };
  }
  function changed() {
    clearTimeout(timer);
    timer = setTimeout(() => {
      ask();
      writeAddress();
    }, 300);
  }

  // --- the address: #v1.f.<payload> (a force) or #v1.b.<payload> (a battle), the payload
  // base64url of deflate-raw of the JSON; a later version keeps reading v1 links
  const VERSION = "v1";
  async function pack(text) {
    const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  async function unpack(payload) {
    const binary = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new Response(stream).text();
  }
  let writing = Promise.resolve();
  function writeAddress() {
    const text = JSON.stringify(question());
    const tab = state.tab === "force" ? "f" : "b";
    writing = writing.then(async () => {
      history.replaceState(null, "", `${location.pathname}${location.search}#${VERSION}.${tab}.${await pack(text)}`);
    });
  }
  async function readAddress() {
    if (!/^#v\d/.test(location.hash)) return false;  // a heading's anchor, or nothing
    const match = /^#(v\d+)\.([fb])\.([A-Za-z0-9_-]+)$/.exec(location.hash);
    if (!match) throw new Error("this address is not a Workbench link (it should be #v1.f.… or #v1.b.…)");
    if (match[1] !== VERSION) throw new Error(`this link is from a newer version of the site (${match[1]}); this page reads ${VERSION} links`);
    let data;
    try {
      data = JSON.parse(await unpack(match[3]));
    } catch {
      throw new Error("this link is damaged: its description could not be read");
    }
    if (!data || typeof data !== "object" || Array.isArray(data)) throw new Error("this link is damaged: it holds no description");
    state.tab = match[2] === "f" ? "force" : "battle";
    state[state.tab] = data;
    if (state.tab === "battle") {
      data.readings ??= {};
      data.leadership ??= { leadership: 7 };
      for (const role of ["attacker", "defender"]) if (!Array.isArray(data[role]?.platoons)) throw new Error(`this link is damaged: the ${role} has no platoons`);
    } else if (!Array.isArray(data.commands)) {
      throw new Error("this link is damaged: the force has no commands");
    }
    return true;
  }

  // --- import and export: the force file the command line reads
  const importMessage = el("span", { class: "rr-wb-msg", id: "wb-import-msg", role: "alert", hidden: true });
  const fileInput = el("input", { type: "file", accept: ".json,application/json", hidden: true, "aria-describedby": "wb-import-msg" });
  fileInput.addEventListener("change", async () => {
    importMessage.hidden = true;
    const file = fileInput.files[0];
    fileInput.value = "";
    if (!file) return;
    let data;
    try {
      if (file.size > 100_000) throw new Error("larger than 100000 bytes");
      data = JSON.parse(await file.text());
      if (!data || typeof data !== "object" || Array.isArray(data) || !Array.isArray(data.commands ?? data.attacker?.platoons)) {
        throw new Error("it holds no force (a JSON object with \"commands\") or battle");
      }
    } catch (error) {
      importMessage.textContent = `file must be a force file as "rulesref cascade" reads it: ${error.message}`;
      importMessage.hidden = false;
      return;
    }
    state.tab = Array.isArray(data.commands) ? "force" : "battle";
    state[state.tab] = data;
    draw();
    changed();
  });
  function download() {
    const blob = new Blob([`${JSON.stringify(question(), null, 2)}\n`], { type: "application/json" });
    const link = el("a", { href: URL.createObjectURL(blob), download: `${state.tab === "force" ? (state.force.name || "force") : "battle"}.json` });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }
  const files = el("p", { class: "rr-wb-files" },
    button("Load a file", () => fileInput.click()), " ", button("Download this description", download), fileInput, importMessage);

  for (const [name, text] of [["force", "A force"], ["battle", "A battle"]]) {
    const tab = button(text, () => {
      state.tab = name;
      clearErrors();
      draw();
      changed();
    }, { role: "tab", "data-tab": name });
    tabs.append(tab);
  }

  async function start() {
    root.replaceChildren(tabs, status, results, files, formMessage, form, summary);
    restart();
    try {
      await readAddress();
    } catch (error) {
      formMessage.textContent = error.message;
      formMessage.hidden = false;
    }
    state.force ??= await (await fetch(SAMPLE_FORCE_URL)).json();
    draw();
    if (formMessage.hidden) ask();
    root.dataset.ready = "true";
  }
  window.addEventListener("hashchange", async () => {
    try {
      if (await readAddress()) {
        clearErrors();
        draw();
        ask();
      }
    } catch (error) {
      formMessage.textContent = error.message;
      formMessage.hidden = false;
    }
  });
  start();
}
