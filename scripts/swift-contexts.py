#!/usr/bin/env python3
"""Generated Swift expressions with the values real Swift computes, for every context.

Writes Tests/QuarryDSLTests/SwiftContexts/generated.json: a seeded generator builds well-typed
Swift expressions (Int, Double, String, Bool and their optionals; precedence without
parentheses, literals typed by their context, strings with escapes and interpolations, arrays,
slices, ranges, optionals, the built-ins apps use), swiftc compiles each as the body of a
function returning its type, and the program prints each value in the form SQLite receives it
(the binding StructuredQueries makes: Bool as 0/1, nil as NULL) and as `String(reflecting:)`,
or the probe is marked as a trap. Probes swiftc refuses are dropped.

SwiftContextsTests runs every probe through every context it can appear in (a prompt constant
used in a query, a query closure's argument, a model default, a `@DatabaseFunction` body, app
code) and compares with these values. Run it after changing the generator; commit the JSON.

  python3 scripts/swift-contexts.py [--seed 34] [--count 1500]
"""
import argparse, json, os, random, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests/QuarryDSLTests/SwiftContexts/generated.json")

# Swift's precedence groups, highest binds tightest.
PREC = {"<<": 160, ">>": 160, "*": 150, "/": 150, "%": 150, "&": 150, "&*": 150,
        "+": 140, "-": 140, "|": 140, "^": 140, "&+": 140, "&-": 140,
        "??": 131, "<": 130, "<=": 130, ">": 130, ">=": 130, "==": 130, "!=": 130,
        "&&": 120, "||": 110, "?:": 100}
ATOM = 1000


