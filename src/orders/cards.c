/*
 * cards.c - the order lines that play or discard a Fog of War card:
 *
 *   PLAY CARD "Good Going" ON 2nd Maryland
 *   PLAY CARD "Local Knowledge!" AT 30,20
 *   DISCARD CARD "Panic!!!"
 *
 * CARD may be left out, the name need not be quoted, and a card may be
 * named by its number in the hand the last report listed.  A card must
 * be in the side's hand, and one of the side's own allegiance to be
 * played; what it is played on is checked against what the card names
 * (docs/orders.md, Cards).
 */
#include "orders/internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* s starts with word (any case) followed by a space or the end: the
 * text after it and its spaces, or NULL. */
static const char *
after_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	if (strncasecmp(s, word, n) != 0 || (s[n] != '\0' && s[n] != ' ' &&
	    s[n] != '\t'))
		return NULL;
	s += n;
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Where " ON " or " AT " (any case) starts in s, or NULL. */
static const char *
find_key(const char *s, const char *key)
{
	size_t n = strlen(key);

	for (; *s; s++)
		if ((s[0] == ' ' || s[0] == '\t') && strncasecmp(s + 1, key, n) == 0 &&
		    (s[n + 1] == ' ' || s[n + 1] == '\t'))
			return s;
	return NULL;
}

/* The side's hand, one name a kind held ("Good Going" or "Good Going
 * (2)"), into out. */
static void
hand_list(const struct ruleset *rs, const struct battle *b, int side,
    char *out, size_t size)
{
	size_t k = 0;
	int i, j, shown = 0;

	out[0] = '\0';
	for (i = 0; i < rs->ncards; i++) {
		int n = 0;

		for (j = 0; j < b->cards.n; j++)
			n += b->cards.at[j] == side && b->cards.kind[j] == i;
		if (n == 0 || k >= size)
			continue;
		k += (size_t)snprintf(out + k, size - k, "%s\"%s\"", shown ? ", " :
		    "", rs->cards[i].name);
		if (n > 1 && k < size)
			k += (size_t)snprintf(out + k, size - k, " (%d of them)", n);
		shown++;
	}
	if (shown == 0) {
		int used = 0;

		for (j = 0; j < b->cards.n; j++)
			used |= b->cards.at[j] != CARD_DECK;
		snprintf(out, size, used ? "no cards now (cards played or "
		    "discarded are replaced after the last phase of each turn)" :
		    "no cards yet (the first hands are dealt as the first phase "
		    "is played)");
	}
}

/* The n-th card of the side's hand (1-based, in deck order, as the
 * report lists it): its kind, or -1. */
static int
hand_nth(const struct battle *b, int side, int n)
{
	int j;

	for (j = 0; j < b->cards.n; j++)
		if (b->cards.at[j] == side && --n == 0)
			return b->cards.kind[j];
	return -1;
}

