// The questions players ask, on the calculators page: two set-ups side by side with their
// exact difference and both as series on one chart, and the inverse question (the least
// Leadership, the fewest re-rolls) for a chance. Each `.rr-questions` block names its
// calculator's data file (data/break.json, data/leadership.json: rulesref computed every
// number at build time), the input its chart sweeps (`data-sweep`) and the input its
// inverse question looks for (`data-need`); the only arithmetic here is on those exact
// fractions, in whole numbers, with the calculators' own readers and writers.
"use strict";

(() => {
  const widgets = document.querySelectorAll(".rr-questions");
  if (!widgets.length) return;
  const ASKED = "50%"; // the chance the inverse question starts with

  const atLeast = ([a, b], [c, d]) => a * d >= c * b;

  const MAX_BAR_TEXT = 20; // as rulesref.questions.MAX_BAR_TEXT

  // "90%", "47.5%", "0.9" or "9/10", from 0 to 1, exactly, the same texts as
  // rulesref.questions.bar (a text of at most MAX_BAR_TEXT characters); else null
  function bar(text, gcd) {
    const shown = text.replace(/^ +| +$/g, "");
    let match = /^([0-9]+)(?:\.([0-9]+))?(%?)$/.exec(shown);
    let value = null;
    if (match) {
      const decimals = match[2] || "";
      value = [BigInt(match[1] + decimals), 10n ** BigInt(decimals.length) * (match[3] ? 100n : 1n)];
    } else if ((match = /^([0-9]+)\/([0-9]+)$/.exec(shown)) && /[1-9]/.test(match[2])) {
      value = [BigInt(match[1]), BigInt(match[2])];
    }
    if (!value || value[0] > value[1]) return null;
    const g = gcd(value[0], value[1]) || 1n;
    return [value[0] / g, value[1] / g];
  }

  function setUp(widget, tools, data, source) {
    const { sweep, need, needLabel, yes } = widget.dataset;
    const percent = ([n, d]) => tools.percent(n, d);
    // a difference in percentage points as rulesref.views.points writes it: not nought
    // unless it is, nor 100 unless it is, rounded as the percentages are
    const points = ([n, d]) => {
      if (n === 0n) return "no change";
      const sign = n > 0n ? "+" : "-";
      const size = percent([n > 0n ? n : -n, d]).slice(0, -1);
      return size.startsWith(">") ? `nearly ${sign}100 points` : `${sign}${size} points`;
    };
    const shown = (p) => `${tools.written(p)} (${percent(p)})`;
    // the input's words ("lost by", "re-rolls"), or its name read as words
    const label = widget.dataset.sweepName ?? sweep.replaceAll("_", " ");
    const [sweepLow, sweepLast] = data.inputs[sweep];
    const sweepHigh = Math.min(sweepLast, Number(widget.dataset.sweepTo || sweepLast));

    // the stored answer for `values`, one input replaced
    const chance = (values, name, value) => {
      let answer = data.answers;
      for (const [input, [low]] of Object.entries(data.inputs)) {
        answer = answer[(input === name ? value : values[input]) - low];
      }
      return tools.parseFraction(answer[values.flags]);
    };
    const read = (form) => {
      const values = tools.readInputs(form, data, form.dataset.setup ? undefined : need);
      if (values.error) throw new Error(form.dataset.setup ? `${form.dataset.setup}: ${values.error}` : values.error);
      return values;
    };

    // A and B over the swept input: two lines on one chart, B dashed, each point titled;
    // the key above the plot, clear of lines at 100%, and every label inside the picture
    function chart(a, b) {
      const span = sweepHigh - sweepLow;
      const x = (v) => 36 + ((v - sweepLow) * 254) / span, y = ([n, d]) => 124 - Number((100n * n) / d);
      const swept = [...Array(span + 1).keys()].map((i) => sweepLow + i);
      const line = (v, name, dash) => {
        const points = swept.map((value) => [value, chance(v, sweep, value)]);
        const path = points.map(([value, p]) => `${x(value)},${y(p)}`).join(" ");
        const dots = points.map(([value, p]) =>
          `<circle cx="${x(value)}" cy="${y(p)}" r="2.5"><title>${name}, ${label} ${value}: ${shown(p)}</title></circle>`).join("");
        return `<polyline points="${path}" fill="none" stroke="currentColor" stroke-width="2"${dash}/>${dots}`;
      };
      const ticks = (span > 5 ? [sweepLow, sweepLow + span / 2, sweepHigh] : swept)
        .map((value) => `<text x="${x(value)}" y="138" text-anchor="middle">${value}</text>`).join("");
      return `<svg viewBox="0 0 300 162" font-size="11" fill="currentColor" role="img"
        aria-label="Chance that it ${yes} by ${label}, ${sweepLow} to ${sweepHigh}: A solid, B dashed">
        <line x1="36" y1="124" x2="290" y2="124" stroke="currentColor" stroke-opacity=".4"/>
        <line x1="36" y1="24" x2="36" y2="124" stroke="currentColor" stroke-opacity=".4"/>
        <text x="32" y="28" text-anchor="end">100%</text><text x="32" y="127" text-anchor="end">0</text>
        ${ticks}<text x="163" y="156" text-anchor="middle">${label}</text>
        ${line(a, "A", "")}${line(b, "B", ' stroke-dasharray="5 4"')}
        <line x1="200" y1="8" x2="220" y2="8" stroke="currentColor" stroke-width="2"/><text x="224" y="11">A</text>
        <line x1="240" y1="8" x2="260" y2="8" stroke="currentColor" stroke-width="2" stroke-dasharray="5 4"/><text x="264" y="11">B</text>
        </svg>`;
    }

    function answer() {
      const [formA, formB] = widget.querySelectorAll("form[data-setup]");
      const error = widget.querySelector(".rr-error");
      try {
        const a = read(formA), b = read(formB);
        const pa = chance(a), pb = chance(b), difference = tools.minus(pa, pb);
        widget.querySelector(".rr-compare-a").textContent = shown(pa);
        widget.querySelector(".rr-compare-b").textContent = shown(pb);
        widget.querySelector(".rr-compare-difference").textContent =
          `${tools.written(difference)} (${points(difference)})`;
        widget.querySelector(".rr-compare-chart").innerHTML = chart(a, b);
        error.hidden = true;
      } catch (problem) {
        error.textContent = problem.message;
        error.hidden = false;
      }
    }

    // ", the break-test table's row 10, column 3", the cell a link to its table, when a
    // table of the site holds `cell` (data.tables, from rulesref.data.calculator_tables)
    function heldBy(cell) {
      const table = data.tables && data.tables.by_options[cell.flags];
      const row = table && cell[table.row], column = table && cell[table.column];
      if (!table || !table.rows.includes(row) || !table.columns.includes(column)) return [];
      const link = document.createElement("a");
      link.href = new URL(`../${table.address}`, source).href; // data files are in data/
      link.textContent = `the ${table.name} table's row ${row}, column ${column}`;
      link.title = table.title;
      return [", ", link];
    }

    // the first value of `need`, from its lowest, whose stored answer reaches the bar: each
    // later one reaches it too (more Leadership, more re-rolls: never a smaller chance)
    function inverse() {
      const form = widget.querySelector("form.rr-need");
      const output = widget.querySelector(".rr-need-answer");
      const written = form.elements.at_least.value;
      const length = [...written].length;  // characters, as Python counts them
      if (length > MAX_BAR_TEXT) {
        output.textContent = `at least must be a chance from 0 to 1 written in at most ${MAX_BAR_TEXT} characters, got ${length} characters`;
        return;
      }
      const goal = bar(written, tools.gcd);
      if (!goal) {
        output.textContent = `at least must be a chance from 0 to 1, written 90%, 0.9 or 9/10, got "${written.trim()}"`;
        return;
      }
      let values;
      try { values = read(form); } catch (problem) { output.textContent = problem.message; return; }
      const [low, high] = data.inputs[need];
      for (let value = low; value <= high; value++) {
        const p = chance(values, need, value);
        if (atLeast(p, goal)) {
          output.textContent = `${needLabel} ${value}: ${yes} ${tools.written(p)} (${percent(p)}), at least ${tools.written(goal)}`;
          output.append(...heldBy({ ...values, [need]: value }));
          return;
        }
      }
      output.textContent = `With ${needLabel} from ${low} to ${high}, none ${yes} at least ${tools.written(goal)} (${percent(goal)})`;
    }

    // the inputs ride in the address (questions.A.leadership=8 ...), as the calculators' do
    const key = (form, element) => `${widget.dataset.key}.${form.dataset.setup || "need"}.${element.name}`;
    const named = (form) => [...form.elements].filter((element) => element.name); // not the fieldset
    const value = (element) => (element.type === "checkbox" ? (element.checked ? "1" : "0") : element.value.trim());
    const initial = (element) => (element.type === "checkbox" ? (element.defaultChecked ? "1" : "0") : element.defaultValue);

    function toAddress() {
      const params = new URLSearchParams(location.search);
      for (const form of widget.querySelectorAll("form")) {
        for (const element of named(form)) {
          if (value(element) === initial(element)) params.delete(key(form, element));
          else params.set(key(form, element), value(element));
        }
      }
      const query = params.toString();
      history.replaceState(null, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
    }

    function fromAddress() {
      const params = new URLSearchParams(location.search);
      for (const form of widget.querySelectorAll("form")) {
        for (const element of named(form)) {
          const given = params.get(key(form, element));
          if (given === null) continue;
          if (element.type === "checkbox") element.checked = given === "1";
          else element.value = given.slice(0, 40);
        }
      }
    }

    const asked = widget.querySelector("form.rr-need").elements.at_least;
    asked.defaultValue = asked.value = ASKED;
    fromAddress();
    answer();
    inverse();
    for (const form of widget.querySelectorAll("form")) {
      form.addEventListener("submit", (event) => event.preventDefault());
      form.addEventListener("input", () => { answer(); inverse(); toAddress(); });
    }
    widget.dataset.ready = "true";
  }

  for (const widget of widgets) {
    const source = new URL(widget.dataset.source, location.href);
    fetch(source).then((response) => response.json())
      .then((data) => setUp(widget, window.rulesrefCalculators, data, source));
  }
})();
