/*
 * intake.c - one incoming mail: stored, read, answered.
 *
 * Workload: one call per mail from the MTA pipe or a mailbox poll.  The
 * mail is parsed, a copy without secrets is stored, and the answer is
 * queued, all in one transaction.  A player's mistake is always answered,
 * never bounced; only a failure to store (ERR_TEMP) leaves the caller with
 * an error, so the MTA retries.
 */
#include "referee/referee.h"

#include <sodium.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/dice.h"
#include "core/ruleset.h"
#include "ledger/ledger.h"
#include "mail/mail.h"
#include "orders/orders.h"
#include "report/report.h"
#include "scenario/scenario.h"
#include "referee/internal.h"

/* --- submit ---------------------------------------------------------- */

struct intake {
	struct referee *r;
	const char *raw;
	size_t len;
	unsigned char sha[32];
	struct mail_msg *m;
	const char *reply_to;
	struct submit_result *res;
	struct err *e;
	char *stored;           /* raw with the secret blanked */
	size_t stored_len;
	int64_t game_id;
	int64_t player_id;
	int64_t msg_row;        /* the stored message's row */
	int step;
	char game[64];
	char subject_re[300];
	char secret[128];       /* the secret as typed, "" if none */
	const char *sender;     /* From (or the envelope sender): who wrote */
};

static void
set_status(struct intake *in, const char *status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
set_status(struct intake *in, const char *status, const char *fmt, ...)
{
	va_list ap;

	snprintf(in->res->status, sizeof(in->res->status), "%s", status);
	va_start(ap, fmt);
	vsnprintf(in->res->note, sizeof(in->res->note), fmt, ap);
	va_end(ap);
}

/* Stores the message row with the current status. */
static int
store_msg(struct intake *in, int64_t *id)
{
	int rc = store_message_insert(in->r->st, in->m ? in->m->message_id : NULL,
	    in->sha, in->sender, in->m ? in->m->subject : NULL, in->game_id,
	    in->player_id, in->step, in->res->status, in->res->note,
	    in->stored, in->stored_len, referee_now(in->r), &in->msg_row, in->e);

	if (id != NULL)
		*id = in->msg_row;
	return rc;
}

/* Queues our answer.  An answer that cannot be written (an address or a
 * Message-ID our composer refuses) must not cost the player the mail we
 * stored: only a passing failure undoes the intake; any other is noted
 * on the stored message and the mail stays stored, unanswered. */
static int
reply(struct intake *in, const char *body)
{
	if (in->reply_to == NULL || in->m == NULL || in->m->auto_submitted)
		return 0;
	if (queue_mail(in->r, in->game_id, in->game[0] ? in->game : NULL,
	    in->reply_to, in->subject_re, "reply", in->m->message_id, body,
	    in->e) == 0)
		return 0;
	if (in->e->kind == ERR_TEMP)
		return -1;
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
		snprintf(in->res->note, sizeof(in->res->note),
		    "stored, not answered: %s", why);
	}
	err_clear(in->e);
	if (in->msg_row != 0)
		return store_exec(in->r->st, in->e, "UPDATE messages SET note = ? "
		    "WHERE id = ?", "ti", in->res->note, in->msg_row);
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
		if (n > 0 && store_server_key(in->r->st, "secret-hash", key,
		    in->e) != 0) {
			free(hashes);
			return -1;
		}
		redact_known(in->stored, in->stored_len, hashes, n, key);
		if (in->m != NULL) {
			if (in->m->subject != NULL)
				redact_known(in->m->subject, strlen(in->m->subject),
				    hashes, n, key);
			redact_known(in->m->body, in->m->body_len, hashes, n, key);
		}
		sodium_memzero(key, sizeof(key));
		free(hashes);
	}
	redact(in->stored, in->stored_len, in->secret);
	if (in->m == NULL)
		return 0;
	if (in->m->subject != NULL)
		redact(in->m->subject, strlen(in->m->subject), in->secret);
	redact(in->m->body, in->m->body_len, in->secret);
	encoded = has_ci(in->raw, in->len, "base64") ||
	    has_ci(in->raw, in->len, "quoted-printable") ||
	    has_ci(in->raw, in->len, "=?");
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
		char *nb = malloc(cap), *o;
		size_t i = 0;
		int skipping = 0;

		if (nb == NULL)
			return err_set(in->e, ERR_INTERNAL, "out of memory");
		o = nb;
		/* The header block without its Subject (and folded lines). */
		while (i < hdr) {
			const char *nl = memchr(in->stored + i, '\n', hdr - i);
			size_t l = nl ? (size_t)(nl - (in->stored + i)) + 1 : hdr - i;

			if (in->stored[i] != ' ' && in->stored[i] != '\t')
				skipping = (l >= 8 &&
				    strncasecmp(in->stored + i, "subject:", 8) == 0) ||
				    (l >= 8 && strncasecmp(in->stored + i, "content-",
				    8) == 0) || (l >= 13 && strncasecmp(in->stored + i,
				    "mime-version:", 13) == 0);
			if (!skipping) {
				memcpy(o, in->stored + i, l);
				o += l;
			}
			i += l;
		}
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

