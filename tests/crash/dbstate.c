/*
 * dbstate.c - prints a despatch database's state for the crash harness:
 * the result of PRAGMA integrity_check and foreign_key_check, then every
 * row that a step or a mail changes, without what differs between two
 * runs of the same thing (row ids, times, random Message-IDs), in a
 * stable order.  Two databases that went through the same work print the
 * same text.
 *   usage: dbstate DB
 *          dbstate DB --has MESSAGE-ID
 *          dbstate DB --held
 * The second exits 0 when the database holds the mail of that Message-ID
 * (read, or spooled and not yet read), 1 when it does not.  The third
 * prints how many queued mails, never yet tried, are held back past now
 * (an order reply waiting for its map).
 */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

static int
dump(sqlite3 *db, const char *title, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int rc, i, n;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "dbstate: %s: %s\n", title, sqlite3_errmsg(db));
		return -1;
	}
	printf("== %s\n", title);
	n = sqlite3_column_count(st);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (i = 0; i < n; i++) {
			const unsigned char *t = sqlite3_column_text(st, i);

			printf("%s%s", i ? "|" : "", t ? (const char *)t : "NULL");
		}
		printf("\n");
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int
main(int argc, char **argv)
{
	sqlite3 *db = NULL;
	int bad = 0;

	if (argc != 2 && !(argc == 4 && strcmp(argv[2], "--has") == 0) &&
	    !(argc == 3 && strcmp(argv[2], "--held") == 0))
		return 2;
	if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		fprintf(stderr, "dbstate: %s: %s\n", argv[1], sqlite3_errmsg(db));
		return 1;
	}
	if (argc == 3) {
		int rc = dump(db, "held", "SELECT count(*) FROM outbox WHERE "
		    "delivered_at IS NULL AND failed_at IS NULL AND hold_step IS "
		    "NULL AND attempts = 0 AND next_attempt_at > "
		    "CAST(strftime('%s', 'now') AS INTEGER)");

		sqlite3_close(db);
		return rc == 0 ? 0 : 1;
	}
	if (argc == 4) {
		sqlite3_stmt *st = NULL;
		char like[600];
		int found = 0;

		snprintf(like, sizeof(like), "%%<%s>%%", argv[3]);
		if (sqlite3_prepare_v2(db, "SELECT (SELECT count(*) FROM messages "
		    "WHERE message_id = ?1) + (SELECT count(*) FROM spool WHERE "
		    "CAST(raw AS TEXT) LIKE ?2)", -1, &st, NULL) != SQLITE_OK) {
			fprintf(stderr, "dbstate: %s\n", sqlite3_errmsg(db));
			sqlite3_close(db);
			return 2;
		}
		sqlite3_bind_text(st, 1, argv[3], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, like, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW)
			found = sqlite3_column_int(st, 0) > 0;
		sqlite3_finalize(st);
		sqlite3_close(db);
		return found ? 0 : 1;
	}
	bad |= dump(db, "integrity", "PRAGMA integrity_check");
	bad |= dump(db, "foreign keys", "PRAGMA foreign_key_check");
	bad |= dump(db, "games", "SELECT name, status, step, coalesce(result, '') "
	    "FROM games ORDER BY name");
	bad |= dump(db, "turns", "SELECT game_id, step, turn, side_idx, "
	    "hex(seed), dice_rolled FROM turns ORDER BY game_id, step");
	bad |= dump(db, "stands", "SELECT game_id, idx, sp, x, y, facing, "
	    "formation, flags FROM stands ORDER BY game_id, idx");
	bad |= dump(db, "brigades", "SELECT game_id, idx, level10, sp_lost, "
	    "exhausted, collapsed FROM brigades ORDER BY game_id, idx");
	bad |= dump(db, "commanders", "SELECT game_id, idx, x, y, gone FROM "
	    "commanders ORDER BY game_id, idx");
	bad |= dump(db, "events", "SELECT game_id, step, seq, kind, text FROM "
	    "events ORDER BY game_id, step, seq");
	bad |= dump(db, "messages", "SELECT hex(sha256), coalesce(sender, ''), "
	    "status, coalesce(step, 0) FROM messages ORDER BY hex(sha256)");
	bad |= dump(db, "orders", "SELECT o.step, o.side_idx, o.seq, o.canonical, "
	    "o.superseded, hex(m.sha256) FROM orders o JOIN messages m ON "
	    "m.id = o.message ORDER BY hex(m.sha256), o.seq");
	bad |= dump(db, "outbox", "SELECT recipient, kind, subject, "
	    "delivered_at IS NOT NULL FROM outbox ORDER BY recipient, kind, "
	    "subject");
	sqlite3_close(db);
	return bad ? 1 : 0;
}
