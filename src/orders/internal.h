/*
 * internal.h - what the order parser's files share: the parser, the
 * line helpers, and name resolution.
 *
 * orders.c reads order lines and commands, brigades.c gives a brigade's
 * order to its units, header.c finds the header,
 * canonical.c writes an order back as canonical text,
 * names.c resolves names of units, commanders and brigades (the rule is
 * docs/orders.md's "How names are read"), nearest.c measures how far a
 * name is from them (edit distances, "did you mean").
 */
#ifndef DESPATCH_ORDERS_INTERNAL_H
#define DESPATCH_ORDERS_INTERNAL_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "orders/orders.h"

struct names;

#define NORM_MAX 256   /* a name, normalised */

struct orders_parser {
	const struct ruleset *rs;
	pcre2_code *quote;   /* where a quoted earlier mail begins */
	pcre2_code *qsoft;   /* a line that begins one only when mail headers
	                      * follow it (Outlook's separator, "From:") */
	pcre2_code *fwd;     /* where a forwarded mail begins */
	pcre2_code *fwdhdr;  /* a header line of the forwarded mail */
	pcre2_code *cmd;     /* a mail command on a line of its own */
	pcre2_code *dist, *point, *turn, *bearing;
	pcre2_match_data *md;
	pcre2_match_context *mctx;   /* with jstack, for the JIT */
	pcre2_jit_stack *jstack;     /* NULL where the JIT is not built */
	uint64_t verb_initial[256];   /* bit i: verb i's word begins with
	                               * this byte, as orders_low folds it */
	uint32_t cmd_initials;   /* bit c - 'a': a command's word begins
	                          * with letter c (orders_cmd_initials) */
	char cmd_verbs[200];  /* the ruleset's verbs for commanders, listed */
	char verb_list[600];  /* all its verbs, listed (" ADVANCE, HOLD"),
	                       * or "" if they do not fit */
	struct names *names; /* the battle's names, normalised (cache) */
	const struct battle *bound;  /* the battle names is known to fit,
	                              * during one orders_parse */
	uint64_t limit;      /* brigades the player commands (0: all) */
	int limit_army;      /* ... and the army commander */
	int limited;         /* a limit is set (an army-only player has an
	                      * empty mask and is limited all the same) */
	int near;            /* names in the line taken as the nearest (the
	                      * line's reader sets it to 0 at each line) */
	char near_note[400]; /* what they were read as: "\"Virgina Militia\"
	                      * as \"Virginia Militia (Triplett and Tate)\"" */
	int cut;             /* parts past ORDER_MAX_STEPS were left out */
	uint32_t mopts;      /* PCRE2_NO_UTF_CHECK while the mail being read
	                      * is known to be valid UTF-8 */
	int deploying;       /* the mails are for the deployment step: DEPLOY
	                      * lines only (orders_parser_deploying) */
	int line_standing;   /* the line being read is a standing order */
	int replay;          /* reading stored orders again (turn, verify):
	                      * what a ruleset's own line needs of the table
	                      * as it was is left to the adjudicator
	                      * (orders_parser_replay) */
};

/* If text starts with the verb word (its words separated by any white
 * space, case ignored, then a space or the end), returns 1 and the offset
 * of what follows. */
int orders_verb_at(const char *text, const char *word, size_t *rest);

/* "DEPLOY AT x,y [FACING n]" (rest: what follows the word) into o, for
 * the deployment step (deploy.c).  0, or -1 with msg. */
int orders_parse_deploy(struct orders_parser *p, const struct battle *b,
    int side, int is_cmd, int who, const char *rest, struct order *o,
    char *msg, size_t msize);

/* A point "x,y" on the table into *out: 0, or -1 with msg (what names
 * the order in it). */
int orders_point(struct orders_parser *p, const struct battle *b,
    const char *arg, const char *what, struct pt *out, char *msg,
    size_t msize);

/* The arguments of an order, read as the parser's patterns read them
 * (args.c): 1 on a match, with the groups' offsets in g (start and end
 * of group 1, then of group 2), else 0.  s[0..len) is the argument. */
int orders_scan_dist(const char *s, size_t len, size_t g[2]);
int orders_scan_point(const char *s, size_t len, size_t g[4]);
int orders_scan_turn(const char *s, size_t len, size_t g[4]);
int orders_scan_bearing(const char *s, size_t len);

/* Matches re against s from start (the match in p->md). */
/* isspace() and tolower() of the C locale (ASCII only, bytes past 0x7f
 * kept), without a libc call a byte: every byte of every order line
 * passes through them. */
static inline int
orders_sp(unsigned char ch)
{
	return ch == ' ' || (ch >= '\t' && ch <= '\r');
}

static inline unsigned char
orders_low(unsigned char ch)
{
	return (unsigned)(ch - 'A') < 26u ? (unsigned char)(ch - 'A' + 'a') : ch;
}

