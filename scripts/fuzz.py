#!/usr/bin/env python3
"""Fuzz the quarry binary: seeded mutations of real DSL and SQL inputs, run in batches through
`quarry --format json -e …`, each input checked for its outcome:

- no crash (a signal ends the process): the batch is re-run one input at a time to name it;
- no hang: an input over 2 s (a batch over its budget is re-run one input at a time);
- every error located: its line and column point inside the input.

Usage: python3 scripts/fuzz.py --quarry .build/debug/quarry [--count 200000] [--seed 1] [-j 2]
Prints one summary line: `fuzz: N inputs, crashes C, hangs H, unlocated U` and the failing
inputs, and exits 1 if any input failed.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEPARATOR = ".headers on"

REFERENCE_DSL = [
    "Reminder.all",
    "Reminder.where { !$0.isCompleted }.order(by: \\.title).limit(10)",
    "Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }.select { ($0.title, $1.title) }",
    "Reminder.leftJoin(User.all) { $0.assignedUserID.eq($1.id) }.select { ($0.title, $1.name ?? \"nobody\") }",
    "Reminder.where { $0.title.collate(.nocase).like(\"%a%\") || $0.id.in([1, 2, 3]) }",
    "Tag.insert { Tag.Draft(title: \"a\\u{41}\\n\") }",
    "Reminder.select { ($0.priority.count(distinct: true), $0.title.groupConcat(\", \")) }",
    "#sql(\"SELECT 1; SELECT 2\")",
    "Tag.where { $0.title.eq(\"x\") }.update { $0.title = \"y\" }",
]
REFERENCE_SQL = [
    "SELECT title FROM reminders WHERE isCompleted -- done;\nORDER BY title;",
    "DELETE FROM tags /* ; */ WHERE id = 99; SELECT count(*) FROM tags;",
    "WITH x AS (SELECT 1 AS n) SELECT n + 1 FROM x; SELECT 'a;b';",
    "BEGIN; UPDATE tags SET title = upper(title) WHERE id = 1; ROLLBACK;",
    "CREATE TEMP TRIGGER t AFTER INSERT ON tags BEGIN SELECT 1; END; DROP TRIGGER t;",
    "SELECT 'é😀', title FROM tags WHERE id IN (1, 2) ORDER BY 2;",
]


def corpus():
    inputs = REFERENCE_DSL + REFERENCE_SQL
    visible = os.path.join(ROOT, "..", "shared", "conformance", "visible.jsonl")
    if os.path.exists(visible):
        with open(visible, encoding="utf-8") as handle:
            for line in handle:
                try:
                    expr = json.loads(line).get("expr")
                except ValueError:
                    continue
                if expr:
                    inputs.append(expr)
    return inputs


def mutate(text, rng):
    chars = list(text)
    kind = rng.randrange(9)
    if not chars:
        return text
    if kind == 0:
        return text[: rng.randrange(len(text) + 1)]
    if kind == 1:
        tokens = text.split(" ")
        if len(tokens) > 1:
            a, b = rng.randrange(len(tokens)), rng.randrange(len(tokens))
            tokens[a], tokens[b] = tokens[b], tokens[a]
        return " ".join(tokens)
    if kind == 2:
        for _ in range(rng.randint(1, 4)):
            chars.insert(rng.randrange(len(chars) + 1), chr(rng.randrange(1, 256)))
    elif kind == 3:
        start = rng.randrange(len(chars))
        del chars[start : start + rng.randint(1, 8)]
    elif kind == 4:
        start = rng.randrange(len(chars))
        end = min(len(chars), start + rng.randint(1, 12))
        chars[end:end] = chars[start:end]
    elif kind == 5:
        chars[rng.randrange(len(chars))] = rng.choice("(){}[].,$\\\"!?#&|;'")
    elif kind == 6:
        opening, closing = rng.choice(["[]", "()", "{}"])
        depth = rng.randint(1, 40)
        start = rng.randrange(len(chars) + 1)
        end = rng.randint(start, len(chars))
        chars[end:end] = [closing] * rng.randint(0, depth)
        chars[start:start] = [opening] * depth
    elif kind == 7:
        piece = rng.choice([";", "; ", "\n", " // x;\n", " -- y;\n", " /* ; */ ", ";;", "\n.where { $0.id > 1 }"])
        position = rng.randrange(len(chars) + 1)
        chars[position:position] = list(piece)
    else:
        piece = rng.choice(["\\u{41}", "\\u{D800}", "\\u{110000}", "\\u{", "\\0", "\\q", "\\\"", "\\(", "\"\\", "#\"", "\"\"\"", "\x00"])
        position = rng.randrange(len(chars) + 1)
        chars[position:position] = list(piece)
    return "".join(chars)


def located(error, text):
    lines = text.split("\n")
    line, column = error.get("line", 0), error.get("column", 0)
    if not (1 <= line <= len(lines)) or column < 1:
        return False
    return column <= len(lines[line - 1]) + 1


def run(quarry, inputs, timeout, workdir):
    arguments = [quarry, "--format", "json"]
    for text in inputs:
        arguments += ["-e", text, "-e", SEPARATOR]
    environment = dict(os.environ, EDITOR="true", VISUAL="true", PAGER="cat", NO_COLOR="1",
                       XDG_STATE_HOME=workdir, QUARRY_FIXTURES=os.path.join(ROOT, "fixtures"))
    try:
        done = subprocess.run(arguments, capture_output=True, timeout=timeout, cwd=workdir, env=environment)
    except subprocess.TimeoutExpired:
        return "hang", None
    if done.returncode < 0:
        return "crash", None
    groups, current = [], []
    for line in done.stdout.decode("utf-8", "replace").split("\n"):
        if not line:
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            return "not json: " + line[:200], None
        if obj.get("command") == SEPARATOR:
            groups.append(current)
            current = []
        else:
            current.append(obj)
    return None, groups


def check_batch(quarry, batch, workdir):
    """Failures of one batch: [(kind, input)]."""
    problem, groups = run(quarry, batch, 2.0 * len(batch) + 5, workdir)
    if problem is not None or len(groups) != len(batch):
        if len(batch) == 1:
            return [(problem or "stopped early", batch[0])]
        failures = []
        for text in batch:
            failures += check_batch(quarry, [text], workdir)
        return failures
    failures = []
    for text, objects in zip(batch, groups):
        for obj in objects:
            error = obj.get("error")
            if error and not located(error, text):
                failures.append(("unlocated %s:%s %s" % (error.get("line"), error.get("column"), error.get("message")), text))
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quarry", required=True)
    parser.add_argument("--count", type=int, default=200000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("-j", type=int, default=2)
    options = parser.parse_args()
    quarry = os.path.abspath(options.quarry)
    rng = random.Random(options.seed)
    base = corpus()
    inputs = []
    while len(inputs) < options.count:
        text = mutate(base[len(inputs) % len(base)], rng)
        # Meta-commands are not the target (`.open`, `.output` would change the run itself);
        # NUL cannot travel in an argument.
        if text.lstrip().startswith(".") or "\x00" in text:
            text = text.replace("\x00", "").lstrip().lstrip(".") or "Tag.all"
        inputs.append(text)
    batches = [inputs[i : i + options.batch] for i in range(0, len(inputs), options.batch)]
    failures = []
    with tempfile.TemporaryDirectory() as workdir:
        with ThreadPoolExecutor(max_workers=options.j) as pool:
            for result in pool.map(lambda batch: check_batch(quarry, batch, workdir), batches):
                failures += result
    kinds = {"crash": 0, "hang": 0, "unlocated": 0, "other": 0}
    for kind, text in failures:
        key = kind.split(" ")[0] if kind.split(" ")[0] in kinds else "other"
        kinds[key] += 1
        print("%s: %r" % (kind, text[:300]))
    print("fuzz: %d inputs, crashes %d, hangs %d, unlocated %d, other %d"
          % (len(inputs), kinds["crash"], kinds["hang"], kinds["unlocated"], kinds["other"]))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