int
step_for(const struct battle *b, int turn, int side)
{
	int i;

	if (b->sequence != SEQ_ALTERNATE)
		return turn;
	for (i = 0; i < b->nsides; i++)
		if (b->side_order[i] == side)
			return (turn - 1) * b->nsides + i + 1;
	return -1;
}

const char help_tail[] =
	"\nAn order mail starts with the line\n"
	"  GAME <game> SIDE <side> TURN <turn> PASSWORD <your secret>\n"
	"and then has one line a unit, for example\n"
	"  7th Foot: ADVANCE 8\n";

static int
handle_orders(struct intake *in, struct orders_header *h,
    struct orders_result *res)
{
	struct referee *r = in->r;
	struct store_game g;
	struct store_player pl[MAX_PLAYERS];
	struct battle *b = NULL;
	struct text t;
	unsigned char hash[32];
	int side, n, i, step, had = 0, rc = -1, turn;
	int64_t msg_id;
	char clock[16], earlier[256];

	memset(&g, 0, sizeof(g));
	text_init(&t, 256 * 1024);
	snprintf(in->game, sizeof(in->game), "%s", h->game);
	if (store_game_get(r->st, h->game, &g, in->e) != 0) {
		if (in->e->kind != ERR_USER)
			goto out;
		err_clear(in->e);
		in->game[0] = '\0';
		set_status(in, "unknown-game", "no game \"%s\"", h->game);
		text_add(&t, "There is no game called \"%s\" on this server, so "
		    "no orders were taken from your mail.\nCheck the GAME word in "
		    "the first line of your orders.\n%s", h->game, help_tail);
		if (store_msg(in, NULL) || reply(in, t.s))
			goto out;
		rc = 0;
		goto out;
	}
	in->game_id = g.id;
	if (store_battle_load(r->st, &g, &b, in->e) != 0)
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
		text_add(&t, ".\nNo orders were taken from your mail.\n%s", help_tail);
		rc = store_msg(in, NULL) || reply(in, t.s) ? -1 : 0;
		goto out;
	}
	n = store_players(r->st, g.id, side, pl, MAX_PLAYERS, in->e);
	if (n < 0)
		goto out;
	if (h->secret[0] != '\0' && referee_secret_hash(r, h->secret, hash,
	    in->e) != 0)
		goto out;
	for (i = 0; i < n && h->secret[0]; i++)
		if (sodium_memcmp(hash, pl[i].secret_hash, 32) == 0) {
			in->player_id = pl[i].id;
			break;
		}
	if (in->player_id == 0 && h->secret[0]) {
		/* "secret", secret. or <secret>: try it without the wrapping. */
		char bare[sizeof(h->secret)];
		size_t a = 0, z = strlen(h->secret);

		while (a < z && strchr("\"'<([", h->secret[a]))
			a++;
		while (z > a && strchr("\"'>)].,;:!", h->secret[z - 1]))
			z--;
		if (z > a && z - a < strlen(h->secret)) {
			memcpy(bare, h->secret + a, z - a);
			bare[z - a] = '\0';
			if (referee_secret_hash(r, bare, hash, in->e) != 0)
				goto out;
			for (i = 0; i < n; i++)
				if (sodium_memcmp(hash, pl[i].secret_hash, 32) == 0) {
					in->player_id = pl[i].id;
					break;
				}
			sodium_memzero(bare, sizeof(bare));
		}
	}
	if (in->player_id == 0) {
		set_status(in, "rejected", "%s secret for side %s", h->secret[0] ?
		    "wrong" : "no", b->sides[side].id);
		if (h->secret[0])
			text_add(&t, "The secret after PASSWORD does not match any "
			    "player of side %s in game %s,\nso no orders were taken "
			    "from your mail. Check it against the secret in your\n"
			    "welcome mail (letters, digits and dashes exactly as "
			    "given).\n", b->sides[side].id, g.name);
		else
			text_add(&t, "Your first line has no PASSWORD, so nothing was "
			    "stored from your mail.\nAdd the secret from your welcome "
			    "mail:\n  GAME %s SIDE %s TURN <turn> "
			    "PASSWORD <your secret>\n", g.name, b->sides[side].id);
		rc = store_msg(in, NULL) || reply(in, t.s) ? -1 : 0;
		goto out;
	}
	if (g.status == GAME_SETUP) {
		set_status(in, "rejected", "game not started");
		text_add(&t, "Game %s has not started yet, so there is no turn to "
		    "give orders for. No orders were taken;\nyou will get a welcome "
		    "mail when the game starts.\n", g.name);
		rc = store_msg(in, NULL) || reply(in, t.s) ? -1 : 0;
		goto out;
	}
	if (g.status == GAME_FINISHED) {
		set_status(in, "rejected", "game finished");
		text_add(&t, "The battle of game %s is over; no more orders are "
		    "taken.\n", g.name);
		rc = store_msg(in, NULL) || reply(in, t.s) ? -1 : 0;
		goto out;
	}
	turn = h->turn;
	if (turn == 0) {
		/* No TURN: the side's next phase that is still open. */
		for (turn = battle_step_turn(b, g.step); turn <= b->turns; turn++)
			if (step_for(b, turn, side) >= g.step)
				break;
	}
	step = turn > 0 && turn <= b->turns ? step_for(b, turn, side) : -1;
	if (step < 0) {
		set_status(in, "rejected", "bad turn %d", h->turn);
		text_add(&t, "Turn %d is not a turn of game %s, which has turns 1 "
		    "to %d. No orders were taken.\n", h->turn, g.name, b->turns);
		rc = store_msg(in, NULL) || reply(in, t.s) ? -1 : 0;
		goto out;
	}
	if (step < g.step) {
		set_status(in, "rejected", "too late for turn %d", turn);
		text_add(&t, "Your phase of turn %d has already been played, so "
		    "these orders came too late and\nno orders were taken. The open "
		    "phase is turn %d, %s.\n", turn, battle_step_turn(b, g.step),
		    b->sides[battle_step_side(b, g.step)].name);
		rc = store_msg(in, NULL) || reply(in, t.s) ? -1 : 0;
		goto out;
	}
	in->step = step;
	{
		const struct ruleset *rs = ruleset_find(g.ruleset);
		struct orders_parser *gop = rs ? orders_parser_new(rs, in->e) : NULL;

		if (gop == NULL) {
			if (rs == NULL)
				err_set(in->e, ERR_DATA, "game %s uses ruleset %s, "
				    "which this build does not have", g.name, g.ruleset);
			goto out;
		}
		orders_parse(gop, b, side, in->m->body, h->line, res);
		orders_parser_free(gop);
	}
	set_status(in, "orders", "%d order%s, %d line%s not understood",
	    res->set.n, res->set.n == 1 ? "" : "s", res->nerrors,
	    res->nerrors == 1 ? "" : "s");
	if (store_msg(in, &msg_id) != 0)
		goto out;
	if (store_orders_sender(r->st, g.id, step, side, earlier, sizeof(earlier),
	    in->e) != 0 ||
	    store_orders_supersede(r->st, g.id, step, side, &had, in->e) != 0)
		goto out;
	/* Orders replaced from another address: the side's secret is known
	 * to more than one mailbox, and the first sender should hear of it. */
	if (had > 0 && earlier[0] != '\0' && (in->sender == NULL ||
	    strcasecmp(earlier, in->sender) != 0)) {
		char note[1024], subj[256];

		snprintf(note, sizeof(note), "The orders you sent for game %s, side "
		    "%s, turn %d were replaced by a mail\nfrom %s, which gave "
		    "your side's secret. If that was not you or a fellow\nplayer "
		    "of your side, tell the operator: someone else knows the "
		    "secret.\nSend your orders again to replace theirs.\n", g.name,
		    b->sides[side].id, turn, in->sender ? in->sender :
		    "an unknown sender");
		snprintf(subj, sizeof(subj), "[%s] Your turn %d orders were replaced",
		    g.name, turn);
		if (queue_mail(r, g.id, g.name, earlier, subj, "notice", NULL, note,
		    in->e) != 0)
			goto out;
	}
	{
		int seq = 0;

		for (i = 0; i < res->nlines; i++)
			if (res->lines[i].status == ORDERS_OK &&
			    store_order_insert(r->st, g.id, step, side,
			    in->player_id, msg_id, ++seq, res->lines[i].line,
			    res->lines[i].raw, res->lines[i].text, in->e) != 0)
				goto out;
	}
	report_clock(b, turn, clock, sizeof(clock));
	text_add(&t, "Your orders for %s (game %s), %s, turn %d (%s) are "
	    "stored.\n", b->title, g.name, b->sides[side].name, turn, clock);
	if (had > 0)
		text_add(&t, "They replace the orders you sent before for this "
		    "phase.\n");
	if (h->turn == 0)
		text_add(&t, "Your first line gave no TURN, so they were taken as "
		    "your next phase, turn %d.\n", turn);
	if (step > g.step)
		text_add(&t, "They are for a later phase than the one now open "
		    "(turn %d, %s) and will be played then.\n",
		    battle_step_turn(b, g.step),
		    b->sides[battle_step_side(b, g.step)].name);
	text_add(&t, "\nUnderstood (%d):\n", res->set.n);
	if (res->set.n == 0)
		text_add(&t, "  (no orders: your units will hold)\n");
	{
		int k = 0;

		for (i = 0; i < res->nlines; i++) {
			const struct order *o;
			int st;

			if (res->lines[i].status != ORDERS_OK)
				continue;
			text_add(&t, "  line %-3d %s\n", res->lines[i].line,
			    res->lines[i].text);
			/* Orders that will come to nothing: say so now. */
			o = &res->set.orders[k++];
			if (!o->is_commander && battle_unit_alive(b, o->who) == 0)
				text_add(&t, "           (%s has no stands left on the "
				    "table: this order will do nothing)\n",
				    b->units[o->who].name);
			for (st = 0; st < o->nsteps; st++)
				if (o->steps[st].target >= 0 &&
				    battle_unit_alive(b, o->steps[st].target) == 0)
					text_add(&t, "           (%s is no longer on the "
					    "table)\n", b->units[o->steps[st].target].name);
		}
	}
	if (res->nerrors > 0) {
		text_add(&t, "\nNot understood (%d); these lines were ignored. To "
		    "change them, send the whole\nset again: a new mail replaces "
		    "this one.\n", res->nerrors);
		for (i = 0; i < res->nlines; i++)
			if (res->lines[i].status == ORDERS_ERROR)
				text_add(&t, "  line %-3d %s\n           %s\n",
				    res->lines[i].line, res->lines[i].raw,
				    res->lines[i].text);
		if (res->too_many)
			text_add(&t, "  (more than %d order lines: the rest were "
			    "not read)\n", ORDERS_MAX_LINES);
	}
	text_add(&t, "\nUnits without orders hold. You will get the report "
	    "when the phase has been\nplayed; until then you may send a whole "
	    "new set, which replaces this one.\n");
	if (t.over) {
		err_set(in->e, ERR_INTERNAL, "the reply is too large");
		goto out;
	}
	if (reply(in, t.s) != 0)
		goto out;
	rc = 0;
