/*
 * history.c - HISTORY [TURN N | N-M]: the reports a player's seat, or an
 * observer, was sent for those phases, sent again as one digest mail
 * (docs/orders.md).
 *
 * The digest is made only from the text the outbox keeps of the mails
 * queued to the asker's own address (store_outbox_sent): a player's
 * "report" mails, an observer's "observer" mails that are no longer held
 * back for the observer's delay.  So in a fog game a side gets its own
 * view and never another's, an observer nothing before its time, and no
 * digest holds a word that was not sent to that address already.
 *
 * A player is known by the header's secret, and the digest goes to the
 * registered address alone (a mail that gave the secret from elsewhere
 * is told where it went, as every answer is).  An observer writes HISTORY
 * without the header; only a mail whose answer goes back to its From is
 * answered as one (as LIST tells a player's games), and any other mail
 * gets the answer to a mail without the header, which tells nothing.
 *
 * Workload: rare, one call per HISTORY mail; it reads the subjects of
 * the asker's mails of one game and the kept text of at most
 * HISTORY_PHASES phases; it draws a map of each phase in an open game
 * or for an observer (history_maps.c, the game played again), at most
 * one in a fog game.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/mail.h"
#include "map/map.h"
#include "orders/orders.h"
#include "report/report.h"
#include "referee/internal.h"

/* The most phases one digest holds, and the most bytes of their text:
 * the rest is named with the HISTORY line that asks for it. */
#define HISTORY_PHASES    30
#define HISTORY_TEXT_MAX  (1024u * 1024u)
/* The inline map of the digest at most (a palette PNG, issue 25). */
#define HISTORY_MAP_MAX   (60u * 1024u)

/* One phase as the asker was sent it: rows first..last of the mail
 * list (a long report came in parts). */
struct phase {
	int turn;
	int first, last;
	char title[200];        /* the subject less "[game] " and the part */
};

/* The turn a report's subject names (0: a battle's deployment), and its
 * title ("Turn 2, crown phase (07:15)"); -1 when the subject is no phase
 * report's. */
static int
phase_of(const char *subject, char *title, size_t size)
{
	const char *p = strstr(subject, "] "), *part;
	char *end;
	long t;

	if (p == NULL)
		return -1;
	p += 2;
	if (strncmp(p, "Observed: ", 10) == 0)
		p += 10;
	if (strncasecmp(p, "turn ", 5) != 0)
		return -1;
	t = strtol(p + 5, &end, 10);
	/* (turn 0: a battle's deployment) */
	if (end == p + 5 || *end != ',' || t < 0 || t > 9999)
		return -1;
	part = strstr(p, " (part ");
	snprintf(title, size, "%.*s", part != NULL ? (int)(part - p) :
	    (int)strlen(p), p);
	if (title[0] >= 'a' && title[0] <= 'z')
		title[0] = (char)(title[0] - 'a' + 'A');
	return (int)t;
}

/* The step of phase ph: the one of its turn whose phasing side its title
 * names ("Turn 2, crown phase (07:15)"; "all" a phase of every side,
 * "deployment" the deployment's);
 * 0 when none is. */
static int
phase_step(const struct battle *b, const struct phase *ph)
{
	const char *p = strchr(ph->title, ','), *e;
	size_t n;
	int s, side;

	if (p == NULL || (e = strstr(p, " phase")) == NULL)
		return 0;
	p += 2;
	if (e <= p)
		return 0;
	n = (size_t)(e - p);
	for (s = 1; s <= battle_steps(b); s++) {
		if (battle_step_turn(b, s) != ph->turn)
			continue;
		side = battle_step_side(b, s);
		if (side < 0 ? battle_step_deploys(b, s) ? n == 10 &&
		    strncmp(p, "deployment", 10) == 0 : n == 3 &&
		    strncmp(p, "all", 3) == 0 :
		    strlen(b->sides[side].id) == n &&
		    strncmp(p, b->sides[side].id, n) == 0)
			return s;
	}
	return 0;
}

