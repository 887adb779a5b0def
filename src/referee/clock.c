/*
 * clock.c - the game clock: deadlines, reminders, playing a phase as soon
 * as every order is in or when its deadline (and grace) has passed, and
 * pausing, resuming and extending a game.
 *
 * Deadlines are kept in UTC seconds and shown in the game's time zone.
 * 'despatch tick' (from cron) and the daemon call referee_tick; each step
 * is played by referee_turn, which checks in its write that the step is
 * still the one it played, so no step is played twice however many ticks
 * run at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "report/report.h"
#include "ledger/engine.h"
#include "referee/chain.h"
#include "referee/internal.h"

/* Contract (internal.h). */
int
referee_local_time(int64_t t, const char *tz, struct tm *tm)
{
	char *old = getenv("TZ");
	char saved[256] = "";
	time_t tt = (time_t)t;
	int rc;

	if ((int64_t)tt != t)
		return -1;
	if (old != NULL)
		snprintf(saved, sizeof(saved), "%s", old);
	setenv("TZ", tz, 1);
	tzset();
	rc = localtime_r(&tt, tm) != NULL ? 0 : -1;
	if (old != NULL)
		setenv("TZ", saved, 1);
	else
		unsetenv("TZ");
	tzset();
	return rc;
}

void
referee_clock_format(struct referee *r, int64_t game, int64_t t, char *out,
    size_t size)
{
	char tz[128];
	struct tm tm;
	struct err e;

	if (referee_setting_get(r, game, "timezone", tz, sizeof(tz), &e) != 0)
		snprintf(tz, sizeof(tz), "UTC");
	if (referee_local_time(t, tz, &tm) != 0) {
		snprintf(out, size, "%lld seconds after 1970 UTC (too far for "
		    "this system's clock)", (long long)t);
		return;
	}
	{
		char day[16], mon[16];
		long off = tm.tm_gmtoff;
		long ah = (off < 0 ? -off : off) / 3600;
		long am = (off < 0 ? -off : off) % 3600 / 60;

		strftime(day, sizeof(day), "%A", &tm);
		strftime(mon, sizeof(mon), "%B", &tm);
		/* "Thursday 3 December 2026, 18:00 GMT (UTC+0)". */
		if (am != 0)
			snprintf(out, size, "%s %d %s %d, %02d:%02d %s (UTC%c%ld:%02ld)",
			    day, tm.tm_mday, mon, tm.tm_year + 1900, tm.tm_hour,
			    tm.tm_min, tm.tm_zone != NULL ? tm.tm_zone : "",
			    off < 0 ? '-' : '+', ah, am);
		else
			snprintf(out, size, "%s %d %s %d, %02d:%02d %s (UTC%c%ld)", day,
			    tm.tm_mday, mon, tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
			    tm.tm_zone != NULL ? tm.tm_zone : "", off < 0 ? '-' : '+', ah);
	}
}

void
referee_deadline_note(struct referee *r, const struct store_game *g,
    const struct battle *b, int side, struct text *t)
{
	struct store_clock c;
	struct err e;
	char when[160];
	int ps = battle_step_side(b, g->step);

	if (g->status != GAME_RUNNING || store_game_clock(r->st, g->id, &c,
	    &e) != 0)
		return;
	if (c.deadline <= 0) {
		text_add(t, "No deadline is set in game %s: the operator plays each "
		    "phase.\n", g->name);
		return;
	}
	referee_clock_when(r, g->id, c.deadline, referee_now(r), when,
	    sizeof(when));
	if (ps < 0 || ps == side)
		text_add(t, "Your orders for the open phase (turn %d) are due by\n"
		    "  %s\n", battle_step_turn(b, g->step), when);
	else
		text_add(t, "The open phase (turn %d) is the %s phase, due by\n  %s"
		    "\nYours follows it, with a deadline of its own.\n",
		    battle_step_turn(b, g->step), b->sides[ps].id, when);
}

