/*
 * absence.c - ABSENT FROM d TO d and ABSENT CANCEL: a player says when
 * they will be away (docs/orders.md, Commands).
 *
 * The game's absence setting says what an absence does.  extend (the
 * default, so that a player's holiday does not lose them their game): a
 * phase's deadline that falls within the absence is put off to the same
 * time on the day after it, at most absence-cap days, and each move is an
 * extend act in the ledger like the operator's.  Any player's absence
 * moves the deadline, whichever side the phase is for: a deadline is only
 * the latest a phase is played, and one is still played as soon as every
 * order owed is in.  standing: the deadline stands, and a phase that
 * passes it without the player's orders plays their standing orders, as
 * for any missed deadline.
 *
 * Days are the game's time zone's.  absence-cap counts every day a
 * player has taken in the game, absences over included, so that absences
 * one after another cannot hold a game up for ever.  The other players
 * are told the dates and nothing else; no answer names an address.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "orders/orders.h"
#include "referee/chain.h"
#include "referee/internal.h"

/* The most absences a game's deadline is checked against. */
#define ABSENCES_MAX 128

/* The day of t in zone tz, YYYY-MM-DD (in UTC when this system cannot
 * hold t in its time_t). */
static void
day_of(int64_t t, const char *tz, char out[11])
{
	struct tm tm;
	time_t tt = (time_t)t;

	if (referee_local_time(t, tz, &tm) != 0 && gmtime_r(&tt, &tm) == NULL)
		memset(&tm, 0, sizeof(tm));
	strftime(out, 11, "%Y-%m-%d", &tm);
}

/* Days since 1970-01-01 of the day d (YYYY-MM-DD, checked by the
 * parser). */
static int64_t
day_number(const char *d)
{
	struct tm tm;
	int y = 1970, m = 1, dd = 1;

	memset(&tm, 0, sizeof(tm));
	if (sscanf(d, "%d-%d-%d", &y, &m, &dd) != 3)
		return 0;
	tm.tm_year = y - 1900;
	tm.tm_mon = m - 1;
	tm.tm_mday = dd;
	return (int64_t)timegm(&tm) / 86400;
}

/* Day n (days since 1970-01-01) as YYYY-MM-DD. */
static void
day_name(int64_t n, char out[11])
{
	time_t t = (time_t)(n * 86400);
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL)
		memset(&tm, 0, sizeof(tm));
	strftime(out, 11, "%Y-%m-%d", &tm);
}

/* The game's absence settings: *extend (1: extend, 0: standing), *cap
 * in days and its time zone. */
static int
absence_settings(struct referee *r, int64_t game, int *extend,
    int64_t *cap, char *tz, size_t tsize, struct err *e)
{
	char how[16], v[16];

	if (referee_setting_get(r, game, "absence", how, sizeof(how), e) != 0 ||
	    referee_setting_get(r, game, "absence-cap", v, sizeof(v), e) != 0 ||
	    referee_setting_get(r, game, "timezone", tz, tsize, e) != 0)
		return -1;
	*extend = strcmp(how, "standing") != 0;
	*cap = strtoll(v, NULL, 10);
	return 0;
}

int
referee_absence_deadline(struct referee *r, int64_t game, int64_t *at,
    struct err *e)
{
	struct store_absence *a;
	char tz[128], day[11];
	int64_t t = *at, cap = 0;
	int n, i, extend = 0, moved = 1;

	if (*at <= 0)
		return 0;
	if (absence_settings(r, game, &extend, &cap, tz, sizeof(tz), e) != 0)
		return -1;
	if (!extend || cap <= 0)
		return 0;
	a = calloc(ABSENCES_MAX, sizeof(*a));
	if (a == NULL)
		return err_set(e, ERR_INTERNAL, "out of memory");
	day_of(t, tz, day);
	n = store_absences(r->st, game, day, a, ABSENCES_MAX, e);
	/* Each absence moves the deadline at most once (past its last
	 * day), so this ends. */
	while (n > 0 && moved) {
		moved = 0;
		day_of(t, tz, day);
		for (i = 0; i < n && !moved; i++)
			if (strcmp(a[i].first, day) <= 0 &&
			    strcmp(day, a[i].last) <= 0) {
				t += (day_number(a[i].last) - day_number(day) + 1) *
				    86400;
				moved = 1;
			}
	}
	free(a);
	if (n < 0)
		return -1;
	if (t - *at > cap * 86400)
		t = *at + cap * 86400;
	if (t == *at)
		return 0;
	if (chain_act(r, game, "extend", 0, NULL, t - *at, "absent", e) != 0)
		return -1;
	*at = t;
	return 0;
}

