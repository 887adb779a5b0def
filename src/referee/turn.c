/*
 * turn.c - adjudicating the open step of a game.
 *
 * Reads the state and the stored canonical orders, runs the ruleset with
 * the step's dice, and writes the new state, the events and a report per
 * player in one transaction.
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
#include <time.h>

#include "core/dice.h"
#include "core/result.h"
#include "core/ruleset.h"
#include "ledger/ledger.h"
#include "ledger/play.h"
#include "map/map.h"
#include "mail/mail.h"
#include "orders/orders.h"
#include "report/report.h"
#include "scenario/scenario.h"
#include "referee/chain.h"
#include "referee/internal.h"

/* A report mail's body at most: longer reports go in several mails. */
#define REPORT_PART_MAX (200u * 1024u)  /* well inside what mail_parse reads */

/* --- turn ------------------------------------------------------------ */

/* What each player plays at step, in seat order (the order players
 * joined): their orders for the step, or, from a player who sent none,
 * their standing orders (only in a phase their side plays, and unless
 * the game's NMR policy is to hold).  texts[i] is malloc'd. */
struct played {
	int n;
	struct chain_played p[MAX_PLAYERS];
	char *texts[MAX_PLAYERS];
	int count[MAX_PLAYERS];       /* order lines */
	int standing[MAX_PLAYERS];    /* standing orders were taken */
};

static void
played_free(struct played *pd)
{
	int i;

	for (i = 0; i < pd->n; i++)
		free(pd->texts[i]);
	memset(pd, 0, sizeof(*pd));
}

static int
played_read(struct referee *r, const struct store_game *g,
    const struct battle *b, int step, struct played *pd, struct err *e)
{
	struct store_player pl[MAX_PLAYERS];
	int n, i, ps = battle_step_side(b, step), use_standing;
	char nmr[16];

	memset(pd, 0, sizeof(*pd));
	if (referee_setting_get(r, g->id, "nmr", nmr, sizeof(nmr), e) != 0)
		return -1;
	use_standing = strcmp(nmr, "hold") != 0;
	n = store_players(r->st, g->id, -1, pl, MAX_PLAYERS, e);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		struct chain_played *p = &pd->p[i];
		char *t = NULL;
		int c = 0, got;

		p->side = pl[i].side;
		p->player = pl[i].id;
		p->seat = i + 1;
		if (store_orders_text(r->st, g->id, step, pl[i].side, pl[i].id, &t,
		    &c, e) != 0)
			return -1;
		pd->texts[i] = t;
		pd->n = i + 1;
		if (c > 0) {
			/* The salt the reply told (absent for orders stored
			 * before the ledger: those count as unmailed). */
			got = store_orders_salt(r->st, g->id, step, pl[i].side,
			    pl[i].id, p->salt, e);
			if (got < 0)
				return -1;
			p->mailed = got;
		} else if (use_standing && (ps < 0 || ps == pl[i].side) &&
		    !battle_step_deploys(b, step)) {
			/* (standing orders are the ruleset's: a side silent in
			 * the deployment keeps the scenario's places) */
			free(t);
			pd->texts[i] = NULL;
			if (store_standing_text(r->st, g->id, pl[i].id, &t, &c, e) != 0)
				return -1;
			pd->texts[i] = t;
			pd->standing[i] = c > 0;
		}
		pd->count[i] = c;
		p->orders = pd->texts[i];
		/* A game with nonces: the player's commitment for the step
		 * (with orders or alone), and the nonce revealed, if any. */
		got = store_nonce_commit(r->st, g->id, step, pl[i].id, p->commit,
		    e);
		if (got < 0 || (got == 1 && store_nonce_reveal(r->st, g->id, step,
		    pl[i].id, p->nonce, sizeof(p->nonce), e) < 0))
			return -1;
	}
	return 0;
}

/* Queues a report, in several mails when it is long: each part ends at a
 * line, says which part it is, and all are queued in the same
 * transaction as the step.  The first part carries what the player chose
 * to have beside the text (format, with the side's visuals v). */
static int
queue_report(struct referee *r, const struct store_game *g, const char *to,
    const struct turn_result *tr, const struct side *sides, const char *clock,
    const char *body, const char *format, const struct side_visuals *v,
    int side, struct err *e)
{
	char subject[300], name[128], **parts = NULL;
	int n = 0, k, rc = 0;

	if (report_split(body, REPORT_PART_MAX, &parts, &n) != 0)
		return err_set(e, ERR_TEMP, "out of memory splitting a report");
	snprintf(name, sizeof(name), "%s-turn%d-%s", g->name, tr->turn,
	    sides[side].id);
	for (k = 0; k < n && rc == 0; k++) {
		char *withhead = NULL, *html = NULL;
		struct mail_part mp[MAIL_PARTS_MAX];
		struct mail_extra x;

		snprintf(subject, sizeof(subject), "[%s] Turn %d, %s phase (%s)%s",
		    g->name, tr->turn, tr->side >= 0 ? sides[tr->side].id :
		    tr->turn == 0 ? "deployment" : "all",
		    clock, tr->finished ? ": the battle is over" : "");
		if (n > 1) {
			size_t len = strlen(parts[k]) + 128;

			snprintf(subject + strlen(subject), sizeof(subject) -
			    strlen(subject), " (part %d of %d)", k + 1, n);
			withhead = malloc(len);
			if (withhead == NULL) {
				rc = err_set(e, ERR_TEMP, "out of memory");
				break;
			}
			snprintf(withhead, len, "(Part %d of %d of this report.)\n\n%s",
			    k + 1, n, parts[k]);
		}
		rc = report_extra(k == 0 ? format : "text", withhead ? withhead :
		    parts[k], subject, v, name, mp, &x, &html, e);
		if (rc == 0)
			rc = referee_queue_mail_x(r, g->id, g->name, to,
			    subject, "report",
			    NULL, withhead ? withhead : parts[k], &x, 0, e);
		free(html);
		free(withhead);
	}
	for (k = 0; k < n; k++)
		free(parts[k]);
	free(parts);
	return rc;
}