/* Appends s at out + k (out holds size bytes, k < size), cut to fit:
 * the bytes snprintf(out + k, size - k, "%s", s) would write, without
 * its cost on the paths every order line takes.  The new end. */
static inline size_t
orders_cat(char *out, size_t size, size_t k, const char *s)
{
	size_t n = strlen(s);

	if (n > size - 1 - k)
		n = size - 1 - k;
	memcpy(out + k, s, n);
	out[k + n] = '\0';
	return k + n;
}

/* Copies s into out (size bytes), cut at a character boundary if it is
 * longer. */
void orders_copy_text(char *out, size_t size, const char *s);
/* A mail command on a line of its own (commands.c).  Returns 1 and fills
 * *c, 0 if the line is not one, -1 (with msg) if it is one written
 * wrongly. */
int orders_parse_command(struct orders_parser *p, const char *buf,
    struct orders_cmd *c, char *msg, size_t msize);
/* The first letters of the commands' words, lower case: bit c - 'a'. */
uint32_t orders_cmd_initials(void);

int orders_match(struct orders_parser *p, pcre2_code *re, const char *s,
    size_t len, size_t start);
/* After a match: group g into out. */
void orders_group(struct orders_parser *p, const char *s, int g, char *out,
    size_t size);
void orders_trim(char *s);
/* The line s[0..n) without its CR, trimmed, into buf; -1 if too long. */
int orders_take_line(const char *s, size_t n, char *buf, size_t size);
/* Is s[0..n) a signature separator ("-- ")? */
int orders_is_signature(const char *s, size_t n);

/* A line that begins quoted text: Q_SKIP the line alone (an attribution
 * above '>' lines, or a forwarded mail's separator and header block,
 * tracked in *fwd), Q_END everything from here (an unmarked quote). */
enum quote_kind { Q_NONE = 0, Q_SKIP, Q_END };
enum quote_kind orders_quote_start(struct orders_parser *p, const char *buf,
    size_t len, const char *rest, int *fwd);

/* Reads "VERB ARGS [THEN VERB ARGS]..." for one unit or commander (who,
 * is_cmd) into o.  Returns 0, or -1 with msg. */
int orders_parse_chain(struct orders_parser *p, const struct battle *b,
    int side, int is_cmd, int who, const char *what, struct order *o,
    char *msg, size_t msize);

/* One brigade line, expanded to the brigade's units when the mail is read
 * to its end (a unit's own line, before or after, wins). */
struct bline {
	int line;          /* in the mail */
	int standing;      /* a STANDING: line */
	int li;            /* its entry in out->lines */
	int brigade;
	char what[ORDERS_TEXT_MAX];
	char read_as[sizeof(((struct orders_parser *)0)->near_note)];
	                   /* the brigade's name, when it was read as the
	                    * nearest (p->near_note), else "" */
};

#define BLINES_MAX 32

/* The brigade lines bl[0..nbl) given to their units (brigades.c), the
 * units with lines of their own in seen_units (standing_units for
 * STANDING: lines: their line, negative when it could not be read), into
 * out's sets and the lines' answers. */
void orders_expand_brigades(struct orders_parser *p, const struct battle *b,
    int side, const struct bline *bl, int nbl, const int *seen_units,
    const int *standing_units, struct orders_result *out);

/* Which names a resolution looks among.  WHO_EXACT asks for exact
 * matches only (no name taken as the nearest); WHO_LINE is what a line's
 * name before the colon may be: the player's own units and commanders,
 * and failing those (exactly) the player's brigades, then the nearest of
 * all three. */
enum who { WHO_OWN_UNIT = 1, WHO_OWN_CMD = 2, WHO_ENEMY_UNIT = 4,
	WHO_FRIEND_UNIT = 8, WHO_BRIGADE = 16, WHO_ENEMY_CMD = 32,
	WHO_EXACT = 64, WHO_LINE = 128 };

enum cand_kind { C_UNIT = 0, C_CMD, C_BRIGADE };

#define CAND_WORDS 24    /* words of a name that are looked at */

/* One name of a candidate, normalised (NFKC, case folded, spaces and
 * dashes as ASCII, apostrophes dropped, abbreviations written out, one
 * space between words), with its words. */
struct form {
	char norm[NORM_MAX];
	int nlen;
	unsigned char wpos[CAND_WORDS], wlen[CAND_WORDS];
	int nw;
	uint32_t near_from;    /* bit w: measure the nearest from word w (not
	                        * when the rest from there is the rest of
	                        * another name of the same candidate) */
	int near_words;        /* measure it word by word (not when its words
	                        * are a run of another name's of the same
	                        * candidate, which measures no further) */
};

