// node tools/pyodide/compile.mjs RUNTIME STDLIB SOURCES OUT: in Pyodide under Node (its
// runtime in RUNTIME, its standard library STDLIB), compile each module of the JSON object
// SOURCES ({path in the wheel: base64 of its source}) as Pyodide's own Python would on
// import, and write OUT ({path of its bytecode in the wheel: base64}). The bytecode is
// "checked" (PEP 552): on import Python compares it with its source's hash and compiles
// the source again if they differ, so bytecode that lags its source is never run.
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

// A failure is said on one line, its last (for Python's, the exception), and exits 1.
process.on("uncaughtException", (error) => {
  console.error(String(error?.message ?? error).trim().split("\n").at(-1));
  process.exit(1);
});
const [runtime, stdlib, sources, out] = process.argv.slice(2);
const base = resolve(runtime) + "/";
const { loadPyodide } = await import(pathToFileURL(base + "pyodide.mjs").href);
const pyodide = await loadPyodide({
  indexURL: base, lockFileURL: base + "pyodide-lock.json", stdLibURL: resolve(stdlib),
});
pyodide.globals.set("sources", readFileSync(sources, "utf8"));
const compiled = pyodide.runPython(`
import base64, importlib.util, json
from importlib._bootstrap_external import _code_to_hash_pyc

def bytecode(path, source):
    code = compile(source, path, "exec", dont_inherit=True)
    return _code_to_hash_pyc(code, importlib.util.source_hash(source), True)

json.dumps({
    importlib.util.cache_from_source(path): base64.b64encode(bytecode(path, source)).decode()
    for path, source in ((path, base64.b64decode(text)) for path, text in json.loads(sources).items())
})
`);
writeFileSync(out, compiled);
