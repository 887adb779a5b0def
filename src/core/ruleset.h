/*
 * ruleset.h - the interface every ruleset implements.
 *
 * A ruleset is one const table, found by name.  It brings its troop
 * catalogue, its numbers (each marked as from the text or a default, with
 * the reason), its order verbs, and the adjudicator: a pure function from
 * (state, orders, dice) to (new state, events).  Adding a ruleset touches
 * no other ruleset's file: it adds one entry to the list in ruleset.c.
 */
#ifndef DESPATCH_CORE_RULESET_H
#define DESPATCH_CORE_RULESET_H

#include "core/battle.h"
#include "core/dice.h"
#include "core/err.h"
#include "core/events.h"
#include "core/order.h"
#include "core/text.h"

#define RULESET_TYPE_NUMBERS 4

struct troop_type {
	const char *id;
	enum stand_kind kind;
	int speed;            /* inches */
	int morale;
	enum weapon weapon;
	unsigned abil;
	const char *label;    /* what the text calls it */
	enum nation nation;   /* whose it is, for the map's colours; NONE
	                       * for a type any side fielded */
	/* Its defaults for the numbers the ruleset's scenario words give a
	 * unit (struct ruleset's unit_numbers, in their order), 0 for none. */
	int numbers[RULESET_TYPE_NUMBERS];
};

/* A number the ruleset uses.  source is "text" (from the rules text),
 * "source" (from a named outside source) or "default" (our choice). */
enum param_unit {
	PARAM_COUNT = 0,   /* dice, a number on a die, SP */
	PARAM_INCHES,      /* kept in hundredths, written in inches */
	PARAM_PERCENT
};

struct rule_param {
	const char *name;
	int value;
	const char *source;
	const char *why;
	enum param_unit unit;
	int min, max;      /* what a scenario may set it to */
};

/* A table of a ruleset's own state (battle.rules) as rows of whole
 * numbers: what of it the store saves after a step, the ledger signs
 * and an archive shows, so that none of the three knows its layout
 * (an optional rule's pieces, say: where each is, and what is in
 * play).
 * A battle whose first table has no rows keeps none (a game without
 * the optional rule signs what it always did). */
#define RULES_TABLE_MAX_KEYS 12

struct rules_table {
	const char *name;          /* the archive's array of its rows */
	const char *const *keys;   /* each row's values' names, in order,
	                              NULL-terminated */
	int (*rows)(const struct battle *b);
	void (*get)(const struct battle *b, int row, int *v);
	/* Takes nrows rows read back: first with row -1 (0, or -1 when the
	 * table cannot have nrows), then each row in order (0, or -1 when
	 * v is out of range). */
	int (*set)(struct battle *b, int nrows, int row, const int *v);
};

/* A line of a scenario in a ruleset's own words (struct ruleset
 * .scenario_words): its words, each in double quotes or not. */
struct scenario_line {
	const char *const *w;
	const int *quoted;
	int n;
	int line;                  /* its number in the file */
};

#define RULESET_SCENARIO_SCRATCH 8192  /* bytes of the ruleset's own
                                          while a scenario is read */

/* What the order parser lends a ruleset reading an order line of its
 * own words (struct ruleset.order_line). */
#define ORDER_LINE_OWN_UNIT   1u
#define ORDER_LINE_ENEMY_UNIT 2u
#define ORDER_LINE_OWN_CMD    4u
#define ORDER_LINE_ENEMY_CMD  8u

