"""MAPLE's tools on the Python fixture project, answers checked by hand against the files."""

from __future__ import annotations

import pytest

from hunkmetrics.maple import Maple, MapleError

RULES = "src/shop/pricing/rules.py"


def test_functions_nested_in_functions_and_classes_in_functions(python: Maple) -> None:
    out = python.find_method("reached")
    assert "method shop.pricing.rules.threshold_rule.reached(total)\n" in out
    assert f"file: {RULES}, lines 70-72" in out
    assert "class:" not in out  # a function's function has no class
    klass = python.find_class("Threshold")
    assert "class shop.pricing.rules.threshold_rule.Threshold\n" in klass
    assert "lines 74-78" in klass
    assert "discount(self,cart)  lines 77-78" in klass


def test_enclosing_of_a_line_is_where_hunks_places_it(python: Maple) -> None:
    where = python.find_enclosing("rules.py", 71)
    assert where.splitlines() == [
        f"{RULES}:71",
        "language: python",
        "package: shop.pricing",
        "class: -",
        "method: shop.pricing.rules.threshold_rule.reached(total) (lines 70-72)",
    ]


def test_an_ambiguous_file_name_lists_the_files(python: Maple) -> None:
    one = Maple(python.index, max_results=1)
    with pytest.raises(MapleError) as ambiguous:
        one.extract_class_skeleton("__init__.py")
    assert str(ambiguous.value) == (
        "'__init__.py' matches 2 files; name one of them: "
        "src/shop/__init__.py, src/shop/pricing/__init__.py."
    )
    with pytest.raises(MapleError, match="matches 2 files"):
        python.find_enclosing("__init__.py", 1)


def test_skeleton_of_a_module_with_decorated_functions(python: Maple) -> None:
    out = python.extract_class_skeleton(RULES)
    assert " 61: def percent_off(percent: int, sku: str | None = None) -> Rule: ..." in out
    assert " 65: def threshold_rule(minimum: Decimal, amount: Decimal) -> Rule: ..." in out
    assert " 62:" not in out  # no bodies
