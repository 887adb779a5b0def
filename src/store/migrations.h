/*
 * migrations.h - the schema migrations compiled in from db/NNN_name.sql.
 * Migration NNN brings a database from user_version NNN-1 to NNN.
 */
#ifndef DESPATCH_STORE_MIGRATIONS_H
#define DESPATCH_STORE_MIGRATIONS_H

struct store_migration {
	int version;
	const char *name;
	const char *sql;
};

extern const struct store_migration store_migrations[];
extern const int store_migration_count;

#endif
