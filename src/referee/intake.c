/*
 * intake.c - one incoming mail: stored, read, answered.
 *
 * Workload: one call per mail from the MTA pipe or a mailbox poll.  The
 * mail is parsed, a copy without secrets is stored, and the answers are
 * queued, all in one transaction.  A player's mistake is always answered,
 * never bounced; only a failure to store (ERR_TEMP) leaves the caller with
 * an error, so the MTA retries.  No condition that will fail the same way
 * on every retry may do that: a reply that would be too long is cut, not
 * refused.
 *
 * What a mail may change: a mail with order lines replaces the stored
 * orders of its side for its phase, when at least one line was
 * understood; a mail of commands, prose or lines none of which could be
 * read leaves them as they are.
 */
#include "referee/referee.h"
#include "core/crash.h"

#include <sodium.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/ruleset.h"
#include "mail/mail.h"
#include "orders/orders.h"
#include "report/report.h"
#include "ledger/ledger.h"
#include "ledger/record.h"
#include "referee/chain.h"
#include "referee/internal.h"

/* How much of a player's own text a reply quotes back. */
#define ECHO_OK_MAX     150   /* understood lines shown */
#define ECHO_ERR_MAX    60    /* lines not understood shown */
#define ECHO_PROSE_MAX  8     /* remarks shown */
#define ECHO_RAW_MAX    160   /* bytes of each line quoted */
#define REPLY_MAX       (256 * 1024)

void
referee_intake_status(struct intake *in, const char *status,
    const char *fmt, ...)
{
	va_list ap;

	snprintf(in->res->status, sizeof(in->res->status), "%s", status);
	va_start(ap, fmt);
	vsnprintf(in->res->note, sizeof(in->res->note), fmt, ap);
	va_end(ap);
}
#define set_status referee_intake_status

/* How much of a mail that is not a player's is kept. */
#define EXCERPT_MAX     (16u * 1024u)   /* of its body */
#define HEADERS_MAX     (32u * 1024u)   /* of its header block */
#define STRANGER_QUOTA  (256u * 1024u)  /* bytes a day from one sender */

/* Mail from someone who is no player keeps what duplicate detection,
 * audit and an answer need: its headers and a bounded excerpt, and past
 * the sender's daily quota the headers alone.  A player's own mail (it
 * gave a player's secret, or comes from a player's address) is kept
 * whole.  Returns -1 on a store error. */
static int
bound_stranger(struct intake *in)
{
	int64_t players = 0, today = 0;
	size_t hdr, keep;
	const char *sep;
	char note[160];
	char *nb;

	if (in->player_id != 0 || in->stored_len <= HEADERS_MAX + EXCERPT_MAX)
		return 0;
	if (in->sender != NULL && store_players_with_email(in->r->st, 0,
	    in->sender, &players, in->e) != 0)
		return -1;
	if (players > 0)
		return 0;
	if (in->sender != NULL && store_messages_bytes_from(in->r->st,
	    in->sender, referee_now(in->r) - 86400, &today, in->e) != 0)
		return -1;
	sep = strstr(in->stored, "\r\n\r\n");
	hdr = sep ? (size_t)(sep - in->stored) + 4 : 0;
	if (sep == NULL) {
		sep = strstr(in->stored, "\n\n");
		hdr = sep ? (size_t)(sep - in->stored) + 2 : 0;
	}
	if (hdr == 0 || hdr > HEADERS_MAX)
		hdr = HEADERS_MAX;
	keep = today >= (int64_t)STRANGER_QUOTA ? hdr : hdr + EXCERPT_MAX;
	if (keep >= in->stored_len)
		return 0;
	snprintf(note, sizeof(note), "\n[despatch kept %zu of the %zu bytes of "
	    "this mail from someone who is no player]\n", keep, in->len);
	nb = malloc(keep + strlen(note) + 1);
	if (nb == NULL)
		return err_set(in->e, ERR_TEMP, "out of memory");
	memcpy(nb, in->stored, keep);
	memcpy(nb + keep, note, strlen(note) + 1);
	free(in->stored);
	in->stored = nb;
	in->stored_len = keep + strlen(note);
	return 0;
}

char *
referee_text_read_kept(const char *body, size_t body_len, size_t read_len,
    size_t *len)
{
	size_t tl = read_len > 0 && read_len < body_len ? read_len : body_len;
	const char *p = body, *end = body + tl;
	char *kept = malloc(tl + 1);
	size_t k = 0;

	if (kept == NULL)
		return NULL;
	while (p < end && k < TEXT_KEEP_MAX) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *q = p;
		size_t n = nl != NULL ? (size_t)(nl - p) + 1 : (size_t)(end - p);

		while (q < p + n && (*q == ' ' || *q == '\t'))
			q++;
		if ((q == p + n || *q != '>') && k + n <= TEXT_KEEP_MAX) {
			memcpy(kept + k, p, n);
			k += n;
		}
		p += n;
	}
	kept[k] = '\0';
	*len = k;
	return kept;
}

/* Stores the message row with the current status. */
static int
store_msg(struct intake *in, int64_t *id)
{
	const char *text = NULL;
	char *kept = NULL;
	size_t text_len = 0;
	int rc;

	if (bound_stranger(in) != 0)
		return -1;
	/* What was read, kept once the bytes go: a game's mail only (junk
	 * and mail not read, rate-limited, keep what the intake bounded). */
	if (in->m != NULL && in->game_id > 0 &&
	    strcmp(in->res->status, "rate-limited") != 0) {
		kept = referee_text_read_kept(in->m->body, in->m->body_len,
		    in->read_len,
		    &text_len);
		if (kept == NULL)
			return err_set(in->e, ERR_TEMP, "out of memory");
		text = kept;
	}
	rc = store_message_insert(in->r->st, in->m ? in->m->message_id : NULL,
	    in->sha, in->sender, in->m ? in->m->subject : NULL, in->game_id,
	    in->player_id, in->step, in->res->status, in->res->note,
	    in->stored, in->stored_len, text, text_len,
	    in->arrived > 0 ? in->arrived : referee_now(in->r), &in->msg_row,
	    in->e);
	free(kept);
	if (id != NULL)
		*id = in->msg_row;
	return rc;
}

int
referee_intake_store(struct intake *in)
{
	return store_msg(in, NULL);
}