class Gen:
    def __init__(self, rng):
        self.r = rng

    def pick(self, options):
        total = sum(w for w, _ in options)
        x = self.r.uniform(0, total)
        for w, f in options:
            x -= w
            if x <= 0:
                return f()
        return options[-1][1]()

    # Every production returns (text, precedence).
    def wrap(self, child, parent_prec, side="left"):
        text, prec = child
        need = prec < parent_prec or (prec == parent_prec and side == "right") or (prec == parent_prec == 130)
        if need or (prec < ATOM and self.r.random() < 0.25):
            return "(" + text + ")"
        return text

    def binary(self, op, left, right):
        p = PREC[op]
        return (self.wrap(left, p, "left") + " " + op + " " + self.wrap(right, p, "right"), p)

    def atom(self, text):
        return (text, ATOM)

    def call_base(self, child):
        """A receiver of `.member`: parenthesized unless it is an atom."""
        text, prec = child
        if prec < ATOM or text.startswith("-"):
            return "(" + text + ")"
        return text

    # Leaves.
    def int_literal(self):
        return self.pick([
            (6, lambda: self.atom(str(self.r.randint(0, 12)))),
            (2, lambda: self.atom(str(self.r.randint(13, 1000)))),
            (1, lambda: self.atom("-" + str(self.r.randint(1, 9)))),
            (0.5, lambda: self.atom(self.r.choice(["1_000", "0x1F", "0b101", "0o17", "Int.max", "Int.min", "9_223_372_036_854_775_807"]))),
        ])

    def double_literal(self):
        return self.pick([
            (3, lambda: self.atom(self.r.choice(["0.5", "2.5", "0.1", "0.2", "1.5", "3.25", "10.0", "1e3", "2.5e-3", "0.0"]))),
            (2, lambda: self.atom(str(self.r.randint(0, 9)))),  # an integer literal typed Double
            (0.5, lambda: self.atom("-" + self.r.choice(["0.5", "2", "1.25"]))),
            (0.3, lambda: self.atom(self.r.choice(["Double.pi", ".pi", "Double.infinity"]))),
        ])

    STRINGS = ['"a"', '"abc"', '""', '"Hello"', '"tab\\there"', '"line\\nbreak"', '"quote \\" \\\\"',
               '"caf\\u{E9}"', '"\\u{2713} done"', '"e\\u{301}"', '" pad "', '"a-b-c"', '"42"', '"3.5"',
               '"x,y,,z"', '"MiXeD"', '"straße"', '"😀"', '"nul\\0x"']

    def string_literal(self):
        return self.atom(self.r.choice(self.STRINGS))

    # Typed productions.
    def int_(self, d):
        if d <= 0:
            return self.int_literal()
        n = d - 1
        return self.pick([
            (3, self.int_literal),
            (5, lambda: self.binary(self.r.choice(["+", "-", "*", "/", "%", "&+", "&-", "&*", "&", "|", "^"]), self.int_(n), self.int_(n))),
            (0.6, lambda: self.binary(self.r.choice(["<<", ">>"]), self.int_(n), self.atom(str(self.r.randint(0, 5))))),
            (1, lambda: self.atom(self.r.choice(["max", "min"]) + "(" + self.int_(n)[0] + ", " + self.int_(n)[0] + ")")),
            (1, lambda: self.atom("abs(" + self.int_(n)[0] + ")")),
            (1, lambda: self.atom(self.call_base(self.string_(n)) + self.r.choice([".count", ".utf8.count"]))),
            (1, lambda: self.atom(self.call_base(self.int_array(n)) + ".count")),
            (1, lambda: self.binary("??", self.opt_int(n), self.int_(n))),
            (0.5, lambda: self.atom(self.call_base(self.int_array(n)) + ".reduce(0, +)")),
            (1, lambda: self.atom("Int(" + self.double_(n)[0] + ")")),
            (0.7, lambda: self.binary("??", self.atom("Int(" + self.string_(n)[0] + ")"), self.int_(n))),
            (1, lambda: ("(" + self.bool_(n)[0] + ") ? " + self.wrap(self.int_(n), 101) + " : " + self.wrap(self.int_(n), 100, "left"), PREC["?:"])),
            (0.7, lambda: self.atom("(" + self.int_(n)[0] + self.r.choice(["...", "..<"]) + self.int_(n)[0] + ").count")),
            (0.8, lambda: self.atom(self.call_base(self.int_array(n)) + "[" + str(self.r.randint(0, 3)) + "]")),
            (0.6, lambda: self.atom(self.call_base(self.int_array(n)) + ".dropFirst()[" + str(self.r.randint(0, 3)) + "]")),
            (0.4, lambda: self.atom(self.call_base(self.int_(n)) + ".signum()")),
            (0.3, lambda: self.atom("-" + self.call_base(self.int_(n)))),
            (0.4, lambda: self.atom(self.call_base(self.double_(n)) + ".rounded().description.count")),
            (0.4, lambda: self.atom("Int(" + self.call_base(self.double_(n)) + ".rounded())")),
            (0.5, lambda: self.atom("[" + self.string_literal()[0] + ": " + self.int_(n)[0] + ", \"zz\": " + self.int_(n)[0] + "][" + self.r.choice(['"zz"', '"a"', '"abc"']) + ", default: " + self.int_(n)[0] + "]")),
            (0.4, lambda: self.atom("(" + self.int_(n)[0] + ", " + self.string_(n)[0] + ")." + self.r.choice(["0"]))),
            (0.4, lambda: self.atom("Set(" + self.call_base(self.int_array(n)) + ").count")),
            (0.4, lambda: self.atom(self.call_base(self.int_array(n)) + ".reduce(" + self.int_(n)[0] + ") { $0 * 2 + $1 }")),
            (0.4, lambda: self.atom(self.call_base(self.string_(n)) + ".split(separator: " + self.r.choice(['","', '" "', '"-"']) + ").count")),
            (0.3, lambda: self.binary("??", self.atom(self.call_base(self.int_array(n)) + ".first?.signum()"), self.int_(n))),
            (0.3, lambda: self.atom(self.call_base(self.int_array(n)) + ".compactMap { $0 > 2 ? $0 : nil }.count")),
            (0.2, lambda: self.atom('(Optional(' + self.string_(n)[0] + ').map { $0.distance(from: $0.startIndex, to: $0.firstIndex(of: ' + self.r.choice(['"a"', '"l"', '" "', '"é"']) + ') ?? $0.endIndex) } ?? 0)')),
        ])

    def double_(self, d):
        if d <= 0:
            return self.double_literal()
        n = d - 1
        return self.pick([
            (3, self.double_literal),
            (5, lambda: self.binary(self.r.choice(["+", "-", "*", "/"]), self.double_(n), self.double_(n))),
            (1, lambda: self.atom("Double(" + self.int_(n)[0] + ")")),
            (0.4, lambda: self.atom("abs(" + self.double_(n)[0] + ")")),
            (0.4, lambda: self.atom(self.r.choice(["max", "min"]) + "(" + self.double_(n)[0] + ", " + self.double_(n)[0] + ")")),
            (1, lambda: self.atom(self.call_base(self.double_(n)) + self.r.choice([".rounded()", ".magnitude", ".squareRoot()"]))),
            (0.6, lambda: self.binary("??", self.atom("Double(" + self.string_(n)[0] + ")"), self.double_(n))),
            (0.8, lambda: ("(" + self.bool_(n)[0] + ") ? " + self.wrap(self.double_(n), 101) + " : " + self.wrap(self.double_(n), 100, "left"), PREC["?:"])),
            (0.5, lambda: self.atom(self.call_base(self.double_(n)) + ".truncatingRemainder(dividingBy: " + self.double_(n)[0] + ")")),
            (0.4, lambda: self.binary("/", self.atom("(" + self.double_(n)[0] + " * 100).rounded()"), self.atom("100"))),
        ])

    def string_(self, d):
        if d <= 0:
            return self.string_literal()
        n = d - 1
        return self.pick([
            (3, self.string_literal),
            (2, lambda: self.atom('"' + self.r.choice(["", "n=", "v: "]) + "\\(" + self.r.choice([self.int_, self.double_, self.bool_, self.string_, self.opt_int, self.int_array])(n)[0] + ")" + self.r.choice(["", "!", " units"]) + '"')),
            (2, lambda: self.binary("+", self.string_(n), self.string_(n))),
            (1, lambda: self.atom(self.call_base(self.string_(n)) + self.r.choice([".uppercased()", ".lowercased()", ".capitalized"]))),
            (1, lambda: self.atom("String(" + self.r.choice([self.int_, self.double_, self.bool_])(n)[0] + ")")),
            (0.7, lambda: self.atom("String(" + self.call_base(self.string_(n)) + self.r.choice([".reversed()", ".dropFirst()", ".dropLast(2)", ".prefix(2)", ".suffix(3)"]) + ")")),
            (0.7, lambda: self.atom(self.call_base(self.string_(n)) + '.replacingOccurrences(of: ' + self.r.choice(['"a"', '"-"', '" "', '"l"']) + ', with: ' + self.r.choice(['"_"', '""', '"xy"']) + ')')),
            (0.7, lambda: self.atom("[" + ", ".join(self.string_(n)[0] for _ in range(self.r.randint(1, 3))) + "].joined(separator: " + self.r.choice(['", "', '"-"', '""']) + ")")),
            (0.5, lambda: self.atom("String(repeating: " + self.string_(n)[0] + ", count: " + str(self.r.randint(0, 3)) + ")")),
            (0.8, lambda: ("(" + self.bool_(n)[0] + ") ? " + self.wrap(self.string_(n), 101) + " : " + self.wrap(self.string_(n), 100, "left"), PREC["?:"])),
            (0.5, lambda: self.atom(self.call_base(self.string_(n)) + ".trimmingCharacters(in: .whitespaces)")),
            (0.6, lambda: self.atom(self.call_base(self.r.choice([self.int_, self.double_, self.bool_])(n)) + ".description")),
            (0.6, lambda: self.binary("??", self.opt_string(n), self.string_(n))),
            (0.5, lambda: self.atom('"\\(' + self.r.choice(["1e16", "1e-5", "0.1 + 0.2", "100.0", "-0.0", "1.0 / 3", "123456789.0 * 10"]) + ')"')),
            (0.4, lambda: self.atom(self.call_base(self.string_(n)) + '.split(separator: " ").map { $0.uppercased() }.joined(separator: "+")')),
            (0.4, lambda: self.atom(self.call_base(self.int_array(n)) + '.map { String($0) }.joined(separator: ",")')),
            (0.4, lambda: self.atom('"\\((' + self.int_(n)[0] + ', ' + self.string_(n)[0] + '))"')),
            (0.3, lambda: self.atom(self.call_base(self.int_array(n)) + '.sorted(by: >).description')),
            (0.3, lambda: self.atom('String(' + self.call_base(self.string_(n)) + '.filter { $0.isLetter })')),
            # String.Index: bounded moves, and one that may pass the end (a trap).
            (0.3, lambda: self.atom('(Optional(' + self.string_(n)[0] + ').map { String($0[..<($0.index($0.startIndex, offsetBy: ' + str(self.r.randint(0, 4)) + ', limitedBy: $0.endIndex) ?? $0.endIndex)]) } ?? "")')),
            (0.2, lambda: self.atom('(Optional(' + self.string_(n)[0] + ').map { $0.isEmpty ? "" : String($0[$0.index(before: $0.endIndex)]) } ?? "")')),
            (0.2, lambda: self.atom('(Optional(' + self.string_(n)[0] + ').map { String($0[$0.index($0.startIndex, offsetBy: ' + str(self.r.randint(0, 3)) + ')...]) } ?? "")')),
        ])

    def bool_(self, d):
        if d <= 0:
            return self.atom(self.r.choice(["true", "false"]))
        n = d - 1
        return self.pick([
            (1, lambda: self.atom(self.r.choice(["true", "false"]))),
            (3, lambda: self.binary(self.r.choice(["<", "<=", ">", ">=", "==", "!="]), self.int_(n), self.int_(n))),
            (1, lambda: self.binary(self.r.choice(["<", "==", "!=", ">="]), self.double_(n), self.double_(n))),
            (1, lambda: self.binary(self.r.choice(["<", "==", "!="]), self.string_(n), self.string_(n))),
            (2, lambda: self.binary(self.r.choice(["&&", "||"]), self.bool_(n), self.bool_(n))),
            (1, lambda: self.atom("!" + self.call_base(self.bool_(n)))),
            (1, lambda: self.atom(self.call_base(self.string_(n)) + self.r.choice([".isEmpty", ".hasPrefix(\"a\")", ".hasSuffix(\"c\")", ".contains(\"b\")"]))),
            (1, lambda: self.atom(self.call_base(self.int_array(n)) + self.r.choice([".isEmpty", ".contains(" + self.int_(n)[0] + ")"]))),
            (0.6, lambda: self.atom("(" + self.int_(n)[0] + self.r.choice(["...", "..<"]) + self.int_(n)[0] + ").contains(" + self.int_(n)[0] + ")")),
            (0.5, lambda: self.binary("==", self.opt_int(n), self.int_(n))),
            (0.4, lambda: self.binary("==", self.opt_int(n), self.atom("nil"))),
            (0.3, lambda: self.atom(self.call_base(self.double_(n)) + self.r.choice([".isNaN", ".isFinite", ".isZero"]))),
            (0.3, lambda: self.atom(self.call_base(self.int_(n)) + ".isMultiple(of: " + str(self.r.randint(1, 4)) + ")")),
        ])

    def int_array(self, d):
        if d <= 0:
            return self.atom("[" + ", ".join(str(self.r.randint(-3, 9)) for _ in range(self.r.randint(0, 4))) + "]")
        n = d - 1
        return self.pick([
            (3, lambda: self.atom("[" + ", ".join(self.int_(n)[0] for _ in range(self.r.randint(1, 4))) + "]")),
            (1, lambda: self.atom(self.call_base(self.int_array(n)) + self.r.choice([".map { $0 * 2 }", ".map { $0 + 1 }", ".filter { $0 > 2 }", ".filter { $0 % 2 == 0 }", ".sorted()", ".sorted(by: >)"]))),
            (1, lambda: self.atom("Array(" + self.call_base(self.int_array(n)) + self.r.choice([".reversed()", ".dropFirst()", ".prefix(2)", ".suffix(2)", ".dropLast()"]) + ")")),
            (0.7, lambda: self.binary("+", self.int_array(n), self.int_array(n))),
            (0.5, lambda: self.atom("Array(" + self.int_(n)[0] + self.r.choice(["...", "..<"]) + self.int_(n)[0] + ")")),
        ])

    def opt_int(self, d):
        n = d - 1
        if d <= 0:
            return self.atom(self.r.choice(["Int?.none", "Optional(3)", "Int(\"7\")", "Int(\"x\")"]))
        return self.pick([
            (2, lambda: self.atom(self.call_base(self.int_array(n)) + self.r.choice([".first", ".last", ".max()", ".min()"]))),
            (1, lambda: self.atom("Int(" + self.string_(n)[0] + ")")),
            (0.7, lambda: self.atom(self.call_base(self.int_array(n)) + ".firstIndex(of: " + self.int_(n)[0] + ")")),
            (0.5, lambda: self.atom(self.call_base(self.int_array(n)) + ".first { $0 > " + self.int_(n)[0] + " }")),
            (0.5, lambda: ("(" + self.bool_(n)[0] + ") ? " + self.wrap(self.int_(n), 101) + " : nil", PREC["?:"])),
            (0.4, lambda: self.atom(self.call_base(self.int_array(n)) + ".first.map { $0 * 10 }")),
        ])

    def opt_string(self, d):
        n = d - 1
        if d <= 0:
            return self.atom(self.r.choice(["String?.none", 'Optional("o")']))
        return self.pick([
            (1, lambda: self.atom("[" + ", ".join(self.string_(n)[0] for _ in range(self.r.randint(1, 3))) + "]" + self.r.choice([".first", ".last", ".max()"]))),
            (1, lambda: ("(" + self.bool_(n)[0] + ") ? " + self.wrap(self.string_(n), 101) + " : nil", PREC["?:"])),
            (0.5, lambda: self.atom(self.call_base(self.string_(n)) + ".first.map { String($0) }")),
        ])

    def opt_double(self, d):
        n = d - 1
        return self.pick([
            (1, lambda: self.atom("Double(" + self.string_(max(n, 0))[0] + ")")),
            (1, lambda: ("(" + self.bool_(max(n, 0))[0] + ") ? " + self.wrap(self.double_(max(n, 0)), 101) + " : nil", PREC["?:"])),
        ])


