/*
 * preview.c - the map in the reply to a player's orders: the ordered
 * moves drawn as arrows from where the units stand, as far as the rules
 * core can tell before the dice.
 *
 * Drawing a map takes tens of milliseconds, too long to hold the write
 * lock of the intake for.  So the reply is queued in the intake's
 * transaction as text, held back from sending for PREVIEW_HOLD seconds,
 * and once that transaction has committed the map is drawn and the
 * mail composed again, with the same headers and text, in HTML with the
 * map inline.  The new bytes replace the stored ones only while the mail
 * is still held: a sender takes a mail only when its hold has passed,
 * and both run in store transactions, so the bytes sent are always the
 * bytes stored.  If the process dies before the map is drawn, the text
 * reply goes out when its hold runs out, or at once when a daemon starts
 * (referee_previews_orphaned): nothing is lost.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ruleset.h"
#include "mail/mail.h"
#include "map/map.h"
#include "report/report.h"
#include "referee/internal.h"

#define PREVIEW_HOLD 600   /* seconds a reply waits for its map at most */

struct preview_job {
	struct mail_out m;       /* the reply as queued; strings below */
	char from[320], to[320], subject[400], msgid[256], irt[256];
	char date[64];
	char *body;
	char game[64];
	int side;
	int64_t player;
	struct order_set *set;
};

void
preview_hold(struct referee *r, const char *game, int side, int64_t player,
    const struct order_set *set)
{
	r->hold_game = game;
	r->hold_side = side;
	r->hold_player = player;
	r->hold_set = set;
}

void
preview_release(struct referee *r)
{
	r->hold_set = NULL;
}

static void
job_free(struct preview_job *j)
{
	free(j->body);
	free(j->set);
	free(j);
}

/* Contract (internal.h). */
int
preview_note(struct referee *r, const struct mail_out *m, int64_t now,
    struct err *e)
{
	struct preview_job *j = NULL, **nv = NULL;
	char format[16];

	if (r->hold_set == NULL || m->body == NULL)
		return 0;
	/* A player who reads text gets no map (compose): the reply is not
	 * held for one, nor written a second time to let it go. */
	if (referee_player_mail_format(r, r->hold_player, format,
	    sizeof(format), e) != 0)
		return -1;
	if (strcmp(format, "text") == 0)
		return 0;
	if ((j = calloc(1, sizeof(*j))) == NULL ||
	    (j->set = malloc(sizeof(*j->set))) == NULL ||
	    (j->body = strdup(m->body)) == NULL ||
	    (nv = realloc(r->jobs, (size_t)(r->njobs + 1) *
	    sizeof(*nv))) == NULL) {
		if (j != NULL)
			job_free(j);
		return err_set(e, ERR_TEMP, "out of memory");
	}
	r->jobs = nv;
	memcpy(j->set, r->hold_set, sizeof(*j->set));
	snprintf(j->game, sizeof(j->game), "%s", r->hold_game);
	j->side = r->hold_side;
	j->player = r->hold_player;
	snprintf(j->from, sizeof(j->from), "%s", m->from ? m->from : "");
	snprintf(j->to, sizeof(j->to), "%s", m->to ? m->to : "");
	snprintf(j->subject, sizeof(j->subject), "%s", m->subject ?
	    m->subject : "");
	snprintf(j->msgid, sizeof(j->msgid), "%s", m->message_id);
	snprintf(j->irt, sizeof(j->irt), "%s", m->in_reply_to ?
	    m->in_reply_to : "");
	snprintf(j->date, sizeof(j->date), "%s", m->date ? m->date : "");
	j->m = *m;   /* its pointers are replaced before use (compose) */
	r->jobs[r->njobs++] = j;
	/* Held until the map is in, or for PREVIEW_HOLD at most. */
	return store_outbox_put_off(r->st, m->message_id, now + PREVIEW_HOLD,
	    e);
}

int
referee_previews_orphaned(struct referee *r, struct err *e)
{
	return store_outbox_unhold(r->st, referee_now(r), PREVIEW_HOLD, e);
}

void
referee_previews_drop(struct referee *r, int keep)
{
	while (r->njobs > keep)
		job_free(r->jobs[--r->njobs]);
	if (r->njobs == 0) {
		free(r->jobs);
		r->jobs = NULL;
	}
}

/* The reply of job j with its map: the raw mail in *raw, or NULL when
 * the player reads text only or the ruleset has no preview (then the
 * hold is simply lifted). */