/* One attempt at the open step: everything it needs, and what it did. */
struct attempt {
	struct store_game g;
	struct battle *b;
	const struct ruleset *rs;
	struct played pd;         /* each seat's orders, as its leaf has them */
	struct orders_parser *parser;         /* the ruleset's, the referee's */
	int sent[BATTLE_MAX_SIDES];           /* the side's orders were sent */
	int used_standing[BATTLE_MAX_SIDES];
	struct store_orders_mark mark;
	struct events ev;
	long rolls;
	unsigned char seed[32];
	struct chain_prep cp;     /* the step's commitments */
	struct pt *from;          /* each unit's centre before the step */
	unsigned char *from_ok;   /* ... where it had one */
	unsigned char *live;      /* each stand on the table before it */
};

static void
attempt_free(struct attempt *a)
{
	sodium_memzero(a->seed, sizeof(a->seed));
	chain_prep_free(&a->cp);
	events_free(&a->ev);
	free(a->from);
	free(a->from_ok);
	free(a->live);
	played_free(&a->pd);
	battle_free(a->b);
	store_game_clear(&a->g);
	memset(a, 0, sizeof(*a));
}

/* Reads the game, its state and the step's orders (in whatever
 * transaction the caller holds). */
static int
attempt_read(struct referee *r, const char *game, const int *dice,
    struct attempt *a, struct err *e)
{
	if (store_game_get(r->st, game, &a->g, e) != 0)
		return -1;
	if (a->g.status == GAME_SETUP)
		return err_set(e, ERR_USER, "game \"%s\" has not started: add "
		    "players and run 'despatch start %s'", game, game);
	if (a->g.status == GAME_FINISHED)
		return err_set(e, ERR_USER, "game \"%s\" is over: its last turn "
		    "has been played", game);
	if (dice != NULL && !a->g.sandbox)
		return err_set(e, ERR_USER, "game \"%s\" is not a sandbox game, so "
		    "its dice cannot be scripted (only games made with 'despatch "
		    "new --sandbox' take --dice)", game);
	a->rs = ruleset_find(a->g.ruleset);
	if (a->rs == NULL)
		return err_set(e, ERR_DATA, "game %s uses ruleset %s, which this "
		    "build does not have", a->g.name, a->g.ruleset);
	if (store_battle_load(r->st, &a->g, &a->b, e) != 0)
		return -1;
	/* The players on each side, which a ruleset may weigh. */
	{
		struct store_player pl[MAX_PLAYERS];
		int np = store_players(r->st, a->g.id, -1, pl, MAX_PLAYERS, e), k;

		if (np < 0)
			return -1;
		for (k = 0; k < np; k++)
			if (pl[k].side >= 0 && pl[k].side < a->b->nsides)
				a->b->seats[pl[k].side]++;
	}
	a->parser = referee_parser(r, a->rs, e);
	if (a->parser == NULL ||
	    store_orders_mark(r->st, a->g.id, a->g.step, &a->mark, e) != 0)
		return -1;
	{
		int k;

		/* The step's order sets, committed before the dice exist:
		 * the dice seed hangs on their root. */
		if (played_read(r, &a->g, a->b, a->g.step, &a->pd, e) != 0 ||
		    chain_prepare(r, &a->g, a->b, a->g.step, a->pd.p, a->pd.n,
		    &a->cp, e) != 0)
			return -1;
		for (k = 0; k < a->pd.n; k++) {
			int s = a->pd.p[k].side;

			if (s < 0 || s >= a->b->nsides || a->pd.count[k] == 0)
				continue;
			a->sent[s] = 1;
			a->used_standing[s] += a->pd.standing[k];
		}
		return 0;
	}
}

/* Plays the step: pure, no store (ledger_play_step, as verify plays
 * it). */