int
referee_absent_today(struct referee *r, int64_t game, int64_t player,
    struct err *e)
{
	struct store_absence *a;
	char tz[128], today[11];
	int64_t cap = 0;
	int n, i, extend = 0, away = 0;

	if (absence_settings(r, game, &extend, &cap, tz, sizeof(tz), e) != 0)
		return -1;
	a = calloc(ABSENCES_MAX, sizeof(*a));
	if (a == NULL)
		return err_set(e, ERR_INTERNAL, "out of memory");
	day_of(referee_now(r), tz, today);
	n = store_absences(r->st, game, today, a, ABSENCES_MAX, e);
	for (i = 0; i < n && !away; i++)
		away = a[i].player == player && strcmp(a[i].first, today) <= 0;
	free(a);
	return n < 0 ? -1 : away;
}

/* The player's absences not over by today, at most max into out. */
static int
own_absences(struct intake *in, int64_t game, const char *today,
    struct store_absence *out, int max)
{
	struct store_absence *all = calloc(ABSENCES_MAX, sizeof(*all));
	int n, i, k = 0;

	if (all == NULL)
		return err_set(in->e, ERR_INTERNAL, "out of memory");
	n = store_absences(in->r->st, game, today, all, ABSENCES_MAX, in->e);
	for (i = 0; i < n && k < max; i++)
		if (all[i].player == in->player_id)
			out[k++] = all[i];
	free(all);
	return n < 0 ? -1 : k;
}

/* Tells g's players but the sender what the sender's absence is now. */
static int
tell_others(struct intake *in, const struct store_game *g,
    const char *subject, const char *body)
{
	struct store_player pl[MAX_PLAYERS];
	int n = store_players(in->r->st, g->id, -1, pl, MAX_PLAYERS, in->e), i;

	for (i = 0; i < n; i++)
		if (pl[i].id != in->player_id && referee_queue_mail(in->r, g->id,
		    g->name, pl[i].email, subject, "notice", NULL, body,
		    in->e) != 0)
			return -1;
	return n < 0 ? -1 : 0;
}

/* The open phase's deadline put off for the absences, when the setting
 * says so: the new one into when ("" when it did not move). */
static int
move_deadline(struct intake *in, const struct store_game *g, char *when,
    size_t size)
{
	struct store_clock c;
	int64_t at;

	when[0] = '\0';
	if (g->status != GAME_RUNNING)
		return 0;
	if (store_game_clock(in->r->st, g->id, &c, in->e) != 0)
		return -1;
	if (c.paused || c.deadline <= 0)
		return 0;
	at = c.deadline;
	if (referee_absence_deadline(in->r, g->id, &at, in->e) != 0)
		return -1;
	if (at == c.deadline)
		return 0;
	if (store_game_set_deadline(in->r->st, g->id, at, in->e) != 0)
		return -1;
	referee_clock_format(in->r, g->id, at, when, size);
	return 0;
}

