/*
 * visuals.c - what a report mail carries beside its text: the map of what
 * the reader's side can see, the HTML that shows it, and the side's JSON
 * report, as each player chose with SET MAIL (see internal.h).
 *
 * A map takes some tens of milliseconds to draw, so the turn draws each
 * side's once and every player of the side gets the same bytes; and
 * only what some player's format needs: the cropped inline map for HTML
 * and FULL, the whole field in colour, SVG and JSON for FULL alone.
 *
 * A welcome's map is of the field as the scenario sets it out, which
 * never changes: it is queued as text with outbox.draw 'start', and
 * drawn when the mail is sent (referee_mail_drawn), so a new game's
 * queued welcomes do not hold a map each in the database.
 */
#include <sodium.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/mail.h"
#include "scenario/scenario.h"
#include "map/map.h"
#include "report/report.h"
#include "referee/internal.h"

int
referee_player_mail_format(struct referee *r, int64_t player, char *buf,
    size_t size,
    struct err *e)
{
	int got = store_player_mail_format(r->st, player, buf, size, e);

	if (got < 0)
		return -1;
	if (got == 0)
		snprintf(buf, size, "html");
	return 0;
}

void
referee_start_subtitle(const struct battle *b, int side, const char *clock,
    char *out, size_t size)
{
	if (battle_deploy_steps(b) > 0)
		snprintf(out, size, "The deployment (turn 0, %s): as %s sees it, "
		    "with the ground it may deploy on", clock, b->sides[side].id);
	else
		snprintf(out, size, "Before turn 1 (%s): as %s sees it", clock,
		    b->sides[side].id);
}

int
referee_side_visuals_make(struct side_visuals *v, const struct store_game *g,
    const struct battle *b, int side, const unsigned char *seen,
    const char *subtitle, const struct events *ev,
    const struct narrative *nar, int step,
    const struct pt *from, const unsigned char *from_ok,
    const struct sighting *last, int nlast, const char *format,
    struct err *e)
{
	struct map_opts o;
	char title[400];

	if (strcmp(format, "text") == 0)
		return 0;
	snprintf(title, sizeof(title), "%s (game %s)", b->title, g->name);
	memset(&o, 0, sizeof(o));
	o.title = title;
	o.subtitle = subtitle;
	o.seen = seen;
	o.side = side;
	o.from = from;
	o.from_ok = from_ok;
	o.ev = ev;
	o.last = last;
	o.nlast = nlast;
	/* On the map of the start (the welcome's, step 0) of a battle that
	 * deploys: where the side may deploy. */
	o.zones = battle_deploy_steps(b) > 0 && step == 0;
	/* The inline map: the side's part of the field, in a palette. */
	o.compact = 1;
	o.crop = 1;
	if (v->inline_png == NULL && map_render(b, &o, 0, &v->inline_png,
	    &v->inline_len, e) != 0) {
		referee_side_visuals_free(v);
		return -1;
	}
	/* The whole field in full colour, as SVG and JSON: only FULL
	 * attaches them, and they took three quarters of a mail's time. */
	if (strcmp(format, "full") != 0 || v->png != NULL)
		return 0;
	o.compact = 0;
	o.crop = 0;
	if (map_render(b, &o, 0, &v->png, &v->png_len, e) != 0 ||
	    map_render(b, &o, 1, &v->svg, &v->svg_len, e) != 0) {
		referee_side_visuals_free(v);
		return -1;
	}
	if (ev != NULL) {
		struct report_game rg;

		rg.name = g->name;
		rg.status = store_status_name(g->status);
		rg.visibility = g->visibility;
		rg.sandbox = g->sandbox;
		rg.step = g->step;
		rg.result = g->result;
		rg.nar = nar;
		v->json = report_json_side(&rg, b, side, seen, ev, step, last,
		    nlast, &v->json_len);
		if (v->json == NULL) {
			referee_side_visuals_free(v);
			return err_set(e, ERR_TEMP, "out of memory writing the JSON "
			    "report");
		}
	}
	return 0;
}

void
referee_side_visuals_free(struct side_visuals *v)
{
	free(v->png);
	free(v->inline_png);
	free(v->svg);
	free(v->json);
	memset(v, 0, sizeof(*v));
}

int
report_extra(const char *format, const char *body, const char *title,
    const struct side_visuals *v, const char *name,
    struct mail_part *parts, struct mail_extra *x, char **html,
    struct err *e)
{
	int n = 0;

	memset(x, 0, sizeof(*x));
	*html = NULL;
	if (strcmp(format, "text") == 0 || v == NULL || v->inline_png == NULL)
		return 0;
	snprintf(x->cid, sizeof(x->cid), "map.%.100s@despatch", name);
	snprintf(x->png, sizeof(x->png), "%.100s.png", name);
	/* Its own name, so a FULL mail's two maps are two files. */
	snprintf(x->inline_png, sizeof(x->inline_png), "%.100s-part.png",
	    name);
	snprintf(x->svg, sizeof(x->svg), "%.100s.svg", name);
	snprintf(x->json, sizeof(x->json), "%.100s.json", name);
	*html = report_html(body, title, x->cid, "Map of the field as your "
	    "side sees it");
	if (*html == NULL)
		return err_set(e, ERR_TEMP, "out of memory writing the report's "
		    "HTML");
	parts[n++] = (struct mail_part){ "image/png", strcmp(format, "full") ==
	    0 ? x->inline_png : x->png, x->cid, v->inline_png, v->inline_len };
	if (strcmp(format, "full") == 0 && v->png != NULL) {
		parts[n++] = (struct mail_part){ "image/png", x->png, NULL,
		    v->png, v->png_len };
		parts[n++] = (struct mail_part){ "image/svg+xml", x->svg, NULL,
		    v->svg, v->svg_len };
		if (v->json != NULL)
			parts[n++] = (struct mail_part){ "application/json", x->json,
			    NULL, v->json, v->json_len };
	}
	x->html = *html;
	x->parts = parts;
	x->nparts = n;
	return 0;
}

