"""MkDocs hook: the theme's compiled templates, kept on disk between builds.

Each build (and each rebuild under `properdocs serve`) makes a new Jinja environment
and compiled Material's templates again: about a sixth of a rebuild's CPU. Jinja's own
bytecode cache keeps each compiled template in `.cache/jinja/`, under its name and a
checksum of its source, so an edited template is compiled again and nothing else.
"""

from pathlib import Path

from jinja2 import Environment, FileSystemBytecodeCache

CACHE = Path(__file__).resolve().parents[2] / ".cache" / "jinja"


def kept_templates(env: Environment, folder: Path = CACHE) -> Environment:
    """`env`, its compiled templates kept in `folder` (made if missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    env.bytecode_cache = FileSystemBytecodeCache(str(folder))
    return env


def on_env(env: Environment, config, files) -> Environment:  # noqa: ARG001 (MkDocs's signature)
    return kept_templates(env)
