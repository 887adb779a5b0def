/*
 * report.h - what a player reads: the turn report and the welcome.
 *
 * Plain text for now (maps and the full narrative come with the reports
 * issue).  Everything here is a pure function of the state and the events,
 * so the same step always gives the same bytes.
 */
#ifndef DESPATCH_REPORT_H
#define DESPATCH_REPORT_H

#include <stddef.h>

#include "core/battle.h"
#include "core/events.h"
#include "core/text.h"

/* What the report says of the reader's orders. */
struct report_orders {
	int sent;          /* the side's orders for this step: 1 some were
	                    * played, 0 none came (its units held), -1 the
	                    * side had no orders to give this step */
	int next_stored;   /* order lines already stored for the side's next
	                    * phase (0: it still owes them) */
	int next_turn;     /* that phase's turn (0: none left) */
	int standing;      /* players of the side whose standing orders were
	                    * played, for sending none */
	int has_standing;  /* the reader has standing orders stored */
	/* When the side's next phase is due, as a player reads it (a date
	 * and time in the game's zone, its offset, the time left); "" when
	 * the game has no deadline (the operator plays it); NULL: not told
	 * (the next phase is not open yet). */
	const char *next_deadline;
	/* In a fog game, the enemy units the side saw before and does not
	 * see now (nlast of them), told where they were last seen. */
	const struct sighting *last;
	int nlast;
	/* ... and those it saw leave play in this step (report_seen_gone's
	 * flags, a flag a unit; NULL: none), told once. */
	const unsigned char *gone;
};

/* The report of step `step` for side `side`, what matters first: what
 * the reader must do next and by when (or how the battle ended), what
 * happened (events in order, like ones folded: report_story), the state
 * of the side's forces after it, a line per unit with its states as tags
 * ("  7th Foot [in good order]", its further lines six spaces in).  The
 * dice and the stands' own places are the appendix's (report_appendix),
 * which the caller puts after it.  In an open game (open = 1) the enemy's forces are listed too.  ro says
 * what to tell of the side's orders (NULL: nothing).  The report is
 * seen (in a fog game, what side can see; NULL: nothing of the enemy
 * but what the events tell) adds the enemy in sight.  The report is
 * bounded (REPORT_MAX): a section that would pass it is cut, saying how
 * many lines it left out, so no battle makes a report that cannot be
 * written.  nar: the ruleset's narrative templates (NULL: the rules
 * core's own sentences).  Returns a malloc'd string or NULL on
 * allocation failure. */
#define REPORT_MAX (8u * 1024u * 1024u)
struct narrative;
char *report_step(const struct battle *b, const char *game, int step,
    int side, const struct events *ev, int next_step, int open,
    const struct report_orders *ro, const unsigned char *seen,
    const struct narrative *nar);

/* In a fog game (seen: what side sees, a flag a stand), the enemy units
 * with a stand in sight: where the seen stands are, how many, and the
 * markers one can see on them. */
void report_seen(struct text *t, const struct battle *b, int side,
    const unsigned char *seen);

/* An observer's report of step: every event told (nar: the templates,
 * NULL the core's sentences), every side's forces, every roll.  delay:
 * how many phases late it is sent, said in its opening.  A malloc'd
 * string, or NULL when out of memory. */
char *report_observer(const struct battle *b, const char *game, int step,
    const struct events *ev, const struct narrative *nar, int delay);

/* The enemy units a side saw before and does not see now, each where it
 * was last seen and when. */
void report_last_seen(struct text *t, const struct battle *b,
    const struct sighting *v, int n);

/* The state of side's forces, one line a unit (a line a stand for a unit
 * whose stands have drifted apart), appended to t. */
void report_forces(struct text *t, const struct battle *b, int side);

/* The same, and with detail set the situation a player plays from: each
 * brigade's exhaustion level, each unit's SP stand by stand, and the
 * ruleset's line on its command and the nearest enemy the side sees
 * (seen: a flag a stand; NULL: every enemy stand, an open game). */
void report_forces_detail(struct text *t, const struct battle *b, int side,
    const unsigned char *seen, int detail);

/* Each side's SP left and brigades exhausted or collapsed, a line a side. */
void report_totals(struct text *t, const struct battle *b);
/* What the side holds of its ruleset's own (struct ruleset_words
 * .holdings_line), on a line. */
void report_holdings_line(struct text *t, const struct battle *b, int side);
/* The same as a section of the side's report (.holdings), as it stands
 * before step next_step.  Nothing for a ruleset or battle without. */
void report_holdings(struct text *t, const struct battle *b, int side,
    int next_step);

/* The scenario's objectives and who holds each, the points each side has
 * after `played` steps, and when the battle is over its result. */
void report_standing(struct text *t, const struct battle *b, int played);

/* The "What happened" list: the events of ev a reader is told of (known:
 * the side's mask for report_event_known, NULL for all), one "- " line
 * each, neighbours that say the same thing folded into one (story.c);
 * in *hidden the events kept from the reader.  The lines written, or -1
 * out of memory. */
