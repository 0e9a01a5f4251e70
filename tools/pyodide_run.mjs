// Run a Python file in Pyodide under Node: node tools/pyodide_run.mjs RUNTIME SCRIPT [ARGS...]
// RUNTIME is a folder laid out by tools/fetch_pyodide.py; it is mounted at /runtime, and
// SCRIPT runs with sys.argv = [SCRIPT, ...ARGS]. Used at build time to byte-compile the
// wheels with the very interpreter that will import them in the page.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, script, ...args] = process.argv.slice(2);
const base = resolve(runtime) + "/";
const { loadPyodide } = await import(pathToFileURL(base + "pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: base, packageBaseUrl: base });
pyodide.mountNodeFS("/runtime", base);
pyodide.globals.set("argv", [script, ...args]);
pyodide.runPython("import sys; sys.argv = list(argv); del argv");
await pyodide.runPythonAsync(readFileSync(script, "utf8"), { filename: script });
