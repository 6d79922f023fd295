"""JANUS's module metrics: accuracy, parameter P/R/F1, validity, result overlap."""

from __future__ import annotations

import pytest

from cogtree.evaluation.metrics import (
    SlotCounts,
    accuracy,
    mean,
    normalise_cell,
    normalise_slot,
    normalise_text,
    parameter_scores,
    rate,
    result_overlap,
    slot_counts,
)


def test_accuracy_counts_equal_positions() -> None:
    assert accuracy(["a", "b", "c", "d"], ["a", "x", "c", "y"]) == 0.5


def test_accuracy_of_nothing_is_undefined_not_zero() -> None:
    assert accuracy([], []) is None


def test_accuracy_refuses_mismatched_lengths() -> None:
    with pytest.raises(ValueError, match="one prediction per reference"):
        accuracy(["a"], ["a", "b"])


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("The  Blue bottle!", "blue bottle"),
        ("my car keys", "car key"),
        ("Dr. Weber", "dr weber"),
        ("carbohydrates", "carbohydrate"),
        ("the", "the"),
    ],
)
def test_text_is_compared_without_case_determiners_punctuation_or_plural_s(
    said: str, expected: str
) -> None:
    assert normalise_text(said) == expected


def test_lists_compare_as_sets_and_empty_values_are_no_prediction() -> None:
    assert normalise_slot(["Olives", "mushrooms"]) == normalise_slot(["mushroom", "olives"])
    assert normalise_slot([]) is None
    assert normalise_slot("  ") is None
    assert normalise_slot(None) is None
    assert normalise_slot(2.0) == normalise_slot(2.04) == "2"


def test_one_item_counts_correct_predicted_and_reference_slots() -> None:
    counts = slot_counts(
        {"dish": "the Lasagne", "aspect": "kcal", "person": None},
        {"dish": "lasagne", "aspect": "calories", "excluded": ["beef"]},
    )
    assert counts == SlotCounts(correct=1, predicted=2, reference=3)


def test_parameter_scores_are_micro_averaged_over_items() -> None:
    total = parameter_scores(
        [
            ({"object": "mug"}, {"object": "mug"}),
            ({"object": "bottle", "destination": "sink"}, {"object": "glass"}),
            ({}, {"room": "kitchen"}),
        ]
    )
    assert total == SlotCounts(correct=1, predicted=3, reference=3)
    assert total.precision == pytest.approx(1 / 3)
    assert total.recall == pytest.approx(1 / 3)
    assert total.f1 == pytest.approx(1 / 3)


def test_f1_is_zero_when_nothing_is_right_and_undefined_without_predictions() -> None:
    assert SlotCounts(correct=0, predicted=2, reference=2).f1 == 0.0
    assert SlotCounts(correct=0, predicted=0, reference=2).f1 is None


def test_rate_and_mean_of_nothing_are_undefined() -> None:
    assert rate([True, False, True, True]) == 0.75
    assert rate([]) is None
    assert mean([1.0, 0.5]) == 0.75
    assert mean([]) is None


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("adv:tiramisu", "tiramisu"),
        ("https://cogtree.dev/scene#still_water", "still water"),
        ("32.74", "32.7"),
        ("32.70", "32.7"),
        ("-0.01", "0"),
        ("Kitchen  Table", "kitchen table"),
        (None, None),
    ],
)
def test_cells_are_normalised(cell: str | None, expected: str | None) -> None:
    assert normalise_cell(cell) == expected


def test_aggregated_lists_compare_in_any_order_even_when_nested() -> None:
    one = "milk (in parmesan, béchamel sauce); eggs (in egg pasta)"
    other = "eggs (in egg pasta); milk (in béchamel sauce, parmesan)"
    assert normalise_cell(one) == normalise_cell(other)
    assert normalise_cell("milk (in butter)") != normalise_cell("milk (in cream)")


def test_overlap_is_the_jaccard_of_row_sets() -> None:
    reference = [{"suggestion": "adv:a"}, {"suggestion": "adv:b"}, {"suggestion": "adv:c"}]
    predicted = [{"suggestion": "adv:b"}, {"suggestion": "adv:c"}, {"suggestion": "adv:d"}]
    assert result_overlap(predicted, reference) == pytest.approx(2 / 4)


def test_overlap_is_one_when_both_are_empty_and_zero_when_only_one_is() -> None:
    assert result_overlap([], []) == 1.0
    assert result_overlap([], [{"value": "1"}]) == 0.0
    assert result_overlap([{"value": "1"}], []) == 0.0


def test_overlap_cuts_predicted_rows_to_the_reference_columns_when_it_has_them() -> None:
    reference = [{"topic": "carbohydrate", "value": "32.7", "unit": "g"}]
    template = [
        {
            "dish": "adv:tiramisu",
            "topic": "carbohydrate",
            "value": "32.70",
            "unit": "g",
            "statement": "has 32.7 g of carbohydrate per serving",
        }
    ]
    assert result_overlap(template, reference) == 1.0


def test_overlap_compares_whole_rows_when_columns_are_named_differently() -> None:
    reference = [{"value": "32.7", "unit": "g"}]
    assert result_overlap([{"carbs": "32.7", "grams": "g"}], reference) == 1.0
    assert result_overlap([{"carbs": "30.1", "grams": "g"}], reference) == 0.0