void
referee_clock_until(int64_t secs, char *out, size_t size)
{
	if (secs <= 0)
		snprintf(out, size, "now");
	else if (secs < 120)
		snprintf(out, size, "in %lld seconds", (long long)secs);
	else if (secs < 2 * 3600)
		snprintf(out, size, "in %lld minutes", (long long)(secs + 30) / 60);
	else if (secs < 72 * 3600)
		snprintf(out, size, "in %lld hours", (long long)(secs + 1800) / 3600);
	else
		snprintf(out, size, "in %lld days", (long long)(secs + 43200) /
		    86400);
}

void
referee_clock_when(struct referee *r, int64_t game, int64_t t, int64_t now,
    char *out, size_t size)
{
	char when[110], in[40];

	referee_clock_format(r, game, t, when, sizeof(when));
	referee_clock_until(t - now, in, sizeof(in));
	snprintf(out, size, "%s, %s", when, in);
}

/* now + secs, counting only Monday to Friday when weekdays is set (in
 * the game's time zone, an hour at a time). */
static int64_t
add_time(int64_t now, int64_t secs, int weekdays, const char *tz)
{
	int64_t t = now, left = secs;

	if (!weekdays)
		return now + secs;
	while (left > 0) {
		struct tm tm;
		int64_t step = left < 3600 ? left : 3600;

		/* A time past this system's clock counts as a weekday. */
		if (referee_local_time(t, tz, &tm) != 0 || (tm.tm_wday != 0 && tm.tm_wday != 6))
			left -= step;
		t += step;
	}
	return t;
}

int
referee_clock_open_step(struct referee *r, int64_t game, int64_t now,
    struct err *e)
{
	int64_t secs = 0, at;
	int weekdays = 0;
	char tz[128];

	if (referee_setting_secs(r, game, "deadline", &secs, e) != 0 ||
	    (weekdays = referee_setting_on(r, game, "weekdays", e)) < 0 ||
	    referee_setting_get(r, game, "timezone", tz, sizeof(tz), e) != 0)
		return -1;
	if (secs == 0)
		return store_game_set_deadline(r->st, game, 0, e);
	at = add_time(now, secs, weekdays, tz);
	if (referee_absence_deadline(r, game, &at, e) != 0)
		return -1;
	return store_game_set_deadline(r->st, game, at, e);
}

/* Players who owe orders for the open step, and how many have sent
 * them; *waiting when one asked for the full time (WAIT). */
static int
owed(struct referee *r, const struct store_game *g, const struct battle *b,
    int *owing, int *sent, int *waiting, struct err *e)
{
	int ps = battle_step_side(b, g->step);
	int64_t n = 0, s = 0, w = 0;

	if (store_players_count(r->st, g->id, ps, &n, e) != 0 ||
	    store_orders_players(r->st, g->id, g->step, -1, &s, e) != 0 ||
	    store_players_waiting(r->st, g->id, g->step, &w, e) != 0)
		return -1;
	*owing = (int)n;
	*sent = (int)s;
	*waiting = w > 0;
	return 0;
}

/* Whether the open phase is to be played before its deadline: every
 * player owing is in and the settle time since the last order mail has
 * passed, or every one of them sent READY (settle 0: as soon as every
 * player owing has orders stored, as before the settle time).  Never in
 * a fixed-deadline game or after a WAIT. */
static int
early_due(struct referee *r, const struct store_game *g,
    const struct battle *b, int owing, int waiting, int fixed, int64_t now,
    int *due, char *reason, size_t rsize, struct err *e)
{
	struct play_forecast f;

	*due = 0;
	if (owing == 0 || waiting || fixed)
		return 0;
	if (referee_forecast(r, g, b, now, &f, e) != 0)
		return -1;
	if (f.at < 0 || f.at > now)
		return 0;
	*due = 1;
	snprintf(reason, rsize, "%s", f.settle == 0 ? "every order is in" :
	    f.all_ready ? "every player is READY" : "every order is in and "
	    "settled");
	return 0;
}