struct order_line_ctx {
	const struct battle *b;
	int side;
	int standing;              /* the line is a standing order */
	int replay;                /* stored orders read again (a turn
	                              played, an archive verified): what
	                              the line needs of the table as it was
	                              is the adjudicator's to check */
	const struct order_set *taken;  /* the mail's lines taken so far */
	/* The name in text of a unit or commander of the kinds asked
	 * (ORDER_LINE_*; what: the kind in words, for the message): 1 with
	 * *idx and *is_cmd set, else -1 with msg saying what is wrong and
	 * what would do (msg NULL: only whether it is one). */
	int (*resolve)(const struct order_line_ctx *c, unsigned kinds,
	    const char *text, const char *what, int *idx, int *is_cmd,
	    char *msg, size_t msize);
	/* "x,y" in text, a point on the table: 0, or -1 with msg (word: the
	 * order's word before it, for the message). */
	int (*point)(const struct order_line_ctx *c, const char *text,
	    const char *word, struct pt *out, char *msg, size_t msize);
	/* The edit distance of a and b, case ignored: the parser's own
	 * measure for "did you mean", for words of the ruleset's. */
	int (*apart)(const char *a, const char *b);
	void *parser;
};

/* A writer of the side report's JSON, lent to a ruleset for what it
 * adds (struct ruleset_words.holdings_json).  key is NULL in an array;
 * a NULL string is written as null. */
struct ruleset_json {
	void *w;
	void (*obj)(void *w, const char *key);
	void (*end_obj)(void *w);
	void (*arr)(void *w, const char *key);
	void (*end_arr)(void *w);
	void (*str)(void *w, const char *key, const char *v);
	void (*num)(void *w, const char *key, int v);
	void (*inches)(void *w, const char *key, fx v);
};

/* A value of a unit that only its ruleset has, for the JSON's object
 * named after the ruleset (docs/json.md). */
enum field_kind { FIELD_BOOL = 0, FIELD_INT, FIELD_INCHES };

struct unit_field {
	const char *key;
	enum field_kind kind;
	int value;
};

#define RULESET_MAX_FIELDS 16

/* A whole number of a ruleset's own that a scenario's unit line may give
 * ("strength 5"): its word, what it is (for the message when it is
 * wrong) and its range.  The ruleset's unit_number_set keeps it. */
struct unit_number {
	const char *word;
	const char *what;
	int lo, hi;
};

/* A unit's markers of its ruleset's own, as the map and the reports
 * show them: a note beside its name on the map ("2 DP"), one in its
 * state line ("2 points"), how it is rated after its type ("quality
 * 4"), "" for none; whether the map draws it under a cloud (of its
 * own powder, say); and how a unit off the table went. */
#define KEY_OMIT_DISORDER  1u   /* the yellow dot */
#define KEY_OMIT_PERMANENT 2u   /* the red dot */
#define KEY_OMIT_STATIONARY 4u  /* the S badge */
#define KEY_OMIT_COMMAND   8u   /* out of command */

struct ruleset_marks {
	char label[16];
	char state[48];
	char rated[40];
	int clouded;
	/* The label an enemy that sees the unit in a fog game reads, where
	 * it is less than label (what the unit has been through, hidden);
	 * "": label. */
	char seen_label[16];
	/* For a unit with no stand left on the table, how it went, where
	 * the ruleset says ("shattered"); "": the report's own words. */
	char gone[48];
};

/* What a ruleset's reports and map call things, and the text they ask
 * of it: apart from the adjudicator, which never needs them. */
struct ruleset_words {
	/* The ruleset's message catalogue (EVENT_M_PHASE among them), ending
	 * in an entry of NULLs: what the narrative templates are checked
	 * against when they load.  May be NULL: no check. */
	const struct event_msg *messages;

	/* A short crib of the numbers that decide a turn (command, moves,
	 * ranges) for a player of side, generated from the data table,
	 * written to out.  Pure.  May be NULL. */
	void (*crib)(const struct battle *b, int side, char *out, size_t size);

	/* The situation of unit u for its side's report, one or two lines
	 * (each starting with six spaces, ending in a newline) written to
	 * out: whether it is in command, and the nearest enemy unit its
	 * side sees (seen: a flag a stand, NULL for all) with the distance,
	 * the bearing and whether it is in range of u's weapon.  Pure.  May
	 * be NULL. */
	void (*situation)(const struct battle *b, int u,
	    const unsigned char *seen, char *out, size_t size);

