/*
 * vnb_wing_deck.c - the Fog of War deck as the rest of despatch meets
 * it: the cards' names, the scenario lines that bring the deck into
 * play, and the deck's state as tables for the store, the ledger and
 * the archive (struct ruleset.tables).  The cards are the wing-scale
 * text's optional rule, so none of this is shared: it is the ruleset's
 * block of the battle (struct vnb_deck in battle.rules).
 *
 *   cards [crown SIDE]          the battle plays the cards
 *   card "Name" N               N of that card in the deck (0: none)
 *   hand SIDE "Name" ...        cards a side holds at the start
 *
 * The deck is made once the file is read: the basic deck with the
 * `card` lines' counts, in the cards' order; `hand` lines take their
 * cards from it.  The cards left are dealt by the adjudicator
 * (vnb_wing_cards.c), which also plays them.
 */
#include "rules/vnb_wing.h"
#include "rules/vnb_wing_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- names ------------------------------------------------------------ */

/* A card name as compared: ASCII letters (lower case) and digits, and
 * the '!'s when bangs is set; nothing else. */
static void
card_norm(const char *s, int bangs, char *out, size_t size)
{
	size_t n = 0;

	for (; *s && n + 1 < size; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch >= 'A' && ch <= 'Z')
			out[n++] = (char)(ch - 'A' + 'a');
		else if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
		    (bangs && ch == '!'))
			out[n++] = (char)ch;
	}
	out[n] = '\0';
}

int
vnb_card_exact(const char *name)
{
	char want[128], have[128];
	int k;

	card_norm(name, 1, want, sizeof(want));
	for (k = 0; want[0] != '\0' && k < VC_COUNT; k++) {
		card_norm(vnb_cards[k].name, 1, have, sizeof(have));
		if (strcmp(have, want) == 0)
			return k;
	}
	return -1;
}

int
vnb_card_find(const char *name, const unsigned char *among)
{
	char want[128], have[128];
	int pass, k, found;

	/* A card's whole name is that card, held or not. */
	k = vnb_card_exact(name);
	if (k >= 0)
		return among == NULL || among[k] ? k : -1;
	/* 1: the start of a name, '!'s and all (and no more '!'s after
	 * them: "Liberty or Death!" is not "Liberty or Death!!"); 2: its
	 * start without them, for a name written without any. */
	for (pass = 1; pass < 3; pass++) {
		int bangs = pass < 2;
		size_t wl;

		if (pass == 2 && strchr(name, '!') != NULL)
			break;
		card_norm(name, bangs, want, sizeof(want));
		wl = strlen(want);
		if (wl == 0)
			return -1;
		found = -1;
		for (k = 0; k < VC_COUNT; k++) {
			if (among != NULL && !among[k])
				continue;
			card_norm(vnb_cards[k].name, bangs, have, sizeof(have));
			if (strncmp(have, want, wl) != 0 ||
			    (bangs && have[wl] == '!'))
				continue;
			if (found >= 0)
				return -2;
			found = k;
		}
		if (found >= 0)
			return found;
	}
	return -1;
}

int
vnb_card_playable(const struct battle *b, int k, int side)
{
	enum vnb_allegiance a = vnb_cards[k].allegiance;

	if (a == VNB_NEUTRAL)
		return 1;
	return (a == VNB_CROWN) == (side == vnb_deck(b)->crown);
}

/* --- the scenario's lines -------------------------------------------- */

/* What the lines say, until the file is read (the scenario reader's
 * scratch for the ruleset). */
struct setup {
	int cards_line;                  /* the `cards` line, 0 if none */
	char crown_id[BATTLE_ID_MAX];    /* `cards crown SIDE`, "" if not */
	int card_count[VC_COUNT];        /* `card "Name" N`; its line */
	int card_line[VC_COUNT];
	int nhand;                       /* `hand` lines' cards, in order */
	char hand_side[VNB_MAX_CARDS][BATTLE_ID_MAX];
	int hand_kind[VNB_MAX_CARDS], hand_line[VNB_MAX_CARDS];
};
_Static_assert(sizeof(struct setup) <= RULESET_SCENARIO_SCRATCH,
    "the deck's scenario lines fit the reader's scratch");

const char *const vnb_scenario_words[] = { "cards", "card", "hand", NULL };

