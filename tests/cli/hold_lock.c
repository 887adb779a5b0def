/*
 * hold_lock.c - holds a SQLite database's write lock for a while, so the
 * CLI test can show what `despatch submit` does when the database is
 * busy: exit 75, nothing stored, and the mail stored when fed again.
 *   usage: hold_lock DB MILLISECONDS READY-FILE
 * Creates READY-FILE once the lock is held.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int
main(int argc, char **argv)
{
	sqlite3 *db = NULL;
	struct timespec ts;
	long ms;
	FILE *f;

	if (argc != 4)
		return 2;
	ms = strtol(argv[2], NULL, 10);
	if (sqlite3_open(argv[1], &db) != SQLITE_OK ||
	    sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		fprintf(stderr, "hold_lock: %s\n", sqlite3_errmsg(db));
		return 1;
	}
	f = fopen(argv[3], "w");
	if (f != NULL)
		fclose(f);
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	nanosleep(&ts, NULL);
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(db);
	return 0;
}
