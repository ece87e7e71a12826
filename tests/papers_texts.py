"""A small paged paper shared by the paper-library tests: three pages, three sections, a
number, a negation and a sentence that qualifies another."""

PAPER = """[PAGE:1]
# Introduction
Remote work is common since 2020.
Managers perceive they delegate more when employees work from home.
[PAGE:2]
# Results
The corpus was annotated by 32 people over three months.
Employees do not agree that managers delegate more.
[PAGE:3]
# Discussion
Working from home reduces the control managers have over employees.
"""