int
referee_forecast(struct referee *r, const struct store_game *g,
    const struct battle *b, int64_t now, struct play_forecast *f,
    struct err *e)
{
	int ps = battle_step_side(b, g->step);
	int64_t players = 0, in = 0, ready = 0, last = 0, sent = 0, w = 0;

	memset(f, 0, sizeof(*f));
	f->at = -1;
	if (referee_setting_secs(r, g->id, "settle", &f->settle, e) != 0 ||
	    store_order_state_summary(r->st, g->id, g->step, ps, &players, &in,
	    &ready, &last, e) != 0 ||
	    store_orders_players(r->st, g->id, g->step, -1, &sent, e) != 0 ||
	    store_players_waiting(r->st, g->id, g->step, &w, e) != 0 ||
	    (f->fixed = referee_setting_on(r, g->id, "fixed-deadlines", e)) < 0)
		return -1;
	f->players = (int)players;
	f->in = (int)in;
	f->ready = (int)ready;
	f->waiting = w > 0;
	f->all_ready = players > 0 && ready >= players;
	if (players == 0 || f->waiting || f->fixed)
		return 0;
	if (f->settle == 0) {
		/* As before the settle time: orders stored from every one. */
		if (sent >= players)
			f->at = now;
		return 0;
	}
	if (f->all_ready)
		f->at = now;
	else if (in >= players)
		f->at = last + f->settle > now ? last + f->settle : now;
	return 0;
}

/* Reminds the players who owe orders and have sent none. */
static int
remind(struct referee *r, const struct store_game *g, const struct battle *b,
    int64_t deadline, int64_t ahead, int *mails, struct err *e)
{
	struct store_player pl[MAX_PLAYERS];
	int ps = battle_step_side(b, g->step), n, i;
	char when[80], subject[200], body[1200], clock[16];

	referee_clock_format(r, g->id, deadline, when, sizeof(when));
	report_clock(b, battle_step_turn(b, g->step), clock, sizeof(clock));
	n = store_players(r->st, g->id, -1, pl, MAX_PLAYERS, e);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		int64_t have = 0;

		if (ps >= 0 && pl[i].side != ps)
			continue;
		if (store_orders_count(r->st, g->id, g->step, -1, pl[i].id,
		    &have, e) != 0)
			return -1;
		if (have > 0)
			continue;
		snprintf(subject, sizeof(subject), "[%s] Reminder: orders for turn "
		    "%d are due", g->name, battle_step_turn(b, g->step));
		snprintf(body, sizeof(body), "Your orders for game %s, turn %d (%s), "
		    "are due by\n  %s\nNone of yours are stored yet. If none come, "
		    "%s\n\nSend them with the first line\n"
		    "  GAME %s SIDE %s TURN %d PASSWORD <your secret>\n", g->name,
		    battle_step_turn(b, g->step), clock, when,
		    battle_step_deploys(b, g->step) ? "your units stand where "
		    "the opening map shows them\n(the deployment: DEPLOY lines "
		    "move them)." : "your standing orders are played\n(where "
		    "you have them) and your units otherwise hold.", g->name,
		    b->sides[pl[i].side].id, battle_step_turn(b, g->step));
		if (referee_queue_mail(r, g->id, g->name, pl[i].email, subject,
		    "reminder",
		    NULL, body, e) != 0)
			return -1;
		(*mails)++;
	}
	return store_reminder_add(r->st, g->id, g->step, ahead, e);
}

/* Reminders this close together would tell the players nothing new:
 * they are one mail. */
#define REMIND_APART    60
#define REMIND_MAX      16