/* The phases of the mail list sent (n rows), those held back left out:
 * a malloc'd array of *np. */
static struct phase *
phases_read(const struct store_sent *sent, int n, int *np)
{
	struct phase *v = calloc((size_t)n + 1, sizeof(*v));
	char title[200];
	int i, k = 0, t;

	*np = 0;
	if (v == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		if (sent[i].held || (t = phase_of(sent[i].subject, title,
		    sizeof(title))) < 0)
			continue;
		/* The parts of one report follow one another. */
		if (k > 0 && v[k - 1].last == i - 1 && v[k - 1].turn == t &&
		    strcmp(v[k - 1].title, title) == 0) {
			v[k - 1].last = i;
			continue;
		}
		v[k].turn = t;
		v[k].first = v[k].last = i;
		snprintf(v[k].title, sizeof(v[k].title), "%s", title);
		k++;
	}
	*np = k;
	return v;
}

/* The text of mail id as it was sent, appended to t: the text the outbox
 * keeps of it, else (a mail queued by a despatch that kept none) the
 * body of its bytes while they are still whole. */
static int
sent_text(struct referee *r, int64_t id, struct text *t, struct err *e)
{
	struct mail_msg *m = NULL;
	struct err pe;
	char *kept = NULL, *raw = NULL;
	size_t len = 0;
	int got;

	if ((got = store_outbox_text(r->st, id, &kept, e)) < 0)
		return -1;
	if (got == 1) {
		text_add(t, "%s", kept);
		free(kept);
		return 0;
	}
	err_clear(&pe);
	if ((got = store_outbox_raw(r->st, id, &raw, &len, e)) < 0)
		return -1;
	if (got == 1 && mail_parse(raw, len, &m, &pe) == 0 && m->body != NULL)
		text_add(t, "%s", m->body);
	else
		text_add(t, "(The text of this mail is no longer kept.)\n");
	mail_msg_free(m);
	free(raw);
	return 0;
}

/* The body of report_html's page: its content less the head and the
 * page's frame, as pointers into html; 0, or -1 when html is not laid
 * out as report_html lays it out. */
static int
html_page(const char *html, const char **from, const char **to)
{
	const char *div = strstr(html, "<div class=\"page\""), *end;

	if (div == NULL || (div = strstr(div, ">\n")) == NULL ||
	    (end = strstr(div, "</div>\n</body></html>")) == NULL)
		return -1;
	/* The last frame's end: a page holds no other. */
	while (strstr(end + 1, "</div>\n</body></html>") != NULL)
		end = strstr(end + 1, "</div>\n</body></html>");
	*from = div + 2;
	*to = end;
	return 0;
}

/* The digest's HTML: its opening lines with the map under them, then
 * each phase made HTML on its own and laid one after another, with its
 * own map (Content-ID pcid[i], "" none; pcid NULL: no phase has one)
 * under its opening lines.  One call
 * of report_html on the whole digest would not do: it folds everything
 * after the first appendix into it, and leaves out every text field
 * where an image is shown.  NULL when out of memory. */
static char *
digest_html(const char *head, const char *subject, const char *cid,
    const char *body, const size_t *cut, int ncut, char (*pcid)[96])
{
	struct text t;
	char *h = report_html(head, subject, cid, "The field after the last "
	    "phase of this digest"), *one;
	const char *a, *z;
	int i;

	if (h == NULL || html_page(h, &a, &z) != 0) {
		free(h);
		return NULL;
	}
	text_init(&t, REPORT_MAX * 2);
	text_add(&t, "%.*s", (int)(z - h), h);
	for (i = 0; i + 1 < ncut; i++) {
		char *phase = strndup(body + cut[i], cut[i + 1] - cut[i]);

		/* Each phase's own map, where there is one, under its
		 * opening lines as in its report. */
		one = phase != NULL ? report_html(phase, subject, pcid != NULL &&
		    pcid[i][0] != '\0' ? pcid[i] : NULL, "The field after this "
		    "phase") : NULL;
		free(phase);
		if (one == NULL || html_page(one, &a, &z) != 0) {
			free(one);
			free(h);
			text_free(&t);
			return NULL;
		}
		text_add(&t, "<hr style=\"margin:24px 0;border:0;border-top:2px "
		    "solid #999\">\n%.*s", (int)(z - a), a);
		free(one);
	}
	html_page(h, &a, &z);
	text_add(&t, "%s", z);
	free(h);
	if (t.over || t.s == NULL) {
		text_free(&t);
		return NULL;
	}
	return t.s;
}

