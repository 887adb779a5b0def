/*
 * vacuum.c - 'despatch vacuum': everything the store need not keep, cut
 * at once, and the space given back to the disk.
 *
 * Mail is trimmed as it goes (delivered mail at once, a player's mail
 * when its step is played, other mail of a game after a week: see
 * store/trim.c); this catches what a store made by an older despatch
 * still holds, and what a running daemon has not reached yet, then runs
 * VACUUM.  It runs by itself when a battle ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/mail.h"
#include "referee/internal.h"
#include "referee/referee.h"
#include "store/store.h"

/* A delivered mail of a store older than the trimming: its text kept
 * compressed and its hash, its bytes cut to the headers. */
static int
outbox_old_one(struct referee *r, int64_t id, struct err *e)
{
	char *raw = NULL;
	size_t len = 0;
	struct mail_msg *m = NULL;
	struct err pe;
	int64_t game = 0;
	int rc = -1;

	err_clear(&pe);
	if (store_outbox_raw(r->st, id, &raw, &len, e) != 1 ||
	    store_outbox_game(r->st, id, &game, e) != 1)
		goto out;
	if (store_outbox_keep(r->st, id, raw, len, game > 0 &&
	    mail_parse(raw, len, &m, &pe) == 0 ? m->body : NULL, e) != 0 ||
	    store_outbox_cut(r->st, id, e) != 0)
		goto out;
	rc = 0;
out:
	mail_msg_free(m);
	free(raw);
	return rc;
}

/* A game's received mail stored before its text was kept: the text of
 * its stored copy (already redacted), so it may be trimmed like any. */
static int
messages_old_text(struct referee *r, struct err *e)
{
	int64_t id = 0;

	for (;;) {
		char *raw = NULL, *kept = NULL;
		size_t len = 0, kl = 0;
		struct mail_msg *m = NULL;
		struct err pe;
		int got = store_message_next_textless(r->st, id, &id, e);

		if (got < 0)
			return -1;
		if (got == 0)
			return 0;
		if (store_message_raw(r->st, id, &raw, &len, e) != 1) {
			free(raw);
			return -1;
		}
		err_clear(&pe);
		kept = mail_parse(raw, len, &m, &pe) == 0 ?
		    referee_text_read_kept(m->body, m->body_len, 0,
		    &kl) : strdup("");
		free(raw);
		mail_msg_free(m);
		if (kept == NULL)
			return err_set(e, ERR_TEMP, "out of memory");
		got = store_message_keep_text(r->st, id, kept, e);
		free(kept);
		if (got != 0)
			return -1;
	}
}

int
referee_vacuum(struct referee *r, struct vacuum_result *vr, struct err *e)
{
	char *names = NULL, *name, *save = NULL;
	int64_t now = referee_now(r), n = 0, id = 0;
	int rc = -1;

	memset(vr, 0, sizeof(*vr));
	if (store_begin(r->st, e) != 0)
		return -1;
	if (messages_old_text(r, e) != 0 ||
	    store_messages_whole(r->st, &n, e) != 0)
		goto fail;
	vr->messages = n;
	/* Each game's players' mail for the steps it has played. */
	names = store_game_names(r->st);
	if (names == NULL) {
		err_set(e, ERR_TEMP, "cannot list the games");
		goto fail;
	}
	for (name = strtok_r(names, "\n", &save); name != NULL;
	    name = strtok_r(NULL, "\n", &save)) {
		struct store_game g;

		memset(&g, 0, sizeof(g));
		if (store_game_get(r->st, name, &g, e) != 0) {
			store_game_clear(&g);
			goto fail;
		}
		if (g.status != GAME_SETUP && store_messages_trim(r->st, g.id,
		    g.status == GAME_FINISHED ? g.step : g.step - 1, now, e) != 0) {
			store_game_clear(&g);
			goto fail;
		}
		store_game_clear(&g);
	}
	if (store_messages_trim(r->st, 0, 0, now, e) != 0 ||
	    store_messages_whole(r->st, &n, e) != 0)
		goto fail;
	vr->messages -= n;
	/* Delivered mail kept whole by an older despatch (no hash). */
	for (;;) {
		int got = store_outbox_next_whole(r->st, id, &id, e);

		if (got < 0)
			goto fail;
		if (got == 0)
			break;
		if (outbox_old_one(r, id, e) != 0)
			goto fail;
		vr->outbox++;
	}
	if (store_commit(r->st, e) != 0)
		goto fail;
	free(names);
	return store_vacuum(r->st, &vr->before, &vr->after, e);
fail:
	store_rollback(r->st);
	free(names);
	return rc;
}

void
referee_vacuum_due(struct referee *r)
{
	int64_t before, after;
	struct err e;

	if (!r->vacuum_due || store_in_tx(r->st))
		return;
	r->vacuum_due = 0;
	/* A failure (the database busy) is no failure of what ended the
	 * battle: 'despatch vacuum' does it later. */
	err_clear(&e);
	(void)store_vacuum(r->st, &before, &after, &e);
}