static int
compose(struct referee *r, struct preview_job *j, char **raw, size_t *len,
    struct err *e)
{
	struct store_game g;
	struct battle *b = NULL, *nb = NULL;
	const struct ruleset *rs = NULL;
	unsigned char *png = NULL, *seen = NULL;
	struct pt *from = NULL;
	unsigned char *ok = NULL;
	size_t plen = 0;
	char format[16], title[300], sub[300], cid[160], *html = NULL;
	struct mail_part part;
	struct map_opts o;
	int u, rc = -1;

	*raw = NULL;
	memset(&g, 0, sizeof(g));
	if (store_begin_read(r->st, e) != 0)
		return -1;
	if (store_game_get(r->st, j->game, &g, e) != 0 ||
	    referee_battle_load(r, &g, &b, e) != 0 ||
	    referee_player_mail_format(r, j->player, format, sizeof(format),
	    e) != 0) {
		store_rollback(r->st);
		goto out;
	}
	store_rollback(r->st);
	rs = ruleset_find(g.ruleset);
	if (strcmp(format, "text") == 0 || rs == NULL ||
	    rs->preview_battle == NULL || j->side < 0 || j->side >= b->nsides) {
		rc = 0;
		goto out;
	}
	from = calloc((size_t)b->nunits + 1, sizeof(*from));
	ok = calloc((size_t)b->nunits + 1, 1);
	if (from == NULL || ok == NULL ||
	    (nb = rs->preview_battle(b, j->set)) == NULL ||
	    (strcmp(g.visibility, "fog") == 0 &&
	    (seen = map_seen(b, j->side)) == NULL)) {
		err_set(e, ERR_TEMP, "out of memory drawing the preview");
		goto out;
	}
	for (u = 0; u < b->nunits; u++)
		ok[u] = (unsigned char)battle_unit_centre(b, u, &from[u]);
	snprintf(title, sizeof(title), "%s (game %s)", b->title, g.name);
	snprintf(sub, sizeof(sub), "Your orders as far as they can be told "
	    "before the dice: %s", b->sides[j->side].id);
	memset(&o, 0, sizeof(o));
	o.title = title;
	o.subtitle = sub;
	o.seen = seen;
	o.side = j->side;
	o.from = from;
	o.from_ok = ok;
	o.compact = 1;   /* shown inline: a palette PNG (issue 25) */
	o.crop = 1;      /* ... of the side's part of the field */
	if (map_render(nb, &o, 0, &png, &plen, e) != 0)
		goto out;
	snprintf(cid, sizeof(cid), "preview.%.120s", j->msgid);
	if ((html = report_html(j->body, j->subject, cid, "Your ordered moves "
	    "on the map")) == NULL) {
		err_set(e, ERR_TEMP, "out of memory");
		goto out;
	}
	part = (struct mail_part){ "image/png", "orders.png", cid, png, plen };
	j->m.from = j->from[0] ? j->from : NULL;
	j->m.to = j->to[0] ? j->to : NULL;
	j->m.subject = j->subject[0] ? j->subject : NULL;
	j->m.message_id = j->msgid;
	j->m.in_reply_to = j->irt[0] ? j->irt : NULL;
	j->m.date = j->date[0] ? j->date : NULL;
	j->m.body = j->body;
	j->m.html = html;
	j->m.parts = &part;
	j->m.nparts = 1;
	*raw = mail_compose(&j->m, len, e);
	rc = *raw != NULL ? 0 : -1;
out:
	free(html);
	free(png);
	free(seen);
	free(from);
	free(ok);
	free(nb);
	battle_free(b);
	store_game_clear(&g);
	return rc;
}

void
referee_previews_flush(struct referee *r)
{
	int i;

	for (i = 0; i < r->njobs; i++) {
		struct preview_job *j = r->jobs[i];
		char *raw = NULL;
		size_t len = 0;
		struct err e;
		int64_t now;

		err_clear(&e);
		if (compose(r, j, &raw, &len, &e) != 0)
			raw = NULL;   /* the text reply goes as it is */
		now = referee_now(r);
		if (store_begin(r->st, &e) == 0) {
			if (store_outbox_preview(r->st, j->msgid, raw, len, now,
			    &e) != 0 || store_commit(r->st, &e) != 0)
				store_rollback(r->st);
		}
		free(raw);
	}
	referee_previews_drop(r, 0);
}
