/*
 * internal.h - what the referee's files share and nobody else sees.
 */
#ifndef DESPATCH_REFEREE_INTERNAL_H
#define DESPATCH_REFEREE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/battle.h"
#include "core/err.h"
#include "referee/referee.h"

#define MAX_PLAYERS 64

/* Composes a mail and queues it in the outbox.  A sensitive one (it holds
 * a secret) loses its body once delivered. */
int queue_mail_s(struct referee *r, int64_t game_id, const char *game,
    const char *to, const char *subject, const char *kind,
    const char *in_reply_to, const char *body, int sensitive, struct err *e);
int queue_mail(struct referee *r, int64_t game_id, const char *game,
    const char *to, const char *subject, const char *kind,
    const char *in_reply_to, const char *body, struct err *e);

/* The step at which side plays turn (-1 if none). */
int step_for(const struct battle *b, int turn, int side);

/* The few lines on how to write an order mail, ending every refusal. */
extern const char help_tail[];

/* Blanks, in buf, the typed secret and every word that follows PASSWORD,
 * SECRET or "secret:". */
void redact(char *buf, size_t len, const char *secret);
/* Blanks every word of buf that is one of the n secrets whose keyed
 * hashes are in hashes (32 bytes each). */
void redact_known(char *buf, size_t len, const unsigned char *hashes, int n,
    const unsigned char key[32]);
/* 1 if what occurs in buf, ignoring case. */
int has_ci(const char *buf, size_t len, const char *what);

#endif