	/* Unit u's values that only this ruleset has, into f (at most
	 * RULESET_MAX_FIELDS); how many.  seen (a flag a stand) is set for
	 * an enemy seen in a fog game: only what can be seen of it then.
	 * Pure.  May be NULL. */
	int (*unit_fields)(const struct battle *b, int u,
	    const unsigned char *seen, struct unit_field *f);

	/* Words for the reports: what a stand's strength counts ("SP",
	 * "figures"), what a stand is called ("stand", "base"), and unit u's
	 * formation as a phrase ("in road march"; "" for its ordinary
	 * order).  NULL: "SP", "stand", the formation's name. */
	const char *strength_word;
	const char *stand_word;
	/* The word for a unit with the routed markers ("fleeing"); NULL:
	 * "routed". */
	const char *routed_word;
	const char *(*form_phrase)(const struct battle *b, int u);
	/* The map's words: yards in 12 inches of table, and the marker of a
	 * unit in road march or column ("road march", "column"). */
	int yards_per_foot;
	const char *column_word;
	/* The word for guns in road march where the ruleset has its own
	 * ("limbered"); NULL: column_word. */
	const char *limbered_word;

	/* 1 if its stands carry the disorder, rout and stationary markers
	 * (the map's key shows them); a unit's own markers (unit_marks)
	 * are shown whatever this says. */
	int stand_markers;
	/* Of those, the ones its battles never show, left out of the key
	 * (KEY_OMIT_*; 0: the key shows them all). */
	unsigned key_omits;
	/* A unit's markers of the ruleset's own (struct unit's state), for
	 * the map and the reports, into m; NULL: none. */
	void (*unit_marks)(const struct battle *b, int u,
	    struct ruleset_marks *m);
	/* The map key's lines for them: the label's ("(2 DP): ..."), and
	 * the cloud's; NULL for none. */
	const char *marks_key;
	const char *cloud_key;
	/* What a stand's strength means, a sentence for the welcome ("SP
	 * are strength points (50 men or one gun each)."). */
	const char *scale_note;
	/* The numbers troop type t is rated by, where the ruleset rates its
	 * troops by its own in place of speed and morale ("quality 4"),
	 * for 'despatch rules'.  May be NULL. */
	void (*type_numbers)(const struct troop_type *t, char *out,
	    size_t size);

	/* What a side holds of the ruleset's own (pieces in hand), each
	 * appended to t (nothing when there is nothing); each may be NULL.
	 * holdings: a section of its report, headed, with what is in play
	 * until next_step; holdings_line: one line of what a side holds,
	 * for the referee's view of the whole table; welcome: what the
	 * welcome mail tells a player of side about them (step: the one to
	 * play); holdings_json: the side report's JSON (fog: only what
	 * side may know of the others'); rules_note: for 'despatch rules',
	 * what there is to hold. */
	void (*holdings)(const struct battle *b, int side, int next_step,
	    struct text *t);
	void (*holdings_line)(const struct battle *b, int side,
	    struct text *t);
	void (*welcome)(const struct battle *b, int side, int step,
	    struct text *t);
	void (*holdings_json)(const struct battle *b, int side, int fog,
	    const struct ruleset_json *j);
	void (*rules_note)(struct text *t);
};

struct ruleset {
	const char *name;
	const char *title;
	/* The ruleset this one is built on, or NULL: a module that plays
	 * another's table and adds rules of its own.  Its numbers are looked
	 * up in its own table, then in the base's (ruleset_param; a
	 * scenario's `set` reaches both); its narrative templates are its
	 * own file's, then the base's for the messages its own file does
	 * not reword (narrative_load_ruleset). */
	const struct ruleset *base;
	const struct troop_type *types;
	int ntypes;
	const struct rule_param *params;
	int nparams;
	/* Its numbers for a campaign (src/campaign/rules.c): what a battle's
	 * losses carry back in its strength measure, each marked as text or
	 * default with the reason.  They stand before the campaign's own
	 * defaults of the same name; NULL, 0: it cannot be campaigned. */
	const struct rule_param *campaign_params;
	int ncampaign_params;
	const struct verb_def *verbs;
	int nverbs;
	int turn_minutes;

