/*
 * cli.h - what the files of the despatch command share: the database
 * path, exit codes, and the helpers every command uses to fail and to
 * open the store.  Each command is `int cmd_NAME(int argc, char **argv)`,
 * argv[0] being the command's name.
 */
#ifndef DESPATCH_CLI_H
#define DESPATCH_CLI_H

#include <stdio.h>
#include <sys/types.h>

#include "core/err.h"

struct referee;

#define EXIT_USAGE 2
/* The largest mail submit (and the demo) reads. */
#define SUBMIT_MAX (4u * 1024u * 1024u)
#define EXIT_TEMPFAIL 75

extern const char *db_path;
/* The configuration read (-c, $DESPATCH_CONFIG or the default), or NULL. */
struct config;
extern const struct config *cli_config;
/* For 'check': the -c FILE given, which main does not load for it. */
extern const char *cli_config_path;

/* Prints the error; returns 75 for a passing failure, else 1. */
int cli_fail(const struct err *e);
/* Prints a usage error for cmd; returns 2. */
int cli_usage_error(const char *cmd, const char *msg);
int cli_unknown_option(const char *cmd, const char *opt);
/* 1 if --help or -h is among the arguments. */
int cli_wants_help(int argc, char **argv);
/* Prints usage (the command's usage lines and what it does) to standard
 * output if --help or -h is among the arguments: 1 then, else 0. */
int cli_help(int argc, char **argv, const char *usage);
/* The same for a command that answers arguments that do not fit (bad)
 * with its usage too: 0 after the help, EXIT_USAGE after bad arguments,
 * else -1 (go on). */
int cli_help_or_usage(int argc, char **argv, int bad, const char *usage);
/* The referee on the database (create: a new one), with the options the
 * CLI was configured with; says once if the database was upgraded. */
int cli_open(int create, struct referee **r, struct err *e);
/* The options the CLI was configured with (for a front that changes
 * some, as the demo does). */
struct referee_opts;
const struct referee_opts *cli_referee_opts(void);

int cmd_set(int argc, char **argv);
int cmd_game(int argc, char **argv);
int cmd_tick(int argc, char **argv);
int cmd_pause(int argc, char **argv);
int cmd_resume(int argc, char **argv);
int cmd_extend(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_campaign(int argc, char **argv);
struct battle;
int cmd_demo_campaign(int argc, char **argv);
/* The folder of the demo's battle (campaign/cowpens-1781), found as the
 * demo finds it ($DESPATCH_CAMPAIGN_DIR, beside the program, installed):
 * 0, or -1. */
int cli_find_campaign(char *out, size_t size);
/* The map of a demo's battle as it stands, as DIR/maps/GAME-WHEN.png and
 * .svg, so a newcomer sees the field at once: 0, or -1 with e set. */
int cli_demo_maps(const char *dir, const char *game, const struct battle *b,
    const char *when, const char *subtitle, struct err *e);
/* What a demo removes before it runs again: the database dbfile with its
 * journal and key files; the outbox's mail files in dir whose names
 * start with one of prefixes (NULL-ended): 0, or -1 (dir unreadable). */
void cli_demo_fresh_db(const char *dbfile);
int cli_demo_clean_mail(const char *dir, const char *const *prefixes);
int cmd_games(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_key(int argc, char **argv);
int cmd_ledger(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_map(int argc, char **argv);
int cmd_backup(int argc, char **argv);
int cmd_restore(int argc, char **argv);
int cmd_vacuum(int argc, char **argv);

/* fopen(path, "w") for a file meant for others (an archive, a map): mode
 * 0644 whatever the umask. */
FILE *cli_fopen_public(const char *path);
/* Writes the queued mail to dir as .eml files (and marks it sent);
 * *written counts them. */
int cmd_outbox(int argc, char **argv);
int cli_outbox_write(struct referee *r, const char *dir, int quiet,
    int *written, struct err *e);

#endif
