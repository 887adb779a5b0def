#!/usr/bin/env python3
"""Check a despatch game archive from the documentation alone.

Usage: check_archive.py ARCHIVE.jsonl

Written only from docs/ledger.md and docs/despatch-archive.5, with no look
at the C sources, to show that the documentation is enough for another
program to recompute the hashes of an archive.  It checks:

  - each record (hex) splits into the documented fields of a genesis,
    step or act record;
  - each head is H("despatch/record/v1", record), and each record's
    previous head is the head of the record before it;
  - the header's game, ruleset and engine, and the scenario's SHA-256,
    against the genesis;
  - each step's revealed S_k hashes down, k times, to the genesis S_0;
  - each leaf, recomputed from the archive line's side, seat, salt and
    orders (with the commitment in a game with nonces), and each revealed
    nonce against its commitment;
  - each set's salt is the documented one, made from S_k and its orders;
  - the orders root, and the dice seed (plain or with nonces; skipped when
    the record says the dice were scripted);
  - the events hash of every step, from the archive line's events;
  - the state hash of every step, rebuilt from the archive line's
    "state" object as docs/ledger.md ("The state hash") and the man
    page ("The state object") give it: each member and field by name and
    in its order, each a whole number, each list's length before its
    entries (but commanders_out's), the cards, effects and
    commanders_out only in a battle that plays cards;
  - that every step line has its events and its state, and no other
    line has either;
  - seq and step numbering (a dropped line), the header's `finished`
    against n, and with --with-addresses each seat's e-mail hash.

Where the documentation leaves a choice open, this script guesses, and
the guess matches what despatch writes:
  - act records are lines of their own, {"seq","kind":"act","record",
    "head","sig"}, among the step lines; seq counts every record;
  - in the events hash, kind, text and message id are text, and side,
    unit, target, value and die sides are numbers, as the archive's JSON
    gives them; a typed value is hashed as its letter and its decimal or
    plain text, whatever its kind;
  - in the dice seed of a game with nonces, a leaf whose nonce field is
    "" (never committed, or not revealed) takes the absent value;
  - a seat's e-mail is checked against the hash of the last `replace` act
    for that seat, else the genesis's;
  - S_k is indexed by the step number itself, even for a chain whose
    first step is not 1 (not tried: the demo starts at step 1).

It does NOT check the Ed25519 signatures (the standard library has no
Ed25519), and does NOT play the battle again: it checks that the state
an archive shows is the one its record signed, not that the rules lead
to it, and not the number of dice rolled; `despatch verify` does both.

Prints one line per failure (archive line number and field) and exits 1,
or prints a one-line summary and exits 0.
"""
import hashlib
import json
import struct
import sys

ZERO32 = bytes(32)
failures = []


def fail(line, field, why):
    failures.append("line %d: %s: %s" % (line, field, why))


# --- The encoding: every field is a 4-byte big-endian length, then bytes.

def field(x):
    """One field: text as UTF-8, a number as 8 bytes two's complement."""
    if isinstance(x, bool):
        x = int(x)
    if isinstance(x, int):
        x = struct.pack(">q", x)
    elif isinstance(x, str):
        x = x.encode("utf-8")
    return struct.pack(">I", len(x)) + x


def H(tag, *values):
    """H(tag, a, b, ...) = SHA-256(F(tag) || F(a) || F(b) || ...)."""
    return hashlib.sha256(b"".join(field(v) for v in (tag,) + values)).digest()


class Fields:
    """Reads a record's run of fields one by one."""

    def __init__(self, data):
        self.data, self.pos = data, 0

    def raw(self):
        if self.pos + 4 > len(self.data):
            raise ValueError("record ends early")
        n = struct.unpack(">I", self.data[self.pos:self.pos + 4])[0]
        start, self.pos = self.pos + 4, self.pos + 4 + n
        if self.pos > len(self.data):
            raise ValueError("field runs past the record")
        return self.data[start:self.pos]

    def num(self):
        b = self.raw()
        if len(b) != 8:
            raise ValueError("a number field is %d bytes, not 8" % len(b))
        return struct.unpack(">q", b)[0]

    def text(self):
        return self.raw().decode("utf-8")

    def hash(self):
        b = self.raw()
        if len(b) != 32:
            raise ValueError("a hash field is %d bytes, not 32" % len(b))
        return b

    def end(self):
        if self.pos != len(self.data):
            raise ValueError("%d bytes left after the last field"
                             % (len(self.data) - self.pos))


