// The site's calculators: look up answers that rulesref computed at build time.
//
// No rule is implemented here. Each calculator's data file (data/<id>.json, written by
// rulesref.tables.calculator_data) holds, for every valid input, the exact fraction
// computed by the Python package; this script reads the inputs (from the form or the
// page address), checks them against the ranges in that file, and shows the stored
// answer. Inputs are kept in the address so a link reproduces a view.
"use strict";

(() => {
  const calculators = document.querySelectorAll(".rr-calculator");
  if (!calculators.length) return;

  // A fraction's percentage, written exactly as rulesref.views.percent writes it: rounded
  // half up (whole-number arithmetic, no float), and a chance strictly between 0 and 1
  // never shown as 0% or 100% ("<0.1%", ">99.9%"). The tests compare the two on every
  // answer of every data file, so this is formatting only, never a rule.
  function percent(numerator, denominator, digits = 1) {
    const scale = 10n ** BigInt(digits);
    const decimal = (units) => (digits
      ? `${units / scale}.${(units % scale).toString().padStart(digits, "0")}` : `${units}`);
    const shown = (numerator * 200n * scale + denominator) / (2n * denominator);
    if (numerator > 0n && shown === 0n) return `<${decimal(1n)}%`;
    if (numerator < denominator && shown === 100n * scale) return `>${decimal(100n * scale - 1n)}%`;
    return `${decimal(shown)}%`;
  }
  window.rulesrefPercent = percent;

  // An answer's fraction as whole numbers (BigInt: a battle's can pass 2**53).
  function parseFraction(text) {
    const [numerator, denominator = "1"] = text.split("/");
    return [BigInt(numerator), BigInt(denominator)];
  }

  // The share a bar takes, as a CSS width (drawing only, to 1/10000).
  const share = (numerator, denominator) => Number((numerator * 10000n) / denominator) / 10000;
  const barWidth = (numerator, denominator) => `${100 * share(numerator, denominator)}%`;

  // a radio group (the chart's view) is one input: the value of its checked button
  const group = (element) => [...element.form.elements[element.name]];
  const initial = (element) =>
    element.type === "checkbox" ? (element.defaultChecked ? "1" : "0")
      : element.type === "radio" ? group(element).find((r) => r.defaultChecked).value
      : element.tagName === "SELECT" ? [...element.options].find((o) => o.defaultSelected).value
        : element.defaultValue;

  const current = (element) =>
    element.type === "checkbox" ? (element.checked ? "1" : "0")
      : element.type === "radio" ? group(element).find((r) => r.checked).value : element.value.trim();

  // Read one calculator's inputs (all but `searched`, the one a question looks for); an
  // invalid one gives an error message, never a value.
  function readInputs(form, data, searched) {
    for (const element of form.elements) {
      if (element.dataset.invalid !== undefined) return { error: element.dataset.invalid };
    }
    const values = {};
    for (const [name, [low, high]] of Object.entries(data.inputs)) {
      if (name === searched) continue;
      let text = form.elements[name].value.trim();
      // as the rules write it ("4+"), by the pattern rulesref reads it with
      const asWritten = data.written?.[name] && new RegExp(`^(?:${data.written[name]})$`).exec(text);
      if (asWritten) text = asWritten[1];
      const value = /^[0-9]{1,4}$/.test(text) ? Number(text) : NaN;
      if (!(value >= low && value <= high)) {
        const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
        // a Leadership is written as the rules write it, or as a number: say both, as rulesref does
        const allowed = data.written?.[name]
          ? `a Leadership from ${low}+ to ${high}+ (${low} to ${high}, or '4+')`
          : `a whole number from ${low} to ${high}`;
        return { error: `${name} must be ${allowed}, got "${shown}"` };
      }
      values[name] = value;
    }
    values.flags = data.options.reduce(
      (flags, option) => 2 * flags + (form.elements[option].checked ? 1 : 0), 0);
    return values;
  }

  // A yes/no answer: the fraction, its complement, and a two-part bar.
  function showChance(calculator, yes) {
    const [n, d] = parseFraction(yes);
    calculator.querySelector(".rr-fraction").textContent = yes;
    calculator.querySelector(".rr-percent").textContent = `(${percent(n, d)})`;
    calculator.querySelector(".rr-fraction-no").textContent = n === 0n ? "1" : n === d ? "0" : `${d - n}/${d}`;
    calculator.querySelector(".rr-percent-no").textContent = `(${percent(d - n, d)})`;
    calculator.querySelector(".rr-bar-yes").style.width = barWidth(n, d);
    calculator.querySelector(".rr-bar-no").style.width = barWidth(d - n, d);
    calculator.querySelector(".rr-bar").setAttribute(
      "aria-label", `${percent(n, d)} against ${percent(d - n, d)}`);
  }

  // Several outcomes: one line each and a bar of as many parts, built as text nodes.
  function showOutcomes(calculator, outcomes, fractions) {
    const box = calculator.querySelector(".rr-outcomes");
    const bar = document.createElement("div");
    bar.className = "rr-bar";
    bar.setAttribute("role", "img");
    const lines = outcomes.map((outcome, index) => {
      const [n, d] = parseFraction(fractions[index]);
      const line = document.createElement("p");
      line.className = "rr-answer";
      const label = document.createElement("span");
      label.className = `rr-outcome-${index}`;
      label.textContent = outcome;
      const fraction = document.createElement("strong");
      fraction.className = "rr-fraction";
      fraction.textContent = fractions[index];
      line.append(label, ": ", fraction, ` (${percent(n, d)})`);
      const part = document.createElement("span");
      part.className = `rr-outcome-${index}`;
      part.style.width = barWidth(n, d);
      bar.append(part);
      return line;
    });
    bar.setAttribute("aria-label", outcomes.map((o, i) => `${o} ${fractions[i]}`).join(", "));
    box.replaceChildren(...lines, bar);
  }

  // The whole distribution beside the answer: the stored answer for every value of the
  // calculator's `data-sweep` input, the others as entered; the current value is marked.
  const SVG = "http://www.w3.org/2000/svg";
  function svgElement(tag, attributes, text) {
    const element = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    if (text !== undefined) element.textContent = text;
    return element;
  }

  // Whole-number fraction arithmetic on the stored answers (no rule: a difference and a
  // complement), so the chart's other views stay exact.
  const gcd = (a, b) => { while (b) [a, b] = [b, a % b]; return a < 0n ? -a : a; };
  const minus = ([a, b], [c, d]) => {
    const n = a * d - c * b, m = b * d, g = gcd(n, m) || 1n;
    return [n / g, m / g];
  };
  const written = ([n, d]) => (d === 1n ? `${n}` : `${n}/${d}`);
  // the questions beside the calculators (questions.js) read and write as these do
  window.rulesrefCalculators = { percent, readInputs, parseFraction, gcd, minus, written };

  // The swept answers are one cumulative view of a distribution (data-sweep-reads): the
  // chance to stand lost by k is the chance that the greatest defeat the dice stand is k
  // or more; the chance to pass with n re-rolls, that the roll that holds is the n-th or
  // earlier. Its neighbour in the other direction gives the other two views
  // (rulesref.questions.greatest_margin_odds and holding_roll_odds, read by `viewed`).
  function views(series, reads) {
    const step = reads === "at least" ? 1 : -1;
    const neighbour = (index) => series[index + step] || [0n, 1n]; // nothing past the ends
    const other = reads === "at least" ? "at most" : "at least";
    return {
      [reads]: series,
      exactly: series.map((p, index) => minus(p, neighbour(index))),
      [other]: series.map((_, index) => minus([1n, 1n], neighbour(index))),
    };
  }

  function sweepTable(caption, sweep, values, fractions) {
    const table = document.createElement("table");
    const cell = (tag, text, scope) => {
      const element = document.createElement(tag);
      element.textContent = text;
      if (scope) element.scope = scope;
      return element;
    };
    const row = (...cells) => { const tr = document.createElement("tr"); tr.append(...cells); return tr; };
    table.append(cell("caption", caption));
    const head = document.createElement("thead");
    head.append(row(cell("th", sweep, "col"), cell("th", "chance", "col"), cell("th", "%", "col")));
    const body = document.createElement("tbody");
    values.forEach((value, index) => body.append(row(
      cell("th", `${value}`, "row"), cell("td", written(fractions[index])),
      cell("td", percent(...fractions[index])))));
    table.append(head, body);
    return table;
  }

  function drawSweep(calculator, data, inputs) {
    const box = calculator.querySelector(".rr-sweep");
    const sweep = calculator.dataset.sweep;
    if (!box || !sweep) return;
    const [low, last] = data.inputs[sweep];
    const high = Math.min(last, Number(calculator.dataset.sweepTo || last)); // a readable width
    const series = [];
    for (let value = low; value <= last; value += 1) {
      let answer = data.answers;
      for (const [name, [first]] of Object.entries(data.inputs)) {
        answer = answer[(name === sweep ? value : inputs[name]) - first];
      }
      series.push(parseFraction(answer[inputs.flags]));
    }
    const view = calculator.querySelector("input[name=view]:checked")?.value || calculator.dataset.sweepReads;
    const shown = views(series, calculator.dataset.sweepReads)[view];
    // the input's words ("lost by", "re-rolls"), or its name read as words
    const name = calculator.dataset.sweepName ?? sweep.replaceAll("_", " ");
    const chance = `Chance that ${calculator.dataset.sweepWhat} is ${view}`;
    const width = 360, height = 170, left = 40, bottom = 36, top = 8;
    const step = (width - left - 6) / (high - low + 1);
    const y = (share) => top + (1 - share) * (height - top - bottom);
    const svg = svgElement("svg", { viewBox: `0 0 ${width} ${height}`, class: "rr-chart", role: "img", "aria-label": `${chance} each ${name} from ${low} to ${high}` });
    for (const tick of [0, 50, 100]) {
      svg.append(svgElement("line", { class: "rr-grid", x1: left, x2: width - 6, y1: y(tick / 100), y2: y(tick / 100) }));
      svg.append(svgElement("text", { x: left - 4, y: y(tick / 100) + 4, "text-anchor": "end" }, `${tick}%`));
    }
    for (let value = low; value <= high; value += 1) {
      const [n, d] = shown[value - low];
      const x = left + (value - low) * step;
      const bar = svgElement("rect", {
        x: x + step * 0.15, y: y(share(n, d)), width: step * 0.7, height: y(0) - y(share(n, d)),
        class: value === inputs[sweep] ? "rr-c0 rr-column rr-current" : "rr-c0 rr-column",
      });
      bar.append(svgElement("title", {}, `${name} ${value}: ${percent(n, d)} (${written([n, d])})`));
      svg.append(bar);
      svg.append(svgElement("text", { x: x + step / 2, y: height - bottom + 14, "text-anchor": "middle" }, value));
    }
    svg.append(svgElement("text", { x: (left + width) / 2, y: height - 4, "text-anchor": "middle" }, `${name}: ${view}`));
    const numbers = document.createElement("details");
    numbers.className = "rr-sweep-numbers";
    numbers.open = box.querySelector("details")?.open || false; // a redraw keeps it as it was
    const summary = document.createElement("summary");
    summary.textContent = "The chart's numbers";
    const values = Array.from({ length: high - low + 1 }, (_, index) => low + index);
    numbers.append(summary, sweepTable(`${chance} the row's ${name}`, name, values, shown));
    box.replaceChildren(svg, numbers);
  }

  function show(calculator, data) {
    const form = calculator.querySelector("form");
    const result = calculator.querySelector(".rr-result");
    const error = calculator.querySelector(".rr-error");
    const sweep = calculator.querySelector(".rr-sweep");  // the chart: no answer, no chart
    const inputs = readInputs(form, data);
    let answer = data.answers;
    if (!inputs.error) {
      for (const [name, [low]] of Object.entries(data.inputs)) answer = answer[inputs[name] - low];
      answer = answer[inputs.flags];
    }
    if (inputs.error || answer === null) {
      error.textContent = inputs.error || data.impossible;
      error.hidden = false;
      result.hidden = true;
      if (sweep) sweep.hidden = true;
      return;
    }
    if (data.outcomes) showOutcomes(calculator, data.outcomes, answer);
    else showChance(calculator, answer);
    drawSweep(calculator, data, inputs);
    error.hidden = true;
    result.hidden = false;
    if (sweep) sweep.hidden = false;
  }

  // Address <-> form: "?break.leadership=7&break.steadfast=1"; only values that
  // differ from the page's defaults are written.
  function fromAddress(calculator, params) {
    for (const element of calculator.querySelector("form").elements) {
      const key = `${calculator.id}.${element.name}`;
      if (!element.name || !params.has(key)) continue;
      const value = params.get(key);
      const shown = `"${value.slice(0, 40)}"`;
      if (element.type === "checkbox") {
        if (value !== "0" && value !== "1") {
          element.dataset.invalid = `${element.name} must be 0 or 1, got ${shown}`;
        }
        element.checked = value === "1";
      } else if (element.tagName === "SELECT" || element.type === "radio") {
        const allowed = element.type === "radio" ? group(element).map((r) => r.value)
          : [...element.options].map((option) => option.value);
        if (!allowed.includes(value)) {
          element.dataset.invalid = `${element.name} must be one of ${allowed.join(", ")}, got ${shown}`;
        } else if (element.type === "radio") {
          element.checked = element.value === value;
        } else {
          element.value = value;
        }
      } else {
        element.value = value;
      }
    }
  }

  // The section heading just above a calculator: a shared address lands on it.
  function sectionOf(calculator) {
    let element = calculator.previousElementSibling;
    while (element && !/^H[23]$/.test(element.tagName)) element = element.previousElementSibling;
    return element ? `#${element.id}` : "";
  }

  function toAddress(hash) {
    const params = new URLSearchParams(location.search);
    for (const calculator of calculators) {
      for (const element of calculator.querySelector("form").elements) {
        if (!element.name) continue;
        const key = `${calculator.id}.${element.name}`;
        if (current(element) === initial(element)) params.delete(key);
        else params.set(key, current(element));
      }
    }
    const query = params.toString();
    history.replaceState(null, "", `${location.pathname}${query ? `?${query}` : ""}${hash}`);
  }

  async function start() {
    const files = new Map();
    const load = (source) => {
      const url = new URL(source, location.href).href;
      if (!files.has(url)) files.set(url, fetch(url).then((response) => response.json()));
      return files.get(url);
    };
    const params = new URLSearchParams(location.search);
    for (const calculator of calculators) {
      const data = await load(calculator.dataset.source);
      const form = calculator.querySelector("form");
      fromAddress(calculator, params);
      show(calculator, data);
      form.addEventListener("submit", (event) => event.preventDefault());
      form.addEventListener("input", () => {
        for (const element of form.elements) delete element.dataset.invalid;
        show(calculator, data);
        toAddress(sectionOf(calculator));
      });
      calculator.dataset.ready = "true";
    }
    // An address with inputs but no #section opens at the first calculator it sets.
    const named = [...calculators].find((c) => [...params.keys()].some((k) => k.startsWith(`${c.id}.`)));
    if (named && !location.hash) {
      history.replaceState(null, "", `${location.pathname}${location.search}${sectionOf(named)}`);
      named.scrollIntoView();
    }
  }

  start();
})();
