"""MCP round trip: how long an MCP client waits from a ``verify_answer`` tool call to the
verdict, over stdio, for the bundled example (``examples/answer.md`` against
``examples/corpus/``, the README's quick start).

The server is ``citecheck mcp --root examples`` (``sys.executable -m citecheck``), started
once by the SDK's own client (``stdio_client`` and ``ClientSession``); its start and the
first call (which imports the markers door and reads the sources) are timed apart, then
``--calls`` calls are timed one after another, each from ``call_tool`` to the result read
back (JSON over the pipe both ways, the check, the report's JSON and the verdict). Prints the
median and 95th percentile in milliseconds, with the machine and the command.

Run from the repository root (the ``mcp`` extra installed)::

    PYTHONPATH=src python benchmarks/mcp_round_trip.py [--calls 200] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from _machine import machine
from mcp import ClientSession, StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
ARGUMENTS = {"answer_file": "answer.md", "sources": ["corpus"]}


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


async def measure(calls: int) -> dict[str, Any]:
    """Start the server, call ``verify_answer`` ``calls + 1`` times, and time each call."""
    env = {"PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "citecheck", "mcp", "--root", str(EXAMPLES)]
    params = StdioServerParameters(command=command[0], args=command[1:], cwd=EXAMPLES, env=env)
    started = time.perf_counter()
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        ready = time.perf_counter() - started
        first_started = time.perf_counter()
        first = await session.call_tool("verify_answer", ARGUMENTS)
        first_ms = (time.perf_counter() - first_started) * 1000
        verdict = "\n".join(getattr(block, "text", "") for block in first.content)
        times: list[float] = []
        for _ in range(calls):
            begun = time.perf_counter()
            result = await session.call_tool("verify_answer", ARGUMENTS)
            times.append((time.perf_counter() - begun) * 1000)
            if result.model_dump(by_alias=True)["isError"]:
                raise SystemExit(f"the tool call failed: {result.content}")
    return {
        "command": " ".join(command),
        "tool": "verify_answer",
        "arguments": ARGUMENTS,
        "calls": calls,
        "server_start_s": round(ready, 3),
        "first_call_ms": round(first_ms, 2),
        "median_ms": round(statistics.median(times), 2),
        "p95_ms": round(percentile(times, 0.95), 2),
        "min_ms": round(min(times), 2),
        "max_ms": round(max(times), 2),
        "verdict_first_line": verdict.splitlines()[0] if verdict else "",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200, help="timed calls (default 200)")
    parser.add_argument("--out", type=Path, help="also write the numbers as JSON")
    args = parser.parse_args()
    numbers = anyio.run(measure, args.calls)
    numbers["machine"] = machine()
    m = numbers["machine"]
    print(f"machine: {m['platform']}, {m['cpus']} CPUs, Python {m['python']}")
    print(f"server: {numbers['command']} (cwd {EXAMPLES})")
    print(f"call: verify_answer {json.dumps(ARGUMENTS)}")
    print(f"verdict: {numbers['verdict_first_line']}")
    print(f"server start to ready: {numbers['server_start_s']:.2f} s")
    print(f"first call (imports, sources read): {numbers['first_call_ms']:.1f} ms")
    print(
        f"{numbers['calls']} calls: median {numbers['median_ms']:.1f} ms, "
        f"p95 {numbers['p95_ms']:.1f} ms (min {numbers['min_ms']:.1f}, "
        f"max {numbers['max_ms']:.1f})"
    )
    if args.out is not None:
        args.out.write_text(json.dumps(numbers, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