# --- The three record layouts of docs/ledger.md, "The encoding".

def read_genesis(f):
    g = {}
    for key in ("version", "game", "title", "scenario_sha256", "ruleset",
                "engine", "n", "first_step", "sandbox", "fog", "nonces"):
        g[key] = f.num() if key in ("version", "n", "first_step", "sandbox",
                                    "fog", "nonces") else f.raw()
    for key in ("game", "title", "ruleset", "engine"):
        g[key] = g[key].decode("utf-8")
    g["sides"] = [f.text() for _ in range(f.num())]
    g["seats"] = [{"seat": f.num(), "side": f.text(), "email_hash": f.hash()}
                  for _ in range(f.num())]
    g["s0"], g["public_key"] = f.hash(), f.raw()
    return g


def read_step(f):
    s = {"version": f.num()}
    # Layout 2 names the engine that played the step; layout 1 (older
    # records) does not, and is engine 4's or before.
    s["engine"] = f.num() if s["version"] == 2 else 0
    s.update({"step": f.num(), "turn": f.num(), "phasing": f.text(),
              "prev": f.hash()})
    s["leaves"] = [{"side": f.text(), "seat": f.num(), "mailed": f.num(),
                    "leaf": f.hash(), "commitment": f.hash(),
                    "nonce": f.raw()} for _ in range(f.num())]
    for key in ("root", "s_k", "dice_seed"):
        s[key] = f.hash()
    s["scripted"], s["dice_rolled"] = f.num(), f.num()
    s["events_hash"], s["state_hash"] = f.hash(), f.hash()
    return s


def read_act(f):
    a = {"version": f.num(), "act": f.text(), "step": f.num(),
         "prev": f.hash(), "seat": f.num(), "email_hash": f.hash(),
         "amount": f.num(), "text": f.text()}
    if a["act"] == "upgrade":
        a.update({"engine_from": f.num(), "engine_to": f.num(),
                  "state_from": f.hash(), "state_to": f.hash()})
    return a


def read_record(hextext):
    f = Fields(bytes.fromhex(hextext))
    kind = f.text()
    reader = {"genesis": read_genesis, "step": read_step, "act": read_act}
    if kind not in reader:
        raise ValueError("unknown record kind %r" % kind)
    rec = reader[kind](f)
    rec["kind"] = kind
    f.end()
    return rec


# The kinds of an event's values, by the names the archive gives them,
# and the letters the events hash takes (docs/ledger.md, "The events
# hash").
LETTERS = {"unit": "u", "commander": "k", "brigade": "b", "stand": "p",
           "side": "s", "count": "n", "die": "r", "distance": "d",
           "bearing": "a", "ground": "t", "clock": "c", "word": "w"}
NUMBERS = ("stand", "count", "die", "bearing")


def events_hash(events, typed):
    """Engines to 4: H("despatch/events/v1", count, then each event's kind,
    side, unit, target, value, die sides and text).  From engine 5:
    H("despatch/events/v2", count, then each event's kind, side, unit,
    target, value, die sides, message id, the number of its values and
    each value's letter and text)."""
    values = [len(events)]
    for e in events:
        values += [e["kind"], e["side"], e["unit"], e["target"], e["value"],
                   e["sides"]]
        if not typed:
            values.append(e["text"])
            continue
        if not isinstance(e["msg"], str) or e["msg"] == "":
            raise TypeError("the message id %r is not one" % (e["msg"],))
        values += [e["msg"], len(e["args"])]
        for a in e["args"]:
            (name, v), = a.items()
            whole = isinstance(v, int) and not isinstance(v, bool)
            if (name in NUMBERS and not whole) or \
                    (name not in NUMBERS and not isinstance(v, str)):
                raise TypeError("the value %r is not a %s" % (v, name))
            values += [LETTERS[name], str(v)]
    return H("despatch/events/v2" if typed else "despatch/events/v1",
             *values)


