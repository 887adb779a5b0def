/*
 * map.c - despatch map: the table as it stands, drawn to a PNG or an SVG.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "map/map.h"
#include "referee/referee.h"
#include "report/report.h"

int
cmd_map(int argc, char **argv)
{
	struct referee_game g;
	struct referee *r = NULL;
	struct battle *b = NULL;
	struct map_opts o;
	struct err e;
	char title[300], sub[300], clock[16];
	const char *side_id = NULL;
	unsigned char *seen = NULL;
	int rc = EXIT_FAILURE, turn, side = -1;

	err_clear(&e);
	if (cli_help(argc, argv,
	    "usage: despatch map GAME FILE [--side SIDE]\n\n"
	    "Draws the table of the game as it stands to FILE: a PNG about "
	    "1200 pixels wide,\nan SVG when FILE ends in .svg, or the text "
	    "map of the plain-text mail when it\nends in .txt (or is -, "
	    "standard output). Terrain "
	    "by kind with its names, every\nstand at scale with its facing, "
	    "in its side's colour, marked when disordered\nor routed, the "
	    "commanders, a grid in inches for writing orders, a scale bar\n"
	    "and a north arrow. It shows every side's forces, the operator's "
	    "view, unless\n--side names a side: then what that side's "
	    "stands and commanders can see.\n"))
		return 0;
	if (argc == 5 && strcmp(argv[3], "--side") == 0) {
		side_id = argv[4];
		argc = 3;
	}
	if (argc != 3)
		return cli_usage_error("map", "takes a game and a file, and "
		    "--side SIDE for a side's view");
	{
		/* The file's kind is its ending: a PNG named .gif would
		 * mislead whoever opens it. */
		const char *dot = strrchr(argv[2], '.');

		if (strcmp(argv[2], "-") != 0 && (dot == NULL ||
		    strchr(dot, '/') != NULL || (strcmp(dot, ".png") != 0 &&
		    strcmp(dot, ".svg") != 0 && strcmp(dot, ".txt") != 0)))
			return cli_usage_error("map", "FILE must end in .png, .svg "
			    "or .txt (or be - for the text map on standard "
			    "output)");
	}
	memset(&g, 0, sizeof(g));
	if (cli_open(0, &r, &e) != 0)
		return cli_fail(&e);
	if (referee_game_load(r, argv[1], &g, &b, &e) != 0) {
		rc = cli_fail(&e);
		goto out;
	}
	snprintf(title, sizeof(title), "%s (game %s)", b->title, g.name);
	turn = g.step > 0 ? battle_step_turn(b, g.step) : 1;
	report_clock(b, turn, clock, sizeof(clock));
	if (g.finished)
		snprintf(sub, sizeof(sub), "The field at the end of the battle");
	else if (g.running && battle_step_deploys(b, g.step))
		snprintf(sub, sizeof(sub), "The deployment (turn 0, %s): the zones "
		    "each side may deploy in", clock);
	else if (!g.running || g.step <= 1)
		snprintf(sub, sizeof(sub), "The field at the start: turn 1 of %d, "
		    "%s", b->turns, clock);
	else
		snprintf(sub, sizeof(sub), "Before turn %d of %d (%s), the %s phase",
		    turn, b->turns, clock, report_phase_id(b, g.step));
	memset(&o, 0, sizeof(o));
	o.title = title;
	o.subtitle = sub;
	o.zones = g.running && !g.finished && battle_step_deploys(b, g.step) ?
	    side_id != NULL ? 1 : 2 : 0;
	if (side_id != NULL) {
		/* A side's view: what its stands and commanders can see. */
		side = battle_side(b, side_id);
		if (side < 0) {
			err_set(&e, ERR_USER, "game %s has no side \"%s\"", g.name,
			    side_id);
			rc = cli_fail(&e);
			goto out;
		}
		seen = map_seen(b, side);
		if (seen == NULL) {
			err_set(&e, ERR_TEMP, "out of memory");
			rc = cli_fail(&e);
			goto out;
		}
		o.seen = seen;
		o.side = side;
		snprintf(sub + strlen(sub), sizeof(sub) - strlen(sub), "; what %s "
		    "sees", b->sides[side].name);
	}
	{
		/* FILE.txt (or "-"): the text map the plain-text mail carries. */
		size_t n = strlen(argv[2]);

		if (strcmp(argv[2], "-") == 0 || (n > 4 &&
		    strcmp(argv[2] + n - 4, ".txt") == 0)) {
			char *txt = map_ascii(b, side, o.seen, 72);
			FILE *f = strcmp(argv[2], "-") == 0 ? stdout :
			    cli_fopen_public(argv[2]);

			if (txt == NULL || f == NULL ||
			    fprintf(f, "%s\n%s\n\n%s", title, sub, txt) < 0 ||
			    (f != stdout && fclose(f) != 0)) {
				free(txt);
				err_set(&e, ERR_TEMP, "cannot write %s", argv[2]);
				rc = cli_fail(&e);
				goto out;
			}
			free(txt);
			rc = 0;
			goto out;
		}
	}
	if (map_write(b, &o, argv[2], &e) != 0) {
		rc = cli_fail(&e);
		goto out;
	}
	rc = 0;
out:
	free(seen);
	battle_free(b);
	referee_free(r);
	return rc;
}