/* The value of header name in raw (unfolded), into out; "" if none. */
static void
header_value(const char *raw, size_t len, const char *name, char *out,
    size_t size)
{
	size_t nl = strlen(name), i = 0, k = 0;

	out[0] = '\0';
	while (i < len) {
		if ((i == 0 || raw[i - 1] == '\n') && len - i > nl + 1 &&
		    strncasecmp(raw + i, name, nl) == 0 && raw[i + nl] == ':')
			break;
		if (raw[i] == '\n' && i + 1 < len && (raw[i + 1] == '\r' ||
		    raw[i + 1] == '\n'))
			return;   /* the end of the headers */
		i++;
	}
	if (i >= len)
		return;
	for (i += nl + 1; i < len && (raw[i] == ' ' || raw[i] == '\t'); i++)
		;
	for (; i < len && k + 1 < size; i++) {
		if (raw[i] == '\r' || raw[i] == '\n') {
			size_t j = i;

			while (j < len && (raw[j] == '\r' || raw[j] == '\n'))
				j++;
			if (j < len && (raw[j] == ' ' || raw[j] == '\t') &&
			    j - i <= 2) {
				i = j - 1;   /* a folded line goes on */
				continue;
			}
			break;
		}
		out[k++] = raw[i];
	}
	out[k] = '\0';
}

int
referee_mail_drawn(struct referee *r, const struct store_mail *m, char **raw,
    size_t *len, struct err *e)
{
	struct store_game g;
	struct store_player pl[MAX_PLAYERS];
	struct mail_msg *msg = NULL;
	struct battle *b = NULL;
	struct side_visuals vis;
	struct mail_part mp[MAIL_PARTS_MAX];
	struct mail_extra x;
	struct mail_out mo;
	unsigned char *seen = NULL;
	char *html = NULL, from[400], format[16], sub[200];
	char name[128], clock[16];
	int n, i, side = -1, rc = -1;

	*raw = NULL;
	*len = 0;
	memset(&g, 0, sizeof(g));
	memset(&vis, 0, sizeof(vis));
	/* "start FORMAT": the field at the start, in the format the player
	 * had chosen when it was queued. */
	if (strncmp(m->draw, "start ", 6) != 0 || m->game[0] == '\0' ||
	    strlen(m->draw + 6) >= sizeof(format))
		return 0;   /* nothing to draw: it goes as it is */
	snprintf(format, sizeof(format), "%s", m->draw + 6);
	if (mail_parse(m->raw, m->len, &msg, e) != 0 ||
	    store_game_get(r->st, m->game, &g, e) != 0)
		goto out;
	n = store_players(r->st, g.id, -1, pl, MAX_PLAYERS, e);
	if (n < 0)
		goto out;
	for (i = 0; i < n; i++)
		if (strcasecmp(pl[i].email, m->recipient) == 0)
			side = pl[i].side;
	if (side < 0) {
		rc = 0;   /* no player now (replaced): the text alone */
		goto out;
	}
	/* The field at the start, as the scenario sets it out. */
	if (scenario_parse(g.scenario_text, g.scenario_len, g.scenario_file, 0,
	    &b, e) != 0)
		goto out;
	if (side >= b->nsides) {
		rc = 0;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (pl[i].side >= 0 && pl[i].side < b->nsides)
			b->seats[pl[i].side]++;
	if (strcmp(g.visibility, "fog") == 0 && (seen = map_seen(b, side)) ==
	    NULL) {
		err_set(e, ERR_TEMP, "out of memory drawing a map");
		goto out;
	}
	report_clock(b, 1, clock, sizeof(clock));
	referee_start_subtitle(b, side, clock, sub, sizeof(sub));
	snprintf(name, sizeof(name), "%s-start-%s", g.name, b->sides[side].id);
	if (referee_side_visuals_make(&vis, &g, b, side, seen, sub, NULL, NULL,
	    0, NULL, NULL, NULL, 0, format, e) != 0)
		goto out;
	if (report_extra(format, msg->body, m->subject, &vis, name, mp, &x, &html,
	    e) != 0)
		goto out;
	/* The same headers as the text queued: only the parts are added. */
	header_value(m->raw, m->len, "From", from, sizeof(from));
	memset(&mo, 0, sizeof(mo));
	mo.from = from;
	mo.to = m->recipient;
	mo.subject = m->subject;
	mo.message_id = m->message_id;
	mo.date = msg->date;
	mo.body = msg->body;
	mo.html = x.html;
	mo.parts = x.parts;
	mo.nparts = x.nparts;
	*raw = mail_compose(&mo, len, e);
	rc = *raw != NULL ? 0 : -1;
out:
	if (html != NULL) {
		sodium_memzero(html, strlen(html));
		free(html);
	}
	if (msg != NULL && msg->body != NULL)
		sodium_memzero(msg->body, msg->body_len);
	mail_msg_free(msg);
	referee_side_visuals_free(&vis);
	free(seen);
	battle_free(b);
	store_game_clear(&g);
	return rc;
}
