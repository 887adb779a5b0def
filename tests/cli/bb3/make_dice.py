#!/usr/bin/env python3
"""make_dice.py - writes the scripted dice test_bb3.sh plays Monmouth with.

A maintainer's tool, not a test: when a change to bb3 alters which dice
a step rolls, run

    tests/cli/bb3/make_dice.py BUILD/despatch tests/cli/bb3/monmouth

to play the game again from its order mails (campaign/monmouth-1778/
orders), a step at a time, writing each step's dice: every die a step
asks for takes a plain value (d3 2, d6 4 and 3 in turn, so that a pair
makes 7 and a tie of initiative ends, d10 5, d12 6), except those
monmouth-plan.json names by step and by the die's place in the step
(from 0): the ones that make the history happen (Monckton's fall at the
hedgerow, Ramsay's in the melee, Abercromby picked off, the initiative).
Check the events it prints against test_bb3.sh's expectations.  (The
mail ahead-t04-continental.eml is sent during turn 3's crown step, a turn
ahead of its own, as test_bb3.sh sends it.)
"""
import json, os, re, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
src = os.path.normpath(os.path.join(here, '..', '..', '..'))
camp = os.path.join(src, 'campaign', 'monmouth-1778')
binary, out = sys.argv[1], sys.argv[2]
plan = json.load(open(os.path.join(here, 'monmouth-plan.json')))
env = dict(os.environ, DESPATCH_CONFIG='',
           DESPATCH_TEMPLATES=os.path.join(src, 'templates'))
work = tempfile.mkdtemp()
db = os.path.join(work, 'm.db')


def d(*a, check=True):
    r = subprocess.run([binary, '--db', db] + list(a), capture_output=True,
                       text=True, env=env)
    if check and r.returncode:
        sys.exit(r.stdout + r.stderr)
    return r.stdout + r.stderr


d('new', 'mon', os.path.join(camp, 'monmouth-hedgerow.scenario'), '--sandbox')
d('player', 'add', 'mon', 'crown', 'cornwallis@crown.example.org',
  '--password', 'brown-bess-grenadier')
d('player', 'add', 'mon', 'continental', 'wayne@continental.example.org',
  '--password', 'hedgerow-mad-anthony')
d('start', 'mon')
plain = {3: 2, 10: 5, 12: 6}
step = 0
while True:
    show = d('show', 'mon')
    m = re.search(r'turn (\d+) of \d+ \([0-9:]+\), (\w+) phase', show)
    if m is None:
        break
    step += 1
    turn, side = int(m.group(1)), m.group(2)
    mail = os.path.join(camp, 'orders', 't%02d-%s.eml' % (turn, side))
    if os.path.exists(mail):
        d('submit', mail)
    # Orders sent a turn ahead, before the initiative decides who leads it.
    if (turn, side) == (3, 'crown'):
        d('submit', os.path.join(camp, 'orders', 'ahead-t04-continental.eml'))
    chosen = plan.get(str(step), {})
    dice = []
    path = os.path.join(out, 'step%02d.dice' % step)
    while True:
        with open(path, 'w') as f:
            f.write(' '.join(map(str, dice)) + '\n')
        r = d('turn', 'mon', '--dice', path, check=False)
        need = re.search(r'a d(\d+) was needed', r)
        if need is None:
            break
        sides, k = int(need.group(1)), len(dice)
        v = (4 if k % 2 == 0 else 3) if sides == 6 else plain.get(sides, 1)
        dice.append(chosen.get(str(k), v))
        if len(dice) > 1000:
            sys.exit('step %d: no end to its dice' % step)
    if 'played turn' not in r:
        sys.exit('step %d: %s' % (step, r))
    print('step %d (turn %d, %s): %d dice' % (step, turn, side, len(dice)))
print(d('events', 'mon'))