/* Who asks and what they may be sent. */
struct asker {
	const char *to;         /* where the digest goes */
	const char *kind;       /* the outbox kind of the mails to resend */
	int side;               /* the player's side, -1 an observer */
	int64_t player;
};

/* The map of the field now, as the asker may see it: their side's view
 * (and its last sightings) in a fog game, the whole field for an
 * observer.  A palette PNG (map_opts.compact) into *png; left out (*png
 * NULL) when it would pass HISTORY_MAP_MAX. */
static int
draw_now(struct referee *r, const struct store_game *g,
    const struct battle *b, const struct asker *a, const char *subtitle,
    unsigned char **png, size_t *len, struct err *e)
{
	struct map_opts o;
	struct sighting *last = NULL;
	unsigned char *seen = NULL;
	char title[300];
	int nlast = 0, rc = -1;
	int step = g->status == GAME_FINISHED ? g->step : g->step - 1;

	*png = NULL;
	*len = 0;
	memset(&o, 0, sizeof(o));
	snprintf(title, sizeof(title), "%s (game %s)", b->title, g->name);
	o.title = title;
	o.subtitle = subtitle;
	o.side = a->side;
	o.compact = 1;
	if (a->side >= 0 && strcmp(g->visibility, "fog") == 0) {
		if ((seen = map_seen(b, a->side)) == NULL ||
		    (last = calloc((size_t)b->nunits + 1, sizeof(*last))) == NULL) {
			err_set(e, ERR_TEMP, "out of memory drawing a map");
			goto out;
		}
		if ((nlast = store_sightings_before(r->st, g->id, a->side, step,
		    last, b->nunits, e)) < 0)
			goto out;
		o.seen = seen;
		o.last = last;
		o.nlast = nlast;
	}
	if (map_render(b, &o, 0, png, len, e) != 0)
		goto out;
	if (*len > HISTORY_MAP_MAX) {
		free(*png);
		*png = NULL;
		*len = 0;
	}
	rc = 0;
out:
	free(seen);
	free(last);
	return rc;
}

/* "HISTORY 2-4" for turns a to b, or "HISTORY TURN 2". */
static void
history_line(int a, int b, char *out, size_t size)
{
	if (a == b)
		snprintf(out, size, "HISTORY TURN %d", a);
	else
		snprintf(out, size, "HISTORY %d-%d", a, b);
}

/* Reads "all", "turn" N or "range" N-M into the turns asked for. */
static void
history_turns(const struct orders_cmd *c, int *from, int *to)
{
	*from = 0;      /* with the deployment, where there was one */
	*to = 9999;
	if (strcmp(c->arg, "turn") == 0)
		*from = *to = atoi(c->text);
	else if (strcmp(c->arg, "range") == 0 &&
	    sscanf(c->text, "%d-%d", from, to) != 2)
		*from = *to = atoi(c->text);
}

/* The answer when nothing sent falls in the turns asked for: which turns
 * there are, and what to write. */
