/*
 * cverify.h - a battle's verified outcome, and a campaign's archive
 * checked from scratch (cverify.c).
 */
#ifndef DESPATCH_LEDGER_CVERIFY_H
#define DESPATCH_LEDGER_CVERIFY_H

#include <stdio.h>

#include "core/battle.h"
#include "ledger/record.h"

/* What a battle's archive, verified, says of its end: the final state
 * (b, battle_free), the steps played, the last head, and how it ended
 * (CARRY_BY_RESULT: by its own result; else the battle's side that won
 * by a concession, or -1 for a draw agreed). */
struct battle_outcome {
	char game[64];
	struct battle *b;
	int steps;
	unsigned char head[LEDGER_HASH];
	int ended;
};

/* Verifies the battle archive (len bytes) and gives its outcome: 0, or
 * -1 with why saying what fails (the archive does not verify, or the
 * battle is not over). */
int ledger_battle_outcome(const char *archive, size_t len,
    struct battle_outcome *out, char *why, size_t wsize);

struct cverify_result {
	char campaign[64];
	int finished, over, winner;  /* winner: a side's index, or -1 */
	char winner_id[BATTLE_ID_MAX];
	int records, turns, battles; /* checked */
	int engine;                  /* the campaign engine it is played by */
	unsigned char pk[LEDGER_PK];
	unsigned char head[LEDGER_HASH];       /* of the last record */
	unsigned char march_head[LEDGER_HASH]; /* of the last march */
	/* When it fails: the archive's line (1-based), the record, the
	 * field and a sentence. */
	int line, seq;
	char field[48];
	char msg[600];
};

/* Reads a campaign archive from in and checks all of it (cverify.c):
 * 0, or -1 with r naming the first line, record and field that fails. */
int ledger_campaign_verify(FILE *in, struct cverify_result *r);

/* 1 if the text begins as a campaign archive does. */
int ledger_is_campaign_archive(const char *head, size_t n);

#endif
