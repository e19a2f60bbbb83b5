#!/usr/bin/env python3
"""One line per suite of `scripts/test.sh`, and a total.

Reads the log of `cargo test --workspace --no-fail-fast` (its stdout and
stderr together), the JSON of `cargo test --no-run --message-format=json`
(to know which package each test binary belongs to), and a file of
`NAME STATUS` lines for the suites that are not cargo's (clippy, browser).
Prints the table and exits 1 if any suite failed, 0 otherwise.

    test-summary.py CARGO_LOG ARTIFACTS_JSON OTHER_SUITES
"""

import json
import re
import sys
from collections import OrderedDict

RUNNING = re.compile(r"^\s+Running (?:unittests )?(\S+) \((?:.*/)?([^/)]+)\)$")
DOCTESTS = re.compile(r"^\s+Doc-tests (\S+)$")
RESULT = re.compile(r"^test result: (\w+)\. (\d+) passed; (\d+) failed; (\d+) ignored")
FAILED_TEST = re.compile(r"^test (\S+) \.\.\. FAILED$")
# cargo's own list of the targets that failed, which also names those that
# crashed before printing a result.
FAILED_TARGET = re.compile(r"^\s+`-p (\S+) (?:--(lib|doc|test|bin|bench) ?(\S*))`$")


def package_of_binaries(artifacts_path):
    """Maps a test binary's file name (`stdio_match-0123abcd`) to its package."""
    owners = {}
    with open(artifacts_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            exe = msg.get("executable")
            if msg.get("reason") != "compiler-artifact" or not exe:
                continue
            pkg = msg.get("package_id", "")
            # `path+file:///x/crates/bots#snakepit-bots@0.1.0`, or the older
            # `snakepit-bots 0.1.0 (path+file:///...)`.
            m = re.search(r"#([^@#]+)@", pkg) or re.match(r"(\S+) ", pkg)
            name = m.group(1) if m else pkg
            owners[exe.rsplit("/", 1)[-1]] = name
    return owners


def main():
    cargo_log, artifacts, others = sys.argv[1:4]
    owners = package_of_binaries(artifacts)
    suites = OrderedDict()

    def suite(name):
        return suites.setdefault(name, {"passed": 0, "failed": 0, "ignored": 0, "binaries": 0, "bad": []})

    def target_key(source):
        """The target a `Running` line's source names, as cargo's list of
        failed targets names it: `lib`, `bin`, `doc`, or `test NAME`."""
        if source == "doc-tests":
            return "doc"
        if source.startswith("tests/"):
            return "test " + source[len("tests/"):].removesuffix(".rs")
        return "lib" if source.endswith("lib.rs") else "bin"

    # The targets that printed a failing result, as (package, target).
    reported = set()
    current = None
    with open(cargo_log, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = RUNNING.match(line)
            if m:
                source, binary = m.groups()
                pkg = owners.get(binary, binary.rsplit("-", 1)[0])
                current = (suite(pkg), (pkg, target_key(source)))
                current[0]["binaries"] += 1
                continue
            m = DOCTESTS.match(line)
            if m:
                pkg = m.group(1).replace("_", "-")
                current = (suite(pkg), (pkg, "doc"))
                continue
            m = FAILED_TEST.match(line)
            if m and current:
                current[0]["bad"].append(m.group(1))
                continue
            m = RESULT.match(line)
            if m and current:
                s = current[0]
                s["passed"] += int(m.group(2))
                s["failed"] += int(m.group(3))
                s["ignored"] += int(m.group(4))
                if m.group(1) != "ok":
                    reported.add(current[1])
                continue
            m = FAILED_TARGET.match(line)
            if m:
                pkg, kind, name = m.groups()
                key = f"test {name}" if kind == "test" else kind
                if (pkg, key) not in reported:
                    # A binary that crashed or was killed prints no result.
                    s = suite(pkg)
                    s["bad"].append(f"{name or kind} (no result: crashed or killed)")
                    s["failed"] += 1

    rows = []
    any_failed = False
    with open(others, encoding="utf-8") as f:
        extra = [line.split(None, 1) for line in f if line.strip()]
    def other(name, status):
        ok = status.strip() == "ok"
        return (name, ok, "" if ok else status.strip())

    for name, status in extra[:1]:
        rows.append(other(name, status))
    totals = {"passed": 0, "failed": 0, "ignored": 0}
    for name, s in suites.items():
        ok = s["failed"] == 0
        for k in totals:
            totals[k] += s[k]
        detail = f"{s['passed']} passed, {s['failed']} failed, {s['ignored']} ignored"
        if s["bad"]:
            detail += "; failed: " + ", ".join(s["bad"][:6]) + (" ..." if len(s["bad"]) > 6 else "")
        rows.append((name, ok, detail))
    for name, status in extra[1:]:
        rows.append(other(name, status))
    if not suites:
        rows.append(("cargo test", False, "no test results in the log (the build failed?)"))

    width = max(len(r[0]) for r in rows)
    print("== summary")
    for name, ok, detail in rows:
        any_failed |= not ok
        print(f"{name:<{width}}  {'ok    ' if ok else 'FAILED'}  {detail}")
    failed_suites = [r[0] for r in rows if not r[1]]
    total = f"{totals['passed']} tests passed, {totals['failed']} failed, {totals['ignored']} ignored"
    if failed_suites:
        total += "; failed suites: " + ", ".join(failed_suites)
    print(f"{'total':<{width}}  {'FAILED' if any_failed else 'ok    '}  {total}")
    return 1 if any_failed else 0


if __name__ == "__main__":
    sys.exit(main())