/* A reply that could not be composed: noted on the stored mail. */
static int
note_unanswered(struct intake *in)
{
	char why[200];
	size_t n = strlen(in->e->msg);

	if (n >= sizeof(why)) {
		n = sizeof(why) - 1;
		while (n > 0 && ((unsigned char)in->e->msg[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(why, in->e->msg, n);
	why[n] = '\0';
	snprintf(in->res->note, sizeof(in->res->note), "stored, not answered: "
	    "%s", why);
	err_clear(in->e);
	if (in->msg_row != 0)
		return store_message_note(in->r->st, in->msg_row,
		    in->res->note, in->e);
	return 0;
}

static int
queue_one(struct intake *in, const char *to, const char *kind,
    const char *subject, const char *body)
{
	if (referee_queue_mail(in->r, in->game_id,
	    in->game[0] ? in->game : NULL, to,
	    subject, kind, in->m ? in->m->message_id : NULL, body, in->e) == 0) {
		in->replies++;
		return 0;
	}
	if (in->e->kind == ERR_TEMP)
		return -1;
	return note_unanswered(in);
}

int
referee_intake_queue(struct intake *in, const char *to, const char *kind,
    const char *subject, const char *body)
{
	return queue_one(in, to, kind, subject, body);
}

int
referee_intake_reply(struct intake *in, const char *kind, const char *subject,
    const char *body)
{
	const char *subj = subject ? subject : in->subject_re;

	if (in->m == NULL || in->m->auto_submitted)
		return 0;
	if (in->m->via_list)
		return referee_list_reply(in, kind, subj, body);
	if (in->reply_to == NULL)
		return 0;
	if (in->registered[0] != '\0' &&
	    (strcasecmp(in->registered, in->reply_to) != 0 ||
	    (in->sender != NULL && strcasecmp(in->registered, in->sender) != 0))) {
		struct text t;
		int rc, to_other = strcasecmp(in->registered, in->reply_to) != 0;
		int from_other = in->sender != NULL &&
		    strcasecmp(in->registered, in->sender) != 0;

		/* The player hears of it first, with the addresses it came
		 * from and asked answers at; the sender is never told the
		 * player's address. */
		text_init(&t, REPLY_MAX + 4096);
		if (from_other)
			text_add(&t, "This mail reached the server from %s, not from "
			    "your address, and it gave\nyour secret.%s%s%s If that "
			    "was not you, tell the operator: someone else\nknows your "
			    "secret, and the operator can give you a new one.\n",
			    in->sender, to_other ? " It asked for answers at " : "",
			    to_other ? in->reply_to : "", to_other ? "." : "");
		else
			text_add(&t, "This mail came from your address and asked for "
			    "answers at %s, so the\nanswer went there as well. If "
			    "you did not set that, tell the operator.\n",
			    in->reply_to);
		text_add(&t, "Here is the answer it got:\n\n%s", body);
		rc = t.s == NULL ? err_set(in->e, ERR_INTERNAL, "out of memory") :
		    queue_one(in, in->registered, kind, subj, t.s);
		text_free(&t);
		if (rc != 0 || !to_other)
			return rc != 0 ? -1 : 0;
		text_init(&t, REPLY_MAX + 4096);
		text_add(&t, "%s\n(This answer went to the address registered for "
		    "this player as well.)\n", body);
		rc = t.s == NULL ? err_set(in->e, ERR_INTERNAL, "out of memory") :
		    queue_one(in, in->reply_to, kind, subj, t.s);
		text_free(&t);
		return rc;
	}
	return queue_one(in, in->reply_to, kind, subj, body);
}


/* Copies the header block h (its first hdr bytes) to o, less every field
 * that starts with one of the names in drop (NULL-terminated, "subject:")
 * and the folded lines that go on with it; returns the end of the copy. */
static char *
header_copy(const char *h, size_t hdr, const char *const *drop, char *o)
{
	size_t i = 0, k;
	int skipping = 0;

	while (i < hdr) {
		const char *nl = memchr(h + i, '\n', hdr - i);
		size_t l = nl ? (size_t)(nl - (h + i)) + 1 : hdr - i;

		if (h[i] != ' ' && h[i] != '\t') {
			skipping = 0;
			for (k = 0; drop[k] != NULL && !skipping; k++) {
				size_t n = strlen(drop[k]);

				skipping = l >= n &&
				    strncasecmp(h + i, drop[k], n) == 0;
			}
		}
		if (!skipping) {
			memcpy(o, h + i, l);
			o += l;
		}
		i += l;
	}
	return o;
}

/* Replaces the stored copy with its header block, less the Subject and
 * folded lines of it, and a note saying so. */
static int
headers_only(struct intake *in)
{
	static const char note[] = "X-Despatch-Stored: headers only (the mail "
	    "could not be read, and its encoded parts could hide a secret)\r\n"
	    "\r\n";
	const char *sep = strstr(in->stored, "\r\n\r\n");
	static const char *const drop[] = { "subject:", NULL };
	size_t hdr = sep ? (size_t)(sep - in->stored) + 2 : 0;
	char *nb, *o;

	if (sep == NULL) {
		sep = strstr(in->stored, "\n\n");
		hdr = sep ? (size_t)(sep - in->stored) + 1 : 0;
	}
	if (hdr > 64 * 1024)
		hdr = 64 * 1024;
	nb = malloc(hdr + sizeof(note));
	if (nb == NULL)
		return err_set(in->e, ERR_TEMP, "out of memory");
	o = header_copy(in->stored, hdr, drop, nb);
	memcpy(o, note, sizeof(note));
	free(in->stored);
	in->stored = nb;
	in->stored_len = (size_t)(o - nb) + sizeof(note) - 1;
	return 0;
}

/* Makes the copy of the mail we keep (in->stored): the raw bytes with
 * secrets blanked.  Where a transfer encoding or an encoded-word could
 * hide a secret from a search of the raw bytes, the copy is instead the
 * header block (less its Subject) with the decoded subject and body, all
 * redacted, and a note saying so. */
static int
make_stored_copy(struct intake *in)
{
	const char *sep;
	size_t hdr;
	int encoded;

	free(in->stored);
	in->stored = malloc(in->len + 1);
	if (in->stored == NULL)
		return err_set(in->e, ERR_INTERNAL, "out of memory");
	memcpy(in->stored, in->raw, in->len);
	in->stored[in->len] = '\0';
	in->stored_len = in->len;
	{
		unsigned char *hashes = NULL, key[32];
		int n = 0;

		if (store_secret_hashes(in->r->st, &hashes, &n, in->e) != 0)
			return -1;
		if (n > 0 && referee_server_key(in->r, "secret-hash", key,
		    in->e) != 0) {
			free(hashes);
			return -1;
		}
		referee_redact_known(in->stored, in->stored_len, hashes, n,
		    key);
		if (in->m != NULL) {
			if (in->m->subject != NULL)
				referee_redact_known(in->m->subject,
				    strlen(in->m->subject),
				    hashes, n, key);
			referee_redact_known(in->m->body, in->m->body_len,
			    hashes, n, key);
		}
		referee_redact_ids(in, hashes, n, key);
		sodium_memzero(key, sizeof(key));
		free(hashes);
	}
	referee_redact(in->stored, in->stored_len, in->secret);
	if (in->m == NULL) {
		/* Unreadable, so never decoded: an encoded part could hide a
		 * secret from the search above.  Keep the header block alone
		 * (less its Subject, which may be encoded too). */
		if (referee_has_ci(in->raw, in->len, "base64") ||
		    referee_has_ci(in->raw, in->len, "quoted-printable") ||
		    referee_has_ci(in->raw, in->len, "=?"))
			return headers_only(in);
		return 0;
	}
	if (in->m->subject != NULL)
		referee_redact(in->m->subject, strlen(in->m->subject),
		    in->secret);
	referee_redact(in->m->body, in->m->body_len, in->secret);
	encoded = referee_has_ci(in->raw, in->len, "base64") ||
	    referee_has_ci(in->raw, in->len, "quoted-printable") ||
	    referee_has_ci(in->raw, in->len, "=?");
	if (!encoded)
		return 0;
	sep = strstr(in->stored, "\r\n\r\n");
	hdr = sep ? (size_t)(sep - in->stored) + 2 : 0;
	if (sep == NULL) {
		sep = strstr(in->stored, "\n\n");
		hdr = sep ? (size_t)(sep - in->stored) + 1 : in->stored_len;
	}
	{
		static const char note[] = "MIME-Version: 1.0\r\n"
		    "Content-Type: text/plain; charset=utf-8\r\n"
		    "Content-Transfer-Encoding: 8bit\r\n"
		    "X-Despatch-Stored: decoded and redacted (the mail was "
		    "encoded)\r\n\r\n";
		const char *subj = in->m->subject ? in->m->subject : "";
		size_t cap = hdr + strlen(subj) + sizeof(note) + in->m->body_len + 32;
		static const char *const drop[] = { "subject:", "content-",
		    "mime-version:", NULL };
		char *nb = malloc(cap), *o;

		if (nb == NULL)
			return err_set(in->e, ERR_INTERNAL, "out of memory");
		/* The header block without its Subject and MIME fields: the
		 * note gives the decoded body's own. */
		o = header_copy(in->stored, hdr, drop, nb);
		o += sprintf(o, "Subject: %s\r\n%s", subj, note);
		memcpy(o, in->m->body, in->m->body_len);
		o += in->m->body_len;
		*o = '\0';
		free(in->stored);
		in->stored = nb;
		in->stored_len = (size_t)(o - nb);
	}
	return 0;
}

const char referee_help_tail[] =
	"\nAn order mail starts with the line\n"
	"  GAME <game> SIDE <side> TURN <turn> PASSWORD <your secret>\n"
	"and then has one line a unit, for example\n"
	"  7th Foot: ADVANCE 8\n"
	"A mail saying only HELP (with that first line, or without it) gets the "
	"full help.\n";

/* Cuts s to at most max bytes at a character boundary, into out
 * (max + 4 bytes), with "..." when something was cut. */
static const char *
quote_cut(const char *s, size_t max, char *out)
{
	size_t n = strlen(s);

	if (n <= max) {
		memcpy(out, s, n + 1);
		return out;
	}
	n = max;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	memcpy(out, s, n);
	memcpy(out + n, "...", 4);
	return out;
}

/* The "Understood", "Not understood" and remarks parts of an answer:
 * bounded, each part saying how many lines it left out. */
static void
echo_lines(struct text *t, const struct battle *b,
    const struct orders_result *res, int turn, const char *errors_intro)
{
	char q[ECHO_RAW_MAX + 8], m[ECHO_RAW_MAX * 2 + 8];
	int i, shown = 0, ok = 0, k = 0;

	for (i = 0; i < res->nlines; i++)
		ok += res->lines[i].status == ORDERS_OK;
	if (ok > 0)
		text_add(t, "\nUnderstood (%d line%s, %d order%s):\n", ok,
		    ok == 1 ? "" : "s", res->set.n, res->set.n == 1 ? "" : "s");
	for (i = 0; i < res->nlines; i++) {
		const struct orders_line *l = &res->lines[i];

		if (l->status != ORDERS_OK)
			continue;
		if (shown++ >= ECHO_OK_MAX)
			continue;
		text_add(t, "  line %-3d %s%s\n", l->line, l->standing &&
		    strncmp(l->text, "STANDING", 8) != 0 ? "STANDING " : "",
		    quote_cut(l->text, ECHO_RAW_MAX * 2, m));
	}
	if (shown > ECHO_OK_MAX)
		text_add(t, "  (%d more lines understood are not shown here; "
		    "send ORDERS to see them all)\n", shown - ECHO_OK_MAX);
	/* Orders that will come to nothing: say so now. */
	for (k = 0; k < res->set.n; k++) {
		const struct order *o = &res->set.orders[k];
		int st;

		if (o->special == 0 && !o->is_commander &&
		    battle_unit_alive(b, o->who) == 0 &&
		    battle_unit_away(b, o->who) && turn >= b->units[o->who].arrives)
			text_add(t, "  (line %d: %s comes on at the start of your "
			    "phase of turn %d, where\n  its ground is clear, and "
			    "then plays this order)\n", o->line,
			    b->units[o->who].name, b->units[o->who].arrives);
		else if (o->special == 0 && !o->is_commander &&
		    battle_unit_alive(b, o->who) == 0 &&
		    battle_unit_away(b, o->who))
			text_add(t, "  (line %d: %s is not on the table yet: it comes "
			    "on from turn %d, so\n  an order for a phase before "
			    "it does will do nothing)\n", o->line,
			    b->units[o->who].name, b->units[o->who].arrives);
		else if (o->special == 0 && !o->is_commander &&
		    battle_unit_alive(b, o->who) == 0)
			text_add(t, "  (line %d: %s has no stands left on the table: "
			    "this order will do nothing)\n", o->line,
			    b->units[o->who].name);
		for (st = 0; st < o->nsteps; st++)
			if (o->steps[st].target >= 0 &&
			    battle_unit_alive(b, o->steps[st].target) == 0)
				text_add(t, "  (line %d: %s is no longer on the "
				    "table)\n", o->line, b->units[o->steps[st].target].name);
	}
	if (res->nerrors > 0) {
		shown = 0;
		text_add(t, "\nNot understood (%d)%s\n", res->nerrors, errors_intro);
		for (i = 0; i < res->nlines; i++) {
			const struct orders_line *l = &res->lines[i];

			if (l->status != ORDERS_ERROR)
				continue;
			if (shown++ >= ECHO_ERR_MAX)
				continue;
			text_add(t, "  line %-3d %s\n", l->line, quote_cut(l->raw,
			    ECHO_RAW_MAX, q));
			text_add(t, "           %s\n", quote_cut(l->text,
			    ECHO_RAW_MAX * 2, m));
		}
		if (shown > ECHO_ERR_MAX)
			text_add(t, "  (%d more lines not understood are not shown)\n",
			    shown - ECHO_ERR_MAX);
	}
	if (res->too_many)
		text_add(t, "\nThe mail has more than %d lines to read: the rest "
		    "were not read, and no\norder in them was taken.\n",
		    ORDERS_MAX_LINES);
	for (i = 0, shown = 0; i < res->nlines; i++)
		if (res->lines[i].status == ORDERS_REPLACED) {
			if (shown++ == 0)
				text_add(t, "\nReplaced by a later line for the same "
				    "unit:\n");
			if (shown <= ECHO_PROSE_MAX)
				text_add(t, "  line %-3d %s\n", res->lines[i].line,
				    quote_cut(res->lines[i].raw, ECHO_RAW_MAX, q));
		}
	if (res->nprose > 0) {
		shown = 0;
		text_add(t, "\nRead as remarks, not orders (%d):\n", res->nprose);
		for (i = 0; i < res->nlines; i++) {
			const struct orders_line *l = &res->lines[i];

			if (l->status != ORDERS_PROSE || shown++ >= ECHO_PROSE_MAX)
				continue;
			text_add(t, "  line %-3d %s\n", l->line, quote_cut(l->raw,
			    ECHO_RAW_MAX, q));
		}
		if (shown > ECHO_PROSE_MAX)
			text_add(t, "  (%d more)\n", shown - ECHO_PROSE_MAX);
	}
}

/* What a mail's standing orders did. */
static void
standing_note(struct text *t, const struct orders_result *res)
{
	if (res->standing.n > 0)
		text_add(t, "Your standing orders (%d) are stored: they are kept "
		    "from phase to phase and\nplayed for any phase of yours you "
		    "send no orders for. They replace your\nstanding orders of "
		    "before; STANDING: NONE clears them.\n", res->standing.n);
	else
		text_add(t, "Your standing orders are cleared.\n");
}

/* How many orders the player has stored for step. */
static int
stored_count(struct intake *in, int step, int side, int *count)
{
	int64_t n = 0;

	if (store_orders_count(in->r->st, in->game_id, step, side,
	    in->player_id, &n, in->e) != 0)
		return -1;
	*count = (int)n;
	return 0;
}

/* Answers a refusal and stores the mail with status. */
int
referee_intake_refuse(struct intake *in, struct text *t, const char *status)
{
	snprintf(in->res->status, sizeof(in->res->status), "%s", status);
	referee_list_ignored(in);
	if (t->over)
		text_add(t, "\n");
	return store_msg(in, NULL) || referee_intake_reply(in, "reply", NULL,
	    t->s) ?
	    -1 : 0;
}

/* The turn of side's next phase still open. */
static int
next_turn_of(const struct battle *b, const struct store_game *g, int side)
{
	int t;

	for (t = battle_step_turn(b, g->step); t <= b->turns; t++)
		if (referee_step_for(b, t, side) >= g->step)
			return t;
	return b->turns;
}

/* When the phase a mail's orders are for will be played if nothing
 * changes, or what it still waits for, and its deadline, appended to t
 * (nothing for a later phase than the one open). */
static int
forecast_note(struct intake *in, const struct store_game *g,
    const struct battle *b, int step, int clean, struct text *t)
{
	struct play_forecast f;
	struct store_clock c;
	int64_t now = referee_now(in->r);
	char when[160], dl[160];

	if (step != g->step)
		return 0;
	if (referee_forecast(in->r, g, b, now, &f, in->e) != 0 ||
	    store_game_clock(in->r->st, g->id, &c, in->e) != 0)
		return -1;
	if (c.deadline > 0)
		referee_clock_when(in->r, g->id, c.deadline, now, dl, sizeof(dl));
	text_add(t, "\n");
	if (c.paused) {
		text_add(t, "The game is paused: the phase is played once the "
		    "operator resumes it.\n");
		return 0;
	}
	if (f.at >= 0 && f.at <= now) {
		text_add(t, "%s the phase will be played within the minute.\n",
		    f.all_ready && f.settle > 0 ? "Every player owing orders is "
		    "READY:" : "Every order is in:");
		return 0;
	}
	if (f.at > now) {
		int nonces = chain_nonces(in->r, g->id, in->e);
		int64_t rt = 0;

		if (nonces < 0 || (nonces && referee_setting_secs(in->r, g->id,
		    "reveal-time", &rt, in->e) != 0))
			return -1;
		referee_clock_when(in->r, g->id, f.at, now, when, sizeof(when));
		if (nonces) {
			char until[160];

			referee_clock_when(in->r, g->id, f.at + rt, now, until,
			    sizeof(until));
			text_add(t, "Your orders stand. The phase will be closed for "
			    "the nonces at\n  %s\nunless you send changes (READY "
			    "from every player still owing closes it\nnow); the nonces "
			    "are then revealed until about\n  %s\n", when, until);
		} else
			text_add(t, "Your orders stand. The phase will be played at\n"
			    "  %s\nunless you send changes; READY from every player "
			    "still owing plays it now.\n", when);
		return 0;
	}
	if (f.waiting)
		text_add(t, "A player asked for the full time (WAIT), so the phase "
		    "is played at its\ndeadline.\n");
	else if (f.fixed)
		text_add(t, "This game plays each phase at its deadline.\n");
	else {
		if (!clean)
			text_add(t, "Some lines of this mail were not taken, so your "
			    "set does not count as in\nyet: send them corrected, or "
			    "READY to have your set played as it stands.\n");
		if (f.in < f.players)
			text_add(t, "The phase waits for %d of the %d player%s who "
			    "owe%s orders for it.\n", f.players - f.in, f.players,
			    f.players == 1 ? "" : "s", f.players == 1 ? "s" : "");
	}
	if (c.deadline > 0)
		text_add(t, "Its deadline: %s.\n", dl);
	else
		text_add(t, "No deadline is set: the operator plays the phase.\n");
	return 0;
}

static int
handle_header(struct intake *in, struct orders_header *h,
    struct orders_result *res)
{
	struct referee *r = in->r;
	struct store_game g;
	struct battle *b = NULL;
	struct orders_parser *gop = NULL;
	const struct ruleset *rs;
	struct text t;
	int side, i, step = 0, rc = -1, turn, order_lines, has_standing;
	int clear = 0, merged = 0, phase_errors = 0;
	struct merge_result mr;
	char clock[16], salt_hex[2 * LEDGER_SALT + 1] = "";
	unsigned char salt[LEDGER_SALT];
	int64_t closed_step = 0;
	int nonces = 0;
	const char *commit = NULL;

	memset(&g, 0, sizeof(g));
	memset(&mr, 0, sizeof(mr));
	text_init(&t, REPLY_MAX);
	if (h->campaign) {
		rc = referee_campaign_mail(in, h);
		goto out;
	}
	snprintf(in->game, sizeof(in->game), "%s", h->game);
	if (store_game_get(r->st, h->game, &g, in->e) != 0) {
		struct store_campaign sc;

		if (in->e->kind != ERR_USER)
			goto out;
		err_clear(in->e);
		in->game[0] = '\0';
		/* GAME naming a campaign: its orders. */
		if (store_campaign_get(r->st, h->game, &sc, in->e) == 0) {
			store_campaign_clear(&sc);
			rc = referee_campaign_mail(in, h);
			goto out;
		}
		if (in->e->kind != ERR_USER)
			goto out;
		err_clear(in->e);
		set_status(in, "unknown-game", "no game \"%s\"", h->game);
		text_add(&t, "There is no game called \"%s\" on this server, so "
		    "nothing was taken from your mail.\nCheck the GAME word in "
		    "the first line of your orders.\n%s", h->game,
		    referee_help_tail);
		rc = referee_intake_refuse(in, &t, "unknown-game");
		goto out;
	}
	snprintf(in->game, sizeof(in->game), "%s", g.name);
	in->game_id = g.id;
	if (referee_battle_load(r, &g, &b, in->e) != 0)
		goto out;
	side = battle_side(b, h->side);
	if (side < 0) {
		set_status(in, "rejected", "unknown side \"%s\"", h->side);
		if (h->side[0])
			text_add(&t, "Game %s has no side called \"%s\"; its sides are",
			    g.name, h->side);
		else
			text_add(&t, "Your first line names no SIDE; the sides of game "
			    "%s are", g.name);
		for (i = 0; i < b->nsides; i++)
			text_add(&t, "%s %s", i ? "," : "", b->sides[i].id);
		text_add(&t, ".\nNothing was taken from your mail.\n%s",
		    referee_help_tail);
		rc = referee_intake_refuse(in, &t, "rejected");
		goto out;
	}
	if (referee_authenticate(in, g.id, side, h->secret) != 0)
		goto out;
	if (in->player_id == 0) {
		set_status(in, "rejected", "%s secret for side %s", h->secret[0] ?
		    "wrong" : "no", b->sides[side].id);
		if (h->secret[0])
			text_add(&t, "The secret after PASSWORD does not match any "
			    "player of side %s in game %s,\nso nothing was taken "
			    "from your mail. Check it against the secret in your\n"
			    "welcome mail (letters, digits and dashes exactly as "
			    "given);\nlost it? Send SECRET alone from the address "
			    "you play from.\n", b->sides[side].id, g.name);
		else
			text_add(&t, "Your first line has no PASSWORD, so nothing was "
			    "taken from your mail.\nAdd the secret from your welcome "
			    "mail:\n  GAME %s SIDE %s TURN <turn> "
			    "PASSWORD <your secret>\n", g.name, b->sides[side].id);
		rc = referee_intake_refuse(in, &t, "rejected");
		goto out;
	}
	in->side = side;
	if (g.status == GAME_SETUP) {
		set_status(in, "rejected", "game not started");
		text_add(&t, "Game %s has not started yet, so there is no turn to "
		    "give orders for. Nothing was taken;\nyou will get a welcome "
		    "mail when the game starts.\n", g.name);
		rc = referee_intake_refuse(in, &t, "rejected");
		goto out;
	}
	rs = ruleset_find(g.ruleset);
	gop = rs ? referee_parser(r, rs, in->e) : NULL;
	if (gop == NULL) {
		if (rs == NULL)
			err_set(in->e, ERR_DATA, "game %s uses ruleset %s, which this "
			    "build does not have", g.name, g.ruleset);
		goto out;
	}
	if (in->brigades[0] != '\0') {
		uint64_t mask;
		int army;

		if (referee_brigade_list(b, side, in->brigades, &mask, &army,
		    NULL, 0,
		    in->e) != 0) {
			in->e->kind = ERR_DATA;
			goto out;
		}
		orders_parser_limit(gop, mask, army);
	}
	/* The phase the mail is for: the TURN it names, else the side's
	 * next phase still open. */
	turn = h->turn;
	if (turn == 0) {
		for (turn = battle_step_turn(b, g.step); turn <= b->turns; turn++)
			if (referee_step_for(b, turn, side) >= g.step)
				break;
	}
	step = turn >= 0 && turn <= b->turns ? referee_step_for(b, turn,
	    side) : -1;
	/* A mail for the deployment has DEPLOY lines for orders, and only
	 * it (read as the step it is for, so none is stored for another). */
	orders_parser_deploying(gop, step > 0 && battle_step_deploys(b, step));
	orders_parse(gop, b, side, in->m->body, h->line, res);
	in->read_len = res->read_end;
	/* Order lines for the phase, as against standing orders. */
	order_lines = res->set.n + res->nerrors;
	/* ... and against commands written wrong: they change no orders. */
	for (i = 0; i < res->nlines; i++)
		if (res->lines[i].status == ORDERS_ERROR &&
		    (res->lines[i].standing || res->lines[i].command))
			order_lines--;
	has_standing = res->standing.n > 0 || res->standing_clear;
	/* CLEAR: the mail's orders are the whole set (none: no orders). */
	for (i = 0; i < res->ncmds; i++)
		clear |= res->cmds[i].kind == CMD_CLEAR;
	if (store_game_closed(r->st, g.id, &closed_step, NULL, in->e) != 0)
		goto out;
	if (order_lines > 0 || clear) {
		const char *why = NULL;

		if (g.status == GAME_FINISHED) {
			set_status(in, "rejected", "game finished");
			text_add(&t, "The battle of game %s is over; no more orders "
			    "are taken.\n", g.name);
			why = "over";
		} else if (h->turn < 0) {
			set_status(in, "rejected", "TURN %s is not a number",
			    h->turn_text);
			text_add(&t, "\"TURN %s\" is not a turn I can read: write the "
			    "number, as in TURN %d.\nNo orders were taken.\n",
			    h->turn_text, battle_step_turn(b, g.step));
			why = "turn";
		} else if (step < 0 && h->turn == 0) {
			set_status(in, "rejected", "no phase left");
			text_add(&t, "Your side has no phase left to play in game %s "
			    "(turns 1 to %d). No orders\nwere taken.\n", g.name,
			    b->turns);
			why = "turn";
		} else if (step < 0) {
			set_status(in, "rejected", "bad turn %d", h->turn);
			text_add(&t, "Turn %d is not a turn of game %s, which has "
			    "turns 1 to %d. No orders were taken.\n", h->turn, g.name,
			    b->turns);
			why = "turn";
		} else if (step == g.step && closed_step == step) {
			set_status(in, "rejected", "turn %d closed", turn);
			text_add(&t, "Your phase of turn %d is closed: its orders were "
			    "frozen in the Close\nnotice while the nonces are revealed, "
			    "so no orders were taken. Send\nREVEAL <your nonce> if your "
			    "orders carried a COMMIT.\n", turn);
			why = "closed";
		} else if (step < g.step) {
			set_status(in, "rejected", "too late for turn %d", turn);
			text_add(&t, "Your phase of turn %d has already been played, "
			    "so these orders came too late and\nno orders were "
			    "taken. The open phase is turn %d, %s. To give them for\n"
			    "your next phase, send them again with TURN %d in the "
			    "first line, or with\nno TURN at all.\n", turn,
			    battle_step_turn(b, g.step),
			    referee_phase_who(b, g.step), next_turn_of(b, &g, side));
			why = "late";
		}
		if (why != NULL) {
			if (store_msg(in, NULL) != 0 ||
			    referee_intake_reply(in, "reply", NULL, t.s) != 0)
				goto out;
			goto commands;
		}
	}
	in->step = step > 0 ? step : 0;
	if (order_lines > 0 || res->standing_lines > 0)
		set_status(in, "orders", "%d order%s, %d line%s not understood",
		    res->set.n, res->set.n == 1 ? "" : "s", res->nerrors,
		    res->nerrors == 1 ? "" : "s");
	else if (res->ncmds > 0)
		set_status(in, "commands", "%d command%s, orders left as they were",
		    res->ncmds, res->ncmds == 1 ? "" : "s");
	else
		set_status(in, "no-orders", "no order lines; orders left as they "
		    "were");
	if (store_msg(in, NULL) != 0)
		goto out;
	if (has_standing && closed_step > 0 && closed_step == g.step) {
		/* A closed phase may play a player's standing orders: they are
		 * frozen with it until it has been played. */
		has_standing = 0;
		text_add(&t, "The open phase is closed while the nonces are "
		    "revealed, and standing orders\nmay be played in it, so your "
		    "STANDING lines were not taken. Send them again\nonce the phase "
		    "has been played.\n\n");
	}
	if (has_standing) {
		/* The player's standing set is replaced whole. */
		if (store_standing_clear(r->st, g.id, in->player_id,
		    in->e) != 0)
			goto out;
		for (i = 0; i < res->standing.n; i++) {
			char canon[ORDERS_TEXT_MAX];
			const struct order *o = &res->standing.orders[i];

			orders_canonical(b, o, canon, sizeof(canon));
			if (store_standing_insert(r->st, g.id, side,
			    in->player_id, in->msg_row, i + 1, o->line,
			    orders_line_raw(res, o->line), canon, in->e) != 0)
				goto out;
		}
	}
	if (res->set.n > 0 || clear) {
		/* The mail's orders replace those of what they name; the rest
		 * of the set stands (merge.c). */
		if (referee_orders_merge(r, gop, b, g.id, step, side,
		    in->player_id, in->msg_row, res, clear, &mr, in->e) != 0)
			goto out;
		merged = 1;
	}
	/* Whether the player's set now counts as in, for the settle time:
	 * a mail of order lines that were all refused tried to change it,
	 * and it does not count until it reads cleanly or READY. */
	if (merged || order_lines > 0) {
		phase_errors = order_lines - res->set.n;
		if (store_order_state_set(r->st, g.id, step, in->player_id,
		    phase_errors == 0, in->arrived > 0 ? in->arrived :
		    referee_now(r), in->e) != 0)
			goto out;
	}
	if (merged && mr.now > 0) {
		/* The set's salt (docs/ledger.md): made from the step's secret
		 * seed and the set as stored, so the server has no choice of
		 * it and nobody else can guess the set from its leaf. */
		{
			struct store_player pl[MAX_PLAYERS];
			unsigned char sk[LEDGER_HASH];
			int64_t n_steps = 0;
			char *text = NULL;
			int np, seat = 0, cnt = 0;

			np = store_players(r->st, g.id, -1, pl, MAX_PLAYERS, in->e);
			if (np < 0 || store_game_chain_steps(r->st, g.id, &n_steps,
			    in->e) != 0 || store_orders_text(r->st, g.id, step, side,
			    in->player_id, &text, &cnt, in->e) != 0)
				goto out;
			for (i = 0; i < np; i++)
				if (pl[i].id == in->player_id)
					seat = i + 1;
			ledger_chain_at(g.seed_secret, n_steps > 0 ? (int)n_steps :
			    battle_steps(b), step, sk);
			ledger_salt(sk, b->sides[side].id, seat, text, salt);
			sodium_memzero(sk, sizeof(sk));
			free(text);
		}
		ledger_hex(salt, sizeof(salt), salt_hex);
		if (store_orders_salt_set(r->st, g.id, step, side, in->player_id,
		    salt, in->e) != 0)
			goto out;
		/* A game with nonces: the set's COMMIT, kept with it. */
		nonces = chain_nonces(r, g.id, in->e);
		if (nonces < 0)
			goto out;
		for (i = 0; i < res->ncmds; i++)
			if (res->cmds[i].kind == CMD_COMMIT)
				commit = res->cmds[i].text;
		if (nonces && commit != NULL) {
			unsigned char ch[LEDGER_HASH];

			if (ledger_unhex(commit, ch, LEDGER_HASH) != 0 ||
			    store_nonce_commit_set(r->st, g.id, step,
			    in->player_id, ch, in->e) != 0)
				goto out;
			in->committed = 1;
		}
	}
	report_clock(b, turn > 0 && turn <= b->turns ? turn : 1, clock,
	    sizeof(clock));
	if (merged) {
		if (res->set.n > 0 && battle_step_deploys(b, step))
			text_add(&t, "Your deployment for %s (game %s), %s, turn 0 "
			    "(%s) is stored.\n", b->title, g.name,
			    b->sides[side].name, clock);
		else if (res->set.n > 0)
			text_add(&t, "Your orders for %s (game %s), %s, turn %d (%s) "
			    "are stored.\n", b->title, g.name, b->sides[side].name,
			    turn, clock);
		else
			text_add(&t, "CLEAR: your orders for %s (game %s), %s, turn %d "
			    "(%s) start again from\nnothing.\n", b->title, g.name,
			    b->sides[side].name, turn, clock);
		if (clear && mr.had > 0)
			text_add(&t, "CLEAR withdrew the %d order%s stored before for "
			    "this phase.\n", mr.had, mr.had == 1 ? "" : "s");
		else if (mr.unread)
			text_add(&t, "The %d order%s stored before no longer read as "
			    "they did, so this mail's\norders replace them all.\n",
			    mr.had, mr.had == 1 ? "" : "s");
		else if (mr.had > 0)
			text_add(&t, "They were merged with the %d order%s stored "
			    "before: %d kept, %d replaced\nby this mail's.\n", mr.had,
			    mr.had == 1 ? "" : "s", mr.kept, mr.replaced);
		if (h->turn == 0 && h->turn_text[0] == '\0')
			text_add(&t, "Your mail gave no TURN, so they were taken as "
			    "your next phase, turn %d.\n", turn);
		if (step > g.step)
			text_add(&t, "They are for a later phase than the one now open "
			    "(turn %d, %s) and will be played then.\n",
			    battle_step_turn(b, g.step), referee_phase_who(b, g.step));
		if (has_standing)
			standing_note(&t, res);
		echo_lines(&t, b, res, turn, "; these lines were not taken, so what was "
		    "stored before for\ntheir units stands. Send them again, "
		    "corrected.");
		if (battle_step_deploys(b, step))
			text_add(&t, "\nYour deployment now stands as follows (%d, "
			    "\"new\" from this mail,\n\"kept\" from before):\n%s",
			    mr.now, mr.now > 0 && mr.list.s != NULL ? mr.list.s :
			    "  none: every unit stands where it is shown\n");
		else
			text_add(&t, "\nYour orders for turn %d now stand as follows "
			    "(%d, \"new\" from this mail,\n\"kept\" from before):\n%s",
			    turn, mr.now, mr.now > 0 && mr.list.s != NULL ?
			    mr.list.s : "  none: every unit holds\n");
		if (rs->preview != NULL && mr.set != NULL && mr.now > 0 &&
		    !battle_step_deploys(b, step)) {
			char warn[8192];

			if (rs->preview(b, g.step, step, mr.set, warn,
			    sizeof(warn)) > 0) {
				text_add(&t, "\nWorth a second look (as far as can be "
				    "told before the dice, on open ground):\n");
				referee_preview_text(&t, warn);
			}
		}
		if (battle_step_deploys(b, step))
			text_add(&t, "\nUnits without a DEPLOY line stand where the "
			    "battle's opening map shows\nthem. Every side deploys at "
			    "once, none seeing the other's lines; you will\nget the "
			    "report when the deployment has been played. Until then a "
			    "new mail\nchanges the lines of the units it names; CLEAR "
			    "at its top starts again.\n");
		else
			text_add(&t, "\nUnits without orders hold. You will get the "
			    "report when the phase has been\nplayed. Until then a new "
			    "mail changes the orders of the units it names and\nleaves "
			    "the rest as they are; CLEAR at its top starts again from "
			    "nothing.\n");
		if (forecast_note(in, &g, b, step, phase_errors == 0, &t) != 0)
			goto out;
		if (mr.now > 0)
			text_add(&t, "\nThis set's salt is %s.\nWith it, the leaf "
			    "in the Close notice and your report, and the game's\n"
			    "archive, anyone can check these orders were played as "
			    "sent.\n", salt_hex);
		if (nonces && commit != NULL)
			text_add(&t, "Your COMMIT is kept with them. When the Close "
			    "notice comes, reveal your\nnonce: REVEAL <your nonce>.\n");
		else if (nonces)
			text_add(&t, "This game uses nonces, and these orders carried "
			    "no COMMIT line: unless\nyou sent one for this phase on its "
			    "own, your nonce will count as absent.\nA mail with COMMIT "
			    "<the SHA-256 of a nonce of your choosing> adds one.\n");
		else if (commit != NULL || (res->ncmds > 0 &&
		    res->cmds[0].kind == CMD_COMMIT))
			text_add(&t, "This game uses no nonces: the COMMIT line was "
			    "ignored.\n");
		if (rs->words->crib != NULL) {
			char crib[8192];

			rs->words->crib(b, side, crib, sizeof(crib));
			text_add(&t, "\n%s", crib);
		}
	} else if (order_lines == 0 && has_standing) {
		int count = 0;

		if (stored_count(in, step, side, &count) != 0)
			goto out;
		standing_note(&t, res);
		text_add(&t, "Your orders for turn %d (%s) are as they were (%d "
		    "stored).\n", turn, clock, count);
		echo_lines(&t, b, res, 0, "; these lines were ignored:");
	} else if (order_lines > 0 || res->ncmds == 0) {
		int count = 0;

		if (stored_count(in, step, side, &count) != 0)
			goto out;
		if (has_standing)
			standing_note(&t, res);
		if (order_lines > 0)
			text_add(&t, "None of the order lines for the phase could be "
			    "read, so no orders were stored\nfor turn %d (%s).\n", turn,
			    clock);
		else
			text_add(&t, "Your mail has no order lines, so nothing was "
			    "stored for turn %d (%s).\n", turn, clock);
		if (count > 0)
			text_add(&t, "The %d order%s stored before for that phase "
			    "stand%s unchanged (send ORDERS to see them).\n", count,
			    count == 1 ? "" : "s", count == 1 ? "s" : "");
		else
			text_add(&t, "No orders are stored for that phase yet: if "
			    "none come, your units hold.\n");
		echo_lines(&t, b, res, 0, ":");
		/* Refused lines hold the phase back: say until when. */
		if (order_lines > 0 && step > 0 && forecast_note(in, &g, b, step,
		    0, &t) != 0)
			goto out;
		if (order_lines == 0) {
			char note[400];

			referee_operator_note(r, g.id, note, sizeof(note));
			text_add(&t, "\n%sA mail saying HELP gets the full help.\n",
			    note);
		} else
			text_add(&t, "%s", referee_help_tail);
	} else if (res->nerrors > 0)
		referee_commands_unread(&t, res);   /* beside commands */
	/* The reply to stored orders waits for its map of them, drawn once
	 * this transaction has committed (preview.c). */
	if (merged && mr.now > 0 && mr.set != NULL && rs->preview_battle != NULL &&
	    !battle_step_deploys(b, step))
		preview_hold(r, g.name, side, in->player_id, mr.set);
	if (t.len > 0 && referee_intake_reply(in, "reply", NULL, t.s) != 0) {
		preview_release(r);
		goto out;
	}
	preview_release(r);
commands:
	for (i = 0; i < res->ncmds; i++)
		if (referee_commands_run(in, &g, b, &res->cmds[i], h->turn > 0 ?
		    h->turn : 0) != 0)
			goto out;
	rc = 0;
out:
	if (gop != NULL) {
		orders_parser_limit(gop, 0, 0);
		orders_parser_deploying(gop, 0);
	}
	referee_merge_result_free(&mr);
	text_free(&t);
	battle_free(b);
	store_game_clear(&g);
	return rc;
}

static int
is_our_address(const struct referee *r, const char *addr)
{
	const char *lt = strchr(r->from, '<');
	const char *a = lt ? lt + 1 : r->from;
	size_t n = strcspn(a, ">");

	return strlen(addr) == n && strncasecmp(a, addr, n) == 0;
}

/* The address in the From header of a mail we could not parse, so that
 * even a mail too large or too broken to read gets an answer.  Reads
 * only the header block, at most 64 KiB of it. */
static int
scan_from(const char *raw, size_t len, char *out, size_t size)
{
	size_t i = 0, lim = len < 65536 ? len : 65536;

	while (i < lim) {
		const char *nl = memchr(raw + i, '\n', lim - i);
		size_t n = nl ? (size_t)(nl - (raw + i)) : lim - i;
		const char *l = raw + i;

		if (n == 0 || (n == 1 && l[0] == '\r'))
			return 0;
		if (n > 5 && strncasecmp(l, "from:", 5) == 0) {
			const char *lt = memchr(l, '<', n), *a, *z;
			size_t k;

			if (lt != NULL) {
				a = lt + 1;
				z = memchr(a, '>', n - (size_t)(a - l));
			} else {
				a = l + 5;
				while (a < l + n && isspace((unsigned char)*a))
					a++;
				z = a;
				while (z < l + n && !isspace((unsigned char)*z))
					z++;
			}
			if (z == NULL || z <= a || (size_t)(z - a) >= size)
				return 0;
			for (k = 0; a + k < z; k++)
				if ((unsigned char)a[k] <= ' ' || (unsigned char)a[k] >= 127 ||
				    strchr("<>()[],;:\\\"", a[k]))
					return 0;
			memcpy(out, a, (size_t)(z - a));
			out[z - a] = '\0';
			return strchr(out, '@') != NULL;
		}
		i += n + 1;
	}
	return 0;
}

/* 1 when the sender has sent `limit` mails or more in the past hour (and
 * sets *first when this mail is the first past the limit). */
static int
rate_limited(struct intake *in, int *first)
{
	char v[32];
	int64_t n = 0;
	long limit;

	*first = 0;
	if (in->sender == NULL)
		return 0;
	if (referee_setting_get(in->r, 0, "rate-limit", v, sizeof(v),
	    in->e) != 0)
		return -1;
	limit = strtol(v, NULL, 10);
	if (limit <= 0)
		return 0;
	/* Counting stops past the limit, so a flood costs no more. */
	if (store_messages_from(in->r->st, in->sender,
	    referee_now(in->r) - 3600, (int64_t)limit + 1, &n, in->e) != 0)
		return -1;
	*first = n == limit;
	return n >= limit;
}

int
referee_submit(struct referee *r, const char *raw, size_t len,
    const char *envelope_sender, struct submit_result *res, struct err *e)
{
	return referee_submit_at(r, raw, len, envelope_sender, 0, res, e);
}

int
referee_submit_at(struct referee *r, const char *raw, size_t len,
    const char *envelope_sender, int64_t arrived, struct submit_result *res,
    struct err *e)
{
	struct intake in;
	struct orders_header h;
	struct orders_cmd bare;
	struct orders_parser *op = NULL;
	struct orders_result *ores = NULL;
	char from_scan[256];
	int seen, rc = -1, first, limited, jobs_before = r->njobs;

	memset(&in, 0, sizeof(in));
	memset(res, 0, sizeof(*res));
	/* Its battle is read once for the intake and the reply's map. */
	referee_battles_keep(r);
	in.r = r;
	in.raw = raw;
	in.len = len;
	in.res = res;
	in.e = e;
	in.side = -1;
	in.arrived = arrived;
	crypto_hash_sha256(in.sha, (const unsigned char *)raw, len);
	{
		struct err pe;

		err_clear(&pe);
		if (mail_parse(raw, len, &in.m, &pe) != 0) {
			in.m = NULL;
			set_status(&in, "unreadable", "%s", pe.msg);
		}
	}
	memset(&h, 0, sizeof(h));
	if (in.m != NULL) {
		op = referee_parser(r, ruleset_all()[0], e);
		if (op == NULL)
			goto out;
		orders_find_header(op, in.m->subject, in.m->body, &h);
		in.op = op;
		snprintf(in.secret, sizeof(in.secret), "%s", h.secret);
	}
	/* From here on nothing we keep or send holds a secret. */
	if (make_stored_copy(&in) != 0)
		goto out;
	if (in.m != NULL) {
		char subj[sizeof(in.subject_re) - 8];
		const char *ms = in.m->subject ? in.m->subject : "your orders";
		size_t n = strlen(ms);

		in.reply_to = in.m->reply_to ? in.m->reply_to : in.m->from_addr;
		/* A long subject is cut at a character boundary. */
		if (n >= sizeof(subj)) {
			n = sizeof(subj) - 1;
			while (n > 0 && ((unsigned char)ms[n] & 0xc0) == 0x80)
				n--;
		}
		memcpy(subj, ms, n);
		subj[n] = '\0';
		snprintf(in.subject_re, sizeof(in.subject_re), "%s%s",
		    strncasecmp(subj, "Re:", 3) == 0 ? "" : "Re: ", subj);
	}
	if (in.reply_to == NULL)
		in.reply_to = envelope_sender;
	in.sender = in.m != NULL && in.m->from_addr != NULL ? in.m->from_addr :
	    envelope_sender;
	if (in.m == NULL && in.sender == NULL &&
	    scan_from(raw, len, from_scan, sizeof(from_scan)))
		in.sender = from_scan;
	if (store_begin(r->st, e) != 0)
		goto out;
	seen = store_message_seen(r->st, in.m ? in.m->message_id : NULL, in.sha, e);
	if (seen < 0)
		goto fail;
	if (seen) {
		res->outcome = SUBMIT_DUPLICATE;
		set_status(&in, "duplicate", "already stored (same Message-ID or "
		    "the same bytes); not stored or answered again");
		store_rollback(r->st);
		rc = 0;
		goto out;
	}
	limited = rate_limited(&in, &first);
	if (limited < 0)
		goto fail;
	if (limited) {
		int automatic = in.m != NULL && (in.m->auto_submitted ||
		    in.m->via_list);

		set_status(&in, "rate-limited", "more mail from %s in the past "
		    "hour than the limit: stored, not read or answered", in.sender);
		if (store_msg(&in, NULL) != 0)
			goto fail;
		if (first && !automatic && (in.m == NULL ||
		    !is_our_address(r, in.sender))) {
			char body[800];

			snprintf(body, sizeof(body), "This server has had more mail "
			    "from your address in the past hour than it answers.\n"
			    "This mail and those that follow it within the hour are "
			    "kept for the\noperator, but they are not read and not "
			    "answered, and you will get\nno further notice. If your "
			    "mail program is sending the same mail again\nand again, "
			    "please stop it; then wait an hour and send your orders "
			    "once.\n");
			if (referee_queue_mail(r, 0, NULL, in.sender, in.m ?
			    in.subject_re :
			    "Too much mail", "notice", in.m ? in.m->message_id : NULL,
			    body, e) != 0 && e->kind == ERR_TEMP)
				goto fail;
			err_clear(e);
		}
	} else if (in.m == NULL) {
		/* Unreadable: keep the bytes, answer if we know whom. */
		if (store_msg(&in, NULL) != 0)
			goto fail;
		if (in.sender != NULL && !is_our_address(r, in.sender)) {
			char body[1600];

			snprintf(body, sizeof(body), "Your mail could not be read: %s.\n"
			    "This server reads mails of at most %u KiB in all, with "
			    "at most %u KiB of text\nonce decoded. It was kept for the "
			    "operator, but no orders were taken from it.\nSend your "
			    "orders as plain text, without large attachments or "
			    "pasted logs.\n%s", res->note, MAIL_RAW_MAX / 1024,
			    MAIL_BODY_MAX / 1024, referee_help_tail);
			if (referee_queue_mail(r, 0, NULL, in.sender,
			    "Your mail could not be "
			    "read", "reply", NULL, body, e) != 0) {
				if (e->kind == ERR_TEMP)
					goto fail;
				err_clear(e);
			}
		}
	} else if (in.m->auto_submitted) {
		set_status(&in, "ignored", "automatic mail (auto-reply, bounce or "
		    "list): stored, not answered");
		if (store_msg(&in, NULL) != 0)
			goto fail;
	} else if (!h.found && referee_list_ignored(&in)) {
		if (store_msg(&in, NULL) != 0)
			goto fail;
	} else if (in.reply_to != NULL && is_our_address(r, in.reply_to)) {
		set_status(&in, "ignored", "mail from our own address: stored, not "
		    "answered");
		if (store_msg(&in, NULL) != 0)
			goto fail;
	} else if (!h.found || (h.secret[0] == '\0' &&
	    referee_secret_headed(op, in.m->body, &h, &bare) == CMD_SECRET)) {
		/* The commands a mail without the header (or its secret:
		 * SECRET) may give. */
		int kind = h.found ? CMD_SECRET : orders_bare_command(op,
		    in.m->body, &bare);

		if (kind == CMD_HELP || kind == CMD_LIST || kind == CMD_JOIN ||
		    kind == CMD_SECRET || kind == CMD_HISTORY) {
			set_status(&in, "commands", "%s without a %s%s",
			    orders_cmd_word((enum orders_cmd_kind)kind), h.found ?
			    "secret" : "header",
			    bare.line == -1 ? ", written wrong" : "");
			if (store_msg(&in, NULL) != 0 ||
			    referee_commands_bare(&in, &bare) != 0)
				goto fail;
		} else {
			set_status(&in, "no-header", "no GAME line");
			if (store_msg(&in, NULL) != 0 ||
			    referee_commands_no_header(&in) != 0)
				goto fail;
		}
	} else {
		ores = malloc(sizeof(*ores));
		if (ores == NULL) {
			err_set(e, ERR_INTERNAL, "out of memory");
			goto fail;
		}
		if (handle_header(&in, &h, ores) != 0)
			goto fail;
	}
	crash_point("intake-stored");
	if (store_commit(r->st, e) != 0)
		goto fail;
	crash_point("intake-committed");
	res->replies = in.replies;
	rc = 0;
	/* Out of every transaction (not in a batch): draw the maps now. */
	if (!store_in_tx(r->st)) {
		referee_previews_flush(r);
		referee_vacuum_due(r);
	}
	goto out;
fail:
	store_rollback(r->st);
	r->vacuum_due = 0;
	referee_previews_drop(r, jobs_before);
out:
	sodium_memzero(&h, sizeof(h));
	sodium_memzero(in.secret, sizeof(in.secret));
	free(ores);
	free(in.stored);
	mail_msg_free(in.m);
	referee_battles_drop(r);
	return rc;
}

int
referee_batch_begin(struct referee *r, struct err *e)
{
	if (store_begin(r->st, e) != 0)
		return -1;
	/* The battles read are kept for the batch's mails and maps. */
	referee_battles_keep(r);
	return 0;
}

int
referee_batch_commit(struct referee *r, struct err *e)
{
	if (store_commit(r->st, e) != 0) {
		r->vacuum_due = 0;
		referee_previews_drop(r, 0);
		referee_battles_drop(r);
		return -1;
	}
	crash_point("batch-committed");
	referee_previews_flush(r);
	referee_battles_drop(r);
	referee_vacuum_due(r);
	return 0;
}

void
referee_batch_abort(struct referee *r)
{
	r->vacuum_due = 0;
	store_rollback(r->st);
	referee_previews_drop(r, 0);
	referee_battles_drop(r);
}
