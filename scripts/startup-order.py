#!/usr/bin/env python3
"""Write link/startup-order.txt: the functions a quarry process runs on its common paths, for
the release link to place side by side (gold's --section-ordering-file, see Package.swift).

A short-lived process pays one page fault per 64 KB window of code it touches; the ~1,000
functions a DSL query runs at start-up weigh ~600 KB but lie spread over ~150 such windows of a
19 MB text segment. The linker can move a function that has an input section of its own
(`.text.NAME`); the others stay inside their object's `.text`.

Usage: `make startup-order` (a release build, then this script; needs valgrind), or

    python3 scripts/startup-order.py [path/to/unstripped/quarry]

Each workload below runs once under callgrind; every function it executes is listed, those
run by the most workloads first. Names the binary does not have are harmless (the linker
ignores them), so the list only has to be regenerated when start-up code changes a lot.
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

QUARRY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                         ".build/x86_64-unknown-linux-gnu/release/quarry")
OUT = "link/startup-order.txt"


def workloads(database, models):
    """Common things people do with a fresh process: DSL and SQL one-shots, a script, models."""
    dsl = [
        "Item.where { $0.id.eq(42) }",
        "Item.where { $0.price > 10 && !$0.name.hasPrefix(\"a\") }.order { $0.name.desc() }.limit(5)",
        "Item.select { ($0.name, $0.price.sum()) }.group(by: \\.name).having { $0.price.sum() > 1 }",
        "Item.find(7)",
        "Item.insert { Item.Draft(name: \"x\", price: 1) }",
        "Item.where { $0.id == 3 }.update { $0.price += 1 }",
        "Item.where { $0.note.isNot(nil) }.delete()",
        "Item.join(Item.all) { $0.id.eq($1.id) }.select { ($0.name, $1.price) }",
    ]
    runs = [[database, "-e", query, "--format", "csv"] for query in dsl]
    runs.append([database, "-e", dsl[0]])  # the default table output
    runs.append([database, "-e", "SELECT * FROM items WHERE id = 42", "--format", "csv"])
    runs.append([database, "--models", models, "-e", "Item.where { $0.price > 1 }.count()"])
    return runs


def main():
    if not os.path.exists(QUARRY):
        sys.exit(f"no binary at {QUARRY}: build the release product first")
    with tempfile.TemporaryDirectory() as folder:
        database = os.path.join(folder, "items.sqlite")
        subprocess.run(["sqlite3", database,
                        "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL NOT NULL, note TEXT);"
                        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) "
                        "INSERT INTO items(name, price) SELECT 'item ' || i, i * 0.5 FROM n;"], check=True)
        models = os.path.join(folder, "Models.swift")
        with open(models, "w") as file:
            file.write("@Table struct Item {\n  let id: Int\n  var name = \"\"\n  var price = 0.0\n  var note: String?\n}\n")
        binary = os.path.join(folder, "quarry")
        # valgrind cannot read this toolchain's DWARF; the symbol table is all it needs.
        subprocess.run(["strip", "--strip-debug", "-o", binary, QUARRY], check=True)
        seen = collections.Counter()
        for index, arguments in enumerate(workloads(database, models)):
            profile = os.path.join(folder, f"callgrind.{index}")
            subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={profile}",
                            binary] + arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            names = set()
            with open(profile, errors="replace") as file:
                for line in file:
                    match = re.match(r"^fn=\(\d+\)(?: (.+))?$", line.rstrip("\n"))
                    if match and match.group(1):
                        names.add(match.group(1))
            seen.update(names)
            print(f"{len(names):5d} functions: {' '.join(arguments[1:])[:90]}", file=sys.stderr)
    # Functions with their own section (-ffunction-sections: Swift code, the Swift runtime, SQLite
    # built by SwiftPM); glibc's are named .text and stay where they are.
    defined = set(subprocess.run(["nm", "--defined-only", "--format=just-symbols", QUARRY],
                                 capture_output=True, text=True, check=True).stdout.split())
    ordered = sorted((name for name in seen if name in defined), key=lambda name: (-seen[name], name))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as file:
        for name in ordered:
            file.write(f".text.{name}\n")
    print(f"{len(ordered)} functions written to {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
