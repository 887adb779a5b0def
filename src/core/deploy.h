/*
 * deploy.h - the deployment step and reinforcements' arrival (deploy.c),
 * the steps' parts that are every ruleset's.
 *
 * The deployment: a battle whose scenario
 * gives deployment zones (`deploy SIDE x0,y0 x1,y1`) opens with a step in
 * which every side at once places its units and commanders within its
 * zones by DEPLOY orders; what a side leaves unsaid stands where the
 * scenario put it.  Pure and ruleset-free: ledger_play_step plays it in
 * place of the ruleset's adjudication, and it rolls no die.
 *
 * Arrivals: a unit the scenario marks `arrives N` (a column a campaign
 * sends to the battle's place later in the day) waits off the table, its
 * stands ST_GONE | ST_AWAY, and comes on where the scenario put it at the
 * start of its side's first phase of turn N or after whose ground is
 * clear: ledger_play_step calls battle_arrivals before the ruleset plays
 * the step, so every ruleset sees it on the table from then on.  A
 * commander marked `arrives N` is out of the fight (out_until
 * BATTLE_STEP_AWAY, out_removed) until then, and comes on with it.
 */
#ifndef DESPATCH_CORE_DEPLOY_H
#define DESPATCH_CORE_DEPLOY_H

#include <stddef.h>

#include "core/battle.h"
#include "core/err.h"
#include "core/events.h"
#include "core/order.h"

/* The messages the deployment writes (every ruleset's catalogue lists
 * them, like EVENT_M_PHASE). */
#define EVENT_M_DEPLOYMENT \
	"deployment", "c", \
	"Deployment (%s): the sides take the field."
#define EVENT_M_DEPLOYS \
	"deploys", "udda", \
	"%s deploys at %s,%s facing %d."
#define EVENT_M_TAKES_POST \
	"takes-post", "kdd", \
	"%s takes post at %s,%s."
#define EVENT_M_DEPLOY_BLOCKED \
	"deploy-blocked", "uddu", \
	"%s cannot deploy at %s,%s: it would stand on %s, so it keeps its " \
	"place."
#define EVENT_M_ARRIVES \
	"arrives", "udd", \
	"%s comes onto the field at %s,%s."
#define EVENT_M_ARRIVES_COMMANDER \
	"arrives-commander", "k", \
	"%s comes onto the field."
#define EVENT_M_ARRIVAL_WAITS \
	"arrival-waits", "uu", \
	"%s cannot come on yet: %s stands where it would enter."
#define EVENT_M_DEPLOY_REFUSED \
	"deploy-refused", "uw", \
	"%s keeps its place: %s."

/* The catalogue rows of the messages every ruleset writes (the phase's,
 * the deployment's and the arrivals'), for the end of each ruleset's
 * catalogue. */
#define EVENT_MSGS_CORE \
	EVENT_MSG(EVENT_M_PHASE), \
	EVENT_MSG(EVENT_M_DEPLOYMENT), \
	EVENT_MSG(EVENT_M_DEPLOYS), \
	EVENT_MSG(EVENT_M_TAKES_POST), \
	EVENT_MSG(EVENT_M_DEPLOY_BLOCKED), \
	EVENT_MSG(EVENT_M_DEPLOY_REFUSED), \
	EVENT_MSG(EVENT_M_ARRIVES), \
	EVENT_MSG(EVENT_M_ARRIVES_COMMANDER), \
	EVENT_MSG(EVENT_M_ARRIVAL_WAITS)

/* Checks that side may deploy unit (or, with is_cmd, commander) who at
 * `at` facing `facing` (-1: as it faces now): every stand's centre (a
 * commander's place) inside one of the side's zones.  0, or -1 with
 * what is wrong and what would be right in msg. */
int battle_deploy_check(const struct battle *b, int side, int is_cmd,
    int who, struct pt at, int facing, char *msg, size_t msize);

/* The side's zones as a reply names them ("0,0 to 72,12; 60,0 to 72,48"),
 * "" for none, into out. */
void battle_deploy_zones_text(const struct battle *b, int side, char *out,
    size_t size);

/* Plays the deployment: the sets' DEPLOY orders (V_DEPLOY, each its
 * unit's or commander's) in side order, then line order.  A unit whose
 * new ground would overlap another unit's keeps its place (the later
 * order of two gives way; a unit not ordered never moves), the
 * commanders attached to a unit move with it, and a brigade's commander
 * without a line of his own follows his brigade when any of its units
 * deployed (3" behind its middle).  Writes the deployment
 * event (at minute of the day) and one event a DEPLOY.  0, or -1 with e
 * set (the events overflowed). */
int battle_deploy_play(struct battle *b, const struct order_set *sets,
    int nsets, int minute, struct events *ev, struct err *e);

/* The reinforcements due at the start of step (not the deployment):
 * each unit of the phasing side (every side's, simultaneous) whose
 * `arrives` turn has come and that is still away comes on, in unit
 * order, unless its ground overlaps a unit on the table, when it waits
 * for its next phase.  Writes an event for each into ev.  0, or -1 with
 * e set (the events overflowed). */
int battle_arrivals(struct battle *b, int step, struct events *ev,
    struct err *e);

#endif
