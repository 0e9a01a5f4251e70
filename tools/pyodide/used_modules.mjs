// node tools/pyodide/used_modules.mjs RUNTIME STDLIB QUESTIONS: in Pyodide under Node, as the
// Workbench's Worker starts (its runtime, our wheel from RUNTIME's lock, the standard library
// STDLIB, fractions), answer each question of the JSON list QUESTIONS with
// rulesref.workbench.answer_text; print the modules then imported and the answers, as JSON.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, stdlib, questions] = process.argv.slice(2);
const base = resolve(runtime) + "/";
const { loadPyodide } = await import(pathToFileURL(base + "pyodide.mjs").href);
const pyodide = await loadPyodide({
  indexURL: base, packageBaseUrl: base, lockFileURL: base + "pyodide-lock.json",
  stdLibURL: resolve(stdlib), env: { RULESREF_FRACTIONS: "1" },
});
await pyodide.loadPackage("rulesref", { messageCallback: () => {} });
const ask = pyodide.pyimport("rulesref.workbench").answer_text;
const answers = JSON.parse(readFileSync(questions, "utf8")).map((question) => ask(question));
const modules = pyodide.runPython("import sys; sorted(sys.modules)").toJs();
console.log(JSON.stringify({ modules, answers }));