int report_story(struct text *t, const struct narrative *nar,
    const struct battle *b, const struct events *ev, int side,
    const unsigned char *known, int *hidden);

/* The part of a step's report that is kept for whoever wants the detail,
 * under the appendix heading: the stands of side's units that stand
 * apart from the rest of their unit, then the step's dice (in a fog game,
 * open 0, those of side's own units), into t. */
void report_appendix(struct text *t, const struct battle *b, int side,
    const struct events *ev, int open, const unsigned char *seen);

/* The ground: each piece of terrain with where it lies. */
void report_terrain(struct text *t, const struct battle *b);

/* In a fog game, may side know of event x?  Its own side's events, and
 * an enemy's that concern one of its units (fire at it, a melee with it)
 * or a unit of which a stand is in sight (seen, map_seen's mask; NULL:
 * none); an enemy commander's, not; of the dice, its own units' rolls
 * (the enemy's are in the archive when the battle is over). */
int report_event_known(const struct battle *b, int side,
    const unsigned char *seen, const struct event *x);

/* Adds to seen (map_seen's mask for side) every stand of an enemy unit
 * that fought the side or fired on it in ev, or that the side fired on:
 * a side knows who it exchanged fire or blows with, in sight or not. */
void report_seen_contacts(const struct battle *b, int side,
    const struct events *ev, unsigned char *seen);

/* In a fog game, the enemy units side saw leave play in the step whose
 * events are ev (live_before: a flag a stand, set for the stands on the
 * table before it): gone[u] set (b->nunits flags, cleared first) for
 * each enemy unit with no stand on the table now whose last stand to go
 * the side could see as it went (put back where it was removed, seen by
 * the ruleset's line of sight from the side's stands and commanders
 * after the step, or of a unit it fought or fired with in the step).
 * The stands such a unit had before the step are set in seen, so what
 * the side saw of it is told.  How many, or -1 out of memory. */
int report_seen_gone(const struct battle *b, int side, const struct events *ev,
    const unsigned char *live_before, unsigned char *seen,
    unsigned char *gone);

/* The paragraph of a fog game's welcome and HELP that says the game is
 * fogged and what that means (b: its ruleset's name). */
void report_fog_help(struct text *t, const struct battle *b);

/* The same in two lines, for the head of each of its reports. */
void report_fog_note(struct text *t);

/* What the JSON tells of the game beside the battle itself. */
struct report_game {
	const char *name;
	const char *status;      /* "setup", "running" or "finished" */
	const char *visibility;  /* "open" or "fog" */
	int sandbox;
	int step;                /* the open step */
	const char *result;      /* how it ended, as stored ("" or NULL: not) */
	/* The ruleset's narrative templates, for the events' sentences
	 * (NULL: the rules core's own). */
	const struct narrative *nar;
};

struct jw;

/* The state as docs/json.md "state" shows it, as member key of the
 * object being written (NULL at the top or in an array).  side >= 0 with
 * seen set (a fog game): only side's commanders and brigades, and of the
 * enemy only units with a stand in sight, with those stands alone and
 * their strength and brigade null. */
void report_json_state(struct jw *j, const char *key,
    const struct report_game *g, const struct battle *b, int side,
    const unsigned char *seen);

/* One event of step, seq-th of its step, as docs/json.md "events"
 * shows it: its message id and values, and its sentence as nar tells it
 * (NULL: the rules core's own). */
void report_json_event(struct jw *j, const struct battle *b,
    const struct narrative *nar, const struct event *x, int step, int seq);

/* A side's JSON report of step (docs/json.md "side report"): the events
 * it may know (all with seen NULL, an open game), the state in its view,
 * and the enemy it saw before and does not see now (last, nlast).  A malloc'd string (length in *len), or NULL when out of
 * memory. */
char *report_json_side(const struct report_game *g, const struct battle *b,
    int side, const unsigned char *seen, const struct events *ev, int step,
    const struct sighting *last, int nlast, size_t *len);

/* The HTML of a report mail made from its text body (see html.c): a
 * heading for each underlined line, lists, preformatted tables, and the
 * image img_cid (a Content-ID; NULL: none) under the opening lines, in
 * place of the text map.  A malloc'd string, or NULL when out of
 * memory. */
char *report_html(const char *body, const char *title, const char *img_cid,
    const char *img_alt);

/* "1 hit", "2 hits". */
const char *report_plural(int n, const char *one, const char *many);

/* Splits a report into mail-sized parts at line boundaries: *n parts of
 * at most max bytes each (a line longer than max is cut), as malloc'd
 * strings in *parts (free each, then the array).  0, or -1 when out of
 * memory. */
int report_split(const char *text, size_t max, char ***parts, int *n);

/* Game time of a turn as "HH:MM". */
void report_clock(const struct battle *b, int turn, char *buf, size_t size);
/* The id a report gives step's phase: the phasing side's, "deployment"
 * for a battle's deployment step, "joint" for a simultaneous one. */
const char *report_phase_id(const struct battle *b, int step);

#endif