static void
history_none(struct text *t, const struct store_game *g,
    const struct battle *b, const struct phase *ph, int np, int from,
    int to, int observer)
{
	int played = g->status == GAME_FINISHED ? g->step : g->step - 1;
	int at = played > 0 ? battle_step_turn(b, played) : 0;

	if (np == 0)
		text_add(t, "No report of game %s has been sent to you yet: the "
		    "first comes when the\nfirst phase has been played.\n",
		    g->name);
	else if (from > at && from <= b->turns)
		text_add(t, "Turn %d of game %s has not been played yet. The "
		    "reports sent to you are\nof turns %d to %d (the battle has "
		    "%d turns).\n", from, g->name, ph[0].turn, ph[np - 1].turn,
		    b->turns);
	else if (from > b->turns)
		text_add(t, "Game %s has no turn %d: its battle has %d turns, and "
		    "the reports sent to\nyou are of turns %d to %d.\n", g->name,
		    from, b->turns, ph[0].turn, ph[np - 1].turn);
	else
		text_add(t, "No report of turns %d to %d of game %s was sent to "
		    "you. The reports sent\nto you are of turns %d to %d.\n", from,
		    to, g->name, ph[0].turn, ph[np - 1].turn);
	if (observer)
		text_add(t, "An observer's reports come some phases after they "
		    "are played, as the operator\nset it, and every one once the "
		    "battle is over.\n");
	text_add(t, "\nWrite HISTORY for every phase sent to you (at most %d a "
	    "mail), HISTORY TURN 2\nfor one turn, or HISTORY 2-4 for turns 2 to "
	    "4.\n", HISTORY_PHASES);
}

/* Sets the phases of the digest: from k0, at most HISTORY_PHASES of
 * them before *k1, never ending inside a turn (unless one turn alone is
 * all there is), so that the HISTORY line for the rest starts at a
 * turn. */
static void
history_cap(const struct phase *ph, int k0, int *k1)
{
	int end = *k1;

	if (end - k0 <= HISTORY_PHASES)
		return;
	end = k0 + HISTORY_PHASES;
	while (end > k0 + 1 && ph[end].turn == ph[end - 1].turn)
		end--;
	*k1 = end;
}

/* The digest of the phases of turns from..to that a (of game g) was sent,
 * queued to a->to; or, when none is, the answer that says so. */
