#!/usr/bin/env python3
"""Generated Swift function bodies with the values real Swift computes.

Writes Tests/QuarryDSLTests/SwiftContexts/bodies.json: a seeded generator builds well-typed
bodies of statements (let/var, mutation of Ints, Strings, arrays, dictionaries and optionals,
copies, if/guard, for/while/repeat, switch with ranges and `where`, `if let`, `break` and
`continue`, nested functions with `inout`, closures held by a `let`, early returns, `defer`,
`fallthrough`, labelled loops; now and then a bound of Int, where Swift traps) ending in a
`return`; swiftc compiles each as a function and the program prints its value as SQLite
receives it, or marks it a trap. Bodies swiftc refuses are dropped.

SwiftBodiesTests runs each as a `@DatabaseFunction` body, as an app's helper function whose
value a write binds, and inline in a `database.write` block, and compares with these values.

  python3 scripts/swift-bodies.py [--seed 3] [--count 700]
"""
import json, os, random, re, subprocess, sys, tempfile

import argparse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests/QuarryDSLTests/SwiftContexts/bodies.json")
# The program, its compilation and its run are swift-contexts.py's.
_contexts = os.path.join(ROOT, "scripts/swift-contexts.py")
_ns = {"__name__": "swift_contexts", "__file__": _contexts}
exec(compile(open(_contexts, encoding="utf-8").read().rsplit("\nmain()", 1)[0], _contexts, "exec"), _ns)
compile_items, run = _ns["compile_items"], _ns["run"]

