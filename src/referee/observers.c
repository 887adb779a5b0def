/*
 * observers.c - people who follow a game without playing it (db/015).
 *
 * After each step every observer gets the whole picture of it (both
 * sides, every roll, the open map with the step drawn), composed then and
 * stored in the outbox in the step's own transaction, but held back
 * until the game has played `delay` more steps, so that an observer who
 * talks to a player cannot help them.  When the battle ends every held
 * report is released.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/mail.h"
#include "map/map.h"
#include "report/narrative.h"
#include "report/report.h"
#include "referee/internal.h"

int
referee_observer_add(struct referee *r, const char *game, const char *email,
    int delay, struct err *e)
{
	struct store_game g;
	char subject[300], body[1500], d[16];
	int64_t n = 0;

	if (strchr(email, '@') == NULL || strpbrk(email, " <>\r\n\t") != NULL ||
	    strlen(email) > 254)
		return err_set(e, ERR_USER, "\"%s\" is not a mail address: expected "
		    "something like observer@example.org", email);
	if (referee_game_begin(r, game, &g, e) != 0)
		return -1;
	if (delay < 0) {
		if (referee_setting_get(r, g.id, "observer-delay", d, sizeof(d),
		    e) != 0)
			goto fail;
		delay = atoi(d);
	}
	if (store_players_with_email(r->st, g.id, email, &n, e) != 0)
		goto fail;
	if (n > 0) {
		err_set(e, ERR_USER, "%s plays in game %s: a player cannot observe "
		    "it as well", email, game);
		goto fail;
	}
	if (store_observer_add(r->st, g.id, email, delay, referee_now(r),
	    e) != 0)
		goto fail;
	snprintf(subject, sizeof(subject), "[%s] You observe this game",
	    g.name);
	{
		char when[200];

		if (delay > 0)
			snprintf(when, sizeof(when), "Each comes %d phase%s after it "
			    "was played (the operator set a delay),\nso that nothing "
			    "in it can help a player; when the battle ends, the\nrest "
			    "come at once.", delay, delay == 1 ? "" : "s");
		else
			snprintf(when, sizeof(when), "Each comes as soon as the "
			    "phase is played.");
		snprintf(body, sizeof(body), "You have been added as an observer "
		    "of game %s.\n\nAfter each phase you will get the whole "
		    "picture of it: what both sides\ndid, every roll, and the map "
		    "of the field.\n%s\n\nYou cannot give orders. A mail from "
		    "you saying HISTORY (or HISTORY TURN 3,\nHISTORY 2-4) has the "
		    "reports sent to you so far sent again, and LIST\ntells the "
		    "games you observe. Ask the operator to take you off the "
		    "list.\n", g.name, when);
	}
	if (referee_queue_mail(r, g.id, g.name, email, subject, "notice", NULL,
	    body, e) != 0)
		goto fail;
	return referee_game_end(r, &g, 0, e);
fail:
	return referee_game_end(r, &g, -1, e);
}

/* Contract (internal.h). */
int
referee_observes(struct referee *r, int64_t game, const char *addr,
    struct err *e)
{
	struct store_observer *obs = NULL;
	int n = 0, i, found = 0;

	if (store_observers(r->st, game, &obs, &n, e) != 0)
		return -1;
	for (i = 0; i < n && !found; i++)
		found = strcasecmp(obs[i].email, addr) == 0;
	free(obs);
	return found;
}

/* Contract (internal.h). */
int
referee_observers_report(struct referee *r, const struct store_game *g,
    const struct battle *b, int step, const struct events *ev,
    const struct narrative *nar, const struct pt *from,
    const unsigned char *from_ok, int finished, struct err *e)
{
	struct store_observer *obs = NULL;
	int n = 0, i, rc = -1;

	if (store_observers(r->st, g->id, &obs, &n, e) != 0)
		return -1;
	if (n > 0) {
		char *body = report_observer(b, g->name, step, ev, nar, 0);
		char sub[300], title[300], subject[300], name[128], *html = NULL;
		unsigned char *png = NULL;
		size_t plen = 0;
		struct map_opts o;
		struct mail_part part;
		struct mail_extra x;

		if (body == NULL) {
			err_set(e, ERR_TEMP, "out of memory writing an observer's report");
			goto out;
		}
		snprintf(title, sizeof(title), "%s (game %s)", b->title, g->name);
		snprintf(sub, sizeof(sub), "Turn %d of %d, after the %s phase: the "
		    "whole field", battle_step_turn(b, step), b->turns,
		    report_phase_id(b, step));
		memset(&o, 0, sizeof(o));
		o.title = title;
		o.subtitle = sub;
		o.side = -1;
		o.from = from;
		o.from_ok = from_ok;
		o.ev = ev;
		o.compact = 1;   /* shown inline: a palette PNG (issue 25) */
		snprintf(subject, sizeof(subject), "[%s] Observed: turn %d, %s "
		    "phase", g->name, battle_step_turn(b, step),
		    report_phase_id(b, step));
		snprintf(name, sizeof(name), "%s-observed-step%d", g->name, step);
		if (map_render(b, &o, 0, &png, &plen, e) != 0) {
			free(body);
			goto out;
		}
		memset(&x, 0, sizeof(x));
		snprintf(x.cid, sizeof(x.cid), "map.%.100s@despatch", name);
		snprintf(x.png, sizeof(x.png), "%.100s.png", name);
		html = report_html(body, subject, x.cid, "The whole field");
		part = (struct mail_part){ "image/png", x.png, x.cid, png, plen };
		x.html = html;
		x.parts = &part;
		x.nparts = html != NULL ? 1 : 0;
		for (i = 0; i < n; i++) {
			if (referee_queue_mail_x(r, g->id, g->name,
			    obs[i].email,
			    subject, "observer", NULL, body, html != NULL ? &x :
			    NULL, 0, e) != 0)
				break;
			/* Held until `delay` more steps are played (unless the
			 * battle has ended with this one). */
			if (obs[i].delay > 0 && !finished &&
			    store_outbox_hold(r->st, store_last_id(r->st),
			    step + obs[i].delay, e) != 0)
				break;
		}
		free(html);
		free(png);
		free(body);
		if (i < n)
			goto out;
	}
	/* What is due now goes: everything, once the battle is over. */
	if (store_outbox_release(r->st, g->id, step, finished, e) != 0)
		goto out;
	rc = 0;
out:
	free(obs);
	return rc;
}