static int
attempt_play(struct attempt *a, const int *dice, int ndice, struct err *e)
{
	struct play_seat seats[MAX_PLAYERS];
	struct play_in in;
	struct play_out out;
	struct orders_parser *op;
	int k;

	/* Where every unit stood, for the maps' arrows. */
	free(a->from);
	free(a->from_ok);
	free(a->live);
	a->from = calloc((size_t)a->b->nunits + 1, sizeof(*a->from));
	a->from_ok = calloc((size_t)a->b->nunits + 1, 1);
	a->live = calloc((size_t)a->b->nstands + 1, 1);
	if (a->from == NULL || a->from_ok == NULL || a->live == NULL)
		return err_set(e, ERR_TEMP, "out of memory");
	{
		int u, s;

		for (u = 0; u < a->b->nunits; u++)
			a->from_ok[u] = (unsigned char)battle_unit_centre(a->b, u,
			    &a->from[u]);
		/* Which stands were on the table, for what a fog game's
		 * sides saw go in the step. */
		for (s = 0; s < a->b->nstands; s++)
			a->live[s] = !(a->b->stands[s].flags & ST_GONE);
	}
	for (k = 0; k < a->pd.n; k++) {
		seats[k].side = a->pd.p[k].side;
		seats[k].orders = a->pd.texts[k] != NULL ? a->pd.texts[k] : "";
	}
	memset(&in, 0, sizeof(in));
	in.step = a->g.step;
	in.seats = seats;
	in.nseats = a->pd.n;
	if (dice != NULL) {
		in.script = dice;
		in.nscript = ndice;
		in.script_all = 1;
	} else {
		memcpy(a->seed, a->cp.dice_seed, sizeof(a->seed));
		in.dice_seed = a->seed;
	}
	op = a->parser;
	if (ledger_play_step(a->rs, op, a->b, &in, &a->ev, &out, e) != 0) {
		if (out.fail == PLAY_ORDERS) {
			struct err why = *e;

			err_set(e, ERR_DATA, "game %s: a stored order no longer reads: "
			    "%s; the turn was not played", a->g.name, why.msg);
		}
		return -1;
	}
	a->rolls = out.rolls;
	return 0;
}

/* After a step: each player who owed orders and sent none has one more
 * phase without orders in a row (one who sent some, none); at the game's
 * nmr-limit the operator and the other players are told, once. */
static int
count_nmr(struct referee *r, const struct store_game *g, const struct battle *b,
    int step, const struct store_player *pl, int np, struct err *e)
{
	int ps = battle_step_side(b, step), i, k, away;
	char v[16];
	long limit;

	/* Silence in the deployment is a choice (the scenario's places),
	 * never a missed phase. */
	if (battle_step_deploys(b, step))
		return 0;
	if (referee_setting_get(r, g->id, "nmr-limit", v, sizeof(v), e) != 0)
		return -1;
	limit = strtol(v, NULL, 10);
	for (i = 0; i < np; i++) {
		int64_t sent = 0, count = 0;

		if (ps >= 0 && pl[i].side != ps)
			continue;
		if (store_orders_count(r->st, g->id, step, -1, pl[i].id, &sent,
		    e) != 0)
			return -1;
		if (sent > 0) {
			if (store_player_nmr_clear(r->st, pl[i].id, e) != 0)
				return -1;
			continue;
		}
		/* A player who said they are away (ABSENT) is not missing. */
		if ((away = referee_absent_today(r, g->id, pl[i].id, e)) != 0) {
			if (away < 0)
				return -1;
			continue;
		}
		if (store_player_nmr(r->st, pl[i].id, &count, e) != 0)
			return -1;
		if (limit <= 0 || count != limit)
			continue;
		{
			char subject[200], body[900], op[300];

			snprintf(subject, sizeof(subject), "[%s] Side %s has sent no "
			    "orders for %lld phases", g->name, b->sides[pl[i].side].id,
			    (long long)count);
			snprintf(body, sizeof(body), "In game %s, a player of side %s "
			    "(%s) has sent no orders for %lld phases in a\nrow; "
			    "their units %s. The operator can hand the side to someone "
			    "else\nwith 'despatch player replace %s %s EMAIL'.\n", g->name,
			    b->sides[pl[i].side].id, b->sides[pl[i].side].name,
			    (long long)count, "hold or follow their standing orders",
			    g->name, b->sides[pl[i].side].id);
			for (k = 0; k < np; k++)
				if (k != i && referee_queue_mail(r, g->id,
				    g->name, pl[k].email,
				    subject, "notice", NULL, body, e) != 0)
					return -1;
			if (referee_setting_get(r, g->id, "operator", op,
			    sizeof(op), e) != 0)
				return -1;
			if (op[0] != '\0' && referee_queue_mail(r, g->id,
			    g->name, op, subject,
			    "notice", NULL, body, e) != 0)
				return -1;
		}
	}
	return 0;
}

/* Every order set's leaf, in seat order, and their root: what the Close
 * notice of a game with nonces shows, and every report's ledger section. */
static void
leaves_table(struct text *t, const struct battle *b,
    const struct chain_prep *cp)
{
	char hex[2 * LEDGER_HASH + 1];
	int i;

	for (i = 0; i < cp->n; i++) {
		ledger_hex(cp->leaf[i].leaf, LEDGER_HASH, hex);
		text_add(t, "  seat %-2d %-12s %-9s %s\n", cp->leaf[i].seat,
		    b->sides[cp->leaf[i].side].id, cp->leaf[i].mailed ?
		    "mailed" : "no mail", hex);
	}
	ledger_hex(cp->root, LEDGER_HASH, hex);
	text_add(t, "\n  root                        %s\n", hex);
}

/* The Close notice of a game with nonces: every order set's leaf and
 * the root, to every player, asking for their nonces.  A game without
 * nonces closes and plays in one go, and its reports carry the same
 * table (with_ledger): one mail a player a step, not two. */