	/* Its own state for the whole battle (battle.rules) as tables, for
	 * the store, the ledger and the archive (NULL, 0: it keeps none). */
	const struct rules_table *tables;
	int ntables;

	/* The first words of the scenario lines it reads itself,
	 * NULL-terminated (NULL: none), and the reader: scenario_line for
	 * each such line, in the file's order (scratch: its own, zeroed
	 * when the file begins), scenario_end once the file is read,
	 * before prepare.  0, or -1 with msg saying what is wrong and what
	 * would do (scenario_end: and *line the line it is about). */
	const char *const *scenario_words;
	int (*scenario_line)(struct battle *b, void *scratch,
	    const struct scenario_line *l, char *msg, size_t msize);
	int (*scenario_end)(struct battle *b, void *scratch, int *line,
	    char *msg, size_t msize);

	/* An order line in its own words, one that is no unit's or
	 * commander's (a piece to play, say): 0 if line is not one, 1 with
	 * *o set (o->special not 0), -1 with msg saying what is wrong.
	 * order_text writes such an order back as the line it reads. Both
	 * may be NULL. */
	int (*order_line)(const struct order_line_ctx *c, const char *line,
	    struct order *o, char *msg, size_t msize);
	void (*order_text)(const struct battle *b, const struct order *o,
	    char *out, size_t size);

	/* After a scenario is loaded: derived values (exhaustion levels),
	 * checks the loader cannot make.  -1 with e set on error. */
	int (*prepare)(struct battle *b, struct err *e);

	/* The order the sides play game turn `turn` in, in an alternate
	 * game, where the ruleset decides it as the battle goes (an
	 * initiative roll): order[0 .. nsides - 1] set to the sides'
	 * indices, first mover first, returning 0; or -1 for the scenario's
	 * order (battle.side_order), as for a turn not yet decided.  What
	 * decides it must be kept in the battle's own state (battle.rules,
	 * shown through tables), so that the store, the ledger and a replay
	 * all know it.  battle_step_side asks it.  Pure.  May be NULL: the
	 * scenario's order, every turn. */
	int (*turn_order)(const struct battle *b, int turn, int *order);

	/* Plays step `step` (1-based).  orders holds one set per side that
	 * sent orders (nsets of them); sides without a set hold.  Changes b
	 * and appends to ev.  Pure: no clock, no I/O, dice only from d.
	 * Returns -1 with e set if the step cannot be played (the caller
	 * then discards b). */
	int (*adjudicate)(struct battle *b, int step, const struct order_set *orders,
	    int nsets, struct dice *d, struct events *ev, struct err *e);

	/* What can be told of a side's orders before they are played, with
	 * no dice: lines of warnings (an order that would leave a unit out
	 * of command, a target out of range) written to out; returns how
	 * many.  step is the step the orders are for, open the step now
	 * open (the same, or an earlier one, another side's, played before
	 * them).  Pure.  May be NULL. */
	int (*preview)(const struct battle *b, int open, int step,
	    const struct order_set *set, char *out, size_t size);

	/* Which stands side can see, by the ruleset's own line of sight
	 * from any of its stands or commanders: seen[stand] set to 1 (its
	 * own always), else 0.  Pure.  May be NULL (then everything). */
	void (*sees)(const struct battle *b, int side, unsigned char *seen);

	/* 1 if unit u is in command as the table stands, 0 if not (the
	 * map's marker).  Pure.  May be NULL. */
	int (*in_command)(const struct battle *b, int u);