out:
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

int
referee_submit(struct referee *r, const char *raw, size_t len,
    const char *envelope_sender, struct submit_result *res, struct err *e)
{
	struct intake in;
	struct orders_header h;
	struct orders_parser *op = NULL;
	struct orders_result *ores = NULL;
	int seen, rc = -1;

	memset(&in, 0, sizeof(in));
	memset(res, 0, sizeof(*res));
	in.r = r;
	in.raw = raw;
	in.len = len;
	in.res = res;
	in.e = e;
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
		op = orders_parser_new(ruleset_all()[0], e);
		if (op == NULL)
			goto out;
		orders_find_header(op, in.m->subject, in.m->body, &h);
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
	if (in.m == NULL) {
		/* Unreadable: keep the bytes, answer if we know whom. */
		if (store_msg(&in, NULL) != 0)
			goto fail;
		if (envelope_sender != NULL) {
			char body[1200];

			snprintf(body, sizeof(body), "Your mail could not be read as a "
			    "mail message (%s), so it was kept for\nthe operator but "
			    "no orders were taken from it.\n%s", res->note, help_tail);
			snprintf(in.subject_re, sizeof(in.subject_re),
			    "Your mail could not be read");
			if (queue_mail(r, 0, NULL, envelope_sender, in.subject_re,
			    "reply", NULL, body, e) != 0) {
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
	} else if (in.reply_to != NULL && is_our_address(r, in.reply_to)) {
		set_status(&in, "ignored", "mail from our own address: stored, not "
		    "answered");
		if (store_msg(&in, NULL) != 0)
			goto fail;
	} else {
		if (!h.found) {
			char body[1200];

			set_status(&in, "no-header", "no GAME line");
			snprintf(body, sizeof(body), "I could not find the line that "
			    "names your game, so no orders were taken from\nyour mail. "
			    "This address reads only order mails; questions for the "
			    "person\nrunning the game should go to them directly.\n%s",
			    help_tail);
			if (store_msg(&in, NULL) != 0 || reply(&in, body) != 0)
				goto fail;
		} else {
			ores = malloc(sizeof(*ores));
			if (ores == NULL) {
				err_set(e, ERR_INTERNAL, "out of memory");
				goto fail;
			}
			if (handle_orders(&in, &h, ores) != 0)
				goto fail;
		}
	}
	if (store_commit(r->st, e) != 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	store_rollback(r->st);
out:
	free(ores);
	orders_parser_free(op);
	free(in.stored);
	mail_msg_free(in.m);
	return rc;
}
