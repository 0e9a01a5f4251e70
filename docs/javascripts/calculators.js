// The site's calculators: look up answers that rulesref computed at build time.
//
// No rule is implemented here. calculators.json holds, for every valid input, the
// exact fraction computed by the Python package (rulesref.tables.calculator_data);
// this script reads the inputs (from the form or the page address), checks them
// against the ranges in that file, and shows the stored answer. Inputs are kept in the address so a link reproduces a view.
"use strict";

(() => {
  const calculators = document.querySelectorAll(".rr-calculator");
  if (!calculators.length) return;

  const percent = (numerator, denominator) =>
    `${((100 * numerator) / denominator).toFixed(1)}%`;

  function parseFraction(text) {
    const [numerator, denominator = "1"] = text.split("/");
    return [Number(numerator), Number(denominator)];
  }

  function complement([numerator, denominator]) {
    return denominator === 1 && numerator <= 1
      ? `${1 - numerator}`
      : `${denominator - numerator}/${denominator}`;
  }

  // Read one calculator's inputs; an invalid one gives an error message, never a value.
  function readInputs(form, data) {
    const values = {};
    for (const [name, [low, high]] of Object.entries(data.inputs)) {
      let text = form.elements[name].value.trim();
      if (name === "target") text = text.replace(/^([0-9]+)\+$/, "$1"); // a d6 Leadership: "4+"
      const value = /^[0-9]{1,4}$/.test(text) ? Number(text) : NaN;
      if (!(value >= low && value <= high)) {
        const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
        return { error: `${name} must be a whole number from ${low} to ${high}, got "${shown}"` };
      }
      values[name] = value;
    }
    values.flags = data.options.reduce(
      (flags, option) => 2 * flags + (form.elements[option].checked ? 1 : 0), 0);
    return values;
  }

  function show(calculator, data) {
    const form = calculator.querySelector("form");
    const result = calculator.querySelector(".rr-result");
    const error = calculator.querySelector(".rr-error");
    const inputs = readInputs(form, data);
    if (inputs.error) {
      error.textContent = inputs.error;
      error.hidden = false;
      result.hidden = true;
      return;
    }
    let answers = data.answers;
    for (const [name, [low]] of Object.entries(data.inputs)) answers = answers[inputs[name] - low];
    const yes = answers[inputs.flags];
    const no = complement(parseFraction(yes));
    const [n, d] = parseFraction(yes);
    calculator.querySelector(".rr-fraction").textContent = yes;
    calculator.querySelector(".rr-percent").textContent = `(${percent(n, d)})`;
    calculator.querySelector(".rr-fraction-no").textContent = no;
    calculator.querySelector(".rr-percent-no").textContent = `(${percent(d - n, d)})`;
    calculator.querySelector(".rr-bar-yes").style.width = percent(n, d);
    calculator.querySelector(".rr-bar-no").style.width = percent(d - n, d);
    calculator.querySelector(".rr-bar").setAttribute(
      "aria-label", `${percent(n, d)} against ${percent(d - n, d)}`);
    error.hidden = true;
    result.hidden = false;
  }

  // Address <-> form: "?break.leadership=7&break.steadfast=1"; only values that
  // differ from the page's defaults are written.
  function fromAddress(calculator, params) {
    for (const element of calculator.querySelector("form").elements) {
      const key = `${calculator.id}.${element.name}`;
      if (!params.has(key)) continue;
      const value = params.get(key);
      if (element.type === "checkbox") {
        if (value !== "0" && value !== "1") {
          element.dataset.invalid = value;
        }
        element.checked = value === "1";
      } else {
        element.value = value;
      }
    }
  }

  function toAddress() {
    const params = new URLSearchParams(location.search);
    for (const calculator of calculators) {
      for (const element of calculator.querySelector("form").elements) {
        const key = `${calculator.id}.${element.name}`;
        const value = element.type === "checkbox"
          ? (element.checked ? "1" : "0")
          : element.value.trim();
        const initial = element.type === "checkbox"
          ? (element.defaultChecked ? "1" : "0")
          : element.defaultValue;
        if (value === initial) params.delete(key);
        else params.set(key, value);
      }
    }
    const query = params.toString();
    history.replaceState(null, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
  }

  function checkboxError(calculator) {
    for (const element of calculator.querySelector("form").elements) {
      if (element.dataset.invalid !== undefined) {
        return `${element.name} must be 0 or 1, got "${element.dataset.invalid.slice(0, 40)}"`;
      }
    }
    return null;
  }

  async function start() {
    const source = new URL(calculators[0].dataset.source, location.href);
    const data = await (await fetch(source)).json();
    const params = new URLSearchParams(location.search);
    for (const calculator of calculators) {
      const own = data[calculator.id];
      fromAddress(calculator, params);
      const invalid = checkboxError(calculator);
      if (invalid) {
        const error = calculator.querySelector(".rr-error");
        error.textContent = invalid;
        error.hidden = false;
        calculator.querySelector(".rr-result").hidden = true;
      } else {
        show(calculator, own);
      }
      const form = calculator.querySelector("form");
      form.addEventListener("submit", (event) => event.preventDefault());
      form.addEventListener("input", () => {
        for (const element of form.elements) delete element.dataset.invalid;
        show(calculator, own);
        toAddress();
      });
      calculator.dataset.ready = "true";
    }
  }

  start();
})();
