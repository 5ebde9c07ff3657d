"""Reader edge cases of issue 26 ("Trust on every input"): what the reference scorer v8.01
(scorer.pl) reads, inputs that used to be silently misread, and inputs that used to take seconds."""

from __future__ import annotations

import time

import pytest

from corefreport.errors import InputError
from corefreport.io.conll2012 import parse_coref_cell, read_conll2012


# --- a long coreference cell is parsed in linear time ----------------------------------------

LONG = 80_000


@pytest.mark.parametrize("cell, expected", [
    ("a" * LONG, None),
    ("(" + "a" * LONG, ([], ["a" * LONG], [])),
    ("a" * LONG + "|(1", None),
    ("(1" * (LONG // 2), ([], ["1"] * (LONG // 2), [])),
    ("(1)|" * (LONG // 4), (["1"] * (LONG // 4), [], [])),
    ("(x" + "|" * LONG, ([], ["x"], [])),
])
def test_an_80000_letter_cell_is_parsed_in_well_under_a_second(cell, expected):
    t = time.perf_counter()
    got = parse_coref_cell(cell)
    assert time.perf_counter() - t < 0.5
    assert got == expected


def test_an_80000_letter_cell_in_a_file_is_a_short_clear_error_at_once():
    text = ("#begin document (d); part 000\n"
            "d\t0\t0\tx\tNN\t*\t-\t-\t-\t-\t*\t" + "a" * LONG + "\n"
            "d\t0\t1\ty\tNN\t*\t-\t-\t-\t-\t*\t(1)\n\n#end document\n")
    t = time.perf_counter()
    with pytest.raises(InputError) as err:
        read_conll2012("g.conll", text)
    assert time.perf_counter() - t < 0.5
    assert str(err.value) == ("g.conll:2: cannot read coreference annotation '" + "a" * 60 + "'… (80000 characters) "
                              "in the last column (expected '(n', 'n)', '(n)' joined by '|', or '-')")


@pytest.mark.parametrize("cell, expected", [
    ("(1(3", ([], ["1", "3"], [])),
    ("(1)|2)", (["1"], [], ["2"])),
    ("(1 2)", (["1 2"], [], [])),
    ("x(1", None),
    ("(1)x", None),
    ("()", None),
    (")", None),
    ("| (1) |", (["1"], [], [])),
    ("(1+2)|(3)", (["3"], [], [])),
])
def test_the_linear_parser_reads_cells_as_the_bracket_grammar_says(cell, expected):
    assert parse_coref_cell(cell) == expected