static int
queue_close(struct referee *r, const struct store_game *g,
    const struct battle *b, const struct chain_prep *cp,
    const struct store_player *pl, int np, struct err *e)
{
	int step = g->step, ps = battle_step_side(b, step), i, rc = 0;
	char subject[300], clock[16];
	struct text t;

	text_init(&t, 64 * 1024);
	report_clock(b, battle_step_turn(b, step), clock, sizeof(clock));
	text_add(&t, "Turn %d (%s), the phase of %s.\n\n"
	    "The orders are closed: nothing can be added or changed now. "
	    "These are\nthe hashes (leaves) of every player's order set, in "
	    "seat order, and their\nroot, which the dice of this phase depend "
	    "on. Your report gives your own\nleaf with its salt; when the "
	    "battle is over the archive shows every set,\nso anyone can check "
	    "each leaf.\n\n", battle_step_turn(b, step), clock, ps >= 0 ?
	    b->sides[ps].name : battle_step_deploys(b, step) ?
	    "the deployment, every side at once" : "both sides");
	leaves_table(&t, b, cp);
	if (cp->nonces)   /* always, since the reports carry the rest */
		text_add(&t, "\nThis game uses nonces. If you sent a COMMIT for "
		    "this phase, reveal your\nnonce now: mail a line REVEAL <your "
		    "nonce> with your game, side and secret.\nThe phase is played "
		    "when every nonce is in, or %lld minutes from now at\nthe "
		    "latest; a nonce not revealed by then counts as absent.\n",
		    (long long)(cp->reveal_secs / 60));
	if (t.over || t.s == NULL) {
		text_free(&t);
		return err_set(e, ERR_TEMP, "out of memory writing the Close notice");
	}
	snprintf(subject, sizeof(subject), "[%s] Turn %d, %s phase: orders "
	    "closed", g->name, battle_step_turn(b, step), ps >= 0 ||
	    battle_step_deploys(b, step) ? report_phase_id(b, step) : "all");
	for (i = 0; i < np && rc == 0; i++)
		rc = referee_queue_mail(r, g->id, g->name, pl[i].email, subject,
		    "notice", NULL, t.s, e);
	text_free(&t);
	return rc;
}

/* The report's closing section: the step's signed record, and the
 * player's own leaves with their salts; S_step too in an open game. */
static char *
with_ledger(const char *body, const struct attempt *a, int64_t player,
    const unsigned char head[LEDGER_HASH], const unsigned char sig[LEDGER_SIG])
{
	struct text t;
	char hex[2 * LEDGER_SIG + 1], salt[2 * LEDGER_SALT + 1];
	int i, fog = strcmp(a->g.visibility, "fog") == 0;

	text_init(&t, strlen(body) + 8192);
	text_add(&t, "%s\nThe record\n----------\n", body);
	ledger_hex(head, LEDGER_HASH, hex);
	text_add(&t, "This phase's record (step %d) has the head\n  %s\n",
	    a->g.step, hex);
	ledger_hex(sig, LEDGER_SIG, hex);
	text_add(&t, "signed by the server's key:\n  %.64s\n  %s\n", hex,
	    hex + 64);
	text_add(&t, "Every order set of the phase by its hash (leaf), in seat "
	    "order, and their\nroot, which the phase's dice depend on; when "
	    "the battle is over its archive\nshows every set, so anyone can "
	    "check each leaf:\n");
	leaves_table(&t, a->b, &a->cp);
	for (i = 0; i < a->cp.n; i++) {
		if (a->cp.leaf[i].player != player)
			continue;
		ledger_hex(a->cp.leaf[i].leaf, LEDGER_HASH, hex);
		ledger_hex(a->cp.leaf[i].salt, LEDGER_SALT, salt);
		text_add(&t, "Your order set's leaf is\n  %s\n(salt %s%s).\n",
		    hex, salt, a->cp.leaf[i].mailed ? "" : ", made from the "
		    "phase's seed: you sent no orders for it");
	}
	if (fog && !battle_over(a->b, a->g.step)) {
		text_add(&t, "This is a fog game: the phase's seed is revealed "
		    "when the battle ends.\n");
	} else {
		ledger_hex(a->cp.s_step, LEDGER_HASH, hex);
		text_add(&t, "The phase's seed, S_%d, is\n  %s\n", a->g.step,
		    hex);
	}
	text_add(&t, "Keep this section: with the head you can check the "
	    "game's archive\n(despatch verify ARCHIVE --head HEAD).\n");
	if (battle_over(a->b, a->g.step))
		text_add(&t, "The battle is over, so its archive (every seed, order "
		    "and roll) may now be\nshared: the operator writes it with "
		    "'despatch export %s FILE', and anyone\ncan check it with "
		    "'despatch verify FILE'.\n", a->g.name);
	if (t.over || t.s == NULL) {
		text_free(&t);
		return NULL;
	}
	return t.s;
}

/* One player's report of the step: the text, and beside it what the
 * player chose (SET MAIL); the side's visuals are drawn on first use. */
