#!/usr/bin/env python3
"""patterns.py - a ruleset's message catalogue checked against its
narrative templates and its code.

    patterns.py [--built-on] CATALOGUE.h TEMPLATES.txt SOURCE.c [...]
    patterns.py CATALOGUE.h                 (lists the messages)

The catalogue is the ruleset's src/rules/NAME_msgs.h: one macro a
message, `#define VW_M_HALTS "halts", "u", "%s halts."` (an _M_ macro
an event, an _R_ macro the purpose of a die), plus the messages
every ruleset writes: EVENT_M_PHASE of src/core/events.h and the
deployment's of src/core/deploy.h (--built-on: a ruleset built on
another, struct ruleset.base, whose catalogue and templates have those
and the base's messages).  The check
exits 1, naming each fault, when

  - an id is given twice, or is not lower-case letters, digits and '-';
  - a message's letters are not those of EVENT_TYPES, or do not match
    its sentence (one a %s or %d; a number's letter for %d, another for
    %s);
  - a macro is missing from the catalogue's table (EVENT_MSG(NAME) in
    one of the sources), or the table names one the catalogue lacks;
  - a macro is used nowhere in the sources;
  - an event message (_M_, and the phase) has no "msg:" entry in the
    templates, an entry names an id the catalogue lacks, or a template
    uses {N} past the message's values.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EVENTS_H = os.path.join(HERE, "..", "..", "src", "core", "events.h")
DEPLOY_H = os.path.join(HERE, "..", "..", "src", "core", "deploy.h")

DEFINE = re.compile(r'#define (\w+_[MR]_\w+) \\\n\s*"([^"]*)", "([^"]*)",'
                    r'((?:\s*\\?\n?\s*"(?:[^"\\]|\\.)*")+)')
LIT = re.compile(r'"((?:[^"\\]|\\.)*)"')
CONV = re.compile(r'%(%|[0-9]*[sd])')
NUMBERS = "pnra"


def event_types():
    src = open(EVENTS_H, encoding="utf-8").read()
    m = re.search(r'#define EVENT_TYPES "([a-z]+)"', src)
    return m.group(1)


def catalogue(path):
    """name -> (id, letters, sentence), in the file's order."""
    src = open(path, encoding="utf-8").read()
    out = {}
    for m in DEFINE.finditer(src):
        out[m.group(1)] = (m.group(2), m.group(3),
                           "".join(LIT.findall(m.group(4))))
    return out


def phase():
    src = open(EVENTS_H, encoding="utf-8").read()
    m = re.search(r'#define (EVENT_M_PHASE) "([^"]*)", "([^"]*)", '
                  r'"((?:[^"\\]|\\.)*)"', src)
    return {m.group(1): (m.group(2), m.group(3), m.group(4))}


def check(cat_path, tmpl, sources, built_on=False):
    faults = []
    types = event_types()
    cat = catalogue(cat_path)
    if not cat:
        return ["%s: no messages found" % cat_path]
    allm = dict(cat)
    if not built_on:
        allm.update(phase())
        allm.update(catalogue(DEPLOY_H))
    ids = {}
    for name, (mid, letters, fmt) in allm.items():
        if mid in ids:
            faults.append("%s: the id \"%s\" is given twice (%s, %s)"
                          % (cat_path, mid, ids[mid], name))
        ids[mid] = name
        if not re.fullmatch(r"[a-z0-9-]+", mid):
            faults.append("%s: %s: \"%s\" is not an id" % (cat_path, name,
                                                           mid))
        convs = [c for c in CONV.findall(fmt) if c != "%"]
        if len(convs) != len(letters):
            faults.append("%s: %s: %d letters for %d values in \"%s\""
                          % (cat_path, name, len(letters), len(convs), fmt))
            continue
        for c, t in zip(convs, letters):
            if t not in types:
                faults.append("%s: %s: '%s' is not a letter of EVENT_TYPES "
                              "(%s)" % (cat_path, name, t, types))
            elif (t in NUMBERS) != c.endswith("d"):
                faults.append("%s: %s: '%s' cannot be written with %%%s"
                              % (cat_path, name, t, c))
    code = "".join(open(p, encoding="utf-8").read() for p in sources)
    table = set(re.findall(r'EVENT_MSG\((\w+)\)', code))
    # EVENT_MSGS_CORE (src/core/deploy.h) stands for the core's rows
    if re.search(r'\bEVENT_MSGS_CORE\b', code):
        core = open(DEPLOY_H, encoding="utf-8").read()
        m = re.search(r'#define EVENT_MSGS_CORE((?:[^\n]*\\\n)*[^\n]*)',
                      core)
        table |= set(re.findall(r'EVENT_MSG\((\w+)\)', m.group(1)))
    for name in allm:
        if name not in table:
            faults.append("%s: %s is not in the catalogue's table "
                          "(EVENT_MSG(%s))" % (cat_path, name, name))
        uses = len(re.findall(r'\b%s\b' % name, code))
        if not name.startswith("EVENT_M_") and uses < 2:
            faults.append("%s: %s is written by no code" % (cat_path, name))
    for name in table - set(allm):
        faults.append("the table names %s, which %s lacks" % (name, cat_path))
    if tmpl is None:
        return faults
    have = {}
    for n, line in enumerate(open(tmpl, encoding="utf-8"), 1):
        if line.startswith("msg: "):
            cur = line[5:].strip()
            have[cur] = n
            if cur not in ids:
                faults.append("%s:%d: no message \"%s\" in %s"
                              % (tmpl, n, cur, cat_path))
        elif line.startswith("says: ") and cur in ids:
            nv = len(allm[ids[cur]][1])
            for k in re.findall(r"\{([0-9]+)\}", line):
                if int(k) < 1 or int(k) > nv:
                    faults.append("%s:%d: {%s}, but \"%s\" has %d values"
                                  % (tmpl, n, k, cur, nv))
    for name, (mid, letters, fmt) in allm.items():
        if "_R_" not in name and mid not in have:
            faults.append("%s: no template for \"%s\" (%s: \"%s\")"
                          % (tmpl, mid, name, fmt))
    return faults


def main():
    args = sys.argv[1:]
    built_on = bool(args) and args[0] == "--built-on"
    if built_on:
        args = args[1:]
    if len(args) == 1:
        for name, (mid, letters, fmt) in catalogue(args[0]).items():
            print("%-28s %-8s %s" % (mid, letters, fmt))
        return 0
    if len(args) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    faults = check(args[0], args[1], args[2:], built_on)
    for f in faults:
        print(f)
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
