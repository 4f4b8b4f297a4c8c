#!/usr/bin/env python3
"""Expected values for Quarry's Swift evaluator, computed by real Swift.

Reads Tests/QuarryDSLTests/SwiftSemantics/probes.swift-lines and the `example:` of every
built-in in Sources/QuarryDSL/Swift/SwiftBuiltins*.swift, compiles them into one program with
swiftc, runs it, and writes Tests/QuarryDSLTests/SwiftSemantics/expected.json: each probe with
the value Swift prints for it (String(reflecting:)), or "crash" when Swift traps there.
Run it after changing the probes or the table; commit the JSON it writes.
"""
import glob, json, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.join(ROOT, "Tests/QuarryDSLTests/SwiftSemantics")

def probes():
    out = []
    for line in open(os.path.join(HERE, "probes.swift-lines"), encoding="utf-8"):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        crash = line.startswith("!crash ")
        if crash:
            line = line[len("!crash "):]
        out.append({"swift": line.replace("⏎", "\n"), "crash": crash, "kind": "probe"})
    for path in sorted(glob.glob(os.path.join(ROOT, "Sources/QuarryDSL/Swift/SwiftBuiltins*.swift"))):
        text = open(path, encoding="utf-8").read()
        for match in re.finditer(r'example:\s+(#"(.*?)"#|"((?:[^"\\]|\\.)*)")', text):
            example = match.group(2) if match.group(2) is not None else bytes(match.group(3), "utf-8").decode("unicode_escape")
            out.append({"swift": example, "crash": False, "kind": "builtin"})
    return out

def swift_function(index, probe):
    text = probe["swift"]
    if " ;; " in text:
        decls, expr = text.split(" ;; ", 1)
    else:
        decls, expr = "", text
    if expr.startswith("{"):
        expr = expr + "()"
    return f"func probe{index}() -> String {{\n{decls}\nreturn String(reflecting: ({expr}))\n}}\n"

def main():
    items = probes()
    source = "import Foundation\n"
    for index, probe in enumerate(items):
        source += swift_function(index, probe)
    source += "let probes: [() -> String] = [" + ", ".join(f"probe{i}" for i in range(len(items))) + "]\n"
    source += """
if CommandLine.arguments.count > 1, let index = Int(CommandLine.arguments[1]) {
  print(probes[index]())
} else {
  let skip = Set(CommandLine.arguments.dropFirst().compactMap { Int($0) })
  for (index, probe) in probes.enumerated() where !skip.contains(index) {
    print("\\(index)\\t\\(probe())")
  }
}
"""
    crashes = [i for i, p in enumerate(items) if p["crash"]]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "probes.swift")
        open(path, "w", encoding="utf-8").write(source)
        binary = os.path.join(tmp, "probes")
        result = subprocess.run(["swiftc", "-Onone", "-o", binary, path], capture_output=True, text=True)
        if result.returncode != 0:
            print(result.stderr[:6000], file=sys.stderr)
            sys.exit("swiftc rejected the probes")
        values = {}
        run = subprocess.run([binary, "--skip"] + [str(i) for i in crashes], capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("the probes program failed: " + run.stderr[:2000])
        for line in run.stdout.splitlines():
            index, value = line.split("\t", 1)
            values[int(index)] = value
        for index in crashes:
            one = subprocess.run([binary, str(index)], capture_output=True, text=True)
            if one.returncode == 0:
                sys.exit(f"probe {index} was expected to trap but printed {one.stdout.strip()!r}: {items[index]['swift']}")
            values[index] = None
    expected = []
    for index, probe in enumerate(items):
        entry = {"swift": probe["swift"], "kind": probe["kind"]}
        if probe["crash"]:
            entry["crash"] = True
        else:
            entry["expected"] = values[index]
        expected.append(entry)
    with open(os.path.join(HERE, "expected.json"), "w", encoding="utf-8") as out:
        json.dump(expected, out, ensure_ascii=False, indent=0)
        out.write("\n")
    print(f"{len(expected)} probes ({sum(1 for p in items if p['kind'] == 'builtin')} built-in examples, {len(crashes)} traps) -> expected.json")

main()