static int
report_one(struct referee *r, const struct attempt *a, const struct battle *b,
    const struct turn_result *tr, int step, const struct store_player *p,
    const unsigned char head[LEDGER_HASH], const unsigned char sig[LEDGER_SIG],
    const unsigned char *seen, const struct sighting *last, int nlast,
    const unsigned char *gone, struct side_visuals *vis, struct err *e)
{
	char clock[16], format[16], sub[200], deadline[160] = "";
	struct report_orders ro;
	char *body;
	int t, fog = strcmp(a->g.visibility, "fog") == 0;

	/* What the report tells of the player's orders: whether this phase
	 * had any, and whether the next are stored already. */
	memset(&ro, 0, sizeof(ro));
	ro.sent = tr->side >= 0 && tr->side != p->side ? -1 : 0;
	if (ro.sent == 0 && a->sent[p->side])
		ro.sent = 1;
	ro.standing = a->used_standing[p->side];
	ro.last = last;
	ro.nlast = nlast;
	/* The deadline of the phase now open, when it is the reader's. */
	if (!tr->finished && battle_step_side(b, step + 1) == p->side) {
		struct store_clock c;

		if (store_game_clock(r->st, a->g.id, &c, e) != 0)
			return -1;
		if (c.deadline > 0)
			referee_clock_when(r, a->g.id, c.deadline, referee_now(r),
			    deadline, sizeof(deadline));
		ro.next_deadline = deadline;
	}
	ro.gone = gone;
	{
		int64_t ns = 0;

		if (store_standing_count(r->st, a->g.id, p->id, &ns, e) != 0)
			return -1;
		ro.has_standing = ns > 0;
	}
	for (t = battle_step_turn(b, step); !tr->finished && t <= b->turns; t++)
		if (referee_step_for(b, t, p->side) > step) {
			int64_t n = 0;

			ro.next_turn = t;
			if (store_orders_count(r->st, a->g.id,
			    referee_step_for(b, t, p->side), p->side, 0, &n,
			    e) != 0)
				return -1;
			ro.next_stored = (int)n;
			break;
		}
	{
		char *field;
		struct text ap;
		const struct narrative *nar = referee_narrative(r, a->rs, e);

		if (nar == NULL)
			return -1;
		body = report_step(b, a->g.name, step, p->side, &a->ev, step + 1,
		    !fog, &ro, seen, nar);
		field = map_ascii(b, p->side, seen, 72);
		if (body == NULL) {
			free(field);
			return err_set(e, ERR_TEMP, "out of memory writing the "
			    "report");
		}
		/* The appendix: the field as text (for plain-text readers; in
		 * a fog game what the side can see now), the stands apart, the
		 * dice, then the ledger. */
		text_init(&ap, strlen(body) + (field != NULL ? strlen(field) : 0) +
		    4096);
		text_add(&ap, "%s\nAppendix: the field, dice, ledger and hashes\n"
		    "--------------------------------------------\n", body);
		free(body);
		if (field != NULL)
			text_add(&ap, "The field\n---------\n%s", field);
		free(field);
		report_appendix(&ap, b, p->side, &a->ev, !fog, seen);
		{
			/* A battle of a campaign says so, and at its end where
			 * what it carries back is told. */
			char camp[64];
			int k = store_game_campaign(r->st, a->g.id, camp, e);

			if (k < 0) {
				text_free(&ap);
				return -1;
			}
			if (k > 0 && ap.s != NULL) {
				struct text cp, back;
				int got = 0;

				/* At its end, what it will carry back, as the
				 * day's report will say it. */
				text_init(&back, 64 * 1024);
				if (tr->finished && (got =
				    referee_campaign_carry_preview(r, a->g.id, b,
				    step, p->side, &back, e)) < 0) {
					text_free(&back);
					text_free(&ap);
					return -1;
				}
				text_init(&cp, ap.len + back.len + 1024);
				if (got > 0 && back.s != NULL)
					text_add(&cp, "This is a battle of campaign %s.\n"
					    "It is over; what it carries back into the "
					    "campaign, once every battle\nof the turn is "
					    "over:\n%s\n%s", camp, back.s, ap.s);
				else
					text_add(&cp, "This is a battle of campaign %s. "
					    "%s\n\n%s", camp, tr->finished ? "It is over: "
					    "the campaign's report\nfor the day says what "
					    "it carries back (the losses for good and "
					    "those\nback the next morning, who falls back "
					    "where), once every battle of\nthe turn is "
					    "over." : "When it is over, what it ends "
					    "with\nis carried back into the campaign.",
					    ap.s);
				text_free(&back);
				text_free(&ap);
				ap = cp;
			}
		}
		if (ap.s == NULL || ap.over) {
			text_free(&ap);
			return err_set(e, ERR_TEMP, "out of memory writing the "
			    "report");
		}
		body = with_ledger(ap.s, a, p->id, head, sig);
		text_free(&ap);
		if (body == NULL)
			return err_set(e, ERR_TEMP, "out of memory writing the "
			    "report");
	}
	report_clock(b, tr->turn, clock, sizeof(clock));
	if (referee_player_mail_format(r, p->id, format, sizeof(format),
	    e) != 0) {
		free(body);
		return -1;
	}
	snprintf(sub, sizeof(sub), "Turn %d of %d, %s, after the %s phase: "
	    "as %s sees it", tr->turn, b->turns, clock, report_phase_id(b,
	    tr->step), b->sides[p->side].id);
	if (strcmp(format, "text") != 0) {
		/* The JSON's state is the one after the step. */
		struct store_game after = a->g;

		after.step = tr->finished ? step : step + 1;
		after.status = tr->finished ? GAME_FINISHED : GAME_RUNNING;
		const struct narrative *nar = referee_narrative(r, a->rs, e);

		if (nar == NULL || referee_side_visuals_make(vis, &after, b,
		    p->side, seen, sub, &a->ev, nar, step, a->from, a->from_ok, last,
		    nlast, format, e) != 0) {
			free(body);
			return -1;
		}
	}
	if (queue_report(r, &a->g, p->email, tr, b->sides, clock, body, format,
	    vis, p->side, e) != 0) {
		free(body);
		return -1;
	}
	free(body);
	return 0;
}

