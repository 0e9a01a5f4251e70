"""What the site's hooks compute, called as plain functions without a build (the hooks
only wire them in), and what they promise of the built site: light notebook pages, a
compressed twin beside every text file, served compressed."""

import gzip
import hashlib
import html as html_module
import importlib.util
import json
import os
import re
import sys
import urllib.request
from pathlib import Path

import brotli
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT / "tools"))
sys.path.append(str(ROOT / "docs" / "hooks"))

import compress  # noqa: E402
import serve_site  # noqa: E402
from notebook_css import pruned, split_styles, used_classes  # noqa: E402

from rulesref.clauses import Document  # noqa: E402

# the promises of issue 22 for the pages that hold a table of odds or the rules
MAX_GZIPPED_HTML = 40_000
MAX_ELEMENTS = 1_500  # elements (tags) of a page's HTML
ODDS_PAGES = ["odds/break-test", "odds/leadership-test", "odds/campaign-battles"]


def _hook(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / f"docs/hooks/{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_styles_leave_the_page_and_the_cascade_keeps_its_place():
    html = "<h1>t</h1><style>.a{x:1}</style><p class='a'>x</p>\n<style>.b{y:2}</style>"
    page, blocks = split_styles(html)
    assert blocks == [".a{x:1}", ".b{y:2}"]
    assert page == "<h1>t</h1><!--notebook.css--><p class='a'>x</p>\n"
    assert split_styles("<p>no style</p>") == ("<p>no style</p>", [])


def test_only_rules_a_page_can_match_and_variables_they_read_are_kept():
    css = (
        ".w{--used:1px;--unused:2px;--chain:var(--deep);--deep:3px}"
        ".w .a{margin:var(--used)}.w .b{padding:var(--chain)}.w .gone{color:red}"
        ".w :root{--never:1}.x:not(.absent){color:blue}"
        "@media (max-width:10px){.gone{a:b}.w{c:d}}"
    )
    kept = pruned(css, {"w", "a", "b", "x"})
    assert ".gone" not in kept and ":root" not in kept and "--unused" not in kept
    assert "--used:1px" in kept and "--chain:var(--deep)" in kept and "--deep:3px" in kept
    assert ".x:not(.absent)" in kept and "@media (max-width:10px){.w{c:d}}" in kept
    assert used_classes('<p class="a b"><i class="c"></i></p>') == {"a", "b", "c"}


def test_twins_are_written_when_they_save_bytes_and_kept_by_content(tmp_path):
    site, cache = tmp_path / "site", tmp_path / "cache"
    site.mkdir()
    (site / "page.html").write_text("<p>a table of odds</p>\n" * 200)
    (site / "tiny.css").write_text("a{}")  # compression would not save 5%
    (site / "picture.png").write_bytes(b"\x89PNG" * 500)  # not a text file
    assert compress.compress_site(site, cache) == 2
    html = (site / "page.html").read_bytes()
    assert gzip.decompress((site / "page.html.gz").read_bytes()) == html
    assert brotli.decompress((site / "page.html.br").read_bytes()) == html
    assert sorted(path.name for path in site.iterdir()) == [
        "page.html", "page.html.br", "page.html.gz", "picture.png", "tiny.css"
    ]  # fmt: skip
    assert len(list(cache.iterdir())) == 4  # each encoding of each text file, by its sha256
    assert compress.compress_site(site, cache) == 0  # twins in place: nothing to do


def test_the_static_server_sends_the_twin_the_browser_accepts(tmp_path):
    (tmp_path / "index.html").write_text("<p>odds</p>\n" * 300)
    compress.compress_site(tmp_path)
    with serve_site.serving(tmp_path) as url:
        for accepted, encoding, decode in [
            ("gzip, deflate, br", "br", brotli.decompress),
            ("gzip", "gzip", gzip.decompress),
            ("", None, bytes),
        ]:
            request = urllib.request.Request(url + "/", headers={"Accept-Encoding": accepted})
            with urllib.request.urlopen(request) as response:
                assert response.headers["Content-Encoding"] == encoding
                assert response.headers["Content-Type"].startswith("text/html")
                assert decode(response.read()) == (tmp_path / "index.html").read_bytes()


def test_the_static_server_lets_the_browser_keep_a_twin(tmp_path):
    """A twin carries validators, and a copy the browser holds is confirmed without its
    body (Chromium keeps compiled WebAssembly only for a response its cache holds)."""
    (tmp_path / "index.html").write_text("<p>odds</p>\n" * 300)
    compress.compress_site(tmp_path)
    with serve_site.serving(tmp_path) as url:
        request = urllib.request.Request(url + "/", headers={"Accept-Encoding": "br"})
        with urllib.request.urlopen(request) as response:
            tag = response.headers["ETag"]
            assert response.headers["Cache-Control"] == "no-cache"
            assert response.headers["Last-Modified"] and tag.endswith('-br"')
        request.add_header("If-None-Match", tag)
        with pytest.raises(urllib.error.HTTPError) as unchanged:  # urllib's word for a 304
            urllib.request.urlopen(request)
        assert unchanged.value.code == 304 and not unchanged.value.read()
        since = urllib.request.Request(url + "/", headers={"Accept-Encoding": "br"})
        since.add_header("If-Modified-Since", response.headers["Last-Modified"])
        with pytest.raises(urllib.error.HTTPError) as unchanged:  # as Chromium asks
            urllib.request.urlopen(since)
        assert unchanged.value.code == 304
        (tmp_path / "index.html.br").write_bytes(brotli.compress(b"<p>new odds</p>"))
        os.utime(tmp_path / "index.html.br", (2e9, 2e9))  # a new build, later
        for asked in (request, since):
            with urllib.request.urlopen(asked) as response:  # the new body
                assert brotli.decompress(response.read()) == b"<p>new odds</p>"


@pytest.mark.parametrize("error", [BrokenPipeError, ConnectionResetError, ValueError])
def test_the_static_server_reports_only_its_own_errors(error, capsys):
    """A browser that drops a connection mid-answer prints nothing; any other error is
    reported as the standard library reports it."""
    server = serve_site.Server(("127.0.0.1", 0), serve_site.Handler)
    try:
        try:
            raise error("while answering")
        except error:
            server.handle_error(None, ("127.0.0.1", 1))
    finally:
        server.server_close()
    said = capsys.readouterr().err
    assert ("while answering" in said) == (error is ValueError), said


def test_the_development_server_gzips_on_the_fly():
    page = b"<p>odds</p>\n" * 300

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/html"), ("Content-Length", "3600")])
        return [page]

    wrapped = serve_site.compressing(app)
    sent = {}
    body = wrapped({"HTTP_ACCEPT_ENCODING": "gzip"}, lambda s, h: sent.update(h=dict(h)))
    assert gzip.decompress(b"".join(body)) == page
    assert sent["h"]["Content-Encoding"] == "gzip"
    assert sent["h"]["Content-Length"] == str(len(b"".join(body)))
    assert b"".join(wrapped({}, lambda s, h: None)) == page  # a client without gzip


def test_the_calculators_data_comes_from_the_cache_of_this_source(tmp_path):
    """A file named for the package's source and the hook is read, not computed again."""
    downloads, notebook_cache = _hook("downloads"), _hook("notebook_cache")
    own = hashlib.sha256((ROOT / "docs/hooks/downloads.py").read_bytes()).hexdigest()[:8]
    kept = [["data/x.json", '{"a": 1}']]
    (tmp_path / f"{notebook_cache.package_hash()}-{own}.json").write_text(json.dumps(kept))
    assert downloads.generated.__wrapped__(tmp_path) == (("data/x.json", '{"a": 1}'),)


@pytest.mark.parametrize("page", ODDS_PAGES)
def test_odds_pages_are_light(site, page):
    html = (site / page / "index.html").read_text()
    gzipped = len(gzip.compress(html.encode(), 9))
    assert gzipped < MAX_GZIPPED_HTML, f"{page}: {gzipped} bytes gzipped"
    assert len(re.findall(r"<[a-zA-Z]", html)) < MAX_ELEMENTS
    assert "<style" not in html
    assert html.count("stylesheets/notebook.css") == 1


def test_the_notebook_stylesheet_is_one_small_file(site):
    css = (site / "stylesheets/notebook.css").read_text()
    assert 0 < len(css) < 30_000
    assert ".jp-Cell" in css


def test_every_text_file_of_the_site_has_its_twins(site):
    missing = [
        path.relative_to(site).as_posix()
        for path in site.rglob("*")
        if path.suffix in (".html", ".css", ".js", ".json", ".wasm", ".mjs")
        and path.stat().st_size > 2_000
        and not path.with_name(path.name + ".gz").exists()
    ]
    assert not missing, missing
    wasm = site / "workbench/pyodide/pyodide.asm.wasm"
    assert brotli.decompress((wasm.parent / (wasm.name + ".br")).read_bytes()) == wasm.read_bytes()
    lock = site / "workbench/pyodide/pyodide-lock.json"  # ours, not the npm package's
    assert gzip.decompress((lock.parent / (lock.name + ".gz")).read_bytes()) == lock.read_bytes()


def test_the_pruned_notebook_styles_are_read_back_while_their_inputs_stay(tmp_path):
    notebook_css = _hook("notebook_css")
    css, classes = ".a{x:1}.gone{y:2}", {"a"}
    first = notebook_css.pruned_through(tmp_path, css, classes)
    assert first == pruned(css, classes) and ".gone" not in first
    (kept,) = tmp_path.glob("*.css")
    kept.write_text(".a{x:9}")  # read back, not pruned again
    assert notebook_css.pruned_through(tmp_path, css, classes) == ".a{x:9}"
    assert notebook_css.pruned_through(tmp_path, css, {"a", "gone"}) == css
    assert not kept.exists()  # the styles of other inputs go


class _Handler:
    """What the API cache uses of mkdocstrings' Python handler: its gathered headings."""

    def __init__(self):
        self._headings = []


class _Block:
    path, members = "rulesref.dice", {}


def test_an_api_block_is_rendered_once_for_the_same_inputs(tmp_path, monkeypatch):
    """The second rendering comes from the cache, with the headings the first announced;
    other options or another block are rendered afresh."""
    api_cache = _hook("api_cache")
    rendered = []

    def uncached(handler, data, options, locale=None):
        rendered.append((data.path, options))
        heading = api_cache.Element("h2", {"id": data.path, "data-role": "module"})
        heading.text = f"<code>{data.path}</code>"
        handler._headings.append(heading)
        return f"<div>{data.path} {options}</div>"

    monkeypatch.setattr(api_cache, "UNCACHED", uncached)
    monkeypatch.setitem(api_cache._state, "folder", tmp_path)
    first, again = _Handler(), _Handler()
    html = api_cache.render(first, _Block(), "options")
    assert (
        api_cache.render(again, _Block(), "options") == html == "<div>rulesref.dice options</div>"
    )
    assert rendered == [("rulesref.dice", "options")]
    (kept,) = again._headings
    assert (kept.tag, kept.attrib, kept.text) == (
        "h2",
        {"id": "rulesref.dice", "data-role": "module"},
        "<code>rulesref.dice</code>",
    )
    api_cache.render(_Handler(), _Block(), "other options")
    assert len(rendered) == 2 and len(list(tmp_path.glob("*.json"))) == 2


def test_the_api_cache_follows_the_package_and_the_settings(tmp_path):
    api_cache = _hook("api_cache")
    (tmp_path / "docs/includes").mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text("site_name: a")
    before = api_cache.inputs_hash(tmp_path)
    assert api_cache.inputs_hash(tmp_path) == before
    (tmp_path / "docs/includes/abbreviations.md").write_text("*[LD]: Leadership")
    assert api_cache.inputs_hash(tmp_path) != before


CLAUSE_CODE_PAGE = """# Break tests

??? example "Worked example in Python"

    ```python
    from rulesref.break_test import break_test_probability
    ```

## Insane Courage

### BR-5 · A double 1 always holds {#br-5}

If the two dice both show 1, the unit holds.

??? example "Worked example in Python"

    ```python
    from rulesref.break_test import (
        Unit,
        break_test_probability,
        is_insane_courage,
    )

    print(is_insane_courage((1, 1)))
    #> True
    ```

```python exec="on" html="1"
# a comment, no heading
```

??? example "Worked example in Python"

    ```python
    from rulesref.break_test import break_test_probability
    ```
"""


def test_worked_examples_are_found_under_their_section_and_leave_a_link():
    clause_code = _hook("clause_code")
    examples = clause_code.worked_examples(Document.BR, CLAUSE_CODE_PAGE)
    assert [(e.anchor, e.section, e.title) for e in examples] == [
        ("example-top", "", Document.BR.title),
        ("example-br-5", "br-5", "BR-5"),
        ("example-br-5-2", "br-5", "BR-5"),
    ]
    assert examples[1].imports == (
        "rulesref.break_test.Unit",
        "rulesref.break_test.break_test_probability",
        "rulesref.break_test.is_insane_courage",
    )
    assert examples[1].code.startswith("```python\nfrom rulesref") and "#> True" in examples[1].code
    # under the function its rule is bound to, else the first function it uses
    homes = [clause_code.example_home(e, clause_code.PLACES).name for e in examples]
    assert homes == [
        "rulesref.break_test.break_test_probability",
        "rulesref.break_test.is_insane_courage",
        "rulesref.break_test.break_test_probability",
    ]
    page = clause_code.without_examples(CLAUSE_CODE_PAGE, "rules/break-test.md", clause_code.PLACES)
    assert "??? example" not in page and "from rulesref" not in page
    assert page.count("worked example in Python</a></p>\n\n") == 3
    assert 'href="../../code/break-test/#example-br-5-2"' in page
    assert "If the two dice both show 1, the unit holds." in page
    assert '```python exec="on" html="1"' in page


RULES_PAGES = ["rules/break-test", "rules/leadership", "rules/campaign", "rules/army-standard"]


def test_the_army_standards_every_round_page_is_light(site):
    """The complete decision table, on a page of its own: 171 rows in few elements each."""
    html = (site / "army-standard-rounds/index.html").read_text()
    assert len(gzip.compress(html.encode(), 9)) < MAX_GZIPPED_HTML
    assert len(re.findall(r"<[a-zA-Z]", html)) < MAX_ELEMENTS
    assert html.count("<tr><td>") == 171


@pytest.mark.parametrize("page", RULES_PAGES)
def test_rules_pages_are_light_and_their_examples_are_on_the_code_pages(site, page):
    html = (site / page / "index.html").read_text()
    assert len(gzip.compress(html.encode(), 9)) < MAX_GZIPPED_HTML
    assert len(re.findall(r"<[a-zA-Z]", html)) < MAX_ELEMENTS
    assert '<details data-search-exclude class="example">' not in html
    clause_code = _hook("clause_code")
    document = next(d for d in Document if d.page == f"{page}.md")
    examples = clause_code.worked_examples(document, (ROOT / "docs" / f"{page}.md").read_text())
    links = re.findall(r'<a href="\.\./\.\./(code/[\w-]+)/#(example-[\w-]+)">worked example', html)
    assert [anchor for _, anchor in links] == [example.anchor for example in examples]
    for (code_page, anchor), example in zip(links, examples, strict=True):
        shown = (site / code_page / "index.html").read_text()
        start = shown.index(f'id="{anchor}"')
        block = shown[start : shown.index("</code></pre>", start)]
        text = html_module.unescape(re.sub(r"<[^>]+>", "", block))
        assert example.code.removeprefix("```python\n").removesuffix("```\n").strip() in text


def test_templates_are_compiled_once_and_again_when_edited(tmp_path, monkeypatch):
    """The theme's templates are kept compiled between builds: a new environment (every
    build makes one) loads them from the cache; an edited template is compiled again."""
    from jinja2 import DictLoader, Environment

    templates = {"page.html": "<p>{{ text }}</p>"}
    compiled = []

    def environment() -> Environment:
        env = _hook("templates").kept_templates(Environment(loader=DictLoader(templates)), tmp_path)
        compile_ = env.compile
        monkeypatch.setattr(env, "compile", lambda *a, **k: compiled.append(1) or compile_(*a, **k))
        return env

    assert environment().get_template("page.html").render(text="a") == "<p>a</p>"
    assert (len(compiled), len(list(tmp_path.iterdir()))) == (1, 1)
    assert environment().get_template("page.html").render(text="b") == "<p>b</p>"
    assert len(compiled) == 1  # read back, not compiled
    templates["page.html"] = "<div>{{ text }}</div>"
    assert environment().get_template("page.html").render(text="c") == "<div>c</div>"
    assert len(compiled) == 2


def test_kept_values_are_read_back_and_only_those_a_build_used_stay(tmp_path):
    kept = _hook("kept")
    path, made = tmp_path / "values.json", []

    def make(value):
        return lambda: made.append(value) or value

    first = kept.Kept.read(path)
    assert (first.get("a", make(1)), first.get("b", make([2])), first.get("a", make(3))) == (
        1,
        [2],
        1,
    )
    assert first.write() and made == [1, [2]]
    again = kept.Kept.read(path)
    assert again.get("a", make(9)) == 1 and made == [1, [2]]  # read back, not made
    assert again.write()  # "b" was not used: it goes
    last = kept.Kept.read(path)
    assert last.before == {"a": 1} and last.get("a", make(9)) == 1 and not last.write()
    path.write_text("{not JSON")
    assert kept.Kept.read(path).before == {}
    assert kept.key("a", 1) == kept.key("a", 1) != kept.key("a", 2) != kept.key(("a", 2))


def test_a_code_block_is_highlighted_again_only_when_it_or_a_setting_changes(tmp_path, monkeypatch):
    from pymdownx.highlight import Highlight

    cache = _hook("rendering_cache")
    original, highlighted = cache.UNHIGHLIGHTED, []
    monkeypatch.setattr(
        cache,
        "UNHIGHLIGHTED",
        lambda *args, **kwargs: highlighted.append(1) or original(*args, **kwargs),
    )
    monkeypatch.setitem(cache._state, "highlight", cache.Kept.read(tmp_path / "highlight.json"))
    html = cache.highlight(Highlight(None), "x = 1\n", "python")
    assert html == original(Highlight(None), "x = 1\n", "python") and '<span class="n">x' in html
    assert cache.highlight(Highlight(None), "x = 1\n", "python") == html
    assert len(highlighted) == 1  # kept
    changed = [
        cache.highlight(Highlight(None), "x = 2\n", "python"),  # the block
        cache.highlight(Highlight(None), "x = 1\n", "text"),  # its language
        cache.highlight(Highlight(None), "x = 1\n", "python", hl_lines=[1]),  # an argument
        cache.highlight(Highlight(None, linenums=True), "x = 1\n", "python"),  # a setting
    ]
    assert html not in changed and len(set(changed)) == 4 and len(highlighted) == 5
    html_title = Highlight(None, title_mode="html")  # its title goes through Markdown's stash
    cache.highlight(html_title, "x = 1\n", "python")
    cache.highlight(html_title, "x = 1\n", "python")
    assert len(highlighted) == 7


def _searched_page(**changed):
    from types import SimpleNamespace

    page = {
        "content": '<p>Who tests</p><h2 id="a">Break test</h2><p>Roll two dice</p>',
        "url": "rules/x/",
        "title": "Rules X",
        "meta": {},
        "toc": [],
    }
    return SimpleNamespace(**page | changed)


def test_a_pages_search_entries_are_made_again_only_when_the_page_changes(tmp_path, monkeypatch):
    from material.plugins.search.plugin import SearchIndex

    cache = _hook("rendering_cache")
    original, made = cache.UNSEARCHED, []
    monkeypatch.setattr(
        cache, "UNSEARCHED", lambda index, page: made.append(1) or original(index, page)
    )
    monkeypatch.setitem(cache._state, "search", cache.Kept.read(tmp_path / "search.json"))

    def entries(page):
        index = SearchIndex()
        cache.add_entry_from_context(index, page)
        return index.entries

    expected = SearchIndex()
    original(expected, _searched_page())
    first = entries(_searched_page())
    assert first == expected.entries and [e["title"] for e in first] == ["Rules X", "Break test"]
    assert entries(_searched_page()) == first and len(made) == 1  # kept
    changed = [
        _searched_page(content='<p>Who tests</p><h2 id="a">Break test</h2><p>Roll 3</p>'),
        _searched_page(url="rules/y/"),
        _searched_page(title="Rules Y"),
        _searched_page(meta={"search": {"boost": 3}}),
    ]
    assert all(entries(page) != first for page in changed) and len(made) == 5
    assert entries(_searched_page(meta={"search": {"exclude": True}})) == []
    index = SearchIndex(separator=r"[\s\-]+")  # the plugin's own settings (mkdocs.yml)
    cache.add_entry_from_context(index, _searched_page())
    assert len(made) == 7


def _rules_pages(tmp_path):
    """A copy of the rules pages, to be edited."""
    docs = tmp_path / "docs"
    for document in Document:
        (docs / document.page).parent.mkdir(parents=True, exist_ok=True)
        (docs / document.page).write_text((ROOT / "docs" / document.page).read_text())
    return docs


def test_a_code_page_is_made_again_only_when_a_rules_page_or_the_package_changes(
    tmp_path, monkeypatch
):
    clause_code = _hook("clause_code")
    docs = _rules_pages(tmp_path)
    monkeypatch.setattr(clause_code, "DOCS", docs)
    monkeypatch.setitem(clause_code._state, "kept", clause_code.Kept.read(tmp_path / "code.json"))
    places = clause_code.PLACES
    made = clause_code.code_markdown(Document.BR, places, clause_code.placed_examples(places))
    assert clause_code.kept_code_markdown(Document.BR) == made
    monkeypatch.setattr(clause_code, "code_markdown", lambda *args: "made again")
    assert clause_code.kept_code_markdown(Document.BR) == made  # kept
    assert clause_code.kept_code_markdown(Document.LD) == "made again"  # another page
    page = docs / Document.CA.page  # its worked examples may be shown on any Code page
    page.write_text(page.read_text() + "\nA new line.\n")
    assert clause_code.kept_code_markdown(Document.BR) == "made again"
    monkeypatch.setattr(clause_code, "code_markdown", lambda *args: "made a third time")
    monkeypatch.setattr(clause_code, "package", lambda: ("imported", "edited since"))
    assert clause_code.kept_code_markdown(Document.BR) == "made a third time"


def test_rules_json_is_made_again_only_when_a_rules_page_the_package_or_the_address_changes(
    tmp_path, monkeypatch
):
    rules_data = _hook("rules_data")
    docs = _rules_pages(tmp_path)
    monkeypatch.setitem(rules_data._state, "kept", rules_data.Kept.read(tmp_path / "rules.json"))
    made = rules_data.kept_rules_json(docs, "https://a/")
    assert made == rules_data.rules_json(docs, "https://a/") and made["site"] == "https://a/"
    monkeypatch.setattr(rules_data, "rules_json", lambda docs_dir, site_url: {"site": site_url})
    assert rules_data.kept_rules_json(docs, "https://a/") == made  # kept
    assert rules_data.kept_rules_json(docs, "https://b/") == {"site": "https://b/"}
    page = docs / Document.ST.page
    page.write_text(page.read_text() + "\nA new line.\n")
    assert rules_data.kept_rules_json(docs, "https://a/") == {"site": "https://a/"}
    monkeypatch.setattr(rules_data, "package", lambda: ("imported", "edited since"))
    monkeypatch.setattr(rules_data, "rules_json", lambda docs_dir, site_url: {"third": 1})
    assert rules_data.kept_rules_json(docs, "https://a/") == {"third": 1}


class _Collecting:
    """What the API cache uses of mkdocstrings' Python handler to collect: griffe's
    modules and lines."""

    def __init__(self):
        self._modules_collection, self._lines_collection = {}, {}


def test_the_package_is_read_once_per_inputs_and_each_build_gets_a_fresh_copy(
    tmp_path, monkeypatch
):
    api_cache, read = _hook("api_cache"), []

    def uncollected(handler, identifier, options):
        package = identifier.split(".")[0]
        if package not in handler._modules_collection:
            read.append(package)
            handler._modules_collection[package] = {"aliases": []}
        return handler._modules_collection[package]

    monkeypatch.setattr(api_cache, "UNCOLLECTED", uncollected)
    monkeypatch.setitem(api_cache._state, "folder", tmp_path / "inputs")
    first = api_cache.collect(_Collecting(), "rulesref.dice", "options")
    first["aliases"].append("resolved by the first build")
    again = api_cache.collect(_Collecting(), "rulesref.dice", "options")
    assert again == {"aliases": []} and read == ["rulesref"]  # a copy as read, not read again
    api_cache.collect(_Collecting(), "rulesref.dice", {})  # a fallback is given no copy
    monkeypatch.setitem(api_cache._state, "folder", tmp_path / "other inputs")
    api_cache.collect(_Collecting(), "rulesref.dice", "options")
    assert read == ["rulesref"] * 3


def test_notebook_cells_are_no_tab_stops_and_other_stops_are_kept():
    without_cell_stops = _hook("notebook_focus").without_cell_stops
    page = (
        '<div class="jp-Cell-inputWrapper" tabindex="0"><h2>Odds</h2></div>'
        '<div class="jp-RenderedHTMLCommon jp-RenderedHTML jp-OutputArea-output" '
        'data-mime-type="text/html" tabindex="0"><table></table></div>'
        '<div class="md-search__scrollwrap" tabindex="0"></div>'
    )
    assert without_cell_stops(page) == (
        '<div class="jp-Cell-inputWrapper"><h2>Odds</h2></div>'
        '<div class="jp-RenderedHTMLCommon jp-RenderedHTML jp-OutputArea-output" '
        'data-mime-type="text/html"><table></table></div>'
        '<div class="md-search__scrollwrap" tabindex="0"></div>'
    )
