/*
 * visuals.c - what a report mail carries beside its text: the map of what
 * the reader's side can see, the HTML that shows it, and the side's JSON
 * report, as each player chose with SET MAIL (see internal.h).
 *
 * A map takes some tens of milliseconds to draw, so the turn draws each
 * side's once and every player of the side gets the same bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/mail.h"
#include "map/map.h"
#include "report/report.h"
#include "referee/internal.h"

int
player_mail_format(struct referee *r, int64_t player, char *buf, size_t size,
    struct err *e)
{
	char *v = NULL;

	if (store_query_text(r->st, e, &v, NULL, "SELECT mail_format FROM "
	    "players WHERE id = ?", "i", player) < 0)
		return -1;
	snprintf(buf, size, "%s", v != NULL ? v : "html");
	free(v);
	return 0;
}

int
side_visuals_make(struct side_visuals *v, const struct store_game *g,
    const struct battle *b, int side, const unsigned char *seen,
    const char *subtitle, const struct events *ev, int step,
    const struct pt *from, const unsigned char *from_ok,
    const struct sighting *last, int nlast, struct err *e)
{
	struct map_opts o;
	char title[400];

	memset(v, 0, sizeof(*v));
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
	if (map_render(b, &o, 0, &v->png, &v->png_len, e) != 0 ||
	    map_render(b, &o, 1, &v->svg, &v->svg_len, e) != 0) {
		side_visuals_free(v);
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
		v->json = report_json_side(&rg, b, side, seen, ev, step, last,
		    nlast, &v->json_len);
		if (v->json == NULL) {
			side_visuals_free(v);
			return err_set(e, ERR_TEMP, "out of memory writing the JSON "
			    "report");
		}
	}
	return 0;
}

void
side_visuals_free(struct side_visuals *v)
{
	free(v->png);
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
	if (strcmp(format, "text") == 0 || v == NULL || v->png == NULL)
		return 0;
	snprintf(x->cid, sizeof(x->cid), "map.%.100s@despatch", name);
	snprintf(x->png, sizeof(x->png), "%.100s.png", name);
	snprintf(x->svg, sizeof(x->svg), "%.100s.svg", name);
	snprintf(x->json, sizeof(x->json), "%.100s.json", name);
	*html = report_html(body, title, x->cid, "Map of the field as your "
	    "side sees it");
	if (*html == NULL)
		return err_set(e, ERR_TEMP, "out of memory writing the report's "
		    "HTML");
	parts[n++] = (struct mail_part){ "image/png", x->png, x->cid, v->png,
	    v->png_len };
	if (strcmp(format, "full") == 0) {
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
