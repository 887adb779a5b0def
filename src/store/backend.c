/*
 * backend.c - store_NAME for each operation of ops.h, passed to the
 * backend the store was opened with.
 */
#include <stdlib.h>

#include "store/backend.h"

#include <stddef.h>

/* The backends this build has, tried in turn; the last takes any path. */
static const struct store_backend *const backends[] = {
	&store_backend_sqlite,
};

int
store_open(const char *path, int create, int max_version, struct store **out,
    struct err *e)
{
	size_t i;

	*out = NULL;
	for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (backends[i]->claims(path))
			return backends[i]->open(path, create, max_version, out,
			    e);
	return err_set(e, ERR_USER, "%s: no store backend of this build keeps "
	    "it (it has: sqlite)", path);
}

void
store_campaign_clear(struct store_campaign *c)
{
	free(c->file_text);
	free(c->state_text);
	free(c->pending);
	c->file_text = c->state_text = c->pending = NULL;
}

void
store_cfields_free(struct store_cfield *f, int n)
{
	int i;

	for (i = 0; f != NULL && i < n; i++)
		free(f[i].text);
	free(f);
}

void
store_crecords_free(struct store_crecord *r, int n)
{
	int i;

	for (i = 0; r != NULL && i < n; i++)
		free(r[i].rec);
	free(r);
}

void
store_close(struct store *s)
{
	if (s != NULL)
		s->be->close(s);
}

const char *
store_backend_name(const struct store *s)
{
	return s->be->name;
}

#define STORE_OP(ret, name, params, args) \
	ret store_##name params { return s->be->name args; }
#define STORE_VOP(name, params, args) \
	void store_##name params { s->be->name args; }
#include "store/ops.h"
#undef STORE_OP
#undef STORE_VOP