/* Contract (internal.h). */
int
referee_reminder_due(const char *list, int64_t opened, int64_t deadline,
    int64_t now, int64_t *ahead, char *word, size_t wsize)
{
	int64_t at[REMIND_MAX];
	char words[REMIND_MAX][32], copy[128], *tok, *save = NULL;
	int n = 0, i, j, best = -1;

	snprintf(copy, sizeof(copy), "%s", list);
	for (tok = strtok_r(copy, ",", &save); tok != NULL && n < REMIND_MAX;
	    tok = strtok_r(NULL, ",", &save)) {
		int64_t a = 0;

		while (*tok == ' ')
			tok++;
		if (referee_parse_time(tok, &a) != 0 || a == 0 ||
		    strlen(tok) >= sizeof(words[0]))
			continue;
		at[n] = a;
		snprintf(words[n++], sizeof(words[0]), "%s", tok);
	}
	for (i = 0; i < n; i++) {
		int64_t t = deadline - at[i];
		int later = 0;

		if (t < opened || t > now)
			continue;
		/* A later one, or the same one named twice, stands for it. */
		for (j = 0; j < n && !later; j++)
			later = j != i && (at[j] < at[i] ?
			    at[i] - at[j] <= REMIND_APART : at[j] == at[i] && j < i);
		if (later)
			continue;
		if (best < 0 || at[i] < at[best])
			best = i;
	}
	if (best < 0)
		return 0;
	*ahead = at[best];
	snprintf(word, wsize, "%s", words[best]);
	return 1;
}

/*
 * Whether a running game whose clock runs has nothing due at now, told
 * from its clock and what is stored for its open step alone, without its
 * battle (reading a scenario is most of what a tick costs): 1 when
 * nothing is, 0 when something may be (tick_game then looks as before),
 * -1 with e set.  Something may be when the deadline and grace have
 * passed, a phase is closed for its nonces, a reminder is due and not yet
 * sent, or the phase could be played early: no fixed deadlines, nobody
 * WAITing, and some order or order mail's state stored for the step (of
 * any side: which side's phase it is needs the battle).
 */
static int
nothing_due(struct referee *r, const struct store_game *g,
    const struct store_clock *c, int64_t grace, int fixed, int64_t closed,
    int64_t now, struct err *e)
{
	int64_t sent = 0, waiting = 0, players = 0, in = 0, ready = 0, last = 0;

	if (c->deadline > 0 && now >= c->deadline + grace)
		return 0;
	if (closed != 0 && closed == g->step)
		return 0;
	if (c->deadline > 0 && now < c->deadline && closed == 0) {
		char list[128], word[32];
		int64_t ahead = 0;
		int sentr;

		if (referee_setting_get(r, g->id, "reminders", list, sizeof(list),
		    e) != 0)
			return -1;
		if (referee_reminder_due(list, c->opened, c->deadline, now,
		    &ahead, word, sizeof(word))) {
			if ((sentr = store_reminder_sent(r->st, g->id, g->step, ahead,
			    e)) < 0)
				return -1;
			if (sentr == 0)
				return 0;
		}
	}
	if (fixed)
		return 1;
	if (store_players_waiting(r->st, g->id, g->step, &waiting, e) != 0 ||
	    store_orders_players(r->st, g->id, g->step, -1, &sent, e) != 0 ||
	    store_order_state_summary(r->st, g->id, g->step, -1, &players, &in,
	    &ready, &last, e) != 0)
		return -1;
	return waiting > 0 || (sent == 0 && in == 0 && ready == 0);
}

/* One game: play it when due, else send the reminders that are due.
 * *played says whether a step was played. */
static int
tick_game(struct referee *r, const char *name, int64_t now,
    struct tick_result *res, struct err *e)
{
	struct store_game g;
	struct store_clock c;
	struct battle *b = NULL;
	int64_t deadline = 0, grace = 0, paused = 0, closed = 0, until = 0;
	int owing = 0, sent = 0, waiting = 0, fixed = 0, rc = -1, due = 0;
	int closing = 0;
	char reason[64] = "";