static int
history_send(struct intake *in, const struct store_game *g,
    const struct battle *b, const struct asker *a, int from, int to)
{
	struct store_sent *sent = NULL;
	struct phase *ph = NULL;
	struct text t, head;
	struct mail_extra x;
	struct mail_part part[HISTORY_PHASES + 1];
	unsigned char *png = NULL, *pmap[HISTORY_PHASES];
	size_t pmlen[HISTORY_PHASES];
	char pcid[HISTORY_PHASES][96], pname[HISTORY_PHASES][96];
	int nmaps = 0;
	size_t cut[HISTORY_PHASES + 1], plen = 0;
	char subj[200], format[16] = "html", line[40], *html = NULL;
	int n = 0, np = 0, i, k0, k1, k, rc = -1, draw, left = 0, last = 0;

	text_init(&t, HISTORY_TEXT_MAX + 64 * 1024);
	text_init(&head, 8192);
	memset(&x, 0, sizeof(x));
	memset(pmap, 0, sizeof(pmap));
	memset(pcid, 0, sizeof(pcid));
	if (store_outbox_sent(in->r->st, g->id, a->to, a->kind, &sent, &n,
	    in->e) != 0)
		goto out;
	if ((ph = phases_read(sent, n, &np)) == NULL) {
		err_set(in->e, ERR_TEMP, "out of memory");
		goto out;
	}
	for (k0 = 0; k0 < np && ph[k0].turn < from; k0++)
		;
	for (k1 = k0; k1 < np && ph[k1].turn <= to; k1++)
		;
	snprintf(subj, sizeof(subj), "[%s] HISTORY", g->name);
	if (k0 == k1) {
		history_none(&t, g, b, ph, np, from, to, a->side < 0);
		rc = t.s == NULL ? err_set(in->e, ERR_TEMP, "out of memory") :
		    referee_intake_queue(in, a->to, "reply", subj, t.s);
		goto out;
	}
	history_cap(ph, k0, &k1);
	for (k = k0; k < k1; k++) {
		cut[k - k0] = t.len;
		text_add(&t, "===== %s =====\n\n", ph[k].title);
		for (i = ph[k].first; i <= ph[k].last; i++)
			if (sent_text(in->r, sent[i].id, &t, in->e) != 0)
				goto out;
		text_add(&t, "\n");
		if ((t.len > HISTORY_TEXT_MAX || t.over) && k > k0) {
			/* Too long: this phase's turn waits for the next mail,
			 * as the phases past the cap do. */
			int turn = ph[k].turn;

			while (k > k0 + 1 && ph[k - 1].turn == turn)
				k--;
			t.len = cut[k - k0];
			t.s[t.len] = '\0';
			t.over = 0;
			k1 = k;
			break;
		}
	}
	cut[k1 - k0] = t.len;
	if (t.over)   /* one phase alone is over the cap: said, not hidden */
		text_add(&head, "(The report of %s is longer than one mail holds: "
		    "its end was left out.)\n", ph[k0].title);
	for (k = k1; k < np && ph[k].turn <= to; k++) {
		left++;
		last = ph[k].turn;
	}
	text_add(&head, "The reports of game %s (%s) sent to %s, again as you "
	    "asked:\n%d %s, turn %d to turn %d.\n", g->name, b->title,
	    a->side >= 0 ? "you" : "you as an observer", k1 - k0,
	    report_plural(k1 - k0, "phase", "phases"), ph[k0].turn,
	    ph[k1 - 1].turn);
	if (left > 0) {
		history_line(ph[k1].turn, last, line, sizeof(line));
		text_add(&head, "\nOne mail holds at most %d phases and %u KB of "
		    "text: the %d %s after\nthese (turn %d to turn %d) %s left "
		    "out. For %s write\n  %s\n", HISTORY_PHASES,
		    HISTORY_TEXT_MAX / 1024, left,
		    report_plural(left, "phase", "phases"), ph[k1].turn, last,
		    left == 1 ? "was" : "were", left == 1 ? "it" : "them", line);
	}
	text_add(&head, "\n");
	if (a->side >= 0 && referee_player_mail_format(in->r, a->player,
	    format, sizeof(format), in->e) != 0)
		goto out;
	/* In an open game, and for an observer, the field after each
	 * phase, drawn again from the signed states (history_maps.c). */
	if (strcmp(format, "text") != 0 && (a->side < 0 ||
	    strcmp(g->visibility, "fog") != 0)) {
		int steps[HISTORY_PHASES];
		const char *subs[HISTORY_PHASES];

		for (k = k0; k < k1; k++) {
			steps[k - k0] = phase_step(b, &ph[k]);
			subs[k - k0] = ph[k].title;
		}
		/* A game whose archive cannot be played again here (a step of
		 * an engine this build does not replay, a damaged ledger) gets
		 * its digest without maps; out of memory, a retry. */
		if (referee_phase_maps(in->r, g, steps, subs, k1 - k0, a->side,
		    HISTORY_MAP_MAX, pmap, pmlen, in->e) != 0) {
			if (in->e->kind == ERR_TEMP)
				goto out;
			err_clear(in->e);
		}
		for (k = 0; k < k1 - k0; k++) {
			if (pmap[k] == NULL)
				continue;
			snprintf(pcid[k], sizeof(pcid[k]), "map.%.60s-h%d@despatch",
			    g->name, k + 1);
			snprintf(pname[k], sizeof(pname[k]), "%.60s-history-%d.png",
			    g->name, k + 1);
			part[nmaps++] = (struct mail_part){ "image/png", pname[k],
			    pcid[k], pmap[k], pmlen[k] };
		}
	}
	/* Else (a fog game's side) one map, of the last phase in the
	 * digest, and only when that is the last phase played and sent: the
	 * side's sightings of earlier phases are not kept, so an earlier
	 * map could not be the one the side saw.  Each report's text keeps
	 * its own field drawn in letters. */
	draw = k1 == np && nmaps == 0 && a->side >= 0 &&
	    strcmp(g->visibility, "fog") == 0;
	for (i = 0; i < n && draw; i++)
		if (sent[i].held)
			draw = 0;   /* an observer's phase not yet due */
	{
		int played = g->status == GAME_FINISHED ? g->step : g->step - 1;

		if (draw && (played < 1 || ph[np - 1].turn !=
		    battle_step_turn(b, played)))
			draw = 0;
	}
	if (draw && strcmp(format, "text") != 0) {
		char sub[260];

		snprintf(sub, sizeof(sub), "After %s%s%s", ph[np - 1].title,
		    a->side >= 0 ? ": as seen by " : "",
		    a->side >= 0 ? b->sides[a->side].id : "");
		if (draw_now(in->r, g, b, a, sub, &png, &plen, in->e) != 0)
			goto out;
	}
	snprintf(subj, sizeof(subj), "[%s] HISTORY, turn %d to turn %d (%d %s)",
	    g->name, ph[k0].turn, ph[k1 - 1].turn, k1 - k0,
	    report_plural(k1 - k0, "phase", "phases"));
	if (head.s == NULL || t.s == NULL) {
		err_set(in->e, ERR_TEMP, "out of memory");
		goto out;
	}
	{
		struct text all;

		text_init(&all, HISTORY_TEXT_MAX + 128 * 1024);
		text_add(&all, "%s%s", head.s, t.s);
		if ((png != NULL || nmaps > 0) && all.s != NULL) {
			for (k = 0; k <= k1 - k0; k++)
				cut[k] += head.len;
			if (png != NULL) {
				snprintf(x.cid, sizeof(x.cid), "map.%.60s-history@"
				    "despatch", g->name);
				snprintf(x.png, sizeof(x.png), "%.60s-history.png",
				    g->name);
				part[nmaps++] = (struct mail_part){ "image/png", x.png,
				    x.cid, png, plen };
			}
			html = digest_html(head.s, subj, png != NULL ? x.cid : NULL,
			    all.s, cut, k1 - k0 + 1, png != NULL ? NULL : pcid);
			x.html = html;
			x.parts = part;
			x.nparts = nmaps;
		}
		rc = all.s == NULL ? err_set(in->e, ERR_TEMP, "out of memory") :
		    referee_queue_mail_x(in->r, g->id, g->name, a->to, subj,
		    "reply", in->m != NULL ? in->m->message_id : NULL, all.s,
		    html != NULL ? &x : NULL, 0, in->e);
		if (rc == 0) {
			in->replies++;
		} else if (in->e->kind != ERR_TEMP) {
			/* A digest that cannot be written would fail the same
			 * on every retry: the text alone, else the mail noted
			 * as unanswered (referee_intake_queue). */
			err_clear(in->e);
			rc = referee_intake_queue(in, a->to, "reply", subj, all.s);
		}
		text_free(&all);
	}
out:
	free(html);
	free(png);
	for (k = 0; k < HISTORY_PHASES; k++)
		free(pmap[k]);
	free(ph);
	free(sent);
	text_free(&head);
	text_free(&t);
	return rc;
}