class Body:
    def __init__(self, r):
        self.r = r
        self.vars = {}   # name -> type ('Int','String','[Int]','Bool','Double','[String: Int]','Int?')
        self.mutable = set()
        self.count = 0
        self.lines = []
        self.depth = 0
        self.loop = 0

    def c(self, xs): return self.r.choice(xs)
    def fresh(self, prefix):
        self.count += 1
        return f"{prefix}{self.count}"
    def of(self, t, mutable=None):
        names = [n for n, ty in self.vars.items() if ty == t and (mutable is None or (n in self.mutable) == mutable)]
        return names

    def int_(self, k=1):
        opts = [lambda: str(self.c([0, 1, 2, 3, 5, 7, 10, -2, 100]))]
        # Now and then a bound of Int, where Swift traps on overflow.
        if self.r.random() < 0.08:
            opts = [lambda: self.c(["Int.max", "Int.min", "(Int.max - 1)", "9_223_372_036_854_775_807"])]
        if self.of('Int'): opts += [lambda: self.c(self.of('Int'))] * 3
        if self.of('[Int]'): opts += [lambda: f"{self.c(self.of('[Int]'))}.count", lambda: f"({self.c(self.of('[Int]'))}.last ?? -1)",
                                      lambda: f"{self.c(self.of('[Int]'))}.reduce(0, +)"]
        if self.of('String'): opts += [lambda: f"{self.c(self.of('String'))}.count"]
        if self.of('[String: Int]'): opts += [lambda: f'{self.c(self.of("[String: Int]"))}["{self.c("abc")}", default: 0]']
        if self.of('Int?'): opts += [lambda: f"({self.c(self.of('Int?'))} ?? {self.c([0, 9])})"]
        if k > 0:
            opts += [lambda: f"{self.int_(k-1)} {self.c(['+', '-', '*'])} {self.int_(k-1)}",
                     lambda: f"({self.int_(k-1)}) / {self.c([2, 3])}",
                     lambda: f"({self.int_(k-1)}) % {self.c([2, 5])}",
                     lambda: f"max({self.int_(k-1)}, {self.int_(k-1)})",
                     lambda: f"({self.bool_(k-1)} ? {self.int_(k-1)} : {self.int_(k-1)})"]
        return self.c(opts)()

    def str_(self, k=1):
        opts = [lambda: self.c(['"a"', '"b"', '""', '"xy"', '"Hi"'])]
        if self.of('String'): opts += [lambda: self.c(self.of('String'))] * 3
        if k > 0:
            opts += [lambda: f"{self.str_(k-1)} + {self.str_(k-1)}", lambda: f'"\\({self.int_(k-1)})"',
                     lambda: f"String({self.int_(k-1)})"]
            if self.of('[Int]'): opts += [lambda: f'{self.c(self.of("[Int]"))}.map {{ String($0) }}.joined(separator: ",")']
            if self.of('[String: Int]'): opts += [lambda: f'{self.c(self.of("[String: Int]"))}.keys.sorted().joined()']
            opts += [lambda: f"{self.str_(k-1)}.uppercased()"]
        return self.c(opts)()

    def bool_(self, k=1):
        opts = [lambda: self.c(['true', 'false'])]
        if self.of('Bool'): opts += [lambda: self.c(self.of('Bool'))] * 2
        opts += [lambda: f"{self.int_(0)} {self.c(['<', '>', '==', '!=', '>='])} {self.int_(0)}"]
        if self.of('String'): opts += [lambda: f"{self.c(self.of('String'))}.isEmpty", lambda: f'{self.c(self.of("String"))}.contains("a")']
        if self.of('[Int]'): opts += [lambda: f"{self.c(self.of('[Int]'))}.contains({self.int_(0)})"]
        if k > 0: opts += [lambda: f"{self.bool_(k-1)} && {self.bool_(k-1)}", lambda: f"!({self.bool_(k-1)})"]
        return self.c(opts)()

    def dbl_(self):
        opts = [lambda: self.c(['0.5', '2.5', '1.0', '3']), lambda: f"Double({self.int_(0)})"]
        if self.of('Double'): opts += [lambda: self.c(self.of('Double'))] * 2
        opts += [lambda: f"{self.dbl_leaf()} {self.c(['+', '-', '*', '/'])} {self.dbl_leaf()}"]
        return self.c(opts)()
    def dbl_leaf(self):
        return self.c(self.of('Double')) if self.of('Double') and self.r.random() < 0.6 else self.c(['0.5', '2.0', 'Double(3)'])

    def emit(self, text):
        self.lines.append("  " * (self.depth + 1) + text)

    def statement(self):
        kinds = [(3, self.declare), (3, self.mutate)]
        if self.depth < 2:
            kinds += [(1.5, self.if_), (1.5, self.for_), (0.8, self.switch_), (0.6, self.while_), (0.7, self.iflet), (0.4, self.nested_func)]
        if self.loop and self.depth > 0:
            kinds += [(0.3, lambda: self.emit(self.c(['continue', 'break'])))]
        if self.depth < 2:
            kinds += [(0.5, self.early_return), (0.4, self.closure_var), (0.4, self.string_loop), (0.4, self.enumerated_loop),
                      (0.3, self.tuple_), (0.3, self.repeat_), (0.25, self.pop_loop), (0.15, self.defer_), (0.15, self.fallthrough_),
                      (0.15, self.labeled)]
        self.weighted(kinds)

    def weighted(self, kinds):
        """Runs one of `kinds` (weight, production), drawn by weight."""
        total = sum(w for w, _ in kinds)
        x = self.r.uniform(0, total)
        for w, f in kinds:
            x -= w
            if x <= 0:
                return f()
        kinds[-1][1]()

    def declare(self):
        t = self.c(['Int', 'Int', 'String', '[Int]', 'Bool', 'Double', '[String: Int]', 'Int?'])
        mutable = self.r.random() < 0.7
        name = self.fresh({'Int': 'i', 'String': 's', '[Int]': 'a', 'Bool': 'b', 'Double': 'd', '[String: Int]': 'm', 'Int?': 'o'}[t])
        if t == 'Int': value = self.int_()
        elif t == 'String': value = self.str_()
        elif t == 'Bool': value = self.bool_()
        elif t == 'Double': value = self.dbl_()
        elif t == '[Int]':
            copies = self.of('[Int]')
            value = self.c(copies) if copies and self.r.random() < 0.5 else "[" + ", ".join(self.int_(0) for _ in range(self.r.randint(0, 3))) + "]"
        elif t == '[String: Int]': value = self.c(['[:]', '["a": 1]', '["b": 2, "c": 3]'])
        else: value = self.c(['nil', self.int_(0), f"Int({self.str_(0)})"])
        annotate = t in ('[Int]', '[String: Int]', 'Int?') or self.r.random() < 0.2
        self.emit(f"{'var' if mutable else 'let'} {name}{': ' + t if annotate else ''} = {value}")
        self.vars[name] = t
        if mutable: self.mutable.add(name)

    def mutate(self):
        candidates = [n for n in sorted(self.mutable) if n in self.vars]
        if not candidates:
            return self.declare()
        n = self.c(candidates); t = self.vars[n]
        if t == 'Int': self.emit(self.c([f"{n} += {self.int_()}", f"{n} -= {self.int_(0)}", f"{n} = {self.int_()}", f"{n} *= {self.c([2, -1, 3])}"]))
        elif t == 'String': self.emit(self.c([f"{n} += {self.str_()}", f"{n} = {self.str_()}", f'{n}.append("{self.c("xyz")}")']))
        elif t == '[Int]': self.emit(self.c([f"{n}.append({self.int_()})", f"{n} += [{self.int_(0)}]", f"{n}.insert({self.int_(0)}, at: 0)",
                                             f"{n}.sort()", f"{n}.reverse()", f"{n} = {n}.filter {{ $0 > {self.int_(0)} }}",
                                             f"if !{n}.isEmpty {{ {n}.removeLast() }}", f"{n}.removeAll()"]))
        elif t == 'Bool': self.emit(self.c([f"{n}.toggle()", f"{n} = {self.bool_()}"]))
        elif t == 'Double': self.emit(self.c([f"{n} += {self.dbl_()}", f"{n} = {self.dbl_()}", f"{n} /= 2"]))
        elif t == '[String: Int]': self.emit(self.c([f'{n}["{self.c("abc")}", default: 0] += {self.int_(0)}', f'{n}["{self.c("abc")}"] = {self.int_(0)}',
                                                      f'{n}["{self.c("abc")}"] = nil']))
        else: self.emit(self.c([f"{n} = {self.int_(0)}", f"{n} = nil", f"{n} = ({n} ?? 0) + 1"]))

    def block(self, count=None):
        saved = (dict(self.vars), set(self.mutable))
        self.depth += 1
        for _ in range(count or self.r.randint(1, 3)):
            self.statement()
        self.depth -= 1
        self.vars, self.mutable = saved[0], saved[1]

    def if_(self):
        self.emit(f"if {self.bool_()} {{"); self.block()
        if self.r.random() < 0.5:
            self.emit("} else {"); self.block()
        self.emit("}")

    def for_(self):
        v = self.fresh('k')
        arrays = self.of('[Int]')
        header = self.c([f"for {v} in 0..<{self.c([3, 4, 5])}", f"for {v} in stride(from: 0, to: 10, by: 3)"] +
                        ([f"for {v} in {self.c(arrays)}", f"for {v} in {self.c(arrays)} where {v} > 1"] if arrays else []) +
                        ([f"for {v} in {self.c(self.of('String'))}"] if self.of('String') and False else []))
        self.emit(header + " {")
        self.vars[v] = 'Int'
        self.loop += 1; self.block(); self.loop -= 1
        del self.vars[v]
        self.emit("}")

    def while_(self):
        ints = [n for n in sorted(self.mutable) if self.vars.get(n) == 'Int']
        if not ints: return self.declare()
        n = self.c(ints)
        self.emit(f"var guard{self.count} = 0")
        g = f"guard{self.count}"
        self.emit(f"while {n} < {self.c([20, 50])} && {g} < 10 {{")
        self.depth += 1; self.emit(f"{n} += {self.c([3, 7])}"); self.emit(f"{g} += 1"); self.depth -= 1
        self.emit("}")

    def switch_(self):
        ints = self.of('Int')
        subject = self.c(ints) if ints else self.int_()
        self.emit(f"switch {subject} {{")
        cases = self.r.sample(["case 0:", "case 1, 2:", "case 3...9:", "case ..<0:", "case let x where x > 50:", "case 10..<20:"], self.r.randint(1, 3))
        for case in cases:
            self.emit(case)
            if case.startswith("case let x"): self.vars['x'] = 'Int'
            self.block(1)
            self.vars.pop('x', None)
        self.emit("default:"); self.block(1)
        self.emit("}")

    def iflet(self):
        opts = self.of('Int?'); arrays = self.of('[Int]')
        sources = opts + [f"{a}.first" for a in arrays] + [f"Int({s})" for s in self.of('String')] + [f'{m}["a"]' for m in self.of('[String: Int]')]
        if not sources: return self.declare()
        v = self.fresh('v')
        self.emit(f"if let {v} = {self.c(sources)} {{")
        self.vars[v] = 'Int'; self.block(); del self.vars[v]
        if self.r.random() < 0.4:
            self.emit("} else {"); self.block()
        self.emit("}")

    def nested_func(self):
        ints = [n for n in sorted(self.mutable) if self.vars.get(n) == 'Int']
        f = self.fresh('f')
        if ints and self.r.random() < 0.5:
            self.emit(f"func {f}(_ x: inout Int) {{ x = x * 2 + 1 }}")
            self.emit(f"{f}(&{self.c(ints)})")
        else:
            self.emit(f"func {f}(_ x: Int, _ y: Int = 3) -> Int {{ x * y - 1 }}")
            self.vars_fn = f
            target = self.c(ints) if ints else None
            if target: self.emit(f"{target} = {f}({self.int_(0)})")
            else:
                n = self.fresh('i'); self.emit(f"let {n} = {f}({self.int_(0)}, {self.int_(0)})"); self.vars[n] = 'Int'

    def early_return(self):
        self.early = True
        value = {'Int': self.int_, 'String': self.str_, 'Bool': self.bool_, 'Double': self.dbl_}[self.result]()
        if self.r.random() < 0.5:
            self.emit(f"if {self.bool_()} {{ return {value} }}")
        else:
            self.emit(f"guard {self.bool_()} else {{ return {value} }}")

    def closure_var(self):
        g = self.fresh('g')
        self.emit(f"let {g} = {{ (x: Int) -> Int in x {self.c(['+', '*', '-'])} {self.c([1, 2, 3])} }}")
        ints = [n for n in sorted(self.mutable) if self.vars.get(n) == 'Int']
        if ints:
            self.emit(f"{self.c(ints)} = {g}({self.int_(0)})")
        else:
            n = self.fresh('i'); self.emit(f"let {n} = {g}({self.int_(0)})"); self.vars[n] = 'Int'

    def string_loop(self):
        strs = self.of('String')
        if not strs: return self.declare()
        n = self.fresh('n'); ch = self.fresh('ch')
        self.emit(f"var {n} = 0")
        self.emit(f"for {ch} in {self.c(strs)} {{")
        self.depth += 1; self.emit(f'if {ch} == "{self.c("axyHi")}" || {ch}.isUppercase {{ {n} += 1 }}'); self.depth -= 1
        self.emit("}")
        self.vars[n] = 'Int'; self.mutable.add(n)

    def enumerated_loop(self):
        arrays = self.of('[Int]')
        if not arrays: return self.declare()
        n = self.fresh('t'); i = self.fresh('idx'); x = self.fresh('el')
        self.emit(f"var {n} = 0")
        self.emit(f"for ({i}, {x}) in {self.c(arrays)}.enumerated() {{")
        self.depth += 1; self.emit(f"{n} += {i} * {x}"); self.depth -= 1
        self.emit("}")
        self.vars[n] = 'Int'; self.mutable.add(n)

    def tuple_(self):
        p = self.fresh('p'); q = self.fresh('q')
        self.emit(f"{self.c(['let', 'var'])} ({p}, {q}) = ({self.int_()}, {self.str_()})")
        self.vars[p] = 'Int'; self.vars[q] = 'String'

    def repeat_(self):
        n = self.fresh('r')
        self.emit(f"var {n} = {self.c([0, 1, 5])}")
        self.emit("repeat {")
        self.depth += 1; self.emit(f"{n} += {self.c([2, 3])}"); self.depth -= 1
        self.emit(f"}} while {n} < {self.c([4, 10])}")
        self.vars[n] = 'Int'; self.mutable.add(n)

    def pop_loop(self):
        arrays = [n for n in sorted(self.mutable) if self.vars.get(n) == '[Int]']
        if not arrays: return self.declare()
        a = self.c(arrays); n = self.fresh('sum'); x = self.fresh('top')
        self.emit(f"var {n} = 0")
        self.emit(f"while let {x} = {a}.popLast() {{ {n} += {x} }}")
        self.vars[n] = 'Int'; self.mutable.add(n)

    def defer_(self):
        ints = [n for n in sorted(self.mutable) if self.vars.get(n) == 'Int']
        if not ints: return self.declare()
        self.emit(f"defer {{ {self.c(ints)} += 1 }}")

    def fallthrough_(self):
        ints = [n for n in sorted(self.mutable) if self.vars.get(n) == 'Int']
        if not ints: return self.declare()
        n = self.c(ints)
        self.emit(f"switch {n} % 3 {{")
        self.emit("case 0:"); self.depth += 1; self.emit(f"{n} += 1"); self.emit("fallthrough"); self.depth -= 1
        self.emit("case 1:"); self.depth += 1; self.emit(f"{n} *= 2"); self.depth -= 1
        self.emit("default:"); self.depth += 1; self.emit("break"); self.depth -= 1
        self.emit("}")

    def labeled(self):
        n = self.fresh('c')
        self.emit(f"var {n} = 0")
        self.emit(f"outer{self.count}: for a in 0..<4 {{")
        self.depth += 1
        self.emit("for b in 0..<4 {")
        self.depth += 1
        self.emit(f"if a * b > {self.c([2, 4])} {{ {self.c(['break', 'continue'])} outer{self.count} }}")
        self.emit(f"{n} += a + b")
        self.depth -= 1
        self.emit("}")
        self.depth -= 1
        self.emit("}")
        self.vars[n] = 'Int'; self.mutable.add(n)

    def make(self, result):
        self.result = result
        self.early = False
        for _ in range(self.r.randint(2, 7)):
            self.statement()
        value = {'Int': self.int_, 'String': self.str_, 'Bool': self.bool_, 'Double': self.dbl_}[result]()
        self.emit(f"return {value}")
        return "\n".join(l[2:] for l in self.lines)