int
orders_card_line(struct orders_parser *p, const struct battle *b, int side,
    const char *buf, struct order *o, char *msg, size_t msize)
{
	const struct ruleset *rs = p->rs;
	const struct card_def *cd;
	unsigned char held[256];
	char name[ORDERS_TEXT_MAX], rest[ORDERS_TEXT_MAX], hand[400];
	const char *r, *on, *at;
	int discard, k, j, has_card;

	if ((r = after_word(buf, "PLAY")) != NULL)
		discard = 0;
	else if ((r = after_word(buf, "DISCARD")) != NULL)
		discard = 1;
	else
		return 0;
	/* "Play the Grenadiers: ..." would be a unit named Play: a card
	 * line has no colon after its first word. */
	if (strchr(buf, ':') != NULL)
		return 0;
	/* "PLAY CARD ..." is a card line; "Play ..." or "Discard ..." only
	 * when a card's name follows ("Discard my last mail" is a remark). */
	has_card = after_word(r, "CARD") != NULL;
	if (has_card)
		r = after_word(r, "CARD");
	else if (rs->ncards == 0 || b->cards.n == 0)
		return 0;
	if (rs->ncards == 0 || b->cards.n == 0) {
		snprintf(msg, msize, "this game is played without Fog of War cards "
		    "(its scenario has no 'cards' line)");
		return -1;
	}
	/* The name: quoted (straight or curly quotes), or up to ON or AT. */
	name[0] = '\0';
	if (*r == '"' || strncmp(r, "\xe2\x80\x9c", 3) == 0) {
		const char *q = r + (*r == '"' ? 1 : 3), *end = q;

		while (*end && *end != '"' && strncmp(end, "\xe2\x80\x9d", 3) != 0)
			end++;
		if (*end == '\0') {
			snprintf(msg, msize, "the card's name is missing its "
			    "closing quote");
			return -1;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(end - q), q);
		snprintf(rest, sizeof(rest), "%s", end + (*end == '"' ? 1 : 3));
	} else {
		const char *stop = find_key(r, "ON");

		if (stop == NULL)
			stop = find_key(r, "AT");
		if (stop == NULL)
			stop = r + strlen(r);
		snprintf(name, sizeof(name), "%.*s", (int)(stop - r), r);
		snprintf(rest, sizeof(rest), "%s", stop);
	}
	orders_trim(name);
	orders_trim(rest);
	if (!has_card && (name[0] == '\0' ||
	    (name[strspn(name, "0123456789")] != '\0' &&
	    ruleset_card_find(rs, name, NULL) == -1)))
		return 0;
	if (name[0] == '\0') {
		snprintf(msg, msize, "%s needs the card's name, for example "
		    "%s CARD \"Good Going\"%s", discard ? "DISCARD" : "PLAY",
		    discard ? "DISCARD" : "PLAY", discard ? "" : " ON 7th Foot");
		return -1;
	}
	memset(held, 0, sizeof(held));
	for (j = 0; j < b->cards.n; j++)
		if (b->cards.at[j] == side)
			held[b->cards.kind[j]] = 1;
	hand_list(rs, b, side, hand, sizeof(hand));
	if (p->replay) {
		/* A stored line names its card in full. */
		k = ruleset_card_find(rs, name, NULL);
	} else if (name[strspn(name, "0123456789")] == '\0') {
		k = hand_nth(b, side, atoi(name));
		if (k < 0) {
			snprintf(msg, msize, "your hand has no card %s: it holds %s",
			    name, hand);
			return -1;
		}
	} else {
		k = ruleset_card_find(rs, name, held);
	}
	if (k == -2) {
		snprintf(msg, msize, "\"%s\" could be more than one card of your "
		    "hand (%s): write the whole name, '!'s and all", name, hand);
		return -1;
	}
	if (k < 0) {
		int any = ruleset_card_find(rs, name, NULL);

		if (any >= 0)
			snprintf(msg, msize, "your side does not hold \"%s\": it "
			    "holds %s", rs->cards[any].name, hand);
		else
			snprintf(msg, msize, "no card is called \"%s\": your side "
			    "holds %s", name, hand);
		return -1;
	}
	cd = &rs->cards[k];
	memset(o, 0, sizeof(*o));
	o->card = k + 1;
	o->discard = discard;
	o->who = -1;
	if (discard) {
		if (rest[0] != '\0') {
			snprintf(msg, msize, "DISCARD takes only the card's name, "
			    "not \"%s\"", rest);
			return -1;
		}
		return 1;
	}
	if (!ruleset_card_playable(rs, b, k, side)) {
		snprintf(msg, msize, "\"%s\" is a %s card: only the %s side may "
		    "play it (DISCARD it to draw another at the end of the turn)",
		    cd->name, cd->allegiance == CARD_CROWN ? "crown" : "rebel",
		    cd->allegiance == CARD_CROWN ? "crown's" : "rebels'");
		return -1;
	}
	on = after_word(rest, "ON");
	at = after_word(rest, "AT");
	if (cd->target == CT_NONE) {
		if (rest[0] != '\0') {
			snprintf(msg, msize, "\"%s\" is played on nothing: write "
			    "PLAY CARD \"%s\" alone", cd->name, cd->name);
			return -1;
		}
		return 1;
	}
	if (cd->target == CT_POINT) {
		if (at == NULL || *at == '\0') {
			snprintf(msg, msize, "\"%s\" names a place: PLAY CARD \"%s\" "
			    "AT x,y", cd->name, cd->name);
			return -1;
		}
		return orders_point(p, b, at, "AT", &o->at, msg, msize) == 0 ? 1 : -1;
	}
	if (on == NULL || *on == '\0') {
		snprintf(msg, msize, "\"%s\" is played on %s: PLAY CARD \"%s\" ON "
		    "%s", cd->name, cd->target == CT_OWN_UNIT ? "a unit of yours" :
		    cd->target == CT_ENEMY_UNIT ? "an enemy unit" :
		    "an enemy commander", cd->name, cd->target ==
		    CT_ENEMY_COMMANDER ? "COMMANDER" : "UNIT");
		return -1;
	}
	{
		const struct cand *c;
		unsigned which = cd->target == CT_OWN_UNIT ? WHO_OWN_UNIT :
		    cd->target == CT_ENEMY_UNIT ? WHO_ENEMY_UNIT : WHO_ENEMY_CMD;
		const char *what = cd->target == CT_OWN_UNIT ? "unit of yours" :
		    cd->target == CT_ENEMY_UNIT ? "enemy unit" : "enemy commander";

		if (orders_resolve(p, b, side, which, on, &c, msg, msize, what) != 1) {
			const struct cand *other;

			/* A name of the wrong kind: say what it is and what the
			 * card wants; else the resolver's suggestions. */
			if (orders_resolve(p, b, side, WHO_OWN_UNIT | WHO_ENEMY_UNIT |
			    WHO_OWN_CMD | WHO_ENEMY_CMD, on, &other, NULL, 0, "") == 1)
				snprintf(msg, msize, "\"%s\" is %s, and \"%s\" is "
				    "played on %s %s", other->name, other->kind == C_CMD ?
				    (other->side == side ? "one of your commanders" :
				    "an enemy commander") : other->side == side ?
				    "one of your units" : "an enemy unit", cd->name,
				    cd->target == CT_OWN_UNIT ? "a" : "an", what);
			else {
				size_t l = strlen(msg);

				snprintf(msg + l, msize - l, " (\"%s\" is played on %s "
				    "%s)", cd->name, cd->target == CT_OWN_UNIT ? "a" :
				    "an", what);
			}
			return -1;
		}
		o->who = c->idx;
		o->is_commander = c->kind == C_CMD;
	}
	return 1;
}