/* Writes what the step did and queues the reports (in the caller's write
 * transaction). */
static int
attempt_write(struct referee *r, struct attempt *a, int scripted,
    struct turn_result *tr, struct err *e)
{
	struct store_player pl[MAX_PLAYERS];
	struct battle *b = a->b;
	int step = a->g.step, np, i;
	unsigned char head[LEDGER_HASH], sig[LEDGER_SIG];

	tr->step = step;
	tr->turn = battle_step_turn(b, step);
	tr->side = battle_step_side(b, step);
	tr->events = a->ev.n;
	tr->rolls = (int)a->rolls;
	/* The last phase, or an army broke. */
	tr->finished = battle_over(b, step);
	if (store_battle_save(r->st, a->g.id, b, e) != 0 ||
	    store_events_insert(r->st, a->g.id, step, &a->ev, e) != 0 ||
	    chain_record(r, &a->g, b, step, &a->cp, &a->ev, scripted, a->rolls,
	    head, sig, e) != 0 ||
	    store_turn_insert(r->st, a->g.id, step, tr->turn, tr->side,
	    scripted ? NULL : a->seed, scripted, a->rolls, referee_now(r),
	    e) != 0 ||
	    store_game_set_status(r->st, a->g.id, tr->finished ? GAME_FINISHED :
	    GAME_RUNNING, tr->finished ? step : step + 1, referee_now(r), e) != 0)
		return -1;
	/* A step that ended a turn may have decided the next one's order. */
	if (!tr->finished && battle_step_turn(b, step + 1) != tr->turn &&
	    referee_refile_turn(r, a->g.id, b, battle_step_turn(b, step + 1),
	    e) != 0)
		return -1;
	if (tr->finished) {
		struct battle_result res;
		char text[256];

		battle_result(b, step, &res);
		result_text(b, &res, text, sizeof(text));
		if (store_game_set_result(r->st, a->g.id, text, e) != 0)
			return -1;
	}
	/* The next phase's deadline runs from now. */
	if (tr->finished ? store_game_set_deadline(r->st, a->g.id, 0, e) != 0 :
	    referee_clock_open_step(r, a->g.id, referee_now(r), e) != 0)
		return -1;
	np = store_players(r->st, a->g.id, -1, pl, MAX_PLAYERS, e);
	if (np < 0 || count_nmr(r, &a->g, b, step, pl, np, e) != 0)
		return -1;
	/* The players' mails for this step have been read and played: their
	 * bytes go, their headers and what was read from them stay. */
	if (store_messages_trim(r->st, a->g.id, step, referee_now(r), e) != 0)
		return -1;
	{
		/* A game with nonces had its Close notice when the phase
		 * closed, and what is played must be what it froze; any other
		 * game's reports carry the leaves and root instead. */
		unsigned char *root = NULL;
		size_t rl = 0;

		if (store_game_closed_root(r->st, a->g.id, step, &root, &rl,
		    e) < 0)
			return -1;
		/* Checked here, in the write, so no race can play a step of a
		 * game with nonces that was never closed. */
		if (root == NULL && a->cp.nonces)
			return err_set(e, ERR_USER, "game %s: turn %d has not been "
			    "closed for its nonces; nothing was played",
			    a->g.name, battle_step_turn(b, step));
		if (root != NULL && (rl != LEDGER_HASH ||
		    sodium_memcmp(root, a->cp.root, LEDGER_HASH) != 0)) {
			free(root);
			return err_set(e, ERR_DATA, "game %s: the order sets of turn %d "
			    "are not the ones its Close notice froze (standing orders "
			    "or the NMR policy changed since?); nothing was played",
			    a->g.name, battle_step_turn(b, step));
		}
		free(root);
		if (store_game_close_done(r->st, a->g.id, e) != 0)
			return -1;
	}
	{
		int fog = strcmp(a->g.visibility, "fog") == 0, s, rc = 0;
		unsigned char *seen[BATTLE_MAX_SIDES];
		struct side_visuals vis[BATTLE_MAX_SIDES];

		struct sighting *last[BATTLE_MAX_SIDES];
		unsigned char *gone[BATTLE_MAX_SIDES];
		int nlast[BATTLE_MAX_SIDES];

		memset(seen, 0, sizeof(seen));
		memset(vis, 0, sizeof(vis));
		memset(last, 0, sizeof(last));
		memset(gone, 0, sizeof(gone));
		memset(nlast, 0, sizeof(nlast));
		/* A fog game: what each side sees now, recorded as its latest
		 * sightings; those of units it no longer sees are shown where
		 * they were, but for those it saw go, known to be gone. */
		for (s = 0; s < b->nsides && rc == 0; s++) {
			if (!fog)
				continue;
			if ((seen[s] = map_seen(b, s)) == NULL ||
			    (last[s] = calloc((size_t)b->nunits + 1,
			    sizeof(*last[s]))) == NULL ||
			    (gone[s] = calloc((size_t)b->nunits + 1, 1)) == NULL ||
			    report_seen_gone(b, s, &a->ev, a->live, seen[s],
			    gone[s]) < 0) {
				rc = err_set(e, ERR_TEMP, "out of memory writing the "
				    "report");
				break;
			}
			/* Those it fought or exchanged fire with it knows of. */
			report_seen_contacts(b, s, &a->ev, seen[s]);
			if (store_sightings_forget(r->st, a->g.id, s, gone[s],
			    b->nunits, e) != 0 ||
			    store_sightings_update(r->st, a->g.id, b, s, seen[s], step,
			    tr->turn, e) != 0 || (nlast[s] = store_sightings_before(
			    r->st, a->g.id, s, step, last[s], b->nunits, e)) < 0)
				rc = -1;
		}
		for (i = 0; i < np && rc == 0; i++)
			rc = report_one(r, a, b, tr, step, &pl[i], head, sig,
			    seen[pl[i].side], last[pl[i].side], nlast[pl[i].side],
			    gone[pl[i].side], &vis[pl[i].side], e);
		if (rc == 0) {
			const struct narrative *nar = referee_narrative(r, a->rs, e);

			rc = nar == NULL ? -1 : referee_observers_report(r,
			    &a->g, b, step,
			    &a->ev, nar, a->from, a->from_ok, tr->finished, e);
		}
		for (s = 0; s < b->nsides; s++) {
			free(seen[s]);
			free(last[s]);
			free(gone[s]);
			referee_side_visuals_free(&vis[s]);
		}
		return rc;
	}
}

