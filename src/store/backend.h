/*
 * backend.h - what a store backend is: a table of the operations in
 * ops.h, and the part of struct store every backend shares.
 *
 * Like OpenSMTPD's queue backends: the rest of despatch calls store_NAME
 * (store.h); backend.c passes each call to the table of the backend the
 * store was opened with.  A backend is files of its own (SQLite's:
 * sqlite.h and sqlite_*.c) and one line in backend.c's list.  Not for use
 * outside src/store/.
 */
#ifndef DESPATCH_STORE_BACKEND_H
#define DESPATCH_STORE_BACKEND_H

#include "store/store.h"

struct store_backend {
	const char *name;
	/* 1 when this backend keeps the store named by where (a path, or a
	 * URI whose scheme it knows). */
	int (*claims)(const char *where);
	/* As store_open. */
	int (*open)(const char *where, int create, int max_version,
	    struct store **out, struct err *e);
	void (*close)(struct store *s);
#define STORE_OP(ret, name, params, args) ret (*name) params;
#define STORE_VOP(name, params, args) void (*name) params;
#include "store/ops.h"
#undef STORE_OP
#undef STORE_VOP
};

/* Every backend's store begins with this. */
struct store {
	const struct store_backend *be;
};

extern const struct store_backend store_backend_sqlite;

#endif