	r->tick_looks++;
	if (referee_game_begin(r, name, &g, e) != 0)
		return -1;
	if (g.status != GAME_RUNNING)
		goto done;
	if (store_game_clock(r->st, g.id, &c, e) != 0 ||
	    referee_setting_secs(r, g.id, "grace", &grace, e) != 0 ||
	    (fixed = referee_setting_on(r, g.id, "fixed-deadlines", e)) < 0 ||
	    store_game_closed(r->st, g.id, &closed, &until, e) != 0)
		goto fail;
	paused = c.paused;
	deadline = c.deadline;
	if (paused)
		goto done;
	/* The battle is read only for a game that may have something due. */
	switch (nothing_due(r, &g, &c, grace, fixed, closed, now, e)) {
	case 1:
		goto done;
	case 0:
		break;
	default:
		goto fail;
	}
	r->tick_loads++;
	if (store_battle_load(r->st, &g, &b, e) != 0 ||
	    owed(r, &g, b, &owing, &sent, &waiting, e) != 0)
		goto fail;
	if (early_due(r, &g, b, owing, waiting, fixed, now, &due, reason,
	    sizeof(reason), e) != 0)
		goto fail;
	/* Early (every order in and settled), else at the deadline, else
	 * the reminders that are due. */
	if (!due && deadline > 0 && now >= deadline + grace) {
		due = 1;
		snprintf(reason, sizeof(reason), "its deadline passed");
	} else if (!due && deadline > 0 && now < deadline && closed == 0) {
		/* (While a phase is closed for its nonces no orders are owed,
		 * and nobody is reminded of any.) */
		char list[128], word[32];
		int64_t ahead = 0;
		int sentr, before = res->reminders;

		if (referee_setting_get(r, g.id, "reminders", list,
		    sizeof(list), e) != 0)
			goto fail;
		if (referee_reminder_due(list, c.opened, deadline, now,
		    &ahead, word, sizeof(word))) {
			sentr = store_reminder_sent(r->st, g.id, g.step, ahead, e);
			if (sentr < 0)
				goto fail;
			if (sentr == 0 && remind(r, &g, b, deadline, ahead,
			    &res->reminders, e) != 0)
				goto fail;
			if (res->reminders > before)
				snprintf(res->last, sizeof(res->last), "game %s: "
				    "reminded %d player(s), the deadline %s away",
				    g.name, res->reminders - before, word);
		}
	}
	if (!paused) {
		/* A game with nonces: a phase due closes first, and is played
		 * once every committed nonce is revealed or the time for them
		 * has run out. */
		int64_t closed_at = 0, owe = 0;
		int nonces = chain_nonces(r, g.id, e);

		if (nonces < 0)
			goto fail;
		if (nonces && closed != g.step && due) {
			due = 0;
			closing = 1;
		} else if (nonces && closed == g.step) {
			closed_at = until;
			if (chain_nonces_owed(r, g.id, g.step, &owe, e) != 0)
				goto fail;
			due = owe == 0 || now >= closed_at;
			snprintf(reason, sizeof(reason), "%s", owe == 0 ?
			    "every nonce is in" : "the time for nonces ran out");
		}
	}
done:
	if (store_commit(r->st, e) != 0)
		goto fail;
	if (closing || due) {
		/* A game another engine played waits for an upgrade: said
		 * once, and no error each tick. */
		struct err ge;
		int up = 0, told = 0, w;

		err_clear(&ge);
		w = referee_engine_gate(r, g.name, 1, &up, &told, &ge);
		if (w < 0 && ge.kind == ERR_TEMP) {
			*e = ge;
			goto out;
		}
		if (up)
			snprintf(res->last, sizeof(res->last), "game %s: carried over "
			    "to rules engine %d (the server's upgrade setting is auto)",
			    g.name, ledger_engine_current());
		if (w != 0) {
			if (w < 0)
				res->errors++;
			if (told || w < 0)
				snprintf(res->last, sizeof(res->last), "%.*s",
				    (int)sizeof(res->last) - 1, ge.msg);
			closing = due = 0;
		}
	}
	if (closing) {
		struct err ce;

		err_clear(&ce);
		if (referee_close(r, g.name, &ce) == 0) {
			snprintf(res->last, sizeof(res->last), "game %s: turn %d closed "
			    "(%s); the nonces are awaited", g.name,
			    battle_step_turn(b, g.step), reason);
		} else if (ce.kind == ERR_TEMP) {
			*e = ce;
			goto out;
		} else {
			res->errors++;
			snprintf(res->last, sizeof(res->last), "game %s: %.200s",
			    g.name, ce.msg);
		}
	}
	if (due) {
		struct turn_result tr;
		struct err te;

		err_clear(&te);
		if (referee_turn(r, g.name, NULL, 0, &tr, &te) == 0) {
			res->played++;
			snprintf(res->last, sizeof(res->last), "game %s: turn %d, %s "
			    "phase played (%s)", g.name, tr.turn, tr.side >= 0 ?
			    b->sides[tr.side].id : "joint", reason);
		} else if (te.kind == ERR_TEMP) {
			*e = te;
			goto out;
		} else {
			/* Another tick got there first, or the step is broken:
			 * said, and the other games still get their turn. */
			res->errors++;
			size_t k = (size_t)snprintf(res->last, sizeof(res->last),
			    "game %s: ", g.name);

			if (k < sizeof(res->last)) {
				snprintf(res->last + k, sizeof(res->last) - k, "%.*s",
				    (int)(sizeof(res->last) - k - 1), te.msg);
				utf8_trim_tail(res->last);
			}
		}
	}
	rc = 0;
	goto out;
fail:
	store_rollback(r->st);
out:
	battle_free(b);
	store_game_clear(&g);
	return rc;
}

