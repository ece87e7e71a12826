"""LLM answers as assistants write them, each citing the four sources of ``sources/`` in one
style, with the citations a careful reader takes them to make.

Written for issue 33 after the styles of ChatGPT and the Assistants/Responses file search
(``【4:0†file】``), of chat answers that name files (``(trial.txt, p. 2)``, ``[Source: …]``),
Markdown footnotes, and numbered citations with a list of sources (file names, titles or
URLs) at the end. ``expected`` lists, in text order, each citation's source id and page or
line locator as citecheck writes them (``None``: none cited); ``unread`` counts the places a
reader sees as citations that name no source at all (``【4:0†source】``), which must be
reported, never passed.
"""

from __future__ import annotations

from typing import Any

SOURCE_METADATA: dict[str, dict[str, str]] = {
    "coffee-study": {
        "url": "https://example.org/coffee-study",
        "title": "Coffee and sleep: a cohort study",
    },
    "trial": {"title": "Hypertension trial report"},
    "handbook": {"title": "Employee Handbook"},
    "climate-report": {"title": "Regional Climate Report 2024"},
}
"""What a caller knows of each source besides its file (the web page's address, titles)."""

ANSWERS: list[dict[str, Any]] = [
    # -- OpenAI file search: 【message:result†file】 -------------------------------------------
    {
        "style": "openai",
        "answer": "Drug A lowered systolic blood pressure by 12 mmHg on average after eight "
        "weeks【4:0†trial.txt】. No serious adverse events were reported in either group"
        "【4:1†trial.txt】.",
        "expected": [("trial", None), ("trial", None)],
    },
    {
        "style": "openai",
        "answer": "According to the handbook, full-time employees receive 25 days of paid "
        "annual leave per year 【7:0†handbook.md】, and up to five days may be carried over "
        "【7:2†handbook.md】.",
        "expected": [("handbook", None), ("handbook", None)],
    },
    {
        "style": "openai",
        "answer": "The average annual temperature in the region rose by 1.4 degrees Celsius "
        "since 1950【12:0†climate-report.txt†L5-L5】. Heavy rainfall events are now twice as "
        "frequent as they were in the 1960s【12:3†climate-report.txt†L11-L11】.",
        "expected": [("climate-report", "L5-L5"), ("climate-report", "L11-L11")],
    },
    {
        "style": "openai",
        "answer": "Yes. People who drank coffee after 4 pm slept 25 minutes less on average "
        "【3:0†coffee-study.html】.",
        "expected": [("coffee-study", None)],
    },
    {
        "style": "openai",
        "answer": "The trial enrolled 120 adults with mild hypertension at four clinics"
        "【2†trial.txt】.",
        "expected": [("trial", None)],
    },
    {
        "style": "openai",
        "answer": "Employees may work remotely up to three days per week with their manager's "
        "approval【5:0†source】.",
        "expected": [],
        "unread": 1,
    },
    {
        "style": "openai",
        "answer": "- Travel expenses must be submitted within 30 days of the trip "
        "【9:1†handbook.md】\n- Receipts are required for every expense above 25 euros "
        "【9:2†handbook.md】",
        "expected": [("handbook", None), ("handbook", None)],
    },
    {
        "style": "openai",
        "answer": "Spring floods on the main river now peak two weeks earlier than in 1950"
        "【1:4†climate-report.txt†L14-L14】, while summer river flows have declined in three "
        "of the four major basins【1:5†climate-report.txt†L15-L15】.",
        "expected": [("climate-report", "L14-L14"), ("climate-report", "L15-L15")],
    },
    # -- file names in parentheses ------------------------------------------------------------
    {
        "style": "file name",
        "answer": "Drug A lowered systolic blood pressure by 12 mmHg on average after eight "
        "weeks (trial.txt, p. 2).",
        "expected": [("trial", "p. 2")],
    },
    {
        "style": "file name",
        "answer": "The trial enrolled 120 adults with mild hypertension at four clinics "
        "(trial.txt, page 1). The authors conclude that drug A is safe and effective for mild "
        "hypertension (trial.txt, page 3).",
        "expected": [("trial", "page 1"), ("trial", "page 3")],
    },
    {
        "style": "file name",
        "answer": "Parental leave is 16 weeks at full pay for every new parent (handbook.md).",
        "expected": [("handbook", None)],
    },
    {
        "style": "file name",
        "answer": "Annual snowfall has declined by about 20 percent since 1970 "
        "(climate-report.txt, lines 7-7).",
        "expected": [("climate-report", "lines 7-7")],
    },
    {
        "style": "file name",
        "answer": "Coffee drunk before noon showed no measurable effect on sleep duration "
        "(coffee-study.html).",
        "expected": [("coffee-study", None)],
    },
    {
        "style": "file name",
        "answer": "Mild headache was the most common side effect, reported by 9 participants "
        "on drug A [trial.txt, p. 2].",
        "expected": [("trial", "p. 2")],
    },
    {
        "style": "file name",
        "answer": "The company reimburses up to 40 euros per month for home internet costs "
        "(handbook.md; see also trial.txt, p. 1).",
        "expected": [("handbook", None), ("trial", "p. 1")],
    },
    {
        "style": "file name",
        "answer": "Models project a further warming of 1 to 2 degrees by 2050 under current "
        "emissions (Climate-Report.txt).",
        "expected": [("climate-report", None)],
    },
    # -- a Source: label ----------------------------------------------------------------------
    {
        "style": "source label",
        "answer": "Drug A lowered systolic blood pressure by 12 mmHg on average after eight "
        "weeks [Source: trial, page 2].",
        "expected": [("trial", "page 2")],
    },
    {
        "style": "source label",
        "answer": "Unused leave of up to five days may be carried over to the next year. "
        "[Source: handbook.md]",
        "expected": [("handbook", None)],
    },
    {
        "style": "source label",
        "answer": "The study followed 3,400 adults for two years (Source: "
        "https://example.org/coffee-study).",
        "expected": [("coffee-study", None)],
    },
    {
        "style": "source label",
        "answer": "Total annual precipitation has increased slightly, by 5 percent since 1950 "
        "[Sources: climate-report.txt, L10].",
        "expected": [("climate-report", "L10")],
    },
    {
        "style": "source label",
        "answer": "Placebo lowered systolic blood pressure by 3 mmHg over the same period "
        "(Source: Hypertension trial report, p. 2).",
        "expected": [("trial", "p. 2")],
    },
    {
        "style": "source label",
        "answer": "Receipts are required for every expense above 25 euros. (Reference: "
        "Employee Handbook)",
        "expected": [("handbook", None)],
    },
    {
        "style": "source label",
        "answer": "The mean age of participants was 54 years, and 48 percent were women "
        "[Source: trial.txt, p. 1; Source: trial.txt, p. 3].",
        "expected": [("trial", "p. 1"), ("trial", "p. 3")],
    },
    {
        "style": "source label",
        "answer": "Winters have warmed faster than summers over the same period [Document: "
        "climate-report].",
        "expected": [("climate-report", None)],
    },
    # -- Markdown footnotes -------------------------------------------------------------------
    {
        "style": "footnote",
        "answer": "Drug A lowered systolic blood pressure by 12 mmHg on average after eight "
        "weeks.[^1]\n\n[^1]: trial.txt, p. 2\n",
        "expected": [("trial", "p. 2")],
    },
    {
        "style": "footnote",
        "answer": "Full-time employees receive 25 days of paid annual leave per year[^leave], "
        "and parental leave is 16 weeks at full pay for every new parent[^parental].\n\n"
        "[^leave]: handbook.md, section Leave\n[^parental]: Source: handbook.md\n",
        "expected": [("handbook", "section Leave"), ("handbook", None)],
    },
    {
        "style": "footnote",
        "answer": "People who drank coffee after 4 pm slept 25 minutes less on average.[^1]\n\n"
        "[^1]: https://example.org/coffee-study\n",
        "expected": [("coffee-study", None)],
    },
    {
        "style": "footnote",
        "answer": "Heavy rainfall events are now twice as frequent as they were in the 1960s."
        "[^a] Spring floods on the main river now peak two weeks earlier than in 1950.[^b]\n\n"
        "[^a]: climate-report.txt, line 11.\n[^b]: climate-report.txt, line 14.\n",
        "expected": [("climate-report", "line 11"), ("climate-report", "line 14")],
    },
    {
        "style": "footnote",
        "answer": "The trial was too short to assess effects on heart attacks or strokes.[^1]\n\n"
        "[^1]: See [[trial:p3]].\n",
        "expected": [("trial", "p3")],
    },
    {
        "style": "footnote",
        "answer": "Employees may work remotely up to three days per week with their manager's "
        "approval.[^2]\n\n[^2]: handbook, Remote work\n",
        "expected": [("handbook", None)],
    },
    {
        "style": "footnote",
        "answer": "A longer trial with 2,000 participants is planned for next year.[^3]\n\n"
        "[^3]: Trial report (2024), p. 3.\n",
        "expected": [],
        "unread": 1,
    },
    {
        "style": "footnote",
        "answer": "Drug A was compared with placebo.[^1] No serious adverse events were "
        "reported in either group.[^1]\n\n[^1]: trial.txt\n",
        "expected": [("trial", None), ("trial", None)],
    },
    # -- numbered citations with a list of sources --------------------------------------------
    {
        "style": "numbered list",
        "answer": "Drug A lowered systolic blood pressure by 12 mmHg on average after eight "
        "weeks [1]. Travel expenses must be submitted within 30 days of the trip [2].\n\n"
        "Sources:\n1. trial.txt\n2. handbook.md\n",
        "expected": [("trial", None), ("handbook", None)],
    },
    {
        "style": "numbered list",
        "answer": "People who drank coffee after 4 pm slept 25 minutes less on average [1].\n\n"
        "References\n[1] https://example.org/coffee-study\n",
        "expected": [("coffee-study", None)],
    },
    {
        "style": "numbered list",
        "answer": "The average annual temperature in the region rose by 1.4 degrees Celsius "
        "since 1950 [1], and the trial enrolled 120 adults with mild hypertension at four "
        "clinics [2].\n\n**Sources**\n1. Regional Climate Report 2024\n2. Hypertension trial "
        "report\n",
        "expected": [("climate-report", None), ("trial", None)],
    },
    {
        "style": "numbered list",
        "answer": "Unused leave of up to five days may be carried over to the next year [1]. "
        "Coffee drunk before noon showed no measurable effect on sleep duration [2].\n\n"
        "## Sources\n\n1. Employee Handbook (handbook.md)\n2. Coffee and sleep: a cohort "
        "study, https://example.org/coffee-study\n",
        "expected": [("handbook", None), ("coffee-study", None)],
    },
    {
        "style": "numbered list",
        "answer": "Mild headache was the most common side effect, reported by 9 participants "
        "on drug A [1, p. 2].\n\nSources:\n[1] trial.txt\n",
        "expected": [("trial", "p. 2")],
    },
    {
        "style": "numbered list",
        "answer": "Summer river flows have declined in three of the four major basins [1]. "
        "Annual snowfall has declined by about 20 percent since 1970 [1].\n\nSources\n"
        "1. climate-report.txt\n",
        "expected": [("climate-report", None), ("climate-report", None)],
    },
    {
        "style": "numbered list",
        "answer": "The company reimburses up to 40 euros per month for home internet costs "
        "[2].\n\nSources:\n1. trial.txt\n2. handbook.md\n",
        "expected": [("handbook", None)],
    },
    {
        "style": "numbered list",
        "answer": "Placebo lowered systolic blood pressure by 3 mmHg over the same period "
        "[1][2].\n\nSources:\n1. Hypertension trial report\n2. trial.txt\n",
        "expected": [("trial", None), ("trial", None)],
    },
    # -- several styles in one answer ---------------------------------------------------------
    {
        "style": "mixed",
        "answer": "Drug A lowered systolic blood pressure by 12 mmHg (trial.txt, p. 2), and "
        "employees receive 25 days of paid annual leave per year【4:0†handbook.md】.",
        "expected": [("trial", "p. 2"), ("handbook", None)],
    },
    {
        "style": "mixed",
        "answer": "Heavy rainfall events are now twice as frequent as they were in the 1960s "
        "[[climate-report:L11]]. People who drank coffee after 4 pm slept 25 minutes less on "
        "average.[^1]\n\n[^1]: coffee-study.html\n",
        "expected": [("climate-report", "L11"), ("coffee-study", None)],
    },
    {
        "style": "mixed",
        "answer": "No serious adverse events were reported in either group [Source: trial, "
        "p. 2]. Receipts are required for every expense above 25 euros [1].\n\nSources:\n"
        "1. handbook.md\n",
        "expected": [("trial", "p. 2"), ("handbook", None)],
    },
    {
        "style": "mixed",
        "answer": "The study followed 3,400 adults for two years【6:0†coffee-study.html】, "
        "and the trial's mean participant age was 54 years (trial.txt, p. 1).",
        "expected": [("coffee-study", None), ("trial", "p. 1")],
    },
]