# The "state" object: its lists in hash order, each entry's numbers in
# hash order (docs/ledger.md, "The state hash").
STATE_LISTS = [
    ("stands", ("unit", "sp", "x", "y", "facing", "formation", "flags")),
    ("brigades", ("lost", "flags", "hits")),
    ("commanders", ("x", "y", "facing", "gone", "attached")),
    ("terrain", ("trodden",)),
    ("units", ("density", "disruption", "marks")),
]
# Only in a battle that plays cards; commanders_out has no count.
CARD_LISTS = [
    ("cards", ("at",)),
    ("effects", ("card", "side", "unit", "commander", "x", "y", "value",
                 "until", "spent")),
    ("commanders_out", ("out_until", "out_removed")),
]
NO_COUNT = ("commanders_out",)
YES_NO = {("commanders", "gone"), ("terrain", "trodden"),
          ("effects", "spent"), ("commanders_out", "out_removed")}
FLAGS = {("stands", "flags"), ("brigades", "flags"), ("units", "marks")}


def whole(v):
    return isinstance(v, int) and not isinstance(v, bool) and \
        -2**63 <= v < 2**63


def state_hash(state):
    """The state hash rebuilt from a step line's "state" object: (hash,
    None), or (None, what is wrong with the object)."""
    if not isinstance(state, dict):
        return None, "is not an object"
    lists = STATE_LISTS + (CARD_LISTS if "cards" in state else [])
    names = [name for name, _ in lists]
    if list(state) != names:
        return None, "has members %s, not %s" % (list(state), names)
    values = []
    for name, keys in lists:
        entries = state[name]
        if not isinstance(entries, list):
            return None, "%s is not a list" % name
        if name == "cards" and not entries:
            return None, "cards is given but empty: a battle without cards " \
                "has no cards member"
        if name == "commanders_out" and \
                len(entries) != len(state["commanders"]):
            return None, "commanders_out has %d entries for %d commanders" \
                % (len(entries), len(state["commanders"]))
        if name not in NO_COUNT:
            values.append(len(entries))
        for i, e in enumerate(entries):
            where = "%s[%d]" % (name, i)
            if not isinstance(e, dict) or list(e) != list(keys):
                return None, "%s should have exactly %s, in order" \
                    % (where, ", ".join(keys))
            for k in keys:
                v = e[k]
                if not whole(v):
                    return None, "%s.%s is not a whole number" % (where, k)
                if (name, k) in YES_NO and v not in (0, 1):
                    return None, "%s.%s is a yes or no, not %d" % (where, k, v)
                if (name, k) in FLAGS and v < 0:
                    return None, "%s.%s is a set of flags, never negative" \
                        % (where, k)
                values.append(v)
    return H("despatch/state/v3", *values), None


def check_step(no, obj, rec, g, prev_head):
    game, k = g["game"], rec["step"]
    if obj.get("step") != k:
        fail(no, "step", "line says %r, record says %d" % (obj.get("step"), k))
    if rec["version"] not in (1, 2):
        fail(no, "record.version", "is %d, not 1 or 2" % rec["version"])

    # The seed chain: S_k hashed k times gives S_0.
    s = rec["s_k"]
    for _ in range(k):
        s = H("despatch/seed-chain/v1", s)
    if s != g["s0"]:
        fail(no, "record.S_k", "does not hash down %d times to S_0" % k)

    # Each leaf, from the archive line's order set.
    lines = obj.get("leaves", [])
    if len(lines) != len(rec["leaves"]):
        fail(no, "leaves", "%d on the line, %d in the record"
             % (len(lines), len(rec["leaves"])))
    for i, (mine, theirs) in enumerate(zip(lines, rec["leaves"]), 1):
        where = "leaves[%d]" % i
        for key in ("side", "seat", "mailed"):
            if mine[key] != theirs[key]:
                fail(no, where + "." + key, "line says %r, record says %r"
                     % (mine[key], theirs[key]))
        salt = bytes.fromhex(mine["salt"])
        parts = [game, k, mine["side"], mine["seat"], salt, mine["orders"]]
        if g["nonces"]:
            parts.append(theirs["commitment"])
        if H("despatch/leaf/v1", *parts) != theirs["leaf"]:
            fail(no, where + ".leaf", "does not match its order set")
        # Every salt is made from S_k and the set's orders.
        want_salt = H("despatch/salt/v1", rec["s_k"], mine["side"],
                      mine["seat"], mine["orders"])[:16]
        if salt != want_salt:
            fail(no, where + ".salt", "is not the salt of S_k and its orders")
        # A revealed nonce must be the one committed to.
        nonce = theirs["nonce"]
        if nonce and hashlib.sha256(nonce).digest() != theirs["commitment"]:
            fail(no, where + ".nonce", "does not hash to its commitment")

    # The orders root, from the record's leaves in order.
    leaves = [l["leaf"] for l in rec["leaves"]]
    root = H("despatch/orders-root/v1", game, k, len(leaves), *leaves)
    if root != rec["root"]:
        fail(no, "record.root", "is not the root of its leaves")

    # The dice seed, unless the dice were scripted (sandbox).
    if rec["scripted"]:
        if rec["dice_seed"] != ZERO32:
            fail(no, "record.dice_seed", "scripted, but not 32 zero bytes")
    else:
        parts = [game, k, rec["s_k"], rec["root"], prev_head]
        if g["nonces"]:
            parts.append(len(rec["leaves"]))
            for l in rec["leaves"]:
                # An unrevealed nonce counts as the absent value.
                parts.append(l["nonce"] if l["nonce"] else
                             H("despatch/absent/v1", l["side"], l["seat"]))
        if H("despatch/dice-seed/v1", *parts) != rec["dice_seed"]:
            fail(no, "record.dice_seed", "is not the seed of its inputs")