	/* A malloc'd copy of b (free with free) with a side's orders moved
	 * as far as can be told without dice, as preview judges them: for
	 * the map in the order reply.  Pure.  May be NULL. */
	struct battle *(*preview_battle)(const struct battle *b,
	    const struct order_set *set);

	/* Whether unit who may be ordered FORM f (written `word`): 0, or -1
	 * with msg saying why not.  Pure.  May be NULL (any formation). */
	int (*form_check)(const struct battle *b, int who, enum formation f,
	    const char *word, char *msg, size_t msize);
	/* Whether unit (or, is_cmd, commander) who may be given the order
	 * part st at all, whatever the table will be when it is played
	 * (guns that cannot charge, a number out of the unit's range): 0,
	 * or -1 with msg saying why not and what would do.  The parser
	 * refuses the line then.  Pure.  May be NULL. */
	int (*step_check)(const struct battle *b, int who, int is_cmd,
	    const struct order_step *st, char *msg, size_t msize);
	/* Words players bring from other games, each with the order of
	 * this ruleset they mean ({ "FIRE", "SHOOT AT" }, ...), ended by a
	 * pair of NULLs: the parser's "did you mean" for them.  May be
	 * NULL. */
	const char *const (*verb_aliases)[2];
	/* The FORM words, for the parser's message ("LINE, COLUMN or
	 * DISPERSED"). */
	const char *form_words;
	/* The word the canonical text writes for unit u's FORM f, one that
	 * form_check takes.  May be NULL (the formation's name). */
	const char *(*form_word)(const struct battle *b, int u,
	    enum formation f);

	/* Its own numbers a scenario's unit line may give (NULL, 0: none):
	 * the loader reads "WORD N" and hands unit_number_set the number's
	 * index k in the list and its value, before prepare runs. */
	const struct unit_number *unit_numbers;
	int nunit_numbers;
	void (*unit_number_set)(struct battle *b, int u, int k, int v);

	/* The frontage of its stands (in hundredths of an inch) where a
	 * unit's line gives no `frontage`; 0: the core's by the stand's
	 * kind (battle_kind_size).  The loader lays the stands out with it. */
	fx stand_width;
	/* 1 if a stand in road march has the 1.5" x 3" spacer behind it
	 * (battle.road_spacer). */
	int road_spacer;
	/* The names of the weapons it defines for itself, numbered from
	 * WEAPON_RULESET, NULL-terminated; NULL: none. */
	const char *const *weapons;
	/* Its words for the reports and the map (required). */
	const struct ruleset_words *words;
};

const struct ruleset *ruleset_find(const char *name);
/* The rulesets compiled in, NULL-terminated. */
const struct ruleset *const *ruleset_all(void);

const struct troop_type *ruleset_type(const struct ruleset *r, const char *id);

/* Unit u's markers of its ruleset's own into m (words->unit_marks; all
 * "" and 0 for a ruleset that keeps none). */
void ruleset_unit_marks(const struct battle *b, int u,
    struct ruleset_marks *m);

/* A weapon's name: one every ruleset has (battle_weapon_name) or one of
 * r's own; "?" for none. */
const char *ruleset_weapon_name(const struct ruleset *r, enum weapon w);
/* The weapon called name, of every ruleset's or r's own (r may be
 * NULL): 0, or -1. */
int ruleset_weapon_parse(const struct ruleset *r, const char *name,
    enum weapon *out);

/* A number: the scenario's `set NAME VALUE` if present, else the
 * ruleset's value.  Asking for a name the ruleset does not define is a
 * programming error (assert). */
int ruleset_param(const struct ruleset *r, const struct battle *b,
    const char *name);
/* 1 if the ruleset defines name. */
int ruleset_has_param(const struct ruleset *r, const char *name);
/* The definition of name, or NULL. */
const struct rule_param *ruleset_param_def(const struct ruleset *r,
    const char *name);

#endif