/* Contract (internal.h). */
int
referee_commands_history(struct intake *in, struct store_game *g,
    struct battle *b, const struct orders_cmd *c)
{
	struct asker a;
	char subj[128], body[400];
	int from, to;

	if (in->m == NULL || in->m->auto_submitted)
		return 0;   /* as every answer: none to a machine */
	memset(&a, 0, sizeof(a));
	a.to = in->registered;
	a.kind = "report";
	a.side = in->side;
	a.player = in->player_id;
	history_turns(c, &from, &to);
	if (history_send(in, g, b, &a, from, to) != 0)
		return -1;
	/* The reports go to the player's own address alone; a mail that
	 * gave the secret from elsewhere, or asked for answers elsewhere, is
	 * told so (and the player, by referee_intake_reply, of it). */
	if (in->m->via_list || in->reply_to == NULL ||
	    (strcasecmp(in->reply_to, in->registered) == 0 &&
	    (in->sender == NULL || strcasecmp(in->sender, in->registered) == 0)))
		return 0;
	snprintf(subj, sizeof(subj), "[%s] HISTORY", g->name);
	snprintf(body, sizeof(body), "The reports asked for (HISTORY) went to the "
	    "address registered for this\nplayer of game %s, and to no other.\n",
	    g->name);
	return referee_intake_reply(in, "reply", subj, body);
}