def check_step_hashes(no, obj, rec):
    """The events and the state the line shows, against the hashes its
    record signed: for every step line, whatever else failed on it."""
    events = obj.get("events")
    if not isinstance(events, list):
        fail(no, "events", "the step line has no list of events")
    else:
        try:
            if events_hash(events, rec["engine"] >= 5) != rec["events_hash"]:
                fail(no, "record.events_hash",
                     "does not match the line's events")
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            fail(no, "events", "unreadable: %r" % e)
    if "state" not in obj:
        # Only a step of another engine than 4 or 5 (the state hash
        # written here) may come without its state: its writer could not
        # replay it.
        if rec["engine"] in (0, 4, 5):
            fail(no, "state", "the step line has no state object")
        return
    h, why = state_hash(obj["state"])
    if why is not None:
        fail(no, "state", why)
    elif h != rec["state_hash"]:
        fail(no, "record.state_hash",
             "does not match the line's state object")


def check_upgrade(no, obj, rec, last_state):
    """An upgrade act: its line's checkpoint is a state object whose hash
    (engines 3 to 5 hash alike, despatch/state/v3) is the state the act
    names, and that the last step signed."""
    if rec["engine_to"] <= rec["engine_from"]:
        fail(no, "record.engine_to", "is not after engine_from")
    if last_state is not None and rec["state_from"] != last_state:
        fail(no, "record.state_from", "is not the last step's state hash")
    if "checkpoint" not in obj:
        fail(no, "checkpoint", "an upgrade's line has no checkpoint")
        return
    if rec["engine_from"] not in (3, 4, 5):
        return  # another state hash than the one written here
    h, why = state_hash(obj["checkpoint"])
    if why is not None:
        fail(no, "checkpoint", why)
    elif h != rec["state_from"]:
        fail(no, "checkpoint", "does not hash to the record's state_from")