struct cand {
	const char *name;      /* in the battle */
	char raw[BATTLE_NAME_MAX];   /* a copy, to see that it is unchanged */
	enum cand_kind kind;
	int idx;
	int side;
	unsigned own, other;   /* the WHO_ bits it answers for a player of
	                        * its own side, and of another side */
	struct form f;         /* its name */
	int xf, nxf;           /* its other names (a brigade's "Howard's
	                        * brigade", a scenario's aliases): the
	                        * names' forms xf .. xf + nxf - 1 */
	uint64_t starts;       /* the first characters of the words of all
	                        * its names (a bit each), to pass over it
	                        * quickly */
};

static inline int
orders_cand_wanted(const struct cand *c, int side, unsigned which)
{
	return ((c->side == side ? c->own : c->other) & which) != 0;
}

/* A typed name, normalised (as struct form), with its words. */
struct typed {
	char t[NORM_MAX];
	size_t tl;
	unsigned char wpos[CAND_WORDS], wlen[CAND_WORDS];
	int nw;
};

/* The candidates `which` of c[0..n) (their other names in xf) nearest the
 * typed name for side, within twice the distance a name as long may be
 * and be taken (into *lim): their count, in list (nearest first, then in
 * c's order) with their distances in dist (nearest.c). */
int orders_nearest(const struct cand *c, int n, const struct form *xf,
    int side, unsigned which, const struct typed *ty, int *lim, int *list,
    int *dist);

/* Resolves name among the candidates `which` for side: 1 and *out when
 * one matches best; else 0 or the count of candidates, with msg saying
 * what is wrong and what would be right.  msize 0 (msg may be NULL) asks
 * only for the answer, without the text: the answer is the same.  A name
 * taken as the nearest (not exact) counts in p->near, and p->near_note
 * says what it was read as.  A name written exactly as the battle gives
 * it always resolves to that name. */
int orders_resolve(struct orders_parser *p, const struct battle *b, int side,
    unsigned which, const char *name, const struct cand **out, char *msg,
    size_t msize, const char *what);
/* Edit distances (Levenshtein), case ignored (ASCII), on the first
 * LEV_MAX bytes.  A pattern is prepared once and measured against many
 * strings. */
#define LEV_MAX 120
struct lev_pat {
	uint64_t peq[256];   /* bit i: the pattern's byte i is this one */
	int m;
	char s[LEV_MAX + 1]; /* the pattern, lower case */
};
void orders_lev_prep(struct lev_pat *lp, const char *a, size_t la);
/* The distance from the pattern to t[0..n), or max + 1 as soon as it is
 * known to be more than max. */
int orders_lev_run(const struct lev_pat *lp, const char *t, size_t n,
    int max);
int orders_lev(const char *a, const char *b);
/* The same by the full table (the reference the tests compare with). */
int orders_lev_dp(const char *a, size_t la, const char *b, size_t lb);
/* The least distance from the pattern to a prefix of t[0..n) (the empty
 * one too), max + 1 when none is within max: what a name written in part
 * is measured with. */
int orders_lev_prefix(const struct lev_pat *lp, const char *t, size_t n,
    int max);
/* The same by the full table. */
int orders_lev_prefix_dp(const char *a, size_t la, const char *t, size_t n);
void orders_names_free(struct names *n);
/* 1 if the abbreviation table is in order for its binary search. */
int orders_abbrevs_sorted(void);
/* Every Unicode space in s (a line of UTF-8) made an ASCII space, and the
 * invisible format characters (zero-width space, soft hyphen, BOM)
 * dropped, in place; the rest as it is, bytes that are not UTF-8 too.
 * Returns 1 if it changed anything.  A line of ASCII costs one scan. */
int orders_fold_spaces(char *s);
/* Has s[0..len) a character orders_fold_spaces changes?  So that a mail
 * without one (curly quotes alone, say) has no line folded. */
int orders_has_unicode_spaces(const char *s, size_t len);
/* name normalised as every name is before it is matched (struct form)
 * into out (size bytes); returns its length. */
size_t orders_name_norm(const char *name, char *out, size_t size);
/* Makes p->names fit battle b (normalising its names if they changed)
 * and binds it for the calls that follow; -1 when out of memory. */
int orders_names_bind(struct orders_parser *p, const struct battle *b);

/* orders_canonical with the battle's ruleset (ruleset_find(b->ruleset))
 * looked up already: a mail's every order line is written back. */
void orders_canonical_rs(const struct ruleset *rs, const struct battle *b,
    const struct order *o, char *buf, size_t size);
/* As orders_canonical_rs, and the length of the text written. */
size_t orders_canonical_n(const struct ruleset *rs, const struct battle *b,
    const struct order *o, char *buf, size_t size);

/* The pattern a mail command's line matches, made from the commands'
 * word table: 0, or -1 if it has a gap or out is too small. */
int orders_cmd_pattern(char *out, size_t size);

#endif
