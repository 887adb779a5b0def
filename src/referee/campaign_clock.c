/*
 * campaign_clock.c - a campaign's turns on a clock, as a battle's phases
 * are on its own: the turn is marched once every side has sent its
 * orders and the settle time since the last of them has passed, or when
 * the turn's deadline passes (a side that sent nothing plays its standing
 * orders); before the deadline the players of each side that has sent
 * none are reminded, each reminder once; the turn is settled as soon as
 * the battles it opened are over.  The times are the campaign's own
 * settings (despatch campaign set NAME deadline|settle|reminders), else
 * the server's (despatch set --server ...), which its battles take too.
 * Run by every tick (despatch tick, despatchd), after the games, so a
 * battle's last phase and the turn it ends are played in the same tick.
 * A tick reads the store alone for a campaign with nothing due; the
 * campaign file is parsed only to play a turn or word a reminder.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"
#include "core/err.h"
#include "ledger/record.h"
#include "referee/internal.h"
#include "referee/referee.h"
#include "store/store.h"

/* Contract (internal.h). */
int
referee_campaign_deadline(struct referee *r, const struct store_campaign *sc,
    int64_t *opened, int64_t *deadline, struct err *e)
{
	int64_t secs = 0;

	*opened = *deadline = 0;
	/* The turn opened with the campaign's last record. */
	if (referee_campaign_setting_secs(r, sc->id, "deadline", &secs,
	    e) != 0 || store_campaign_opened(r->st, sc->id, opened, e) != 0)
		return -1;
	if (secs > 0 && *opened > 0)
		*deadline = *opened + secs;
	return 0;
}

/* What a tick reads of a running campaign's open turn, for the turn and
 * its reminders: when it opened and is due (0: no deadline), and how
 * many of its sides have sent orders for it. */
struct cclock {
	int64_t opened, deadline;
	int sides, sent;
};

/* Is campaign sc (running) due at now: 1 to march, 2 to settle, 0 not,
 * -1 with e set.  *why says which, for the operator; *ck what the
 * reminders need (deadline 0 while the turn waits for its battles). */
static int
due(struct referee *r, const struct store_campaign *sc, int64_t now,
    struct cclock *ck, char *why, size_t size, struct err *e)
{
	struct store_cplayer pl[LEDGER_MAX_SEATS];
	int64_t games[LEDGER_MAX_CBATTLES], settle = 0, last = 0;
	int n, i, s;

	memset(ck, 0, sizeof(*ck));
	if (sc->pending != NULL) {
		/* The turn marched waits for its battles: settled once every
		 * one is over. */
		n = store_campaign_battles(r->st, sc->id, sc->turn + 1, games,
		    LEDGER_MAX_CBATTLES, e);
		if (n < 0)
			return -1;
		for (i = 0; i < n; i++) {
			char name[64];
			struct store_game g;
			int over;

			if (store_game_name_of(r->st, games[i], name, e) != 0 ||
			    store_game_get(r->st, name, &g, e) != 0)
				return -1;
			over = g.status == GAME_FINISHED;
			store_game_clear(&g);
			if (!over)
				return 0;
		}
		snprintf(why, size, "its battles are over");
		return 2;
	}
	/* Its sides are its players' (each has one before it starts): no
	 * campaign file is read for a tick with nothing due. */
	n = store_campaign_players(r->st, sc->id, pl, LEDGER_MAX_SEATS, e);
	if (n < 0 || referee_campaign_setting_secs(r, sc->id, "settle",
	    &settle, e) != 0 || referee_campaign_deadline(r, sc, &ck->opened,
	    &ck->deadline, e) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		int64_t at = 0;
		int k;

		for (s = 0; s < i && strcmp(pl[s].side, pl[i].side) != 0; s++)
			;
		if (s < i)
			continue;    /* a side already looked at */
		ck->sides++;
		k = store_campaign_orders_at(r->st, sc->id, sc->turn + 1,
		    pl[i].side, &at, e);
		if (k < 0)
			return -1;
		if (k > 0) {
			ck->sent++;
			if (at > last)
				last = at;
		}
	}
	if (ck->sent == ck->sides && now >= last + settle) {
		snprintf(why, size, "every side's orders are in");
		return 1;
	}
	if (ck->deadline > 0 && now >= ck->deadline) {
		snprintf(why, size, "its deadline passed, %d of %d sides' "
		    "orders in", ck->sent, ck->sides);
		return 1;
	}
	return 0;
}