def main(path):
    with open(path, "rb") as fh:
        lines = fh.read().decode("utf-8").splitlines()
    if len(lines) < 2:
        print("line 1: archive: fewer than two lines")
        return 1
    try:
        header = json.loads(lines[0])
    except ValueError as e:
        print("line 1: header: %s" % e)
        return 1
    if header.get("despatch_archive") != 1:
        fail(1, "despatch_archive", "is not 1")

    g, prev_head, prev_seq, steps, acts, last_step = None, None, None, 0, 0, None
    last_state = None
    conceded = False
    step_head = None
    lost = False  # the line before could not be read
    for no, text in enumerate(lines[1:], 2):
        try:
            obj = json.loads(text)
            rec = read_record(obj["record"])
        except (ValueError, KeyError) as e:
            fail(no, "record", str(e))
            if no == 2:
                return report()  # nothing can be checked without the genesis
            # Do not blame the next line for this one's damage.
            prev_head = prev_seq = None
            lost = True
            continue

        # The head, and the link to the record before.
        head = H("despatch/record/v1", bytes.fromhex(obj["record"]))
        if obj.get("head") != head.hex():
            fail(no, "head", "is not the hash of the record")
        # seq counts 0, 1, 2, ...; compared with the line before, so that a
        # dropped line is named once.
        if not lost and obj.get("seq") != (0 if no == 2 else prev_seq + 1):
            fail(no, "seq", "is %r after %r" % (obj.get("seq"), prev_seq))
        prev_seq = obj.get("seq")
        if obj.get("kind") != rec["kind"]:
            fail(no, "kind", "line says %r, record says %r"
                 % (obj.get("kind"), rec["kind"]))

        if no == 2:
            if rec["kind"] != "genesis":
                fail(no, "kind", "line 2 is not the genesis")
                return report()
            g = rec
            step_head = head
            check_genesis(no, obj, g, header)
            seats = obj.get("seats", [])
            email_hash = {s["seat"]: s["email_hash"] for s in g["seats"]}
        elif rec["kind"] == "genesis":
            fail(no, "kind", "a second genesis")
        else:
            if prev_head is not None and rec["prev"] != prev_head:
                fail(no, "record.previous_head", "is not the head before it")
            if rec["kind"] == "step":
                # Steps run on from the first the chain covers, none missing.
                want = g["first_step"] if last_step is None else last_step + 1
                if not lost and rec["step"] != want:
                    fail(no, "record.step", "is %d, not %d" % (rec["step"], want))
                last_step = rec["step"]
                try:
                    # The dice hang on the last step's dice seed (the
                    # genesis head before the first), never on an act.
                    check_step(no, obj, rec, g, step_head)
                except (ValueError, KeyError, TypeError) as e:
                    fail(no, "leaves", "unreadable: %r" % e)
                # Whatever failed above: every step's two hashes.
                check_step_hashes(no, obj, rec)
                steps += 1
                # The next step's dice hang on this one's dice seed.
                step_head = rec["dice_seed"]
                last_state = rec["state_hash"]
            else:
                want_v = 2 if rec["act"] == "upgrade" else 1
                if rec["version"] != want_v:
                    fail(no, "record.version", "is %d, not %d"
                         % (rec["version"], want_v))
                if rec["act"] == "upgrade":
                    check_upgrade(no, obj, rec, last_state)
                if rec["act"] == "replace":
                    email_hash[rec["seat"]] = rec["email_hash"]
                if rec["act"] == "concede":
                    conceded = True
                acts += 1
        if rec["kind"] != "step":
            for key in ("events", "state"):
                if key in obj:
                    fail(no, key, "only a step line has %s" % key)
        if "checkpoint" in obj and not (rec["kind"] == "act" and
                                        rec["act"] == "upgrade"):
            fail(no, "checkpoint", "only an upgrade's line has a checkpoint")
        prev_head, lost = head, False

    check_emails(seats, email_hash)

    # A finished battle's archive holds every step of the chain (up to n),
    # or ends with a `concede` act; one of a battle going on does neither
    # (despatch-archive(5), `finished`).
    if g and bool(header.get("finished")) != (last_step == g["n"] or conceded):
        fail(1, "finished", "is %r, but the archive stops at step %r of %d"
             % (header.get("finished"), last_step, g["n"]))
    if not failures:
        print("ok: game %s, %d steps checked (each one's events and state "
              "hashes rebuilt), %d acts (signatures and replay not checked)"
              % (g["game"], steps, acts))
    return report()


def check_genesis(no, obj, g, header):
    if g["version"] != 1:
        fail(no, "record.version", "is %d, not 1" % g["version"])
    for key in ("game", "ruleset", "engine"):
        if header.get(key) != g[key]:
            fail(1, key, "header says %r, genesis says %r"
                 % (header.get(key), g[key]))
    scenario = header.get("scenario", "").encode("utf-8")
    if hashlib.sha256(scenario).digest() != g["scenario_sha256"]:
        fail(1, "scenario", "its SHA-256 is not the genesis's")
    seats = obj.get("seats", [])
    if [(s["seat"], s["side"]) for s in seats] != \
            [(s["seat"], s["side"]) for s in g["seats"]]:
        fail(no, "seats", "do not match the genesis's seats")


def check_emails(seats, email_hash):
    """An archive written --with-addresses gives each seat's address.  It
    must hash to the seat's current e-mail hash: the one of the last
    `replace` act for the seat, else the genesis's (this is what despatch
    verify accepts; the man page only names the genesis's)."""
    for s in seats:
        if "email" in s and H("despatch/email/v1", s["email"].lower()) \
                != email_hash.get(s["seat"]):
            fail(2, "seats[%d].email" % s["seat"], "does not match its hash")


def report():
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: check_archive.py ARCHIVE.jsonl")
    sys.exit(main(sys.argv[1]))
