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
  python3 scripts/swift-contexts.py --family app --seed 7 --count 1200   # app-style.json
  python3 scripts/swift-contexts.py --family apis --seed 501 --count 1200  # standard-apis.json
  python3 scripts/swift-contexts.py --family widths --seed 61 --count 1200  # fixed-widths.json
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



class AppStyleGen:
    """A second family, written apart from `Gen`: the calls app code makes on standard values
    (Foundation's formatting and padding, conversions, index searches, views of a string,
    initializers named as functions), shallow and mixed, as a developer writes them."""

    INTS = ["0", "1", "2", "3", "5", "7", "10", "12", "42", "100", "-1", "-3", "-7"]
    DOUBLES = ["0.5", "1.5", "2.5", "3.7", "-2.5", "0.1", "0.2", "1e3", "2.0", "10", "1.0 / 3.0", "-0.0", "1e16", "123.456"]
    STRINGS = ['"abc"', '"Hello"', '"a b c"', '"  x  "', '""', '"é"', '"e\\u{301}"', '"straße"', '"a,b,,c"', '"Swift"',
               '"42"', '"3.5"', '"MiXeD"', '"😀x"', '"tab\\tx"', '"ABC"']
    ARRAYS = ["[3, 1, 2]", "[1, 2, 3]", "[Int]()", "[5]", "[10, 20, 30, 40]", "[-1, 0, 1]", "[2, 2, 3]"]
    DOUBLE_ARRAYS = ["[1.5, 2.5]", "[0.1, 0.2, 0.3]", "[Double]()", "[3.0, -1.0]"]
    STRING_ARRAYS = ['["b", "a", "c"]', '["x"]', "[String]()", '["Apple", "apple", "Banana"]']
    NEEDLES = ['"b"', '""', '"é"', '"e"', '" "', '"a"']
    SEPARATORS = ['", "', '""', '"/"']
    PADS = ['"."', '"ab"']
    FORMATS = ['"%.2f"', '"%.0f"', '"%5.1f"', '"%e"', '"%g"', '"%+.3f"']

    def __init__(self, rng):
        self.r = rng

    def c(self, options):
        return self.r.choice(options)

    def lit(self, options):
        text = self.c(options)
        return "(" + text + ")" if text.startswith("-") else text

    def n(self): return self.lit(self.INTS)
    def d(self): return self.lit(self.DOUBLES)
    def s(self): return self.c(self.STRINGS)
    def arr(self): return self.c(self.ARRAYS)
    def darr(self): return self.c(self.DOUBLE_ARRAYS)
    def sarr(self): return self.c(self.STRING_ARRAYS)

    @staticmethod
    def paren(text):
        return text if text.startswith("(") and text.endswith(")") else "(" + text + ")"

    def int_(self, k):
        if k == 0:
            return self.n()
        k -= 1
        return self.c([
            lambda: f"({self.arr()} + [9]).sorted()[0]",
            lambda: f"({self.arr()}.max() ?? {self.n()})",
            lambda: f"{self.s()}.count * {self.paren(self.int_(k))}",
            lambda: f"(Int({self.s()}) ?? {self.n()})",
            lambda: f"{self.n()}.quotientAndRemainder(dividingBy: {self.c(['2', '3', '(-4)'])}).quotient",
            lambda: f"(1...{self.c(['1', '3', '5'])}).reduce(0, +)",
            lambda: f"{self.arr()}.filter {{ $0 % 2 == 1 }}.count",
            lambda: f"{self.arr()}.map {{ $0 * $0 }}.reduce(0, +)",
            lambda: f"Int({self.d()})",
            lambda: f"Int({self.d()}.rounded(.{self.c(['down', 'up', 'towardZero', 'toNearestOrEven', 'awayFromZero'])}))",
            lambda: f"{self.paren(self.int_(k))}.isMultiple(of: {self.c(['2', '3', '5'])}) ? {self.n()} : {self.n()}",
            lambda: f'{self.s()}.components(separatedBy: ",").count',
            lambda: f"({self.arr()}.firstIndex(of: {self.c(['1', '2', '3'])}) ?? -1)",
            lambda: f"({self.arr()}.lastIndex {{ $0 < 3 }} ?? -1)",
            lambda: f"({self.arr()}.lastIndex(of: {self.c(['1', '2', '3'])}) ?? -1)",
            lambda: f"({self.arr()}.dropFirst().firstIndex {{ $0 > 1 }} ?? -1)",
            lambda: f"{self.paren(self.int_(k))} {self.c(['/', '%', '-', '+', '*'])} {self.c(['2', '3', '(-4)', '7'])}",
            lambda: f"abs({self.int_(k)})",
            lambda: f"(Int(exactly: {self.d()}) ?? {self.n()})",
            lambda: f"{self.arr()}.indices.count",
            lambda: f"{self.arr()}.enumerated().map {{ $0.offset * $0.element }}.reduce(0, +)",
            lambda: f"{self.sarr()}.count + {self.s()}.unicodeScalars.count",
            lambda: f"{self.s()}.utf16.count",
            lambda: f"{self.arr()}.prefix({self.c(['0', '2', '5'])}).count",
            lambda: f"min({self.int_(k)}, {self.int_(k)}, {self.n()})",
            lambda: f"Int.max / {self.c(['2', '3', '(-1)'])}",
            lambda: f"{self.arr()}.contains({self.n()}) ? 1 : 0",
            lambda: f"Int(Double({self.int_(k)}) / 2)",
            lambda: f"[\"1\", \"x\", {self.s()}].compactMap(Int.init).reduce(0, +)",
            lambda: f"{self.darr()}.reduce(0, +) > 1 ? 1 : 0",
        ])()

    def double_(self, k):
        if k == 0:
            return self.d()
        k -= 1
        return self.c([
            lambda: f"(Double({self.s()}) ?? {self.d()})",
            lambda: f"{self.paren(self.double_(k))} {self.c(['+', '-', '*', '/'])} {self.d()}",
            lambda: f"Double({self.int_(k)}) / 2",
            lambda: f"sqrt({self.c(['2.0', '9.0', '0.5'])})",
            lambda: f"{self.c(['floor', 'ceil', 'round'])}({self.d()})",
            lambda: f"{self.darr()}.reduce(0, +)",
            lambda: f"({self.darr()}.max() ?? {self.d()})",
            lambda: f"{self.d()}.truncatingRemainder(dividingBy: 1)",
            lambda: f"pow({self.c(['2.0', '10.0'])}, {self.c(['3', '0.5', '-1'])})",
            lambda: f"Double({self.arr()}.count) / {self.c(['2', '4.0', '3'])}",
            lambda: f"Double({self.arr()}.reduce(0, +)) / Double(max({self.arr()}.count, 1))",
            lambda: f"{self.c(['Double.pi', 'Double.greatestFiniteMagnitude', 'Double.leastNonzeroMagnitude', 'Double.leastNormalMagnitude'])} / 2",
            lambda: f"[\"1.5\", \"x\", {self.s()}].compactMap(Double.init).reduce(0, +)",
        ])()

    def string_(self, k):
        if k == 0:
            return self.s()
        k -= 1
        return self.c([
            lambda: f"{self.string_(k)}.{self.c(['uppercased()', 'lowercased()', 'capitalized'])}",
            lambda: f"String({self.int_(k)})",
            lambda: f"String({self.d()})",
            lambda: f'"\\({self.double_(k)})"',
            lambda: f'"\\({self.int_(k)}) items"',
            lambda: f'"\\({self.bool_(k)})"',
            lambda: f"{self.sarr()}.sorted().joined(separator: {self.c(self.SEPARATORS)})",
            lambda: f"{self.string_(k)}.replacingOccurrences(of: {self.c(self.NEEDLES)}, with: \"-\")",
            lambda: f"String({self.string_(k)}.prefix({self.c(['0', '2', '9'])}))",
            lambda: f"String({self.string_(k)}.suffix(2))",
            lambda: f'"\\({self.arr()})"',
            lambda: f'"\\({self.sarr()})"',
            lambda: f'"\\({self.arr()}.first)"',
            lambda: f"String(describing: {self.double_(k)})",
            lambda: f"String(format: {self.c(self.FORMATS)}, {self.double_(k)})",
            lambda: f'String(format: "%d-%@|%05ld", {self.int_(k)}, {self.string_(k)}, {self.int_(k)})',
            lambda: f"String({self.c(['255', '10', '(-16)', '35'])}, radix: {self.c(['16', '2', '36'])}{self.c(['', ', uppercase: true'])})",
            lambda: f"{self.string_(k)}.padding(toLength: {self.c(['0', '3', '8'])}, withPad: {self.c(self.PADS)}, startingAt: {self.c(['0', '1'])})",
            lambda: f"{self.arr()}.map(String.init).joined(separator: \"+\")",
            lambda: f"{self.darr()}.map(String.init(describing:)).joined(separator: \" \")",
            lambda: f'"\\({self.c(["1e16", "1e-5", "100000.0", "0.1 + 0.2", "1.0 / 3", "-0.0", "Double.infinity", "123456789.0", "1e15"])})"',
        ])()

    def bool_(self, k):
        if k == 0:
            return self.c(["true", "false"])
        k -= 1
        return self.c([
            lambda: f"{self.string_(k)}.contains({self.c(self.NEEDLES)})",
            lambda: f"{self.arr()}.isEmpty",
            lambda: f"{self.string_(k)} < {self.string_(k)}",
            lambda: f"{self.string_(k)}.hasPrefix({self.c(self.NEEDLES)})",
            lambda: f"{self.arr()}.allSatisfy {{ $0 > 0 }}",
            lambda: f"Set({self.arr()}).contains({self.n()})",
            lambda: f'"é" == "e\\u{{301}}"',
            lambda: f"({self.c(['1...3', '1..<3', '0...0'])}).contains({self.c(['3', '0', '2'])})",
            lambda: f"Int({self.s()}) == nil",
            lambda: f"{self.double_(k)} >= {self.d()}",
            lambda: f"{self.arr()} == {self.arr()}",
            lambda: f"{self.arr()}.starts(with: {self.c(['[1]', '[]', '[3, 1]'])})",
            lambda: f"{self.string_(k)}.count == {self.string_(k)}.utf16.count",
        ])()

    def opt_int(self, k):
        return self.c([
            lambda: f"{self.arr()}.first", lambda: f"Int({self.s()})", lambda: f"{self.arr()}.min()",
            lambda: f"[{self.s()}: {self.n()}][{self.s()}]", lambda: f"{self.arr()}.lastIndex(of: {self.n()})",
            lambda: f"{self.arr()}.first(where: {{ $0 > 1 }})", lambda: f"Int(exactly: {self.d()})",
            lambda: f"Optional({self.int_(k)}).map {{ $0 * 2 }}",
        ])()

    def opt_string(self, k):
        return self.c([
            lambda: f"{self.string_(k)}.first.map(String.init)", lambda: f"{self.sarr()}.sorted().last",
            lambda: f"{self.string_(k)}.isEmpty ? nil : {self.string_(k)}",
            lambda: f'{self.string_(k)}.split(separator: ",").first.map(String.init)',
            lambda: f'Int({self.s()}).map {{ "n\\($0)" }}',
        ])()

    def opt_double(self, k):
        return self.c([
            lambda: f"Double({self.s()})", lambda: f"{self.darr()}.max()", lambda: f"{self.arr()}.first.map(Double.init)",
            lambda: f"{self.bool_(k)} ? {self.double_(k)} : nil",
        ])()

    def make(self, type_name):
        maker = {"Int": self.int_, "Double": self.double_, "String": self.string_, "Bool": self.bool_,
                 "Int?": self.opt_int, "String?": self.opt_string, "Double?": self.opt_double}[type_name]
        return maker(self.r.randint(1, 2))