/*
 * Every game with something due at now is played, reminded or closed.
 * The store names those that may have (store_games_due: the deadline
 * within the longest reminder any setting names, or something stored for
 * the open step); tick_game looks at each of them, and reads the battle
 * only of one that still may.  No other game is read, so a tick costs
 * what is due, not how many games the server holds.
 */
int
referee_tick(struct referee *r, struct tick_result *res, struct err *e)
{
	char *names = NULL, *name, *save = NULL;
	int64_t now = referee_now(r), ahead = 0;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	if (referee_setting_max_secs(r, "reminders", &ahead, e) != 0 ||
	    store_games_due(r->st, now + ahead, &names, e) != 0)
		return -1;
	for (name = strtok_r(names, "\n", &save); name != NULL && rc == 0;
	    name = strtok_r(NULL, "\n", &save))
		rc = tick_game(r, name, now, res, e);
	free(names);
	/* After the games: a battle's last phase and the campaign turn it
	 * ends go in one tick. */
	if (rc == 0)
		rc = referee_campaign_tick(r, now, res, e);
	if (rc == 0) {
		/* A game's mail that no step played (an observer's, a command)
		 * keeps its bytes a week.  Looked for first, so a tick with
		 * nothing to cut writes nothing. */
		int64_t due = 0;

		if (store_messages_stale(r->st, now, &due, e) != 0)
			return -1;
		if (due > 0 && (store_begin(r->st, e) != 0 ||
		    store_messages_trim(r->st, 0, 0, now, e) != 0 ||
		    store_commit(r->st, e) != 0)) {
			store_rollback(r->st);
			return -1;
		}
	}
	return rc;
}

