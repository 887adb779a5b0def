/*
 * check.h - checking a chain of ledger records (check.c).
 */
#ifndef DESPATCH_LEDGER_CHECK_H
#define DESPATCH_LEDGER_CHECK_H

#include "ledger/record.h"

/* One record as stored or archived: its bytes, head and signature. */
struct ledger_rec {
	const unsigned char *rec;
	size_t n;
	unsigned char head[LEDGER_HASH];
	unsigned char sig[LEDGER_SIG];
};

/* The first thing found wrong: which record (0 the genesis), its step,
 * the field, and a sentence. */
struct ledger_fail {
	int index;
	int step;
	char field[32];
	char msg[256];
};

/* Checks recs[0..n) (the genesis first) and fills *gen from it; *ended
 * (if not NULL) says whether the chain ends with a concession (1) or an
 * agreed draw (2).  Each
 * step must name the engine the game plays (the genesis's, or the last
 * upgrade's), and an upgrade must start from that engine and carry the
 * state the last step signed.  0, or -1
 * with *f naming the first record and field that fails. */
int ledger_check_chain(const struct ledger_rec *recs, int n,
    struct ledger_genesis *gen, int *ended, struct ledger_fail *f);

#endif