class ApiGen:
    """A third family: standard APIs the other two barely touch — Character properties,
    `reduce(into:)`, `Dictionary(grouping:by:)`, `zip`, Set algebra, fixed-width integers and
    their wrapping operators, Float (which Quarry refuses rather than compute as a Double),
    `max(by:)`, `prefix(while:)`, `split(maxSplits:)`, `stride(through:)`."""

    STRINGS = ['"Hello, World"', '"abc123"', '"a1b2c3"', '"  padded  "', '""', '"ÉCOLE"', '"naïve café"', '"x,y,,z"',
               '"one two  three"', '"42abc"', '"ABCdef"', '"🙂ok"', '"a-b-c"', '"Straße"', '"line1\\nline2"', '"tab\\there"']
    ARRAYS = ["[5, 3, 8, 1]", "[1, 1, 2, 3, 5, 8]", "[Int]()", "[42]", "[-3, 0, 3]", "[10, 20, 30]", "[7, 7, 7]", "[2, 4, 6, 8, 10]"]
    STRING_ARRAYS = ['["pear", "apple", "fig"]', '["a", "bb", "ccc", "dd"]', "[String]()", '["Zed", "alpha", "Beta"]', '["x"]',
                     '["one", "two", "three", "two"]']
    SEPARATORS = ['" "', '","', '"-"']
    LETTERS = ['"a"', '"o"', '","']

    def __init__(self, rng):
        self.r = rng

    def c(self, options):
        return self.r.choice(options)

    def n(self):
        return self.c(["0", "1", "2", "3", "4", "7", "9", "10", "16", "100", "255", "-1", "-5", "-128"])

    def p(self, text):
        return text if text.replace(".", "").replace("_", "").isalnum() and not text.startswith("-") else "(" + text + ")"

    def s(self): return self.c(self.STRINGS)
    def a(self): return self.c(self.ARRAYS)
    def sa(self): return self.c(self.STRING_ARRAYS)

    def int_(self, k):
        if k <= 0:
            return self.n()
        k -= 1
        s, a, sa, p, n, c = self.s, self.a, self.sa, self.p, self.n, self.c
        return c([
            lambda: f"{s()}.filter {{ $0.isNumber }}.count",
            lambda: f"{s()}.filter {{ $0.isUppercase }}.count",
            lambda: f"{s()}.compactMap {{ Int(String($0)) }}.reduce(0, +)",
            lambda: f"{a()}.reduce(into: 0) {{ $0 += $1 * 2 }}",
            lambda: f"Dictionary(grouping: {a()}, by: {{ $0 % 2 }}).count",
            lambda: f"zip({a()}, {a()}).map {{ $0 * $1 }}.reduce(0, +)",
            lambda: f"Set({a()}).union({a()}).count",
            lambda: f"Set({a()}).intersection({a()}).count",
            lambda: f"Set({a()}).subtracting({a()}).count",
            lambda: f"Int(Int8(truncatingIfNeeded: {self.int_(k)}))",
            lambda: f"Int(UInt8(clamping: {self.int_(k)}))",
            lambda: f"Int(UInt8(255) &+ {c(['1', '2', '200'])})",
            lambda: f"Int(Int8(100) &* {c(['2', '3'])})",
            lambda: f"Int(UInt16(1) << {c(['3', '15', '17'])})",
            lambda: f"{p(self.int_(k))} & {n()}",
            lambda: f"{p(self.int_(k))} ^ {n()}",
            lambda: f"{p(self.int_(k))} &+ Int.max",
            lambda: f"{p(self.int_(k))}.signum()",
            lambda: f"({a()}.max(by: {{ $0 % 3 < $1 % 3 }}) ?? 0)",
            lambda: f"({a()}.min {{ abs($0 - 4) < abs($1 - 4) }} ?? 0)",
            lambda: f"stride(from: {c(['0', '10', '-3'])}, through: {c(['9', '0', '3'])}, by: {c(['2', '-2', '3'])}).reduce(0, +)",
            lambda: f"({a()}.first(where: {{ $0 > {n()} }}) ?? -1)",
            lambda: f"{s()}.split(separator: {c(self.SEPARATORS)}, maxSplits: {c(['1', '2'])}).count",
            lambda: f"{sa()}.map(\\.count).reduce(0, +)",
            lambda: f"{a()}.sorted(by: >).first ?? 0",
            lambda: f"{a()}.prefix(while: {{ $0 > 2 }}).count",
            lambda: f"{a()}.drop(while: {{ $0 < 5 }}).count",
            lambda: f"Int(Float(0.1) * 10)",
            lambda: f"{a()}.enumerated().filter {{ $0.offset % 2 == 0 }}.map(\\.element).reduce(0, +)",
            lambda: f"{s()}.unicodeScalars.filter {{ $0.value > 127 }}.count",
        ])()

    def double_(self, k):
        if k <= 0:
            return self.c(["0.1", "2.5", "-1.75", "1e-3", "3.0", "1e300", "0.3"])
        k -= 1
        c, p, a = self.c, self.p, self.a
        return c([
            lambda: f"Double(Float({self.double_(k)}))",
            lambda: f"{p(self.double_(k))}.squareRoot()",
            lambda: f"({p(self.double_(k))}).rounded()",
            lambda: f"{a()}.map(Double.init).reduce(0, +) / {c(['3', '2.0', '7'])}",
            lambda: f"stride(from: 0.0, through: 1.0, by: {c(['0.1', '0.25', '0.3'])}).reduce(0, +)",
            lambda: f"({p(self.double_(k))}).remainder(dividingBy: {c(['1', '0.3', '2'])})",
            lambda: f"Double({self.int_(k)}) / Double({c(['3', '7', '-4'])})",
            lambda: f"{p(self.double_(k))}.nextUp",
        ])()

    def string_(self, k):
        if k <= 0:
            return self.s()
        k -= 1
        c, sa, a = self.c, self.sa, self.a
        return c([
            lambda: f"String({self.string_(k)}.filter {{ !$0.isWhitespace }})",
            lambda: f"{self.string_(k)}.trimmingCharacters(in: .whitespacesAndNewlines)",
            lambda: f'{sa()}.reduce(into: "") {{ $0 += $1.prefix(1) }}',
            lambda: f'{sa()}.sorted {{ $0.lowercased() < $1.lowercased() }}.joined(separator: ",")',
            lambda: f"String({self.string_(k)}.prefix(while: {{ $0.isLetter }}))",
            lambda: f"String({self.string_(k)}.map {{ $0.isUppercase ? Character($0.lowercased()) : Character($0.uppercased()) }})",
            lambda: f'{self.string_(k)}.replacingOccurrences(of: {c(self.LETTERS)}, with: "")',
            lambda: f'"\\(Set({a()}).count)-\\({sa()}.count)"',
            lambda: f"String({self.int_(k)}, radix: {c(['2', '8', '36'])}, uppercase: true)",
            lambda: f'"\\(Float({self.double_(k)}))"',
            lambda: f'"\\(UInt8(255) &+ {c(["1", "7"])})"',
            lambda: f'({sa()}.max(by: {{ $0.count < $1.count }}) ?? "-")',
            lambda: f'"\\({self.string_(k)}.count):\\({self.string_(k)}.utf8.count)"',
        ])()

    def bool_(self, k):
        if k <= 0:
            return self.c(["true", "false"])
        k -= 1
        c, s, a, sa, p = self.c, self.s, self.a, self.sa, self.p
        return c([
            lambda: f"{s()}.allSatisfy {{ $0.isLetter }}",
            lambda: f"{s()}.contains {{ $0.isNumber }}",
            lambda: f"Set({a()}).isSubset(of: Set({a()}))",
            lambda: f"Set({a()}).isDisjoint(with: {a()})",
            lambda: f"{a()}.elementsEqual({a()})",
            lambda: f'{sa()}.contains(where: {{ $0.hasPrefix("a") }})',
            lambda: f"{p(self.int_(k))}.isMultiple(of: {c(['2', '3', '0'])})",
            lambda: f"{p(self.double_(k))}.isFinite",
            lambda: f"{s()} < {s()}",
        ])()

    def opt_int(self, k):
        c, a, s, sa = self.c, self.a, self.s, self.sa
        return c([
            lambda: f"{a()}.first(where: {{ $0 < 0 }})", lambda: f"Int({s()}.filter(\\.isNumber))",
            lambda: f"{a()}.max(by: {{ $0 < $1 }})", lambda: f"{sa()}.firstIndex {{ $0.count == 3 }}",
            lambda: f"Int8(exactly: {self.int_(k)}).map {{ Int($0) }}",
            lambda: f"{a()}.reduce(into: [Int: Int]()) {{ $0[$1, default: 0] += 1 }}[{self.n()}]",
        ])()

    def opt_string(self, k):
        c, s, sa = self.c, self.s, self.sa
        return c([
            lambda: f'{sa()}.first(where: {{ $0.contains("e") }})', lambda: f'{s()}.split(separator: ",").last.map(String.init)',
            lambda: f"{sa()}.min(by: {{ $0.count < $1.count }})", lambda: f"{s()}.first(where: \\.isNumber).map(String.init)",
        ])()

    def make(self, type_name):
        maker = {"Int": self.int_, "Double": self.double_, "String": self.string_, "Bool": self.bool_,
                 "Int?": self.opt_int, "String?": self.opt_string, "Double?": lambda k: f"Double({self.s()})"}[type_name]
        return maker(self.r.randint(1, 2))

