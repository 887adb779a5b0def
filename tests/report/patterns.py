#!/usr/bin/env python3
"""patterns.py - the sentence patterns a ruleset's rules core writes into
its events, read from its C source, and whether a narrative template file
covers each of them.

    patterns.py SOURCE.c [SOURCE.c ...] --check TEMPLATES.txt
    patterns.py SOURCE.c ...            (lists them, with their event kind)

A pattern is the format string given to the ruleset's vw_ev() helper (the
string literals that follow `vw_ev(c, EV_KIND, unit, target, value,`, joined
as C joins adjacent literals) or to events_add() directly.  --check exits 1 naming each pattern with
no `core:` entry in the template file, and each entry whose pattern the
source no longer writes.
"""
import re
import sys

CALLS = [(re.compile(r'\b(?:vw_|b7_)?ev\(c,\s*(EV_[A-Z_]+),'), 3),
         (re.compile(r'\bevents_add\((?:c->ev|evs),\s*(EV_[A-Z_]+),'), 4)]
LIT = re.compile(r'\s*"((?:[^"\\]|\\.)*)"')


def unescape(s):
    return bytes(s, "utf-8").decode("unicode_escape").encode(
        "latin-1").decode("utf-8")


def skip_args(src, i, n):
    """Index after n top-level commas from i."""
    depth = 0
    while n > 0 and i < len(src):
        ch = src[i]
        if ch == '"':
            i += 1
            while src[i] != '"':
                i += 2 if src[i] == '\\' else 1
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == ',' and depth == 0:
            n -= 1
        i += 1
    return i


def patterns(paths):
    found = {}
    for path in paths:
        src = open(path, encoding="utf-8").read()
        for call, nargs in CALLS:
          for m in call.finditer(src):
            i = skip_args(src, m.end(), nargs)
            parts = []
            while True:
                lm = LIT.match(src, i)
                if not lm:
                    break
                parts.append(lm.group(1))
                i = lm.end()
            if parts and "".join(parts) != "%s":
                found.setdefault(unescape("".join(parts)), m.group(1))
    return found


def main():
    args = sys.argv[1:]
    tmpl = None
    if "--check" in args:
        k = args.index("--check")
        tmpl = args[k + 1]
        args = args[:k] + args[k + 2:]
    found = patterns(args)
    if tmpl is None:
        for p, kind in sorted(found.items(), key=lambda x: (x[1], x[0])):
            print("%-20s %s" % (kind, p))
        return 0
    have = set()
    for line in open(tmpl, encoding="utf-8"):
        if line.startswith("core: "):
            have.add(line[len("core: "):].rstrip("\n"))
    bad = 0
    for p in sorted(set(found) - have):
        print("no template for the pattern: %s" % p)
        bad += 1
    for p in sorted(have - set(found)):
        print("a template for a pattern the source does not write: %s" % p)
        bad += 1
    print("%d patterns, %d templates, %d problems" % (len(found), len(have),
                                                      bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
