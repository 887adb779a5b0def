/*
 * autoreply.c - mail a machine or a mailing list passed on: whom it is
 * answered at, if anyone.
 *
 * Implements the responder's side of RFC 3834 for mail that came
 * through a list (RFC 2369, RFC 2919): such mail is never answered to
 * the list, to its From or to its Reply-To, since any of them may be
 * the list's, and an answer would go to every reader or start a loop
 * with the list's own robot.  When it gives a player's secret, its
 * orders and commands count like any other mail's, and every answer
 * goes to the player's registered address alone, saying why.  Mail that
 * gives no player's secret is stored and ignored.  (A machine's own mail,
 * an autoreply or a bounce, is ignored before it is read: intake.c.)
 *
 * Workload: a call or two for the few mails that carry list fields.
 */
#include "referee/referee.h"

#include <stdio.h>
#include <string.h>

#include "core/text.h"
#include "mail/mail.h"
#include "referee/internal.h"

/* Bytes of the List-Id an answer names. */
#define LIST_NAME_MAX 120

int
referee_list_ignored(struct intake *in)
{
	if (in->m == NULL || !in->m->via_list || in->player_id != 0)
		return 0;
	snprintf(in->res->status, sizeof(in->res->status), "ignored");
	snprintf(in->res->note, sizeof(in->res->note), "came through a "
	    "mailing list and gave no player's secret: stored, not answered");
	return 1;
}

int
referee_list_reply(struct intake *in, const char *kind, const char *subject,
    const char *body)
{
	char name[LIST_NAME_MAX + 1] = "";
	struct text t;
	size_t n;
	int rc;

	if (in->m == NULL || in->registered[0] == '\0')
		return 0;
	if (in->m->list_id != NULL) {
		/* Cut at a character boundary: the answer must be UTF-8. */
		n = strlen(in->m->list_id);
		if (n > LIST_NAME_MAX) {
			n = LIST_NAME_MAX;
			while (n > 0 &&
			    ((unsigned char)in->m->list_id[n] & 0xc0) == 0x80)
				n--;
		}
		memcpy(name, in->m->list_id, n);
		name[n] = '\0';
	}
	text_init(&t, 256 * 1024 + 4096);
	text_add(&t, "This mail reached the server through a mailing list%s%s%s,\n"
	    "so this answer comes to your registered address alone, not to the "
	    "list or\nthe addresses the list put on it. The list's readers may "
	    "have seen your\nsecret: if the list is not yours alone, ask the "
	    "operator for a new one.\n\n%s", name[0] ? "\n  (" : "", name,
	    name[0] ? ")" : "", body);
	if (t.s == NULL)
		return err_set(in->e, ERR_INTERNAL, "out of memory");
	rc = referee_intake_queue(in, in->registered, kind, subject, t.s);
	text_free(&t);
	return rc;
}
