"""Catch phantom scripture references in an answer, and score a small golden dataset.

Run from the repository root (the Bible part needs the ``bible`` extra)::

    python examples/references.py

An answer citing the Valmiki Ramayana is checked against a structure map (how many shlokas
each sarga has; here the first sargas of the Bala Kanda, given inline), and one citing the
Bible against pythonbible. Each prints PASS or FAIL with the phantom citations and why; a
reference whose kanda cannot be told (``AK``: Ayodhya or Aranya) is unchecked, not guessed.
"""

from __future__ import annotations

import citecheck

# Shlokas per sarga of the first five sargas of the Bala Kanda (from ramayan_map.json); a
# real map has all seven kandas: StructureMap.from_file("ramayan_map.json", scheme).
BALA = {"Bala": [100, 43, 39, 36, 23]}

ANSWER = (
    "Valmiki asks Narada who the ideal man is [Bala Kanda 1.1], and Narada answers at length "
    "(Bala 1.8-10). The poem then describes Ayodhya [Bala 5.6], as Bala 1:999 and "
    "Bala Kanda, Sarga 3, Shloka 50 also do; Rama leaves it in [AK 2.3]."
)

report = citecheck.verify_references(ANSWER, scheme="valmiki_ramayana", against=BALA)
print(report.to_text())
print()

for template in ("T3", "T1"):  # T3 answers need no citations, T1 answers must cite
    greeting = citecheck.verify_references("Namaste!", against=BALA, template=template)
    print(f"a {template} answer without citations: {greeting.result}")
print()

golden = [
    {"id": "q1", "template": "T1", "answer": "Narada speaks first [Bala 1.1]."},
    {"id": "q2", "template": "T1", "answer": "The answer forgot to cite."},
    {"id": "q3", "template": "T3", "answer": "Namaste! How can I help?"},
    {"id": "q4", "template": "T1", "answer": "It is in [Bala 6.2], the sixth sarga."},
]
evaluation = citecheck.evaluate_dataset(golden, scheme="valmiki_ramayana", against=BALA)
print(evaluation.to_text())
for item in evaluation.items:
    if item.result == "FAIL":
        print(f"  {item.id}: {'; '.join(item.reasons)}")
print()

try:
    bible_report = citecheck.verify_references(
        '"For God so loved the world" (John 3:16); see also [Hezekiah 3:4] and Jude 1:30.',
        scheme="bible",
    )
except citecheck.MissingDependencyError as exc:
    print(f"Bible part skipped: {exc}")
else:
    print(bible_report.to_text())