class WidthGen:
    """A fourth family: fixed-width integers (Int8 … UInt32) reached the way code reaches them —
    array elements and subscripts, `first`/`max()`, closure parameters of `map`/`reduce`,
    optionals and `??`, tuples, ternaries, dictionary values, `utf8` bytes, `min`/`max` — then
    wrapping, trapping and shifting arithmetic in the type's own width, converted, printed or
    compared. The value must keep its width wherever it flows."""

    WIDTHS = {"Int8": (-128, 127), "Int16": (-32768, 32767), "Int32": (-2147483648, 2147483647),
              "UInt8": (0, 255), "UInt16": (0, 65535), "UInt32": (0, 4294967295)}
    WORDS = ['"abc"', '"hé"', '"Zz"', '"~!"', '"ß1"']

    def __init__(self, rng):
        self.r = rng

    def c(self, options):
        return self.r.choice(options)

    def lit(self, t):
        lo, hi = self.WIDTHS[t]
        picks = [lo, hi, 0, 1, 2, 3, 7, 100, hi // 2, hi - 1, lo + 1, 13, 60]
        if lo < 0:
            picks += [-1, -2, -100, lo // 2]
        return str(self.c([v for v in picks if lo <= v <= hi]))

    def small(self):
        return self.c(["1", "2", "3", "4", "7", "9", "15", "17", "31", "33"])

    def p(self, text):
        return text if re.fullmatch(r"[A-Za-z0-9_.]+", text) else "(" + text + ")"

    def narrow(self, t, k):
        """An expression of fixed-width type `t`."""
        lit = lambda: self.lit(t)
        if k <= 0:
            return self.c([lambda: f"{t}({lit()})", lambda: f"{t}.max", lambda: f"{t}.min", lambda: f"({lit()} as {t})"])()
        k -= 1
        x = lambda: self.narrow(t, k)
        p = self.p
        c = self.c
        options = [
            lambda: f"[{x()}, {lit()}, {lit()}][{c(['0', '1', '2'])}]",
            lambda: f"([{lit()}, {lit()}] as [{t}])[{c(['0', '1'])}]",
            lambda: f"[{x()}, {lit()}].first!",
            lambda: f"([{lit()}, {lit()}] as [{t}]).last ?? {lit()}",
            lambda: f"[{x()}, {lit()}, {lit()}].max()!",
            lambda: f"([{lit()}, {lit()}] as [{t}]).min() ?? 0",
            lambda: f"[{x()}, {lit()}].map {{ $0 {c(['&+', '&-', '&*', '^', '|', '&'])} {lit()} }}[{c(['0', '1'])}]",
            lambda: f"([{lit()}, {lit()}, {lit()}] as [{t}]).reduce(0) {{ $0 {c(['&+', '&-', '&*', '^', '|'])} $1 }}",
            lambda: f"([{lit()}, {lit()}] as [{t}]).reduce({x()}, {c(['&+', '&*', '^'])})",
            lambda: f"({c(['true', 'false', '1 < 2', '3 > 4'])} ? {x()} : {x()})",
            lambda: f"({x()}, {lit()}).{c(['0', '1'])}",
            lambda: f"({t}?({lit()}) ?? {x()})",
            lambda: f"(Optional({x()}) ?? {lit()})",
            lambda: f"{c(['max', 'min'])}({x()}, {x()})",
            lambda: f"[{c(['1', '2'])}: {x()}][{c(['1', '2'])}, default: {lit()}]",
            lambda: f"{p(x())} {c(['&+', '&-', '&*'])} {p(x())}",
            lambda: f"{p(x())} {c(['&', '|', '^'])} {p(x())}",
            lambda: f"{p(x())} {c(['+', '-', '*', '/', '%'])} {p(x())}",
            lambda: f"{p(x())} {c(['>>', '<<', '&>>', '&<<'])} {self.small()}",
            lambda: f"~{p(x())}",
            lambda: f"{t}(truncatingIfNeeded: {c(['300', '-1', '70000', '5000000000', '-129', '256'])})",
            lambda: f"{t}(clamping: {c(['300', '-1', '70000', '5000000000', '-129', '256', '42'])})",
            lambda: f"{t}({self.other(t, k)})",
            lambda: f"{t}(truncatingIfNeeded: {self.other(t, k)})",
            lambda: f"Array([{x()}, {lit()}].reversed())[0]",
            lambda: f"[{x()}, {lit()}, {lit()}].sorted()[{c(['0', '2'])}]",
            lambda: f"[{x()}, {lit()}].filter {{ $0 > {lit()} }}.first ?? {lit()}",
        ]
        if t.startswith("Int"):
            options.append(lambda: f"-{p(x())}")
            options.append(lambda: f"abs({x()})")
        if t == "UInt8":
            options.append(lambda: f"{c(self.WORDS)}.utf8.first!")
            options.append(lambda: f"Array({c(self.WORDS)}.utf8)[1]")
            options.append(lambda: f"{c(self.WORDS)}.utf8.map {{ $0 &+ {lit()} }}.max()!")
        return c(options)()

    def other(self, t, k):
        return self.narrow(self.c([w for w in self.WIDTHS if w != t]), max(k - 1, 0))

    def any_narrow(self, k):
        t = self.c(list(self.WIDTHS))
        return t, self.narrow(t, k)

    def make(self, type_name):
        k = self.r.randint(1, 3)
        c = self.c
        if type_name in ("Int", "Double"):
            t, x = self.any_narrow(k)
            conv = "Int" if type_name == "Int" else "Double"
            return c([
                lambda: f"{conv}({x})",
                lambda: f"{conv}({x}) {c(['+', '-', '*'])} {c(['1', '1000', '-7'])}",
                lambda: f"[{x}, {self.lit(t)}].map {{ {conv}($0) }}.reduce(0, +)",
                lambda: f"{self.p(x)}.{c(['leadingZeroBitCount', 'trailingZeroBitCount', 'nonzeroBitCount', 'bitWidth'])}" if conv == "Int" else f"Double({x})",
            ])()
        if type_name == "String":
            t, x = self.any_narrow(k)
            return c([
                lambda: f'"\\({x})"',
                lambda: f'"\\([{x}, {self.lit(t)}])"',
                lambda: f'String({x})',
                lambda: f'"\\({t}?({self.lit(t)}))"',
                lambda: f'"<\\({x})>" + String(describing: {x})',
            ])()
        if type_name == "Bool":
            t, x = self.any_narrow(k)
            y = self.narrow(t, max(k - 1, 0))
            return c([
                lambda: f"{x} {c(['<', '<=', '>', '>=', '==', '!='])} {y}",
                lambda: f"{x} == {self.lit(t)}",
                lambda: f"[{x}, {self.lit(t)}].contains({y})",
                lambda: f"Set([{x}, {y}]).count == 2",
                lambda: f"{self.p(x)}.isMultiple(of: {c(['2', '3', '4'])})",
            ])()
        t, x = self.any_narrow(k)
        if type_name == "Int?":
            return c([
                lambda: f"[{x}, {self.lit(t)}].first.map {{ Int($0) }}",
                lambda: f"{t}(exactly: {c(['300', '-1', '70000', '127', '128', '0'])}).map {{ Int($0) }}",
                lambda: f"[{x}, {self.lit(t)}].firstIndex(of: {self.narrow(t, 0)})",
                lambda: f"[{x}].last.map(Int.init)",
            ])()
        if type_name == "String?":
            return f"[{x}].first.map {{ \"\\($0)\" }}"
        return f"[{x}].first.map {{ Double($0) }}"


TYPES = ["Int", "Double", "String", "Bool", "Int?", "String?", "Double?"]


def generate(seed, count, family="operators"):
    rng = random.Random(seed)
    g = Gen(rng)
    app = AppStyleGen(rng)
    apis = ApiGen(rng)
    widths = WidthGen(rng)
    makers = {"Int": g.int_, "Double": g.double_, "String": g.string_, "Bool": g.bool_,
              "Int?": g.opt_int, "String?": g.opt_string, "Double?": g.opt_double}
    seen, out = set(), []
    while len(out) < count:
        t = rng.choice(TYPES)
        expr = (app.make(t) if family == "app" else apis.make(t) if family == "apis" else widths.make(t) if family == "widths"
                else makers[t](rng.randint(1, 3))[0])
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
        # An expression is returned; a body of statements (swift-bodies.py) is the function's.
        body = item["body"] if "body" in item else "return " + item["swift"]
        src += f"func probe{i}() -> {item['type']} {{\n" + "\n".join("  " + line for line in body.split("\n")) + "\n}\n"
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
    parser.add_argument("--family", choices=["operators", "app", "apis", "widths"], default="operators",
                        help="operators: precedence, literals and operators (generated.json); app: the calls app code makes (app-style.json); apis: less common standard APIs (standard-apis.json); widths: Int8 … UInt32 flowing through collections, closures and optionals (fixed-widths.json)")
    parser.add_argument("--out", help="where to write (a fresh seed elsewhere: QUARRY_SWIFT_CONTEXTS=PATH)")
    args = parser.parse_args()
    if args.out is None:
        args.out = {"operators": OUT, "app": os.path.join(os.path.dirname(OUT), "app-style.json"),
                    "apis": os.path.join(os.path.dirname(OUT), "standard-apis.json"),
                    "widths": os.path.join(os.path.dirname(OUT), "fixed-widths.json")}[args.family]
    items = generate(args.seed, args.count, args.family)
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