TYPES = ["Int", "Double", "String", "Bool", "Int?", "String?", "Double?"]


def generate(seed, count):
    rng = random.Random(seed)
    g = Gen(rng)
    makers = {"Int": g.int_, "Double": g.double_, "String": g.string_, "Bool": g.bool_,
              "Int?": g.opt_int, "String?": g.opt_string, "Double?": g.opt_double}
    seen, out = set(), []
    while len(out) < count:
        t = rng.choice(TYPES)
        expr = makers[t](rng.randint(1, 3))[0]
        if len(expr) > 160 or (t, expr) in seen:
            continue
        seen.add((t, expr))
        out.append({"type": t, "swift": expr})
    return out


PRELUDE = r'''import Foundation
func hex(_ s: String) -> String { s.utf8.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }
func bound(_ v: Int) -> String { "integer:\(v)" }
func bound(_ v: Bool) -> String { "integer:\(v ? 1 : 0)" }
func bound(_ v: Double) -> String { v.isNaN ? "null" : "double:\(v)" }
func bound(_ v: String) -> String { "text:" + hex(v) }
func bound(_ v: Int?) -> String { v.map { bound($0) } ?? "null" }
func bound(_ v: Double?) -> String { v.map { bound($0) } ?? "null" }
func bound(_ v: String?) -> String { v.map { bound($0) } ?? "null" }
'''