/* The card named by word i, or -1 with the error said. */
static int
want_card(const struct scenario_line *l, int i, char *msg, size_t msize)
{
	int k;

	if (i >= l->n || !l->quoted[i]) {
		snprintf(msg, msize, "expected a card's name in double quotes, for "
		    "example \"Good Going\" (see 'despatch rules vnb-wing')");
		return -1;
	}
	/* A scenario names its cards in full. */
	k = vnb_card_exact(l->w[i]);
	if (k >= 0)
		return k;
	k = vnb_card_find(l->w[i], NULL);
	if (k == -2)
		snprintf(msg, msize, "\"%s\" could be more than one card: write "
		    "the whole name, '!'s and all (see 'despatch rules vnb-wing')",
		    l->w[i]);
	else if (k >= 0)
		snprintf(msg, msize, "no card of vnb-wing is called \"%s\": "
		    "\"%s\"? (a scenario writes a card's whole name)", l->w[i],
		    vnb_cards[k].name);
	else
		snprintf(msg, msize, "no card of vnb-wing is called \"%s\" (see "
		    "'despatch rules vnb-wing')", l->w[i]);
	return -1;
}

static int
card_count(struct setup *u, const struct scenario_line *l, char *msg,
    size_t msize)
{
	char *end = NULL;
	long v;
	int k = want_card(l, 1, msg, msize);

	if (k < 0)
		return -1;
	if (u->card_line[k] > 0) {
		snprintf(msg, msize, "\"%s\" is counted twice (line %d too)",
		    vnb_cards[k].name, u->card_line[k]);
		return -1;
	}
	v = l->n == 3 && !l->quoted[2] ? strtol(l->w[2], &end, 10) : -1;
	if (l->n != 3 || l->w[2][0] == '\0' || end == NULL || *end != '\0' ||
	    v < 0 || v > 12) {
		snprintf(msg, msize, "expected 'card \"Name\" N', N the number of "
		    "that card in the deck (0 to 12)");
		return -1;
	}
	u->card_count[k] = (int)v + 1;
	u->card_line[k] = l->line;
	return 0;
}

int
vnb_scenario_line(struct battle *b, void *scratch,
    const struct scenario_line *l, char *msg, size_t msize)
{
	struct setup *u = scratch;
	int i;

	(void)b;
	if (strcmp(l->w[0], "cards") == 0) {
		if (u->cards_line > 0) {
			snprintf(msg, msize, "'cards' may appear only once (line %d "
			    "has it)", u->cards_line);
			return -1;
		}
		u->cards_line = l->line;
		if (l->n == 1)
			return 0;
		if (l->n != 3 || strcmp(l->w[1], "crown") != 0 || l->quoted[1] ||
		    l->quoted[2] || strlen(l->w[2]) >= sizeof(u->crown_id)) {
			snprintf(msg, msize, "expected 'cards' alone, or 'cards crown "
			    "SIDE' naming the side that plays the crown's cards");
			return -1;
		}
		memcpy(u->crown_id, l->w[2], strlen(l->w[2]) + 1);
		return 0;
	}
	if (strcmp(l->w[0], "card") == 0)
		return card_count(u, l, msg, msize);
	/* hand SIDE "Card" ... */
	if (l->n < 3 || l->quoted[1] || strlen(l->w[1]) >= BATTLE_ID_MAX) {
		snprintf(msg, msize, "expected 'hand SIDE \"Card\" [\"Card\" ...]'");
		return -1;
	}
	for (i = 2; i < l->n; i++) {
		int k = want_card(l, i, msg, msize);

		if (k < 0)
			return -1;
		if (u->nhand == VNB_MAX_CARDS) {
			snprintf(msg, msize, "too many cards in hands (at most %d)",
			    VNB_MAX_CARDS);
			return -1;
		}
		memcpy(u->hand_side[u->nhand], l->w[1], strlen(l->w[1]) + 1);
		u->hand_kind[u->nhand] = k;
		u->hand_line[u->nhand] = l->line;
		u->nhand++;
	}
	return 0;
}

