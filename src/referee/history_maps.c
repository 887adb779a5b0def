/*
 * history_maps.c - the field after each phase of a HISTORY digest, drawn
 * again (issue 25).
 *
 * The store keeps the battle as it is now, not as it was; the game's
 * archive (referee_export) is its ledger played again from the scenario
 * by the verifier, which gives each step's state as the record signed
 * it.  That state, read onto the scenario's battle (ledger_state_read),
 * is the field after the phase, and the map is drawn from it as the
 * report's inline map was: a palette PNG, cropped to the reader's side.
 * So a map in a digest is never a picture the server made up; it is the
 * state the signed chain proves.
 *
 * Only where the field the reader saw then is the whole field: an open
 * game, or an observer.  A fog game's side saw only what it had in
 * sight, and the sightings of each phase are not kept; its digest keeps
 * the one map of the field now (history.c).
 *
 * Workload: one call per HISTORY mail that asks for maps: the whole game
 * played again once (as `despatch export` does), and at most
 * HISTORY_PHASES maps drawn.
 */
#include <jansson.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/verify.h"
#include "map/map.h"
#include "referee/internal.h"
#include "scenario/scenario.h"

/* Draws the field of state st (a step line's "state") as side sees it. */
static int
draw_state(const struct store_game *g, json_t *st, int side,
    const char *subtitle, size_t max, unsigned char **png, size_t *len,
    struct err *e)
{
	struct battle *b = NULL;
	struct map_opts o;
	char title[300];
	int rc = -1;

	if (scenario_parse(g->scenario_text, g->scenario_len, g->scenario_file,
	    0, &b, e) != 0)
		return -1;
	if (ledger_state_read(b, st) != 0) {
		err_set(e, ERR_DATA, "game %s: a state of its archive cannot be "
		    "read back", g->name);
		goto out;
	}
	memset(&o, 0, sizeof(o));
	snprintf(title, sizeof(title), "%s (game %s)", b->title, g->name);
	o.title = title;
	o.subtitle = subtitle;
	o.side = side;
	o.compact = 1;
	o.crop = side >= 0;
	if (map_render(b, &o, 0, png, len, e) != 0)
		goto out;
	if (*len > max) {
		free(*png);
		*png = NULL;
		*len = 0;
	}
	rc = 0;
out:
	battle_free(b);
	return rc;
}

/* Contract (internal.h). */
int
referee_phase_maps(struct referee *r, const struct store_game *g,
    const int *steps, const char *const *subtitles, int n, int side,
    size_t max, unsigned char **png, size_t *len, struct err *e)
{
	char *buf = NULL, *line, *save = NULL;
	size_t blen = 0;
	FILE *f;
	int i, rc = -1;

	for (i = 0; i < n; i++) {
		png[i] = NULL;
		len[i] = 0;
	}
	if ((f = open_memstream(&buf, &blen)) == NULL)
		return err_set(e, ERR_TEMP, "out of memory");
	if (referee_export(r, g->name, f, 0, e) != 0) {
		fclose(f);
		free(buf);
		return -1;
	}
	if (fclose(f) != 0) {
		free(buf);
		return err_set(e, ERR_TEMP, "out of memory");
	}
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		json_t *o = json_loads(line, 0, NULL), *st;
		const char *kind = o != NULL ? json_string_value(json_object_get(o,
		    "kind")) : NULL;
		int step;

		if (kind == NULL || strcmp(kind, "step") != 0 ||
		    (st = json_object_get(o, "state")) == NULL) {
			json_decref(o);
			continue;
		}
		step = (int)json_integer_value(json_object_get(o, "step"));
		for (i = 0; i < n; i++) {
			if (steps[i] != step || png[i] != NULL)
				continue;
			if (draw_state(g, st, side, subtitles[i], max, &png[i],
			    &len[i], e) != 0) {
				json_decref(o);
				goto out;
			}
		}
		json_decref(o);
	}
	rc = 0;
out:
	if (rc != 0)
		for (i = 0; i < n; i++) {
			free(png[i]);
			png[i] = NULL;
		}
	free(buf);
	return rc;
}