/* Tries to play the open step.  The state and orders are read in a read
 * transaction and the step is adjudicated outside any, so mail keeps
 * coming in meanwhile; the result is written in one short write
 * transaction that first checks the step and its orders are still those
 * read.  Returns 0 done, 1 when the orders changed meanwhile (try again),
 * -1 on error.  With locked set, everything happens inside the write
 * transaction (the last try, which cannot be overtaken). */
static int
turn_once(struct referee *r, const char *game, const int *dice, int ndice,
    int locked, struct turn_result *tr, struct err *e)
{
	struct attempt a;
	int rc = -1;

	memset(&a, 0, sizeof(a));
	events_init(&a.ev);
	if ((locked ? store_begin(r->st, e) : store_begin_read(r->st, e)) != 0)
		return -1;
	if (attempt_read(r, game, dice, &a, e) != 0)
		goto fail;
	if (!locked) {
		store_rollback(r->st);
		if (attempt_play(&a, dice, ndice, e) != 0)
			goto out;
		if (r->after_play != NULL)
			r->after_play(r->after_play_arg);
		crash_point("mid-turn");
		if (store_begin(r->st, e) != 0)
			goto out;
		if (store_game_lock(r->st, a.g.id, e) != 0)
			goto fail;
		{
			struct store_game now;
			struct store_orders_mark m;
			int same;

			memset(&now, 0, sizeof(now));
			if (store_game_get(r->st, game, &now, e) != 0 ||
			    store_orders_mark(r->st, a.g.id, a.g.step, &m,
			    e) != 0) {
				store_game_clear(&now);
				goto fail;
			}
			same = now.step == a.g.step && now.status == a.g.status;
			store_game_clear(&now);
			if (!same) {
				err_set(e, ERR_USER, "game %s: turn %d was played by "
				    "another process meanwhile; nothing more was done",
				    a.g.name, battle_step_turn(a.b, a.g.step));
				goto fail;
			}
			if (memcmp(&m, &a.mark, sizeof(m)) != 0) {
				rc = 1;   /* new orders came in: play it again */
				goto fail_quiet;
			}
		}
	} else if (attempt_play(&a, dice, ndice, e) != 0) {
		goto fail;
	}
	if (attempt_write(r, &a, dice != NULL, tr, e) != 0)
		goto fail;
	crash_point("turn-written");
	if (store_commit(r->st, e) != 0)
		goto fail;
	crash_point("turn-committed");
	rc = 0;
	if (tr->finished) {
		/* The battle is over: what its mail held is given back. */
		r->vacuum_due = 1;
		referee_vacuum_due(r);
	}
	goto out;
fail_quiet:
	store_rollback(r->st);
	goto out;
fail:
	store_rollback(r->st);
out:
	attempt_free(&a);
	return rc;
}

/* A game with nonces: 0 to play the step now, 1 when it has just been
 * closed instead, -1 (with e) when its nonces are still awaited. */
static int
nonce_gate(struct referee *r, const char *game, struct turn_result *tr,
    struct err *e)
{
	struct store_game g;
	struct battle *b = NULL;
	int64_t closed = 0, closed_at = 0, owe = 0;
	int nonces, rc = -1;

