"""Reading the worked examples out of a rule card (``seeds/*.md``): the tests' data."""

from __future__ import annotations


def table_after(card: str, heading: str) -> list[list[str]]:
    """The cells of the first Markdown table after ``heading`` in ``card``, header rows left out."""
    section = card.split(heading, 1)[1]
    block: list[str] = []
    for line in section.splitlines()[1:]:
        if line.startswith("|"):
            block.append(line)
        elif block:
            break
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in block[2:]]