/* Reminds every player of each side of campaign sc that has sent no
 * orders for the open turn, due at deadline, and notes the reminder
 * ahead seconds before it as sent; *mails counts them.  The mail words
 * the turn and its date, and the first line to send, as the day's report
 * does (the secret is never in it). */
static int
remind(struct referee *r, const struct store_campaign *sc, int64_t deadline,
    int64_t ahead, int64_t now, int *mails, struct err *e)
{
	struct store_cplayer pl[LEDGER_MAX_SEATS];
	struct campaign *c = NULL;
	char date[64], when[200], utc[40], subject[300];
	int n, i, s, rc = -1;

	n = store_campaign_players(r->st, sc->id, pl, LEDGER_MAX_SEATS, e);
	if (n < 0 || referee_campaign_load(r, sc, &c, e) != 0)
		return -1;
	campaign_date_long(c->start_day + c->turn / c->halves, date,
	    sizeof(date));
	if (c->halves == 2) {
		size_t l = strlen(date);

		snprintf(date + l, sizeof(date) - l, ", %s", (c->turn + 1) % 2 ?
		    "morning" : "afternoon");
	}
	referee_clock_when(r, 0, deadline, now, when, sizeof(when));
	referee_utc(REFEREE_UTC_MINUTES, deadline, utc, sizeof(utc));
	for (i = 0; i < n; i++) {
		struct text body;
		int64_t at = 0;
		int k, q;

		k = store_campaign_orders_at(r->st, sc->id, c->turn + 1,
		    pl[i].side, &at, e);
		if (k < 0)
			goto out;
		for (s = 0; s < c->nsides && strcmp(c->sides[s].id,
		    pl[i].side) != 0; s++)
			;
		if (k > 0 || s == c->nsides)
			continue;
		snprintf(subject, sizeof(subject), "[%s] Reminder: orders for "
		    "turn %d are due: %s", sc->name, c->turn + 1,
		    c->sides[s].name);
		text_init(&body, 16 * 1024);
		text_add(&body, "Campaign %s: %s\n\n", sc->name, c->title);
		text_add(&body, "The orders of your side, %s (%s), for turn "
		    "%d,\n%s, are due by\n  %s\n  (%s)\n", c->sides[s].name,
		    c->sides[s].id, c->turn + 1, date, when, utc);
		text_add(&body, "No orders of your side are stored for it yet. "
		    "If none come, each of its\ncolumns goes on with its march "
		    "until it gets there, and otherwise holds.\n\n");
		text_add(&body, "Send them, one line a column, under the line\n"
		    "  CAMPAIGN %s SIDE %s PASSWORD <your secret>\n(HELP on a "
		    "line of its own adds the orders and where your "
		    "columns\nstand.)\n", sc->name, c->sides[s].id);
		if (body.s == NULL || body.over) {
			text_free(&body);
			err_set(e, ERR_TEMP, "out of memory");
			goto out;
		}
		q = referee_queue_mail(r, 0, sc->name, pl[i].email, subject,
		    "reminder", NULL, body.s, e);
		text_free(&body);
		if (q != 0)
			goto out;
		(*mails)++;
	}
	rc = store_campaign_reminder_add(r->st, sc->id, c->turn + 1, ahead, e);
out:
	campaign_free(c);
	return rc;
}

/* The reminder of campaign name's open turn due at now (its reminders
 * setting, read by the battles' rule: referee_reminder_due), sent once:
 * looked for without a transaction, so a tick with none due writes
 * nothing, then again under the write lock with the campaign read
 * afresh, so two ticks at once send it once and never for a turn
 * another has marched meanwhile. */
