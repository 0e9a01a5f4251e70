// The questions players ask, on the calculators page: two Break test set-ups side by side
// with their exact difference and both as series on one chart, and the least Leadership
// for a chance. Every number is looked up in data/break.json (rulesref computed it at
// build time); the only arithmetic here is on those exact fractions, in whole numbers.
"use strict";

(() => {
  const widget = document.getElementById("rr-questions");
  if (!widget) return;
  const SWEEP = 10; // the chart's margins of defeat: 0 to 10, as the tables
  const ASKED = "50%"; // the chance the inverse question starts with

  const gcd = (a, b) => { while (b) [a, b] = [b, a % b]; return a < 0n ? -a : a; };
  const exact = (text) => { const [n, d = "1"] = text.split("/"); return [BigInt(n), BigInt(d)]; };
  const written = ([n, d]) => (d === 1n ? `${n}` : `${n}/${d}`);
  const minus = ([a, b], [c, d]) => {
    const n = a * d - c * b, m = b * d, g = gcd(n, m) || 1n;
    return [n / g, m / g];
  };
  const atLeast = ([a, b], [c, d]) => a * d >= c * b;
  // a percentage to one decimal; a chance strictly between 0 and 1 never shows as 0 or 100
  function percent([n, d]) {
    const tenths = Number((2000n * n + d) / (2n * d)) / 10;
    if (n > 0n && n < d && tenths === 0) return "<0.1%";
    if (n > 0n && n < d && tenths === 100) return ">99.9%";
    return `${tenths.toFixed(1)}%`;
  }

  // "90%", "47.5%", "0.9" or "9/10", from 0 to 1, exactly; else null
  function bar(text) {
    const shown = text.trim();
    let match = /^([0-9]{1,3})(?:\.([0-9]{1,6}))?(%?)$/.exec(shown);
    let value = null;
    if (match) {
      const decimals = match[2] || "";
      value = [BigInt(match[1] + decimals), 10n ** BigInt(decimals.length) * (match[3] ? 100n : 1n)];
    } else if ((match = /^([0-9]{1,6})\/([0-9]{1,6})$/.exec(shown)) && match[2] !== "0".repeat(match[2].length)) {
      value = [BigInt(match[1]), BigInt(match[2])];
    }
    if (!value || value[0] > value[1]) return null;
    const g = gcd(value[0], value[1]) || 1n;
    return [value[0] / g, value[1] / g];
  }

  function read(form, data) {
    const values = {};
    for (const [name, [low, high]] of Object.entries(data.inputs)) {
      const text = form.elements[name].value.trim();
      const value = /^[0-9]{1,4}$/.test(text) ? Number(text) : NaN;
      if (!(value >= low && value <= high)) {
        throw new Error(`${form.dataset.setup}: ${name} must be a whole number from ${low} to ${high}, got "${text.slice(0, 40)}"`);
      }
      values[name] = value;
    }
    values.flags = data.options.reduce((flags, option) => 2 * flags + (form.elements[option].checked ? 1 : 0), 0);
    return values;
  }

  const chance = (data, v, lostBy = v.lost_by) =>
    exact(data.answers[v.leadership - data.inputs.leadership[0]][lostBy - data.inputs.lost_by[0]][v.flags]);

  // A and B over the margins 0 to 10: two lines on one chart, B dashed, each point titled
  function chart(data, a, b) {
    const x = (by) => 30 + (by * 260) / SWEEP, y = ([n, d]) => 110 - Number((100n * n) / d);
    const line = (v, name, dash) => {
      const points = [...Array(SWEEP + 1).keys()].map((by) => [by, chance(data, v, by)]);
      const path = points.map(([by, p]) => `${x(by)},${y(p)}`).join(" ");
      const dots = points.map(([by, p]) =>
        `<circle cx="${x(by)}" cy="${y(p)}" r="2.5"><title>${name}, lost by ${by}: ${written(p)} (${percent(p)})</title></circle>`).join("");
      return `<polyline points="${path}" fill="none" stroke="currentColor" stroke-width="2"${dash}/>${dots}`;
    };
    const ticks = [0, 5, 10].map((by) => `<text x="${x(by)}" y="124" text-anchor="middle">${by}</text>`).join("");
    return `<svg viewBox="0 0 300 150" font-size="11" fill="currentColor" role="img"
      aria-label="Chance to stand by margin of defeat, 0 to ${SWEEP}: A solid, B dashed">
      <line x1="30" y1="110" x2="290" y2="110" stroke="currentColor" stroke-opacity=".4"/>
      <line x1="30" y1="10" x2="30" y2="110" stroke="currentColor" stroke-opacity=".4"/>
      <text x="26" y="14" text-anchor="end">100%</text><text x="26" y="112" text-anchor="end">0</text>
      ${ticks}<text x="160" y="140" text-anchor="middle">lost by</text>
      ${line(a, "A", "")}${line(b, "B", ' stroke-dasharray="5 4"')}
      <line x1="200" y1="8" x2="220" y2="8" stroke="currentColor" stroke-width="2"/><text x="224" y="11">A</text>
      <line x1="240" y1="8" x2="260" y2="8" stroke="currentColor" stroke-width="2" stroke-dasharray="5 4"/><text x="264" y="11">B</text>
      </svg>`;
  }

  function answer(data) {
    const [formA, formB] = widget.querySelectorAll("form[data-setup]");
    const error = widget.querySelector(".rr-error");
    try {
      const a = read(formA, data), b = read(formB, data);
      const pa = chance(data, a), pb = chance(data, b), difference = minus(pa, pb);
      const points = (100 * Number(difference[0])) / Number(difference[1]);
      widget.querySelector(".rr-compare-a").textContent = `${written(pa)} (${percent(pa)})`;
      widget.querySelector(".rr-compare-b").textContent = `${written(pb)} (${percent(pb)})`;
      widget.querySelector(".rr-compare-difference").textContent =
        `${written(difference)} (${points >= 0 ? "+" : "-"}${Math.abs(points).toFixed(1)} points)`;
      widget.querySelector(".rr-compare-chart").innerHTML = chart(data, a, b);
      error.hidden = true;
    } catch (problem) {
      error.textContent = problem.message;
      error.hidden = false;
    }
  }

  function need(data) {
    const form = widget.querySelector("form.rr-need");
    const shown = widget.querySelector(".rr-need-answer");
    const goal = bar(form.elements.at_least.value);
    const byText = form.elements.lost_by.value.trim();
    const lostBy = /^[0-9]{1,3}$/.test(byText) ? Number(byText) : NaN;
    if (!goal || !(lostBy >= 0 && lostBy <= data.inputs.lost_by[1])) {
      shown.textContent = !goal
        ? `at least must be a chance from 0 to 1, written 90%, 0.9 or 9/10, got "${form.elements.at_least.value.trim().slice(0, 40)}"`
        : `lost by must be a whole number from 0 to ${data.inputs.lost_by[1]}, got "${byText.slice(0, 40)}"`;
      return;
    }
    const flags = data.options.reduce((f, option) => 2 * f + (form.elements[option].checked ? 1 : 0), 0);
    const [low, high] = data.inputs.leadership;
    for (let leadership = low; leadership <= high; leadership++) {
      const p = chance(data, { leadership, lost_by: lostBy, flags });
      if (atLeast(p, goal)) {
        shown.textContent = `Leadership ${leadership}: stands ${written(p)} (${percent(p)}), at least ${written(goal)}`;
        return;
      }
    }
    shown.textContent = `No Leadership from ${low} to ${high} stands at least ${written(goal)} (${percent(goal)}) when lost by ${lostBy}`;
  }

  // the inputs ride in the address (questions.A.leadership=8 ...), as the calculators' do
  const key = (form, element) => `questions.${form.dataset.setup || "need"}.${element.name}`;
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

  fetch(new URL(widget.dataset.source, location.href)).then((response) => response.json()).then((data) => {
    const asked = widget.querySelector("form.rr-need").elements.at_least;
    asked.defaultValue = asked.value = ASKED;
    fromAddress();
    answer(data);
    need(data);
    for (const form of widget.querySelectorAll("form")) {
      form.addEventListener("submit", (event) => event.preventDefault());
      form.addEventListener("input", () => { answer(data); need(data); toAddress(); });
    }
    widget.dataset.ready = "true";
  });
})();
