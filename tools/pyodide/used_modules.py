"""Which modules of Pyodide's standard library the Workbench imports: writes
tools/pyodide/stdlib-modules.txt (the list `tools/fetch_pyodide.py` trims the page's zip to).

    python tools/pyodide/used_modules.py [--check]

Runs Pyodide under Node (`used_modules.mjs`, the only use of Node: once per Pyodide bump)
with the whole pinned standard library, starting as the page's Worker does, and answers
the Workbench's test questions (every force, battle and bad field of tests/test_workbench.py,
every description tests/test_browser_workbench.py marks as unanswerable, and hostile text);
the modules then imported, that the zip holds, are the list. `--check` answers the same
questions again with the trimmed zip and fails unless every answer is the same.
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests")]

import fetch_pyodide as fetch  # noqa: E402

# hostile text the page may send: refused by rulesref.inputs, each by its own path
HOSTILE = ["", "{", "[" * 3000, '{"force": 1e309}', '{"force": NaN}', '{"a": 1, "a": 2}',
           '{"force": {"name": "\\u200b"}}', '{"force": ' + "9" * 5000 + "}"]  # fmt: skip


# imported inside Python's own integers (and `decimal` by it), not by an import of
# rulesref's: to divide, or write in decimal, numbers longer than the test questions
# reach, as a large force's fractions may
ALWAYS = {"_pylong", "decimal"}


def questions() -> list[str]:
    import test_browser_workbench as page
    import test_workbench as cases

    asked = [{"force": force} for force in cases.FORCES.values()]
    asked += [{"battle": battle} for battle in cases.BATTLES.values()]
    asked += [{"force": cases.changed(cases.B_COMPANY, path, value)}
              for path, value, _ in cases.BAD_FORCE_FIELDS]  # fmt: skip
    battle = cases.BATTLES["5 against 4, fortified, damaged and FUBAR, out of supply"]
    asked += [{"battle": cases.changed(battle, path, value)}
              for path, value, _ in cases.BAD_BATTLE_FIELDS]  # fmt: skip
    asked += [{tab: data} for tab, data, *_ in page.UNANSWERABLE.values()]
    return [json.dumps(question) for question in asked] + HOSTILE


def run(stdlib: Path, runtime: Path, asked: Path) -> dict:
    script = Path(__file__).with_suffix(".mjs")
    out = subprocess.run(["node", script, runtime, stdlib, asked], capture_output=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the trimmed zip")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        runtime, asked = Path(tmp, "runtime"), Path(tmp, "questions.json")
        entry = fetch.third_party()
        runtime.mkdir()
        for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm"):
            (runtime / name).symlink_to(entry / name)
        info = json.loads((entry / fetch.LOCK).read_text())["info"]
        wheel = fetch.rulesref_wheel(runtime, lambda sources: {})  # source: the same imports
        fetch.lock(info, wheel, fetch.STDLIB.read_bytes())
        asked.write_text(json.dumps(questions()))
        whole = run(fetch.STDLIB, runtime, asked)
        if args.check:
            trimmed = Path(tmp, fetch.STDLIB.name)
            trimmed.write_bytes(fetch.page_stdlib())
            same = run(trimmed, runtime, asked)["answers"] == whole["answers"]
            print(f"{len(whole['answers'])} answers, the same with the trimmed zip: {same}")
            sys.exit(0 if same else 1)
    import zipfile

    held = {fetch.module_of(name) for name in zipfile.ZipFile(fetch.STDLIB).namelist()}
    used = sorted((set(whole["modules"]) | ALWAYS) & held)
    header = f"# written by tools/pyodide/used_modules.py: {len(used)} modules\n"
    fetch.STDLIB_MODULES.write_text(header + "\n".join(used) + "\n")
    print(f"{len(used)} modules, of {len(held)} files and folders, in {fetch.STDLIB_MODULES}")


if __name__ == "__main__":
    main()