def program(items):
    src = PRELUDE
    for i, item in enumerate(items):
        src += f"func probe{i}() -> {item['type']} {{\n  return {item['swift']}\n}}\n"
    src += "let probes: [() -> String] = [\n"
    for i, item in enumerate(items):
        src += f"  {{ let v = probe{i}(); return bound(v) + \"\\t\" + String(reflecting: v) }},\n"
    src += "]\n"
    src += r'''
let start = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 0 : 0
for index in start..<probes.count {
  let line = "\(index)\t" + probes[index]().replacingOccurrences(of: "\n", with: "\\n")
  print(line)
  fflush(stdout)
}
'''
    return src


def compile_items(items, tmp):
    """Compiles the probes, dropping those swiftc refuses; returns (kept, binary)."""
    kept = list(items)
    for _ in range(20):
        path = os.path.join(tmp, "probes.swift")
        src = program(kept)
        open(path, "w", encoding="utf-8").write(src)
        binary = os.path.join(tmp, "probes")
        result = subprocess.run(["swiftc", "-Onone", "-o", binary, path], capture_output=True, text=True)
        if result.returncode == 0:
            return kept, binary
        bad_lines = {int(m.group(1)) for m in re.finditer(r"probes\.swift:(\d+):\d+: error", result.stderr)}
        if not bad_lines:
            sys.exit("swiftc failed without a located error:\n" + result.stderr[:4000])
        lines = src.split("\n")
        bad = set()
        for line_number in bad_lines:
            # Find the probe function that holds this line.
            for k in range(line_number - 1, -1, -1):
                m = re.match(r"func probe(\d+)\(\)", lines[k])
                if m:
                    bad.add(int(m.group(1)))
                    break
        kept = [item for i, item in enumerate(kept) if i not in bad]
    sys.exit("swiftc kept refusing the probes")