	memset(&g, 0, sizeof(g));
	if (store_begin_read(r->st, e) != 0)
		return -1;
	if (store_game_get(r->st, game, &g, e) != 0)
		goto out;
	nonces = chain_nonces(r, g.id, e);
	if (nonces < 0)
		goto out;
	if (!nonces || g.status != GAME_RUNNING) {
		rc = 0;
		goto out;
	}
	if (store_game_closed(r->st, g.id, &closed, &closed_at, e) != 0 ||
	    chain_nonces_owed(r, g.id, g.step, &owe, e) != 0 ||
	    store_battle_load(r->st, &g, &b, e) != 0)
		goto out;
	store_rollback(r->st);
	if (closed != g.step) {
		/* Orders are frozen first; the nonces come after. */
		if (referee_close(r, game, e) != 0)
			goto done;
		tr->closed = 1;
		tr->step = g.step;
		tr->turn = battle_step_turn(b, g.step);
		tr->side = battle_step_side(b, g.step);
		rc = 1;
		goto done;
	}
	if (owe > 0 && referee_now(r) < closed_at) {
		err_set(e, ERR_USER, "game %s: turn %d is closed and %lld nonce%s "
		    "awaited; it is played when they are in, or in %lld minutes at "
		    "the latest", g.name, battle_step_turn(b, g.step),
		    (long long)owe, owe == 1 ? " is" : "s are",
		    (long long)((closed_at - referee_now(r) + 59) / 60));
		goto done;
	}
	rc = 0;
	goto done;
out:
	store_rollback(r->st);
done:
	battle_free(b);
	store_game_clear(&g);
	return rc;
}

int
referee_turn(struct referee *r, const char *game, const int *dice, int ndice,
    struct turn_result *tr, struct err *e)
{
	int tries, rc = 1;

	memset(tr, 0, sizeof(*tr));
	{
		int up, told;

		/* A game another engine played waits for the operator. */
		rc = referee_engine_gate(r, game, 1, &up, &told, e);
		if (rc != 0)
			return -1;
	}
	rc = nonce_gate(r, game, tr, e);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	rc = 1;
	/* Orders that arrive while the step is played make it play again
	 * with them; after a few tries, play it holding the lock. */
	for (tries = 0; rc == 1 && tries < 3; tries++)
		rc = turn_once(r, game, dice, ndice, 0, tr, e);
	if (rc == 1)
		rc = turn_once(r, game, dice, ndice, 1, tr, e);
	return rc;
}

int
referee_close(struct referee *r, const char *game, struct err *e)
{
	struct store_game g;
	struct battle *b = NULL;
	struct store_player pl[MAX_PLAYERS];
	struct played pd;
	struct chain_prep *cp = calloc(1, sizeof(*cp));
	int64_t reveal = 0, until = 0;
	int np, rc = -1;

	memset(&pd, 0, sizeof(pd));
	if (cp == NULL)
		return err_set(e, ERR_TEMP, "out of memory");
	if (referee_game_begin(r, game, &g, e) != 0) {
		free(cp);
		return -1;
	}
	if (store_battle_load(r->st, &g, &b, e) != 0)
		goto out;
	if (g.status != GAME_RUNNING) {
		err_set(e, ERR_USER, "game \"%s\" is not being played", game);
		goto out;
	}
	{
		/* The time the nonces are awaited until is fixed now: no later
		 * change of reveal-time moves it. */
		char v[32];
		int64_t now = referee_now(r);

		if (referee_setting_get(r, g.id, "reveal-time", v, sizeof(v),
		    e) != 0)
			goto out;
		if (referee_parse_time(v, &reveal) != 0)
			reveal = 3600;
		until = now + reveal;
		np = store_players(r->st, g.id, -1, pl, MAX_PLAYERS, e);
		if (np < 0 || played_read(r, &g, b, g.step, &pd, e) != 0 ||
		    chain_prepare(r, &g, b, g.step, pd.p, pd.n, cp, e) != 0)
			goto out;
		cp->reveal_secs = reveal;
		if (queue_close(r, &g, b, cp, pl, np, e) != 0 ||
		    store_game_close(r->st, g.id, g.step, now, cp->root, until,
		    e) != 0)
			goto out;
	}
	rc = 0;
out:
	played_free(&pd);
	chain_prep_free(cp);
	free(cp);
	battle_free(b);
	return referee_game_end(r, &g, rc, e);
}

const char *
referee_phase_who(const struct battle *b, int step)
{
	int ps = battle_step_side(b, step);

	if (ps >= 0)
		return b->sides[ps].name;
	return battle_step_deploys(b, step) ? "the deployment" : "every side";
}

int
referee_step_for(const struct battle *b, int turn, int side)
{
	int i;

	/* Turn 0 is the deployment, where the battle has one. */
	if (turn == 0)
		return battle_deploy_steps(b) > 0 ? 1 : -1;
	if (b->sequence != SEQ_ALTERNATE)
		return battle_deploy_steps(b) + turn;
	/* The turn's steps in the order its sides play them, as decided so
	 * far (battle_step_side: a ruleset's initiative, else the scenario). */
	for (i = 0; i < b->nsides; i++) {
		int s = battle_deploy_steps(b) + (turn - 1) * b->nsides + i + 1;

		if (battle_step_side(b, s) == side)
			return s;
	}
	return -1;
}

int
referee_refile_turn(struct referee *r, int64_t game, const struct battle *b,
    int turn, struct err *e)
{
	int i;

	if (b->sequence != SEQ_ALTERNATE || turn < 1 || turn > b->turns)
		return 0;
	/* Orders sent ahead for `turn` were filed by the scenario's order;
	 * where the battle has now decided another, each side's go to the
	 * step it plays (each side's rows are its own: none meet). */
	for (i = 0; i < b->nsides; i++) {
		int side = b->side_order[i];
		int was = battle_deploy_steps(b) + (turn - 1) * b->nsides + i + 1;
		int now = referee_step_for(b, turn, side);

		if (now > 0 && now != was &&
		    store_orders_refile(r->st, game, was, now, side, e) != 0)
			return -1;
	}
	return 0;
}