static int
absent_cancel(struct intake *in, struct store_game *g,
    const struct battle *b, const char *today, const char *yesterday)
{
	struct store_absence own[8];
	char body[1600], subj[160];
	size_t k = 0;
	int n, i;

	n = own_absences(in, g->id, today, own, 8);
	if (n < 0 || (n > 0 && store_absence_cancel(in->r->st, in->player_id,
	    today, yesterday, in->e) < 0))
		return -1;
	snprintf(subj, sizeof(subj), "[%s] ABSENT CANCEL", g->name);
	if (n == 0) {
		snprintf(body, sizeof(body), "ABSENT CANCEL: you have no absence in "
		    "game %s that is not over, so\nnothing was changed. ABSENT FROM "
		    "%s TO %s (say) sets one.\n", g->name, today, today);
		return referee_intake_reply(in, "reply", subj, body);
	}
	for (i = 0; i < n && k < sizeof(body); i++)
		k += (size_t)snprintf(body + k, sizeof(body) - k, "%s from %s to "
		    "%s", i ? "; and" : "", own[i].first, own[i].last);
	{
		char tell[2400];

		/* body: " from A to B; and from C to D", no full stop. */
		snprintf(tell, sizeof(tell), "In game %s, a player of side %s (%s) "
		    "is no longer away:\nthe absence%s is cancelled. A deadline "
		    "already put off stays as it is.\n", g->name,
		    b->sides[in->side].id, b->sides[in->side].name, body);
		snprintf(subj, sizeof(subj), "[%s] Side %s: an absence cancelled",
		    g->name, b->sides[in->side].id);
		if (tell_others(in, g, subj, tell) != 0)
			return -1;
		snprintf(tell, sizeof(tell), "Cancelled: your absence%s.\n"
		    "The other players are told. A deadline already put off "
		    "stays as it is.\n", body);
		snprintf(subj, sizeof(subj), "[%s] ABSENT CANCEL", g->name);
		return referee_intake_reply(in, "reply", subj, tell);
	}
}

/* A refusal of line c: what is wrong and what would be right; nothing
 * stored. */
static int
refuse(struct intake *in, const struct store_game *g,
    const struct orders_cmd *c, const char *first, const char *last,
    const char *why)
{
	char body[1400], subj[160];

	snprintf(subj, sizeof(subj), "[%s] ABSENT", g->name);
	snprintf(body, sizeof(body), "Line %d, ABSENT FROM %s TO %s: %s\n"
	    "Nothing was stored.\n", c->line, first, last, why);
	return referee_intake_reply(in, "reply", subj, body);
}

/* Tells the other players of g the dates of the sender's new absence
 * (first to last, days long), and the sender what follows from it (taken:
 * their days in the game with it; when: the open phase's new deadline,
 * "" if none). */
static int
absent_told(struct intake *in, const struct store_game *g,
    const struct battle *b, const char *first, const char *last,
    int64_t days, int64_t taken, int64_t cap, int extend, const char *when)
{
	const struct side *sd = &b->sides[in->side];
	struct text t;
	char subj[160];
	int i, own_unit = -1, rc;

	for (i = 0; i < b->nunits && own_unit < 0; i++)
		if (b->units[i].side == in->side)
			own_unit = i;
	text_init(&t, ANSWER_MAX);
	text_add(&t, "In game %s, a player of side %s (%s) will be away from\n"
	    "%s to %s (%lld day%s).\n", g->name, sd->id, sd->name, first, last,
	    (long long)days, days == 1 ? "" : "s");
	if (extend)
		text_add(&t, "A deadline of the game that falls in those days is "
		    "put off to the day after\nthem (at most %lld days). A phase "
		    "is still played as soon as every order\nowed is in.\n",
		    (long long)cap);
	else
		text_add(&t, "The deadlines stand: a phase whose deadline passes "
		    "while they are away\nplays their standing orders.\n");
	if (when[0] != '\0')
		text_add(&t, "The open phase's deadline is now %s.\n", when);
	snprintf(subj, sizeof(subj), "[%s] Side %s: a player away from %s",
	    g->name, sd->id, first);
	rc = t.s == NULL ? err_set(in->e, ERR_INTERNAL, "out of memory") :
	    tell_others(in, g, subj, t.s);
	text_free(&t);
	if (rc != 0)
		return -1;
	text_init(&t, ANSWER_MAX);
	text_add(&t, "Noted: you are away from %s to %s in game %s, %lld day%s\n"
	    "(%lld of the %lld days a player may take in this game, with this "
	    "one).\nThe other players are told these dates and nothing "
	    "more.\n\n", first, last, g->name, (long long)days,
	    days == 1 ? "" : "s", (long long)taken, (long long)cap);
	if (extend)
		text_add(&t, "This game puts off a deadline that falls in those "
		    "days to the day after\nthem (its absence setting is "
		    "extend); each new deadline is in the mail\nthat opens its "
		    "phase.\n");
	else
		text_add(&t, "This game's deadlines stand (its absence setting is "
		    "standing): a phase\nwhose deadline passes while you are "
		    "away plays your standing orders, so\nset them before you "
		    "go, for example\n  STANDING: %s: HOLD\n", own_unit >= 0 ?
		    b->units[own_unit].name : "<unit>");
	if (when[0] != '\0')
		text_add(&t, "The open phase's deadline is now %s.\n", when);
	text_add(&t, "\nABSENT CANCEL withdraws it.\n");
	snprintf(subj, sizeof(subj), "[%s] ABSENT", g->name);
	rc = t.s == NULL ? err_set(in->e, ERR_INTERNAL, "out of memory") :
	    referee_intake_reply(in, "reply", subj, t.s);
	text_free(&t);
	return rc;
}