def run(items, binary):
    values = {}
    start = 0
    while start < len(items):
        result = subprocess.run([binary, str(start)], capture_output=True, text=True, timeout=120)
        last = start - 1
        for line in result.stdout.splitlines():
            index, bound, reflecting = line.split("\t", 2)
            values[int(index)] = (bound, reflecting)
            last = int(index)
        if result.returncode == 0:
            break
        values[last + 1] = None  # traps
        start = last + 2
    return values


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--count", type=int, default=1500)
    parser.add_argument("--out", default=OUT, help="where to write (a fresh seed elsewhere: QUARRY_SWIFT_CONTEXTS=PATH)")
    args = parser.parse_args()
    items = generate(args.seed, args.count)
    kept_all = []
    with tempfile.TemporaryDirectory() as tmp:
        for chunk_start in range(0, len(items), 500):
            chunk = items[chunk_start:chunk_start + 500]
            kept, binary = compile_items(chunk, tmp)
            values = run(kept, binary)
            for i, item in enumerate(kept):
                entry = dict(item)
                if values.get(i) is None:
                    entry["crash"] = True
                else:
                    entry["bound"], entry["reflecting"] = values[i]
                kept_all.append(entry)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump({"seed": args.seed, "generated": len(items), "probes": kept_all}, out, ensure_ascii=False, indent=0)
        out.write("\n")
    traps = sum(1 for e in kept_all if e.get("crash"))
    print(f"{len(items)} generated, {len(kept_all)} accepted by swiftc ({traps} trap) -> {args.out}")


main()
