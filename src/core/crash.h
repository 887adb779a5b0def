/*
 * crash.h - named crash points, for tests only.
 *
 * When $DESPATCH_CRASH (which the fronts, despatch and despatchd, pass
 * to crash_init) is NAME, the process kills itself (SIGKILL, as a
 * power cut would) the first time it reaches crash_point(NAME); with
 * NAME:K, the K-th time.  Each point sits at a boundary where a crash
 * must lose, double and half-apply nothing; tests/crash/points.sh and the
 * store's unit test kill at every one of them and check so.
 *
 * The points, in the order a mail meets them:
 *   migration-applied   a migration's SQL and version run, not committed
 *   migration-committed a migration committed
 *   batch-spooled       despatchd: a batch of mails spooled, not committed
 *   after-fetch         despatchd (IMAP): a batch fetched, not committed
 *   after-store         despatchd: a batch committed, none moved out yet
 *   after-move          despatchd (Maildir): one mail of a committed batch
 *                       moved to cur/ (once a mail: use after-move:K)
 *   intake-stored       a mail's rows written, its transaction not committed
 *   intake-committed    a mail committed, its order reply not yet drawn
 *   batch-committed     a batch committed, its replies' maps not yet drawn
 *                       (the daemon's spool batch, then each read batch)
 *   after-read          despatchd: a batch of spooled mails read, committed
 *   mid-turn            a step played, nothing of it written yet
 *   turn-written        a step's rows written, not committed
 *   turn-committed      a step committed
 *   after-write         outbox write: a mail's file made, not marked
 *   after-send          outbox send: the SMTP server took a mail, not marked
 *   after-mark          outbox: a mail marked delivered
 */
#ifndef DESPATCH_CORE_CRASH_H
#define DESPATCH_CORE_CRASH_H

/* Kills the process here when $DESPATCH_CRASH names this point (and this
 * is its K-th visit); otherwise returns at once. */
/* What $DESPATCH_CRASH and $DESPATCH_FAULT say (NULL: nothing), given
 * once by the program's front. */
void crash_init(const char *crash, const char *fault);
void crash_point(const char *name);

/* Tests only, the same way: 1 when $DESPATCH_FAULT names this point (or
 * NAME:K, from its K-th visit on), and the caller then fails as a passing
 * trouble (a full disk, a lock) would; else 0.  Points:
 *   spool-add    the daemon's insert of one mail into the spool
 *   outbox-mark  marking a mail the SMTP server took as sent
 */
int crash_fault_point(const char *name);

#endif
