/*
 * sqlite_absence.c - a player's secret waiting to be used (SECRET) and
 * their absences (ABSENT): migration 027 (see store.h, ops.h).
 */
#include "store/store.h"

#include <sqlite3.h>

#include <stdio.h>
#include <string.h>

#include "store/sqlite.h"

int
sqlite_player_pending_set(struct store *s, int64_t player,
    const unsigned char hash[32], struct err *e)
{
	return store_exec(s, e, "UPDATE players SET pending_hash = ? WHERE "
	    "id = ?", "bi", (const void *)hash, (size_t)32, player);
}

int
sqlite_player_pending_take(struct store *s, int64_t player, struct err *e)
{
	if (store_exec(s, e, "UPDATE players SET secret_hash = pending_hash, "
	    "pending_hash = NULL WHERE id = ? AND pending_hash IS NOT NULL", "i",
	    player) != 0)
		return -1;
	return sqlite3_changes(SQ(s)->db) > 0;
}

int
sqlite_absence_add(struct store *s, int64_t player, const char *first,
    const char *last, int64_t now, struct err *e)
{
	return store_exec(s, e, "INSERT INTO absences (player_id, first_day, "
	    "last_day, created_at) VALUES (?, ?, ?, ?)", "itti", player, first,
	    last, now);
}

int
sqlite_absence_cancel(struct store *s, int64_t player, const char *today,
    const char *yesterday, struct err *e)
{
	int n;

	if (store_exec(s, e, "DELETE FROM absences WHERE player_id = ? AND "
	    "first_day >= ?", "it", player, today) != 0)
		return -1;
	n = sqlite3_changes(SQ(s)->db);
	if (store_exec(s, e, "UPDATE absences SET last_day = ? WHERE "
	    "player_id = ? AND first_day < ? AND last_day >= ?", "titt",
	    yesterday, player, today, today) != 0)
		return -1;
	return n + sqlite3_changes(SQ(s)->db);
}

int
sqlite_absence_days(struct store *s, int64_t player, int64_t *days,
    struct err *e)
{
	return store_query_int_or(s, e, days, 0, "SELECT coalesce(sum("
	    "julianday(last_day) - julianday(first_day) + 1), 0) FROM absences "
	    "WHERE player_id = ?", "i", player);
}

int
sqlite_absences(struct store *s, int64_t game, const char *since,
    struct store_absence *out, int max, struct err *e)
{
	sqlite3_stmt *st = NULL;
	int n = 0, rc;

	if (store_prepare(s, e, &st, "SELECT a.id, a.player_id, a.first_day, "
	    "a.last_day FROM absences a JOIN players p ON p.id = a.player_id "
	    "WHERE p.game_id = ? AND a.last_day >= ? ORDER BY a.first_day, a.id",
	    "it", game, since) != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max) {
		out[n].id = sqlite3_column_int64(st, 0);
		out[n].player = sqlite3_column_int64(st, 1);
		store_col_text(st, 2, out[n].first, sizeof(out[n].first));
		store_col_text(st, 3, out[n].last, sizeof(out[n].last));
		n++;
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		n = store_db_err(s, e, "reading absences");
	store_stmt_release(s, st);
	return n;
}