int
vnb_scenario_end(struct battle *b, void *scratch, int *line, char *msg,
    size_t msize)
{
	struct setup *u = scratch;
	struct vnb_deck *c = vnb_deck(b);
	int k, i, crown = 0, rebel = 0;

	c->n = 0;
	c->crown = -1;
	if (u->cards_line == 0) {
		for (k = 0; k < VC_COUNT; k++)
			if (u->card_line[k] > 0) {
				*line = u->card_line[k];
				snprintf(msg, msize, "'card' lines need a 'cards' line, "
				    "which brings the cards into play");
				return -1;
			}
		if (u->nhand > 0) {
			*line = u->hand_line[0];
			snprintf(msg, msize, "'hand' lines need a 'cards' line, which "
			    "brings the cards into play");
			return -1;
		}
		return 0;
	}
	*line = u->cards_line;
	c->crown = battle_side(b, u->crown_id[0] ? u->crown_id : "crown");
	if (c->crown < 0) {
		if (u->crown_id[0])
			snprintf(msg, msize, "no side is called '%s'", u->crown_id);
		else
			snprintf(msg, msize, "no side is called 'crown': say which "
			    "side plays the crown's cards, 'cards crown SIDE'");
		return -1;
	}
	for (k = 0; k < VC_COUNT; k++) {
		int cnt = u->card_count[k] > 0 ? u->card_count[k] - 1 :
		    vnb_cards[k].count;

		if (vnb_cards[k].allegiance == VNB_CROWN)
			crown += cnt;
		else if (vnb_cards[k].allegiance == VNB_REBEL)
			rebel += cnt;
		for (i = 0; i < cnt; i++) {
			if (c->n == VNB_MAX_CARDS) {
				snprintf(msg, msize, "the deck has more than %d cards",
				    VNB_MAX_CARDS);
				return -1;
			}
			c->kind[c->n] = (unsigned char)k;
			c->at[c->n] = VNB_IN_DECK;
			c->n++;
		}
	}
	if (c->n == 0) {
		snprintf(msg, msize, "the deck has no cards: every 'card' line "
		    "counts 0");
		return -1;
	}
	/* The text: as many crown cards as rebel ones. */
	if (crown != rebel) {
		snprintf(msg, msize, "the deck has %d crown cards and %d rebel "
		    "ones: the rules want as many of each (change the 'card' "
		    "lines' counts)", crown, rebel);
		return -1;
	}
	for (i = 0; i < u->nhand; i++) {
		int s, j;

		*line = u->hand_line[i];
		s = battle_side(b, u->hand_side[i]);
		if (s < 0) {
			snprintf(msg, msize, "no side is called '%s'", u->hand_side[i]);
			return -1;
		}
		for (j = 0; j < c->n; j++)
			if (c->at[j] == VNB_IN_DECK && c->kind[j] == u->hand_kind[i])
				break;
		if (j == c->n) {
			snprintf(msg, msize, "the deck has no more \"%s\" to give",
			    vnb_cards[u->hand_kind[i]].name);
			return -1;
		}
		c->at[j] = (signed char)s;
	}
	return 0;
}

/* --- the deck as tables (struct ruleset.tables) ----------------------- */

/* The cards: where each is, in the scenario's order. */
static int
cards_rows(const struct battle *b)
{
	return vnb_deck(b)->n;
}

static void
cards_get(const struct battle *b, int row, int *v)
{
	v[0] = vnb_deck(b)->at[row];
}

static int
cards_set(struct battle *b, int nrows, int row, const int *v)
{
	struct vnb_deck *c = vnb_deck(b);

	/* The deck itself is the scenario's. */
	if (row < 0)
		return nrows == c->n ? 0 : -1;
	if (v[0] < VNB_USED || v[0] >= b->nsides)
		return -1;
	c->at[row] = (signed char)v[0];
	return 0;
}

/* The effects in play, in the order they were played. */
static int
effects_rows(const struct battle *b)
{
	return vnb_deck(b)->neffects;
}

static void
effects_get(const struct battle *b, int row, int *v)
{
	const struct vnb_effect *x = &vnb_deck(b)->effects[row];

	v[0] = x->card;
	v[1] = x->side;
	v[2] = x->unit;
	v[3] = x->commander;
	v[4] = x->at.x;
	v[5] = x->at.y;
	v[6] = x->value;
	v[7] = x->until;
	v[8] = x->spent;
}

static int
effects_set(struct battle *b, int nrows, int row, const int *v)
{
	struct vnb_deck *c = vnb_deck(b);
	struct vnb_effect *x;

	if (row < 0) {
		if (nrows < 0 || nrows > VNB_MAX_EFFECTS)
			return -1;
		c->neffects = nrows;
		return 0;
	}
	if (v[0] < 0 || v[0] >= VC_COUNT || v[1] < 0 || v[1] >= b->nsides ||
	    v[2] < -1 || v[2] >= b->nunits || v[3] < -1 ||
	    v[3] >= b->ncommanders || v[6] < 0 || v[7] < 0 || v[8] < 0 ||
	    v[8] > 1)
		return -1;
	x = &c->effects[row];
	x->card = v[0];
	x->side = v[1];
	x->unit = v[2];
	x->commander = v[3];
	x->at.x = v[4];
	x->at.y = v[5];
	x->value = v[6];
	x->until = v[7];
	x->spent = v[8];
	return 0;
}

static const char *const cards_keys[] = { "at", NULL };
static const char *const effects_keys[] = { "card", "side", "unit",
	"commander", "x", "y", "value", "until", "spent", NULL };

/* The names and order are the archive's and the signed state's since
 * engine 3 (docs/ledger.md): the deck's first. */
const struct rules_table vnb_tables[2] = {
	{ .name = "cards", .keys = cards_keys, .rows = cards_rows,
	  .get = cards_get, .set = cards_set },
	{ .name = "effects", .keys = effects_keys, .rows = effects_rows,
	  .get = effects_get, .set = effects_set },
};