static int
remind_due(struct referee *r, const char *name,
    const struct store_campaign *sc, const struct cclock *ck, int64_t now,
    struct tick_result *res, struct err *e)
{
	struct store_campaign fresh;
	char list[128], word[32];
	int64_t ahead = 0;
	int k, before = res->reminders;

	if (referee_campaign_setting_get(r, sc->id, "reminders", list,
	    sizeof(list), e) != 0)
		return -1;
	if (!referee_reminder_due(list, ck->opened, ck->deadline, now, &ahead,
	    word, sizeof(word)))
		return 0;
	if ((k = store_campaign_reminder_sent(r->st, sc->id, sc->turn + 1,
	    ahead, e)) != 0)
		return k < 0 ? -1 : 0;
	if (store_begin(r->st, e) != 0)
		return -1;
	if (store_campaign_get(r->st, name, &fresh, e) != 0) {
		store_rollback(r->st);
		return -1;
	}
	/* (A turn marched, or settled, since: nothing to remind of.) */
	k = (fresh.status != GAME_RUNNING || fresh.pending != NULL ||
	    fresh.turn != sc->turn) ? 1 : store_campaign_reminder_sent(r->st,
	    sc->id, sc->turn + 1, ahead, e);
	if (k == 0)
		k = remind(r, &fresh, ck->deadline, ahead, now, &res->reminders,
		    e);
	store_campaign_clear(&fresh);
	if (k < 0 || store_commit(r->st, e) != 0) {
		store_rollback(r->st);
		res->reminders = before;
		if (e->kind == ERR_TEMP)
			return -1;
		/* A campaign that cannot be read is said, as a turn that
		 * cannot be played is, and the others still get theirs. */
		res->errors++;
		snprintf(res->last, sizeof(res->last), "campaign %s: %.200s",
		    name, e->msg);
		utf8_trim_tail(res->last);
		err_clear(e);
		return 0;
	}
	if (res->reminders > before)
		snprintf(res->last, sizeof(res->last), "campaign %s: reminded "
		    "%d player(s), the deadline %s away", name, res->reminders -
		    before, word);
	return 0;
}

int
referee_campaign_tick(struct referee *r, int64_t now, struct tick_result *res,
    struct err *e)
{
	char *names = store_campaign_names(r->st), *name, *save = NULL;
	int rc = 0;

	for (name = names ? strtok_r(names, "\n", &save) : NULL;
	    name != NULL && rc == 0; name = strtok_r(NULL, "\n", &save)) {
		struct store_campaign sc;
		struct cclock ck;
		char why[200] = "";
		struct err te;
		FILE *sink;
		int k;

		memset(&ck, 0, sizeof(ck));
		if (store_campaign_get(r->st, name, &sc, e) != 0) {
			rc = -1;
			break;
		}
		k = sc.status == GAME_RUNNING ? due(r, &sc, now, &ck, why,
		    sizeof(why), e) : 0;
		/* Not due: the reminder due before its deadline, if any. */
		if (k == 0 && sc.status == GAME_RUNNING && ck.deadline > 0 &&
		    now < ck.deadline && ck.sent < ck.sides &&
		    remind_due(r, name, &sc, &ck, now, res, e) != 0)
			k = -1;
		store_campaign_clear(&sc);
		if (k < 0) {
			rc = -1;
			break;
		}
		if (k == 0)
			continue;
		sink = fopen("/dev/null", "w");
		if (sink == NULL) {
			rc = err_set(e, ERR_TEMP, "cannot open /dev/null");
			break;
		}
		err_clear(&te);
		if (referee_campaign_turn(r, name, sink, &te) == 0) {
			res->campaign_turns++;
			snprintf(res->last, sizeof(res->last), "campaign %s: turn %s "
			    "(%s)", name, k == 1 ? "marched" : "settled", why);
		} else if (te.kind == ERR_TEMP) {
			*e = te;
			rc = -1;
		} else {
			res->errors++;
			snprintf(res->last, sizeof(res->last), "campaign %s: %.200s",
			    name, te.msg);
			utf8_trim_tail(res->last);
		}
		fclose(sink);
	}
	free(names);
	return rc;
}