/* Mails every player of game g: subject and body. */
int
referee_tell_all(struct referee *r, const struct store_game *g,
    const char *subject,
    const char *body, struct err *e)
{
	struct store_player pl[MAX_PLAYERS];
	int n = store_players(r->st, g->id, -1, pl, MAX_PLAYERS, e), i;

	if (n < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (referee_queue_mail(r, g->id, g->name, pl[i].email, subject,
		    "notice",
		    NULL, body, e) != 0)
			return -1;
	return 0;
}

int
referee_pause(struct referee *r, const char *game, int pause, const char *why,
    struct err *e)
{
	struct store_game g;
	struct store_clock c;
	int64_t paused = 0, deadline = 0, left = 0, now = referee_now(r);
	char subject[200], body[1200], when[80];

	if (referee_game_begin(r, game, &g, e) != 0)
		return -1;
	if (g.status != GAME_RUNNING) {
		err_set(e, ERR_USER, "game \"%s\" is not being played", game);
		goto fail;
	}
	if (store_game_clock(r->st, g.id, &c, e) != 0)
		goto fail;
	paused = c.paused;
	deadline = c.deadline;
	left = c.pause_left;
	if (pause && paused) {
		err_set(e, ERR_USER, "game \"%s\" is paused already", game);
		goto fail;
	}
	if (!pause && !paused) {
		err_set(e, ERR_USER, "game \"%s\" is not paused", game);
		goto fail;
	}
	if (pause) {
		if (store_game_pause(r->st, g.id, now, why, deadline > 0 ?
		    deadline - now : 0, e) != 0)
			goto fail;
		snprintf(subject, sizeof(subject), "[%s] The game is paused",
		    g.name);
		snprintf(body, sizeof(body), "The operator has paused game %s%s%s.\n"
		    "No phase is played and no deadline runs until it resumes; you "
		    "will be told.\nOrders you send meanwhile are stored as usual.\n",
		    g.name, why && *why ? ": " : "", why ? why : "");
	} else {
		int64_t at = left > 0 ? now + left : 0;

		if (store_game_resume(r->st, g.id, at, e) != 0)
			goto fail;
		snprintf(subject, sizeof(subject), "[%s] The game resumes", g.name);
		if (at > 0)
			referee_clock_format(r, g.id, at, when, sizeof(when));
		snprintf(body, sizeof(body), "The operator has resumed game %s%s%s.\n"
		    "%s%s%s", g.name, why && *why ? ": " : "", why ? why : "",
		    at > 0 ? "The deadline of the open phase is now\n  " : "",
		    at > 0 ? when : "", at > 0 ? "\n" : "");
	}
	if (referee_tell_all(r, &g, subject, body, e) != 0 ||
	    chain_act(r, g.id, pause ? "pause" : "resume", 0, NULL, 0, why,
	    e) != 0)
		goto fail;
	return referee_game_end(r, &g, 0, e);
fail:
	return referee_game_end(r, &g, -1, e);
}

int
referee_extend(struct referee *r, const char *game, int64_t secs,
    struct err *e)
{
	struct store_game g;
	struct store_clock c;
	int64_t deadline = 0;
	char subject[200], body[600], when[80];

	if (referee_game_begin(r, game, &g, e) != 0)
		return -1;
	if (store_game_clock(r->st, g.id, &c, e) != 0)
		goto fail;
	/* Only a game being played has a deadline running. */
	deadline = g.status == GAME_RUNNING ? c.deadline : 0;
	if (deadline == 0) {
		err_set(e, ERR_USER, "game \"%s\" has no deadline running to extend "
		    "(set one with 'despatch set %s deadline 48h')", game, game);
		goto fail;
	}
	deadline += secs;
	referee_clock_format(r, g.id, deadline, when, sizeof(when));
	snprintf(subject, sizeof(subject), "[%s] The deadline is extended",
	    g.name);
	snprintf(body, sizeof(body), "The operator has extended the deadline of "
	    "the open phase of game %s.\nOrders are now due by\n  %s\n", g.name,
	    when);
	if (store_game_set_deadline(r->st, g.id, deadline, e) != 0 ||
	    referee_tell_all(r, &g, subject, body, e) != 0 ||
	    chain_act(r, g.id, "extend", 0, NULL, secs, NULL, e) != 0)
		goto fail;
	return referee_game_end(r, &g, 0, e);
fail:
	return referee_game_end(r, &g, -1, e);
}

void
referee_utc(enum referee_utc how, int64_t at, char *out, size_t size)
{
	time_t t = (time_t)at;
	struct tm tm;
	size_t n = 0;

	if ((int64_t)t == at && gmtime_r(&t, &tm) != NULL) {
		if (how == REFEREE_UTC_ISO)
			n = strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
		else if (how == REFEREE_UTC_SECS)
			n = strftime(out, size, "%Y-%m-%d %H:%M:%S UTC", &tm);
		else
			n = strftime(out, size, "%Y-%m-%d %H:%M UTC", &tm);
	}
	if (n == 0)
		snprintf(out, size, "?");
}
