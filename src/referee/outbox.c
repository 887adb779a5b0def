/*
 * outbox.c - delivering queued mail over SMTP, for 'despatch outbox send'
 * now and the daemon later.
 *
 * Mail is at-least-once: each mail is marked sent in its own write right
 * after the server's final 250; a crash between the two sends that one
 * mail again, with the same Message-ID and the same bytes.  When the mark
 * cannot be written (a full disk) the referee remembers the mail and does
 * not send it again, only marks it, once the store takes writes.  A passing
 * failure puts the mail off (1 minute, doubling to an hour); a permanent
 * one (5xx) marks it failed for the operator to see.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/mail.h"
#include "core/crash.h"
#include "referee/internal.h"

/* The From header's value of a stored mail, into out. */
static void
from_of(const char *raw, const char *def, char *out, size_t size)
{
	const char *p = raw;

	while (*p && !(p[0] == '\r' && p[1] == '\n' && p[2] == '\r')) {
		if (strncasecmp(p, "From: ", 6) == 0) {
			size_t n = strcspn(p + 6, "\r\n");

			if (n >= size)
				n = size - 1;
			memcpy(out, p + 6, n);
			out[n] = '\0';
			return;
		}
		p = strchr(p, '\n');
		if (p == NULL)
			break;
		p++;
	}
	snprintf(out, size, "%s", def);
}

int
referee_outbox_send(struct referee *r, const struct mail_smtp *smtp,
    int all, struct send_result *res, struct err *e)
{
	return referee_outbox_send_on(r, smtp, NULL, all, res, e);
}

/* The mails sent and not yet marked (referee.h, unmarked). */
static int
unmarked_find(const struct referee *r, int64_t id)
{
	int i;

	for (i = 0; i < r->nunmarked; i++)
		if (r->unmarked[i] == id)
			return i;
	return -1;
}

static int
unmarked_add(struct referee *r, int64_t id)
{
	int64_t *v = realloc(r->unmarked, (size_t)(r->nunmarked + 1) *
	    sizeof(*v));

	if (v == NULL)
		return -1;
	r->unmarked = v;
	r->unmarked[r->nunmarked++] = id;
	return 0;
}

int
referee_outbox_send_on(struct referee *r, const struct mail_smtp *smtp,
    void *kept, int all, struct send_result *res, struct err *e)
{
	struct store_mail *m = NULL;
	void *session = kept;
	int64_t first = 60;
	char *drawn = NULL;
	const char *bytes;
	size_t dlen = 0, blen;
	char v[64];
	int n = 0, i, rc = 0;

	memset(res, 0, sizeof(*res));
	if (referee_setting_get(r, 0, "retry", v, sizeof(v), e) != 0)
		return -1;
	if (referee_parse_time(v, &first) != 0 || first < 1)
		first = 60;
	/* While the server is away nothing is tried until its own backoff
	 * ends; then the whole queue is, oldest first.  Mail put off in more
	 * rounds would otherwise wait longer than newer mail, and a player
	 * get the report of a later phase before an earlier one's. */
	if (r->away_streak > 0 && !all) {
		if (referee_now(r) < r->away_next)
			return 0;   /* the server is away: nothing is tried */
		if (store_outbox_bring_forward(r->st, referee_now(r), e) < 0)
			return -1;
	}
	if (store_outbox_due(r->st, all ? INT64_MAX : referee_now(r), &m, &n,
	    e) != 0)
		return -1;
	for (i = 0; i < n && rc == 0; i++) {
		struct mail_smtp s = *smtp;
		char from[300], why[300];
		const char *at;
		int got, k;

		/* Sent already, its mark not yet written: marked now, or left
		 * for later while the store cannot take it; never sent again. */
		if ((k = unmarked_find(r, m[i].id)) >= 0) {
			rc = crash_fault_point("outbox-mark") ? err_set(e,
			    ERR_TEMP,
			    "database: writing: a passing fault (injected by "
			    "DESPATCH_FAULT)") : store_outbox_delivered(r->st, m[i].id,
			    referee_now(r), e);
			if (rc == 0)
				r->unmarked[k] = r->unmarked[--r->nunmarked];
			continue;
		}

		/* A welcome's map is drawn now (referee_mail_drawn); if it
		 * cannot be, the text goes alone. */
		free(drawn);
		drawn = NULL;
		if (referee_mail_drawn(r, &m[i], &drawn, &dlen, e) != 0) {
			if (e->kind == ERR_TEMP) {
				rc = -1;
				break;
			}
			err_clear(e);
		}
		bytes = drawn != NULL ? drawn : m[i].raw;
		blen = drawn != NULL ? dlen : m[i].len;
		from_of(m[i].raw, r->from, from, sizeof(from));
		at = strrchr(from, '@');
		if (s.helo[0] == '\0' && at != NULL)
			snprintf(s.helo, sizeof(s.helo), "%.*s", (int)strcspn(at + 1,
			    ">"), at + 1);
		if (session == NULL)
			session = mail_smtp_session_new();
		got = mail_smtp_send_on(session, &s, from, m[i].recipient, bytes,
		    blen, why, sizeof(why));
		if (got == MAIL_SMTP_SENT) {
			crash_point("after-send");
			rc = crash_fault_point("outbox-mark") ? err_set(e,
			    ERR_TEMP,
			    "database: writing: a passing fault (injected by "
			    "DESPATCH_FAULT)") : (drawn != NULL && store_outbox_hash(
			    r->st, m[i].id, bytes, blen, e) != 0) ? -1 :
			    store_outbox_delivered(r->st, m[i].id, referee_now(r), e);
			if (rc == 0)
				crash_point("after-mark");
			else if (unmarked_add(r, m[i].id) != 0)
				err_set(e, ERR_INTERNAL, "out of memory");
			res->sent++;
			r->away_streak = 0;
		} else if (got == MAIL_SMTP_FAILED) {
			rc = store_outbox_failed(r->st, m[i].id, referee_now(r), why, e);
			res->failed++;
		} else {
			rc = store_outbox_retry(r->st, m[i].id, referee_now(r), first,
			    why, e);
			res->deferred++;
			snprintf(res->last_error, sizeof(res->last_error), "%s", why);
			/* The server is away: the rest waits for the next run. */
			if (strstr(why, "onnect") != NULL) {
				r->away_streak++;
				r->away_next = referee_now(r) + (first << (r->away_streak >
				    7 ? 6 : r->away_streak - 1));
				if (r->away_next > referee_now(r) + 3600)
					r->away_next = referee_now(r) + 3600;
				for (i++; i < n && rc == 0; i++, res->deferred++)
					rc = store_outbox_retry(r->st, m[i].id,
					    referee_now(r), first, why, e);
				break;
			}
		}
	}
	if (session != kept)
		mail_smtp_session_free(session);
	free(drawn);
	store_mails_free(m, n);
	return rc;
}