int
referee_commands_absent(struct intake *in, struct store_game *g,
    const struct battle *b, const struct orders_cmd *c)
{
	struct store_absence own[8];
	char tz[128], today[11], yesterday[11], first[11] = "", last[11] = "";
	char why[600], when[120], body[600], ok[11];
	int64_t cap = 0, used = 0, days;
	int extend = 0, n, i;

	if (absence_settings(in->r, g->id, &extend, &cap, tz, sizeof(tz),
	    in->e) != 0)
		return -1;
	day_of(referee_now(in->r), tz, today);
	day_name(day_number(today) - 1, yesterday);
	if (g->status == GAME_FINISHED) {
		snprintf(body, sizeof(body), "The battle of game %s is over: an "
		    "absence no longer changes anything,\nso none was stored.\n",
		    g->name);
		return referee_intake_reply(in, "reply", NULL, body);
	}
	if (strcmp(c->arg, "cancel") == 0)
		return absent_cancel(in, g, b, today, yesterday);
	if (sscanf(c->text, "%10s %10s", first, last) != 2)
		return err_set(in->e, ERR_INTERNAL, "ABSENT without its dates");
	days = day_number(last) - day_number(first) + 1;
	if (strcmp(first, today) < 0) {
		snprintf(why, sizeof(why), "%s is in the past (today is %s in the "
		    "game's time zone,\n%s). The first day may be today or later: "
		    "ABSENT FROM %s TO %s\n", first, today, tz, today,
		    strcmp(last, today) < 0 ? today : last);
		return refuse(in, g, c, first, last, why);
	}
	n = own_absences(in, g->id, today, own, 8);
	if (n < 0 || store_absence_days(in->r->st, in->player_id, &used,
	    in->e) != 0)
		return -1;
	for (i = 0; i < n; i++)
		if (strcmp(first, own[i].last) <= 0 &&
		    strcmp(own[i].first, last) <= 0) {
			snprintf(why, sizeof(why), "you are already away from %s to "
			    "%s, which these days\noverlap. Send ABSENT CANCEL first, "
			    "then the absence as it should be.\n", own[i].first,
			    own[i].last);
			return refuse(in, g, c, first, last, why);
		}
	if (used + days > cap) {
		if (cap - used <= 0)
			snprintf(why, sizeof(why), "a player may be away at most "
			    "%lld days in game %s (its absence-cap),\nand you have "
			    "taken %lld, so there are none left. The operator may "
			    "raise the cap.\n", (long long)cap, g->name,
			    (long long)used);
		else {
			day_name(day_number(first) + cap - used - 1, ok);
			snprintf(why, sizeof(why), "that is %lld days, but a player "
			    "may be away at most %lld days\nin game %s (its "
			    "absence-cap), and you have taken %lld, so %lld are "
			    "left:\n  ABSENT FROM %s TO %s\n", (long long)days,
			    (long long)cap, g->name, (long long)used,
			    (long long)(cap - used), first, ok);
		}
		return refuse(in, g, c, first, last, why);
	}
	if (store_absence_add(in->r->st, in->player_id, first, last,
	    referee_now(in->r), in->e) != 0)
		return -1;
	if (extend && move_deadline(in, g, when, sizeof(when)) != 0)
		return -1;
	if (!extend)
		when[0] = '\0';
	return absent_told(in, g, b, first, last, days, used + days, cap,
	    extend, when);
}