/* The games address observes, their names into names (at most max):
 * how many, or -1 with e set. */
static int
observed_games(struct referee *r, const char *address, char names[][64],
    int max, struct err *e)
{
	char *all = store_game_names(r->st), *name, *save = NULL;
	int n = 0, k;

	for (name = all ? strtok_r(all, "\n", &save) : NULL; name != NULL &&
	    n < max; name = strtok_r(NULL, "\n", &save)) {
		enum game_status st;
		int64_t id = 0, step = 0;

		if (store_game_find(r->st, name, &id, &st, &step, e) < 0 ||
		    (k = referee_observes(r, id, address, e)) < 0) {
			free(all);
			return -1;
		}
		if (k)
			snprintf(names[n++], 64, "%s", name);
	}
	free(all);
	return n;
}

/* Which of the n games the Subject names: "[game]" as the server's
 * mails have it, or the name as a word.  Its index, or -1 (none, or
 * more than one). */
static int
subject_game(const char *subject, char names[][64], int n)
{
	size_t len, k, sl = subject != NULL ? strlen(subject) : 0;
	int i, found = -1;

	for (i = 0; i < n; i++) {
		len = strlen(names[i]);
		for (k = 0; k + len <= sl; k++)
			if (strncasecmp(subject + k, names[i], len) == 0 &&
			    (k == 0 || !isalnum((unsigned char)subject[k - 1])) &&
			    !isalnum((unsigned char)subject[k + len]) &&
			    subject[k + len] != '-')
				break;
		if (k + len > sl)
			continue;
		if (found >= 0)
			return -1;
		found = i;
	}
	return found;
}

#define OBSERVED_MAX 32

/* Contract (internal.h). */
int
referee_commands_history_bare(struct intake *in, const struct orders_cmd *c)
{
	struct referee *r = in->r;
	struct store_game g;
	struct battle *b = NULL;
	struct asker a;
	struct text t;
	char names[OBSERVED_MAX][64];
	int n = 0, i, from, to, rc = -1;

	/* Only a mail whose answer goes back to its From is taken for the
	 * observer's own: a forged From learns nothing, not even that the
	 * address observes a game. */
	if (in->sender != NULL && in->reply_to != NULL &&
	    strcasecmp(in->sender, in->reply_to) == 0 &&
	    (n = observed_games(r, in->sender, names, OBSERVED_MAX,
	    in->e)) < 0)
		return -1;
	if (n == 0)
		return referee_commands_no_header(in);
	i = n == 1 ? 0 : subject_game(in->m->subject, names, n);
	if (i < 0) {
		text_init(&t, ANSWER_MAX);
		text_add(&t, "You observe %d games on this server:", n);
		for (i = 0; i < n; i++)
			text_add(&t, "%s %s", i ? "," : "", names[i]);
		text_add(&t, ".\nName the one you mean in the Subject of your "
		    "HISTORY mail, for example\n  Subject: %s\n(a reply to one of "
		    "its mails has it already).\n", names[0]);
		rc = t.s == NULL ? err_set(in->e, ERR_TEMP, "out of memory") :
		    referee_intake_reply(in, "reply", "[despatch] HISTORY", t.s);
		text_free(&t);
		return rc;
	}
	memset(&g, 0, sizeof(g));
	if (store_game_get(r->st, names[i], &g, in->e) != 0 ||
	    referee_battle_load(r, &g, &b, in->e) != 0)
		goto out;
	snprintf(in->game, sizeof(in->game), "%s", g.name);
	in->game_id = g.id;
	memset(&a, 0, sizeof(a));
	a.to = in->reply_to;
	a.kind = "observer";
	a.side = -1;
	history_turns(c, &from, &to);
	rc = history_send(in, &g, b, &a, from, to);
out:
	battle_free(b);
	store_game_clear(&g);
	return rc;
}
