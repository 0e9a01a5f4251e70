"""The rules and tables as data (rules.json, odds/*.json, llms.txt): valid against their
committed JSON Schemas, every registry id once, every number the Python API's."""

import importlib.util
import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml
from sympy import Rational

from rulesref.break_test import break_test_probability, reform_test_probability
from rulesref.clauses import CLAUSES, clause
from rulesref.data import readings
from rulesref.leadership import leadership_test_probability
from rulesref.tables import MEASURES, campaign_tables, downloads

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "docs/schemas"
SITE_URL = "https://rulesref.example.org/"


def _hook():
    spec = importlib.util.spec_from_file_location("rules_data", ROOT / "docs/hooks/rules_data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


rules_data = _hook()


def _validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((SCHEMAS / name).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


@pytest.fixture(scope="module")
def rules():
    return rules_data.rules_json(ROOT / "docs", SITE_URL)


def test_rules_json_is_valid_and_holds_every_id_once(rules):
    _validator("rules.schema.json").validate(rules)
    ids = [rule["id"] for rule in rules["rules"]]
    assert ids == list(CLAUSES)  # each once, in the registry's order


def test_each_rule_is_the_registrys(rules):
    for rule in rules["rules"]:
        registered = CLAUSES[rule["id"]]
        assert rule["title"] == registered.title
        assert rule["code"] == list(registered.code)
        assert rule["document"]["title"] == registered.document.title
        assert rule["address"] == registered.page.replace(".md#", "/#")
        assert rule["short_address"] == f"r/{registered.anchor}/"
        assert rule["kind"] == ("clarification" if registered.clarification else "clause")
        assert rule["readings"] == readings(rule["id"])


def test_our_words_are_the_prose_of_the_section_without_code_or_examples(rules):
    by_id = {rule["id"]: rule for rule in rules["rules"]}
    br3 = by_id["BR-3"]
    assert br3["text"].startswith("The loser rolls two dice and adds them.")
    assert "High Elves" in br3["text"]  # the document's example, restated
    assert "import" not in br3["text"] and "Try it" not in br3["text"]
    assert br3["quick_answer"] == clause("BR-3").quick
    # a link within the page becomes a full address of the site
    assert f'href="{SITE_URL}rules/break-test/#br-c5"' in by_id["BR-1"]["html"]
    assert "<code>" not in by_id["BR-5"]["html"] or "import" not in by_id["BR-5"]["html"]
    for rule in rules["rules"]:
        assert "```" not in rule["text"] and "???" not in rule["text"], rule["id"]
        assert rule["quick_answer"] == clause(rule["id"]).quick, rule["id"]
        assert not re.search(r'href="(?!https://)', rule["html"]), rule["id"]


def test_the_clarifications_with_two_readings_name_their_fields(rules):
    governed = {rule["id"]: rule["readings"] for rule in rules["rules"] if rule["readings"]}
    assert set(governed) == {
        "BR-C1",
        "BR-C2",
        "BR-C8",
        "BR-C9",
        "LD-C5",
        "CA-C2",
        "CA-C4",
        "CA-C10",
        "CA-C11",
        "CA-C18",
        "ST-C1",
    }
    (floor,) = governed["BR-C2"]
    assert (floor["field"], floor["default"]) == ("floor_per_unit", False)


def _cells(table: dict) -> dict:
    return {
        (row, column): Rational(cell["numerator"], cell["denominator"])
        for row, cells in zip(table["rows"]["values"], table["cells"], strict=True)
        for column, cell in zip(table["columns"]["values"], cells, strict=True)
    }


GRIDS = {
    "break-test": lambda ld, by: break_test_probability(ld, by),
    "break-test-no-insane-courage": lambda ld, by: break_test_probability(
        ld, by, insane_courage=False
    ),
    "break-test-reroll": lambda ld, by: break_test_probability(ld, by, reroll=True),
    "reform-test": reform_test_probability,
    "leadership-test": lambda target, n: leadership_test_probability(target, rerolls=n),
}


def test_every_table_is_valid_and_each_number_is_the_python_apis():
    tables = rules_data.odds_json(SITE_URL)
    validator = _validator("odds.schema.json")
    assert {name.removesuffix(".json") for name in tables} == {
        name.removesuffix(".csv") for name in downloads()
    }
    campaign = {table.name: table for table in campaign_tables().values()}
    for name, table in tables.items():
        validator.validate(table)
        cells = _cells(table)
        if table["name"] in GRIDS:
            probability = GRIDS[table["name"]]
            assert all(p == probability(row, column) for (row, column), p in cells.items())
            assert len(cells) == len(table["rows"]["values"]) * len(table["columns"]["values"])
        else:
            python = campaign[table["name"]]
            assert table["columns"]["values"] == list(MEASURES)
            for row, values in zip(python.rows, python.cells, strict=True):
                assert [cells[row, m] for m in MEASURES] == list(values), (name, row)
        # the CSV download holds the same exact numbers
        lines = downloads()[table["csv"].rsplit("/", 1)[1]].splitlines()[1:]
        exact = [tuple(line.rsplit(",", 2)[1:]) for line in lines]
        assert exact == [(str(p.numerator), str(p.denominator)) for p in cells.values()], name


def test_llms_txt_is_the_sites_map(rules):
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]
    text = rules_data.llms_txt(rules, rules_data.odds_json(SITE_URL), nav)
    _check_llms_txt(text, rules)


def _check_llms_txt(text: str, rules: dict) -> None:
    """The llms.txt format: one H1, a blockquote summary, then H2 sections of link lists."""
    lines = text.splitlines()
    assert lines[0] == "# rulesref" and lines[2].startswith("> ")
    assert sum(line.startswith("# ") for line in lines) == 1
    sections = [line[3:] for line in lines if line.startswith("## ")]
    assert {"Rules", "Data", "Odds", "For programmers"} <= set(sections)
    link = re.compile(r"^- \[[^\]]+\]\((https://[^)\s]+)\)(: .+)?$")
    items = [line for line in lines if line.startswith("- ")]
    assert all(link.match(line) for line in items), [i for i in items if not link.match(i)]
    for rule in rules["rules"]:
        assert f"- [{rule['id']} · {rule['title']}]({SITE_URL}{rule['address']})" in text


def test_the_built_site_publishes_the_same_files(site, rules):
    built = json.loads((site / "rules.json").read_text())
    assert built == rules
    _validator("rules.schema.json").validate(built)
    validator = _validator("odds.schema.json")
    for name, table in rules_data.odds_json(SITE_URL).items():
        published = json.loads((site / "odds" / name).read_text())
        validator.validate(published)
        assert published == table
        assert (site / "downloads" / f"{table['name']}.csv").exists()  # beside its CSV
    _check_llms_txt((site / "llms.txt").read_text(), rules)
    for schema in ("rules.schema.json", "odds.schema.json"):
        assert (site / "schemas" / schema).read_text() == (SCHEMAS / schema).read_text()


def test_each_quick_answer_is_a_line_of_its_own(rules):
    """A player's question answered in one line: never the title again, never the first
    sentence of the rule's words, never another rule's line."""
    answers = [rule["quick_answer"] for rule in rules["rules"]]
    assert len(set(answers)) == len(answers) == len(CLAUSES)
    for rule in rules["rules"]:
        quick = rule["quick_answer"]
        assert quick != rule["title"] and not rule["text"].startswith(quick), rule["id"]
        assert "\n" not in quick and len(quick) <= 100, rule["id"]
