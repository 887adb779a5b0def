/*
 * cards.c - the scenario lines of the Fog of War cards (docs/scenario.md,
 * Cards):
 *
 *   cards [crown SIDE]          the battle plays the ruleset's cards
 *   card "Name" N               N of that card in the deck (0: none)
 *   hand SIDE "Name" ...        cards a side holds at the start
 *
 * The deck is made once the file is read: the ruleset's basic deck with
 * the `card` lines' counts, in the ruleset's card order; `hand` lines
 * take their cards from it.  The cards left are dealt by the adjudicator.
 */
#include "scenario/internal.h"

#include <string.h>

static int
need_cards(struct parser *p, const char *what)
{
	if (p->rs == NULL)
		return scn_perr(p, "'ruleset' must come before '%s'", what);
	if (p->rs->ncards == 0)
		return scn_perr(p, "ruleset %s has no Fog of War cards, so '%s' "
		    "has nothing to do", p->rs->name, what);
	return 0;
}

/* The card named by token i, or -1 with the error said. */
static int
want_card(struct parser *p, struct tok *t, int n, int i)
{
	int k;

	if (i >= n || !t[i].quoted)
		return scn_perr(p, "expected a card's name in double quotes, for "
		    "example \"Good Going\" (see 'despatch rules %s')",
		    p->rs->name);
	/* A scenario names its cards in full. */
	k = ruleset_card_exact(p->rs, t[i].s);
	if (k < 0 && ruleset_card_find(p->rs, t[i].s, NULL) == -2)
		return scn_perr(p, "\"%s\" could be more than one card: write "
		    "the whole name, '!'s and all (see 'despatch rules %s')",
		    t[i].s, p->rs->name);
	if (k < 0) {
		int near = ruleset_card_find(p->rs, t[i].s, NULL);

		return near >= 0 ? scn_perr(p, "no card of %s is called \"%s\": "
		    "\"%s\"? (a scenario writes a card's whole name)",
		    p->rs->name, t[i].s, p->rs->cards[near].name) :
		    scn_perr(p, "no card of %s is called \"%s\" (see 'despatch "
		    "rules %s')", p->rs->name, t[i].s, p->rs->name);
	}
	return k;
}

int
scn_do_cards(struct parser *p, struct tok *t, int n)
{
	if (need_cards(p, "cards") != 0)
		return -1;
	if (p->cards_line > 0)
		return scn_perr(p, "'cards' may appear only once (line %d has it)",
		    p->cards_line);
	p->cards_line = p->line;
	if (n == 1)
		return 0;
	if (n != 3 || strcmp(t[1].s, "crown") != 0 || t[1].quoted ||
	    t[2].quoted || strlen(t[2].s) >= sizeof(p->crown_id))
		return scn_perr(p, "expected 'cards' alone, or 'cards crown SIDE' "
		    "naming the side that plays the crown's cards");
	memcpy(p->crown_id, t[2].s, strlen(t[2].s) + 1);
	return 0;
}

int
scn_do_card(struct parser *p, struct tok *t, int n)
{
	int k, v;

	if (need_cards(p, "card") != 0 || (k = want_card(p, t, n, 1)) < 0)
		return -1;
	if (k >= SCN_CARD_KINDS)
		return scn_perr(p, "the ruleset has more cards than a scenario "
		    "can count");
	if (p->card_line[k] > 0)
		return scn_perr(p, "\"%s\" is counted twice (line %d too)",
		    p->rs->cards[k].name, p->card_line[k]);
	if (n != 3 || scn_want_int(p, t, n, 2, "number of the card in the deck",
	    0, 12, &v) != 0)
		return n != 3 ? scn_perr(p, "expected 'card \"Name\" N', N the "
		    "number of that card in the deck (0 to 12)") : -1;
	p->card_count[k] = v;
	p->card_line[k] = p->line;
	return 0;
}

int
scn_do_hand(struct parser *p, struct tok *t, int n)
{
	int i;

	if (need_cards(p, "hand") != 0)
		return -1;
	if (n < 3 || t[1].quoted || strlen(t[1].s) >= BATTLE_ID_MAX)
		return scn_perr(p, "expected 'hand SIDE \"Card\" [\"Card\" ...]'");
	for (i = 2; i < n; i++) {
		int k = want_card(p, t, n, i);

		if (k < 0)
			return -1;
		if (p->nhand == BATTLE_MAX_CARDS)
			return scn_perr(p, "too many cards in hands (at most %d)",
			    BATTLE_MAX_CARDS);
		memcpy(p->hand_side[p->nhand], t[1].s, strlen(t[1].s) + 1);
		p->hand_kind[p->nhand] = k;
		p->hand_line[p->nhand] = p->line;
		p->nhand++;
	}
	return 0;
}

int
scn_cards_finish(struct parser *p)
{
	struct battle *b = p->b;
	struct cards *c = &b->cards;
	int k, i, crown = 0, rebel = 0;

	c->n = 0;
	c->crown = -1;
	if (p->cards_line == 0) {
		for (k = 0; k < SCN_CARD_KINDS; k++)
			if (p->card_line[k] > 0) {
				p->line = p->card_line[k];
				return scn_perr(p, "'card' lines need a 'cards' line, "
				    "which brings the cards into play");
			}
		if (p->nhand > 0) {
			p->line = p->hand_line[0];
			return scn_perr(p, "'hand' lines need a 'cards' line, which "
			    "brings the cards into play");
		}
		return 0;
	}
	p->line = p->cards_line;
	c->crown = battle_side(b, p->crown_id[0] ? p->crown_id : "crown");
	if (c->crown < 0)
		return p->crown_id[0] ? scn_perr(p, "no side is called '%s'",
		    p->crown_id) : scn_perr(p, "no side is called 'crown': say "
		    "which side plays the crown's cards, 'cards crown SIDE'");
	for (k = 0; k < p->rs->ncards && k < SCN_CARD_KINDS; k++) {
		int cnt = p->card_count[k] >= 0 ? p->card_count[k] :
		    p->rs->cards[k].count;

		if (p->rs->cards[k].allegiance == CARD_CROWN)
			crown += cnt;
		else if (p->rs->cards[k].allegiance == CARD_REBEL)
			rebel += cnt;
		for (i = 0; i < cnt; i++) {
			if (c->n == BATTLE_MAX_CARDS)
				return scn_perr(p, "the deck has more than %d cards",
				    BATTLE_MAX_CARDS);
			c->kind[c->n] = (unsigned char)k;
			c->at[c->n] = CARD_DECK;
			c->n++;
		}
	}
	if (c->n == 0)
		return scn_perr(p, "the deck has no cards: every 'card' line "
		    "counts 0");
	/* The text: as many crown cards as rebel ones. */
	if (crown != rebel)
		return scn_perr(p, "the deck has %d crown cards and %d rebel "
		    "ones: the rules want as many of each (change the 'card' "
		    "lines' counts)", crown, rebel);
	for (i = 0; i < p->nhand; i++) {
		int s, j;

		p->line = p->hand_line[i];
		s = battle_side(b, p->hand_side[i]);
		if (s < 0)
			return scn_perr(p, "no side is called '%s'", p->hand_side[i]);
		for (j = 0; j < c->n; j++)
			if (c->at[j] == CARD_DECK && c->kind[j] == p->hand_kind[i])
				break;
		if (j == c->n)
			return scn_perr(p, "the deck has no more \"%s\" to give",
			    p->rs->cards[p->hand_kind[i]].name);
		c->at[j] = (signed char)s;
	}
	return 0;
}