# The struct record bodies use: a table's record in Quarry (`@Table`), a plain struct to swiftc.
RECORD = "struct Item { let id: Int; var title = \"\"; var count = 0; var done = false }"


class RecordBody(Body):
    """Bodies over records: copies, property changes, `toggle()`, whole reassignments, arrays
    of records changed through subscripts, `inout` records, switches and loops over them."""

    def item(self):
        args = [f"id: {self.c([1, 2, 3, 7])}"]
        if self.r.random() < 0.7: args.append(f"title: {self.str_(0)}")
        if self.r.random() < 0.5: args.append(f"count: {self.int_(0)}")
        if self.r.random() < 0.3: args.append(f"done: {self.bool_(0)}")
        return f"Item({', '.join(args)})"

    def about_records(self, chance, on_record, on_list, otherwise):
        """Now and then (`chance`) a value read off the records and arrays of records in scope."""
        records, lists = self.of('Item'), self.of('[Item]')
        if (records or lists) and self.r.random() < chance:
            opts = (on_record(records) if records else []) + (on_list(lists) if lists else [])
            return self.c(opts)()
        return otherwise()

    def int_(self, k=1):
        return self.about_records(
            0.45,
            lambda rs: [lambda: f"{self.c(rs)}.count", lambda: f"{self.c(rs)}.id", lambda: f"{self.c(rs)}.title.count"],
            lambda ls: [lambda: f"{self.c(ls)}.count", lambda: f"{self.c(ls)}.reduce(0) {{ $0 + $1.count }}",
                        lambda: f"{self.c(ls)}.filter {{ $0.done }}.count", lambda: f"({self.c(ls)}.first?.count ?? -1)",
                        lambda: f"({self.c(ls)}.map(\\.count).max() ?? 0)"],
            lambda: super(RecordBody, self).int_(k))

    def str_(self, k=1):
        return self.about_records(
            0.4,
            lambda rs: [lambda: f"{self.c(rs)}.title", lambda: f'"\\({self.c(rs)}.id):\\({self.c(rs)}.count)"'],
            lambda ls: [lambda: f'{self.c(ls)}.map(\\.title).joined(separator: ",")', lambda: f'({self.c(ls)}.last?.title ?? "none")'],
            lambda: super(RecordBody, self).str_(k))

    def bool_(self, k=1):
        return self.about_records(
            0.4,
            lambda rs: [lambda: f"{self.c(rs)}.done", lambda: f"{self.c(rs)}.title.isEmpty"],
            lambda ls: [lambda: f"{self.c(ls)}.contains {{ $0.done }}", lambda: f"{self.c(ls)}.allSatisfy {{ $0.count > 0 }}"],
            lambda: super(RecordBody, self).bool_(k))

    def statement(self):
        kinds = [(2, self.declare_record), (3, self.mutate_record), (1, super().statement)]
        if self.depth < 2:
            kinds += [(0.7, self.switch_record), (0.5, self.inout_record), (0.5, self.loop_records), (0.4, self.if_)]
        self.weighted(kinds)

    def declare_record(self):
        mutable = self.r.random() < 0.8
        records = self.of('Item')
        if records and self.r.random() < 0.35 or self.r.random() < 0.3:
            name = self.fresh('l')
            parts = [self.c(records) if records and self.r.random() < 0.5 else self.item() for _ in range(self.r.randint(0, 3))]
            self.emit(f"{'var' if mutable else 'let'} {name}: [Item] = [{', '.join(parts)}]")
            self.vars[name] = '[Item]'
        else:
            name = self.fresh('r')
            value = self.c(records) if records and self.r.random() < 0.4 else self.item()
            self.emit(f"{'var' if mutable else 'let'} {name} = {value}")
            self.vars[name] = 'Item'
        if mutable: self.mutable.add(name)

    def mutate_record(self):
        records = [n for n in sorted(self.mutable) if self.vars.get(n) == 'Item']
        lists = [n for n in sorted(self.mutable) if self.vars.get(n) == '[Item]']
        if not records and not lists:
            return self.declare_record()
        if records and (not lists or self.r.random() < 0.6):
            n = self.c(records)
            others = self.of('Item')
            self.emit(self.c([f"{n}.title = {self.str_()}", f"{n}.title += {self.str_(0)}", f"{n}.count += {self.int_()}",
                              f"{n}.count = {self.int_()}", f"{n}.done.toggle()", f"{n}.done = {self.bool_()}",
                              f'{n} = Item(id: {n}.id + 1, title: {n}.title + "!", count: {n}.count * 2)',
                              f"{n} = {self.c(others)}", f"{n} = {self.item()}"]))
        else:
            n = self.c(lists)
            self.emit(self.c([f"{n}.append({self.c(self.of('Item')) if self.of('Item') else self.item()})",
                              f"if !{n}.isEmpty {{ {n}[0].count += {self.int_(0)} }}",
                              f"if {n}.count > 1 {{ {n}[1].title = {self.str_(0)} }}",
                              f"for i in {n}.indices {{ {n}[i].count += i }}",
                              f"{n} = {n}.filter {{ !$0.done }}",
                              f"{n}.sort {{ $0.count < $1.count }}",
                              f"if !{n}.isEmpty {{ {n}.removeFirst() }}",
                              f"{n} = {n}.map {{ var x = $0; x.count += 1; return x }}"]))

    def switch_record(self):
        records = [n for n in sorted(self.mutable) if self.vars.get(n) == 'Item']
        if not records: return self.declare_record()
        n = self.c(records)
        self.emit(f"switch {n}.count {{")
        self.emit(f"case ..<1: {n}.title = {self.str_(0)}")
        self.emit(f"case 1...5: {n}.count *= {self.c([2, 3])}")
        self.emit(f"default: {n}.done.toggle()")
        self.emit("}")

    def inout_record(self):
        records = [n for n in sorted(self.mutable) if self.vars.get(n) == 'Item']
        if not records: return self.declare_record()
        f = self.fresh('bump')
        self.emit(f'func {f}(_ x: inout Item) {{ x.count += {self.c([1, 2])}; x.title += "{self.c("bz")}" }}')
        self.emit(f"{f}(&{self.c(records)})")

    def make(self, result):
        body = super().make(result)
        # Now and then the body's answer is a record itself (its fields as text), which a
        # write inserts as the record: the record, not a value read off it, is compared.
        records = [n for n, t in self.vars.items() if t == 'Item']
        self.record = None
        if result == 'String' and records and not self.early and self.r.random() < 0.5:
            self.record = self.c(sorted(records))
            lines = body.split("\n")
            lines[-1] = f'return "\\({self.record}.id)|\\({self.record}.title)|\\({self.record}.count)|\\({self.record}.done)"'
            body = "\n".join(lines)
        return body

    def loop_records(self):
        lists = self.of('[Item]')
        if not lists: return self.declare_record()
        n = self.fresh('acc'); x = self.fresh('it')
        self.emit(f'var {n} = ""')
        self.emit(f"for {x} in {self.c(lists)} where {x}.count >= 0 {{")
        self.depth += 1; self.emit(f'{n} += {x}.title + "\\({x}.done)"'); self.depth -= 1
        self.emit("}")
        self.vars[n] = 'String'; self.mutable.add(n)


parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=3)
parser.add_argument("--count", type=int, default=700)
parser.add_argument("--family", choices=["plain", "records"], default="plain",
                    help="plain: Swift's own values (bodies.json); records: records of a table (records.json)")
parser.add_argument("--out")
args = parser.parse_args()
seed, count = args.seed, args.count
out = args.out or (OUT if args.family == "plain" else os.path.join(os.path.dirname(OUT), "records.json"))
if args.family == "records":
    _ns["PRELUDE"] += RECORD + "\n"
r = random.Random(seed)
items = []
for _ in range(count):
    t = r.choice(['Int', 'Int', 'String', 'Bool', 'Double'] if args.family == "plain" else ['Int', 'String', 'String', 'Bool'])
    b = (Body if args.family == "plain" else RecordBody)(r)
    body = b.make(t)
    item = {"type": t, "body": body, "early": b.early}
    if getattr(b, "record", None): item["record"] = b.record
    items.append(item)
allk = []
with tempfile.TemporaryDirectory() as tmp:
    for i in range(0, len(items), 300):
        kept, binary = compile_items(items[i:i+300], tmp)
        values = run(kept, binary)
        for j, it in enumerate(kept):
            e = dict(it)
            if values.get(j) is None: e["crash"] = True
            else: e["bound"], e["reflecting"] = values[j]
            allk.append(e)
with open(out, "w", encoding="utf-8") as handle:
    corpus = {"seed": seed, "generated": len(items), "probes": allk}
    if args.family == "records":
        corpus["declarations"] = RECORD
    json.dump(corpus, handle, ensure_ascii=False, indent=0)
    handle.write("\n")
print(len(items), "generated;", len(allk), "kept;", sum(1 for e in allk if e.get("crash")), "trap")
