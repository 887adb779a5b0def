/*
 * vnb_wing_card_words.c - the Fog of War cards in players' words: the
 * order lines that play or discard one, and what the reports, the
 * welcome mail, the side report's JSON and 'despatch rules' say of
 * them (struct ruleset.order_line, struct ruleset_words.holdings ...).
 *
 *   PLAY CARD "Good Going" ON 2nd Maryland
 *   PLAY CARD "Local Knowledge!" AT 30,20
 *   DISCARD CARD "Panic!!!"
 *
 * CARD may be left out, the name need not be quoted, and a card may be
 * named by its number in the hand the last report listed.  A card must
 * be in the side's hand, and one of the side's own allegiance to be
 * played; what it is played on is checked against what the card names
 * (docs/orders.md, Cards).  The order parser lends the name and point
 * readers (struct order_line_ctx); it knows nothing of cards.
 */
#include "rules/vnb_wing.h"
#include "rules/vnb_wing_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/geom.h"

/* --- the order lines -------------------------------------------------- */

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

/* s without the spaces at either end, in place. */
static void
trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	memmove(s, s + i, n - i + 1);
}

/* The side's hand, one name a kind held ("Good Going" or "Good Going
 * (2)"), into out. */
static void
hand_list(const struct battle *b, int side, char *out, size_t size)
{
	const struct vnb_deck *d = vnb_deck(b);
	size_t k = 0;
	int i, j, shown = 0;

	out[0] = '\0';
	for (i = 0; i < VC_COUNT; i++) {
		int n = 0;

		for (j = 0; j < d->n; j++)
			n += d->at[j] == side && d->kind[j] == i;
		if (n == 0 || k >= size)
			continue;
		k += (size_t)snprintf(out + k, size - k, "%s\"%s\"", shown ? ", " :
		    "", vnb_cards[i].name);
		if (n > 1 && k < size)
			k += (size_t)snprintf(out + k, size - k, " (%d of them)", n);
		shown++;
	}
	if (shown == 0) {
		int used = 0;

		for (j = 0; j < d->n; j++)
			used |= d->at[j] != VNB_IN_DECK;
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
	const struct vnb_deck *d = vnb_deck(b);
	int j;

	for (j = 0; j < d->n; j++)
		if (d->at[j] == side && --n == 0)
			return d->kind[j];
	return -1;
}

static const char *
target_words(enum vnb_target t)
{
	return t == VNB_ON_OWN_UNIT ? "unit of yours" : t == VNB_ON_ENEMY_UNIT ?
	    "enemy unit" : "enemy commander";
}

/* What the card is played on, from the text after its name. */
static int
card_target(const struct order_line_ctx *c, const struct vnb_card_def *cd,
    const char *rest, struct order *o, char *msg, size_t msize)
{
	const struct battle *b = c->b;
	const char *on = after_word(rest, "ON"), *at = after_word(rest, "AT");
	const char *what = target_words(cd->target);
	const char *a = cd->target == VNB_ON_OWN_UNIT ? "a" : "an";
	unsigned kinds;
	int idx, is_cmd;

	if (cd->target == VNB_ON_NOTHING) {
		if (rest[0] == '\0')
			return 1;
		snprintf(msg, msize, "\"%s\" is played on nothing: write PLAY "
		    "CARD \"%s\" alone", cd->name, cd->name);
		return -1;
	}
	if (cd->target == VNB_ON_POINT) {
		if (at == NULL || *at == '\0') {
			snprintf(msg, msize, "\"%s\" names a place: PLAY CARD \"%s\" "
			    "AT x,y", cd->name, cd->name);
			return -1;
		}
		return c->point(c, at, "AT", &o->at, msg, msize) == 0 ? 1 : -1;
	}
	if (on == NULL || *on == '\0') {
		snprintf(msg, msize, "\"%s\" is played on %s %s: PLAY CARD \"%s\" "
		    "ON %s", cd->name, a, what, cd->name, cd->target ==
		    VNB_ON_ENEMY_COMMANDER ? "COMMANDER" : "UNIT");
		return -1;
	}
	kinds = cd->target == VNB_ON_OWN_UNIT ? ORDER_LINE_OWN_UNIT :
	    cd->target == VNB_ON_ENEMY_UNIT ? ORDER_LINE_ENEMY_UNIT :
	    ORDER_LINE_ENEMY_CMD;
	if (c->resolve(c, kinds, on, what, &idx, &is_cmd, msg, msize) == 1) {
		o->who = idx;
		o->is_commander = is_cmd;
		return 1;
	}
	/* A name of the wrong kind: say what it is and what the card
	 * wants; else the resolver's suggestions. */
	if (c->resolve(c, ORDER_LINE_OWN_UNIT | ORDER_LINE_ENEMY_UNIT |
	    ORDER_LINE_OWN_CMD | ORDER_LINE_ENEMY_CMD, on, "", &idx, &is_cmd,
	    NULL, 0) == 1) {
		int side = is_cmd ? b->commanders[idx].side : b->units[idx].side;

		snprintf(msg, msize, "\"%s\" is %s, and \"%s\" is played on %s %s",
		    is_cmd ? b->commanders[idx].name : b->units[idx].name,
		    is_cmd ? (side == c->side ? "one of your commanders" :
		    "an enemy commander") : side == c->side ?
		    "one of your units" : "an enemy unit", cd->name, a, what);
	} else {
		size_t l = strlen(msg);

		snprintf(msg + l, msize - l, " (\"%s\" is played on %s %s)",
		    cd->name, a, what);
	}
	return -1;
}

/* Which card the line names, from the hand (or, read again, in full):
 * its kind, or -1 with msg. */
static int
which_card(const struct order_line_ctx *c, const char *name, char *msg,
    size_t msize)
{
	const struct vnb_deck *d = vnb_deck(c->b);
	unsigned char held[VC_COUNT];
	char hand[400];
	int j, k;

	memset(held, 0, sizeof(held));
	for (j = 0; j < d->n; j++)
		if (d->at[j] == c->side)
			held[d->kind[j]] = 1;
	hand_list(c->b, c->side, hand, sizeof(hand));
	if (c->replay) {
		/* A stored line names its card in full. */
		k = vnb_card_find(name, NULL);
	} else if (name[strspn(name, "0123456789")] == '\0') {
		k = hand_nth(c->b, c->side, atoi(name));
		if (k < 0) {
			snprintf(msg, msize, "your hand has no card %s: it holds %s",
			    name, hand);
			return -1;
		}
	} else {
		k = vnb_card_find(name, held);
	}
	if (k == -2) {
		snprintf(msg, msize, "\"%s\" could be more than one card of your "
		    "hand (%s): write the whole name, '!'s and all", name, hand);
		return -1;
	}
	if (k < 0) {
		int any = vnb_card_find(name, NULL);

		if (any >= 0)
			snprintf(msg, msize, "your side does not hold \"%s\": it "
			    "holds %s", vnb_cards[any].name, hand);
		else
			snprintf(msg, msize, "no card is called \"%s\": your side "
			    "holds %s", name, hand);
		return -1;
	}
	return k;
}

int
vnb_order_line(const struct order_line_ctx *c, const char *buf,
    struct order *o, char *msg, size_t msize)
{
	const struct battle *b = c->b;
	const struct vnb_deck *d = vnb_deck(b);
	const struct vnb_card_def *cd;
	char name[256], rest[256];
	const char *r;
	int discard, k, j, has_card, rc;

	/* Every order line of every mail is shown here first: one that
	 * begins with neither word's letter is no card line. */
	if ((buf[0] | 0x20) != 'p' && (buf[0] | 0x20) != 'd')
		return 0;
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
	else if (d->n == 0)
		return 0;
	if (d->n == 0) {
		snprintf(msg, msize, "this game is played without Fog of War cards "
		    "(its scenario has no 'cards' line)");
		return -1;
	}
	/* The name: quoted (straight or curly quotes), or up to ON or AT. */
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
	trim(name);
	trim(rest);
	if (!has_card && (name[0] == '\0' ||
	    (name[strspn(name, "0123456789")] != '\0' &&
	    vnb_card_find(name, NULL) == -1)))
		return 0;
	if (name[0] == '\0') {
		snprintf(msg, msize, "%s needs the card's name, for example "
		    "%s CARD \"Good Going\"%s", discard ? "DISCARD" : "PLAY",
		    discard ? "DISCARD" : "PLAY", discard ? "" : " ON 7th Foot");
		return -1;
	}
	if (c->standing) {
		snprintf(msg, msize, "a card is played once, so it cannot be a "
		    "standing order");
		return -1;
	}
	if ((k = which_card(c, name, msg, msize)) < 0)
		return -1;
	cd = &vnb_cards[k];
	memset(o, 0, sizeof(*o));
	o->special = k + 1;
	o->special_arg = discard;
	o->who = -1;
	if (discard) {
		if (rest[0] != '\0') {
			snprintf(msg, msize, "DISCARD takes only the card's name, "
			    "not \"%s\"", rest);
			return -1;
		}
		rc = 1;
	} else if (!vnb_card_playable(b, k, c->side)) {
		snprintf(msg, msize, "\"%s\" is a %s card: only the %s side may "
		    "play it (DISCARD it to draw another at the end of the turn)",
		    cd->name, cd->allegiance == VNB_CROWN ? "crown" : "rebel",
		    cd->allegiance == VNB_CROWN ? "crown's" : "rebels'");
		return -1;
	} else if ((rc = card_target(c, cd, rest, o, msg, msize)) < 0) {
		return -1;
	}
	/* No more of a card than the hand holds. */
	if (!c->replay && c->taken != NULL) {
		int held = 0, asked = 1;

		for (j = 0; j < d->n; j++)
			held += d->at[j] == c->side && d->kind[j] == k;
		for (j = 0; j < c->taken->n; j++)
			asked += c->taken->orders[j].special == k + 1;
		if (asked > held) {
			snprintf(msg, msize, "your side holds %d \"%s\", and earlier "
			    "lines play or discard %s", held, cd->name, held == 1 ?
			    "it" : "them all");
			return -1;
		}
	}
	return rc;
}

/* Appends what printf makes to out (of size), cut if need be. */
static void
put(char *out, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
put(char *out, size_t size, const char *fmt, ...)
{
	size_t l = strlen(out);
	va_list ap;

	if (l + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(out + l, size - l, fmt, ap);
	va_end(ap);
}

void
vnb_order_text(const struct battle *b, const struct order *o, char *out,
    size_t size)
{
	char x[24], y[24];
	int k = o->special - 1;

	if (size == 0)
		return;
	out[0] = '\0';
	put(out, size, "%s CARD \"%s\"", o->special_arg ? "DISCARD" : "PLAY",
	    k >= 0 && k < VC_COUNT ? vnb_cards[k].name : "?");
	if (o->who >= 0)
		put(out, size, " ON %s", o->is_commander ?
		    b->commanders[o->who].name : b->units[o->who].name);
	else if (!o->special_arg && k >= 0 && k < VC_COUNT &&
	    vnb_cards[k].target == VNB_ON_POINT)
		put(out, size, " AT %s,%s", geom_fmt_fx(o->at.x, x, sizeof(x)),
		    geom_fmt_fx(o->at.y, y, sizeof(y)));
}

/* --- what the reports say --------------------------------------------- */

/* text, on the lines after a card's name: indented, cut at spaces to
 * keep the mail's lines under 72 characters. */
static void
wrapped(struct text *t, const char *text)
{
	const char *s = text;

	text_add(t, "\n");
	while (*s) {
		size_t n = strlen(s), cut = n;

		if (n > 66) {
			cut = 66;
			while (cut > 0 && s[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = 66;
		}
		text_add(t, "      %.*s\n", (int)cut, s);
		s += cut;
		while (*s == ' ')
			s++;
	}
}

void
vnb_holdings_line(const struct battle *b, int side, struct text *t)
{
	const struct vnb_deck *d = vnb_deck(b);
	int i, n = 0;

	if (d->n == 0)
		return;
	text_add(t, "\nCards held:");
	for (i = 0; i < d->n; i++)
		if (d->at[i] == side)
			text_add(t, "%s \"%s\"", n++ ? "," : "",
			    vnb_cards[d->kind[i]].name);
	text_add(t, "%s\n", n ? "" : " none");
}

void
vnb_holdings(const struct battle *b, int side, int next_step,
    struct text *t)
{
	const struct vnb_deck *d = vnb_deck(b);
	int i, n = 0, shown = 0;

	if (d->n == 0)
		return;
	text_add(t, "\nYour cards\n----------\n");
	for (i = 0; i < d->n; i++) {
		const struct vnb_card_def *cd = &vnb_cards[d->kind[i]];

		if (d->at[i] != side)
			continue;
		n++;
		text_add(t, "%2d. \"%s\"", n, cd->name);
		if (!vnb_card_playable(b, d->kind[i], side))
			text_add(t, " (a %s card: yours only to discard)\n",
			    cd->allegiance == VNB_CROWN ? "crown" : "rebel");
		else
			wrapped(t, cd->help);
	}
	if (n == 0)
		text_add(t, "Your side holds no cards.\n");
	else
		text_add(t, "Play one with a line of its own, e.g. PLAY CARD \"Name\" "
		    "ON <unit> (or by its\nnumber: PLAY CARD 1 ON <unit>); DISCARD "
		    "CARD \"Name\" lets you draw another.\nCards played or "
		    "discarded are replaced after the last phase of each turn.\n");
	for (i = 0; i < d->neffects; i++) {
		const struct vnb_effect *x = &d->effects[i];
		char xs[24], ys[24];
		int nt;

		if (x->until < next_step || x->spent || (x->side != side &&
		    (x->unit < 0 || b->units[x->unit].side != side)) ||
		    (x->unit >= 0 && battle_unit_alive(b, x->unit) == 0))
			continue;
		if (shown++ == 0)
			text_add(t, "In play:\n");
		nt = battle_step_side(b, x->until + 1);
		if (x->unit >= 0)
			text_add(t, "  \"%s\" (played by %s) on %s,\n",
			    vnb_cards[x->card].name, b->sides[x->side].id,
			    b->units[x->unit].name);
		else
			text_add(t, "  \"%s\" (played by %s) at %s,%s,\n",
			    vnb_cards[x->card].name, b->sides[x->side].id,
			    geom_fmt_fx(x->at.x, xs, sizeof(xs)),
			    geom_fmt_fx(x->at.y, ys, sizeof(ys)));
		text_add(t, "      until the %s phase of turn %d begins\n",
		    nt >= 0 ? b->sides[nt].id : "next",
		    battle_step_turn(b, x->until + 1));
	}
}

void
vnb_welcome(const struct battle *b, int side, int step, struct text *t)
{
	const struct vnb_deck *d = vnb_deck(b);
	int i, held = 0;

	if (d->n == 0)
		return;
	for (i = 0; i < d->n; i++)
		held += d->at[i] == side;
	text_add(t, "\nThis battle plays Fog of War cards%s. A card is a "
	    "line of its own, played at\nthe start of your phase:\n  PLAY "
	    "CARD \"Good Going\" ON <unit>      (or PLAY CARD 2 ON <unit>, "
	    "by number)\n  PLAY CARD \"Local Knowledge!\" AT 30,20\n  DISCARD "
	    "CARD \"Panic!!!\"          (you draw another at the end of the "
	    "turn)\n", held > 0 ? "" : ", dealt as the first phase is "
	    "played");
	if (held > 0)
		vnb_holdings(b, side, step, t);
}

/* The cards in a battle that plays them: how many are in the deck, each
 * side's hand (in a fog game only how many the others hold), and the
 * cards in play (in a fog game those the side played or that lie on its
 * units). */
void
vnb_holdings_json(const struct battle *b, int side, int fog,
    const struct ruleset_json *j)
{
	const struct vnb_deck *d = vnb_deck(b);
	int i, s, n = 0;

	if (d->n == 0)
		return;
	j->obj(j->w, "cards");
	for (i = 0; i < d->n; i++)
		n += d->at[i] == VNB_IN_DECK;
	j->num(j->w, "deck", n);
	j->arr(j->w, "hands");
	for (s = 0; s < b->nsides; s++) {
		j->obj(j->w, NULL);
		j->str(j->w, "side", b->sides[s].id);
		for (i = n = 0; i < d->n; i++)
			n += d->at[i] == s;
		j->num(j->w, "held", n);
		if (!fog || s == side) {
			j->arr(j->w, "cards");
			for (i = 0; i < d->n; i++)
				if (d->at[i] == s)
					j->str(j->w, NULL, vnb_cards[d->kind[i]].name);
			j->end_arr(j->w);
		}
		j->end_obj(j->w);
	}
	j->end_arr(j->w);
	j->arr(j->w, "in_play");
	for (i = 0; i < d->neffects; i++) {
		const struct vnb_effect *x = &d->effects[i];

		if (x->spent || (fog && x->side != side && (x->unit < 0 ||
		    b->units[x->unit].side != side)) ||
		    (x->unit >= 0 && battle_unit_alive(b, x->unit) == 0))
			continue;
		j->obj(j->w, NULL);
		j->str(j->w, "card", vnb_cards[x->card].name);
		j->str(j->w, "played_by", b->sides[x->side].id);
		j->str(j->w, "unit", x->unit >= 0 ? b->units[x->unit].name : NULL);
		j->str(j->w, "commander", x->commander >= 0 ?
		    b->commanders[x->commander].name : NULL);
		if (x->unit < 0 && x->commander < 0) {
			j->inches(j->w, "x", x->at.x);
			j->inches(j->w, "y", x->at.y);
		}
		j->num(j->w, "until_step", x->until);
		j->end_obj(j->w);
	}
	j->end_arr(j->w);
	j->end_obj(j->w);
}

void
vnb_rules_note(struct text *t)
{
	static const char *const on[] = { "-", "own unit", "enemy unit",
		"enemy commander", "a point" };
	int i;

	text_add(t, "\nFog of War cards (a scenario's 'cards' line plays them): "
	    "name, who may play it,\nhow many the basic deck holds (a "
	    "default; 'card \"Name\" N' changes it), what\nit is played "
	    "on, and what it does.\n");
	for (i = 0; i < VC_COUNT; i++) {
		const struct vnb_card_def *cd = &vnb_cards[i];

		text_add(t, "  %-31s %-7s %d  %-15s %s\n", cd->name,
		    cd->allegiance == VNB_NEUTRAL ? "either" :
		    cd->allegiance == VNB_CROWN ? "crown" : "rebel", cd->count,
		    on[cd->target], cd->help);
	}
}
