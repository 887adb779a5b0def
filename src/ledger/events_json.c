/*
 * events_json.c - a step's events in an archive (events_json.h).
 */
#include "ledger/events_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const keys_text[] = { "kind", "side", "unit", "target",
	"value", "sides", "text", NULL };
static const char *const keys_typed[] = { "kind", "side", "unit", "target",
	"value", "sides", "msg", "args", NULL };
static const char *const numbers[] = { "side", "unit", "target", "value",
	"sides" };

int
ledger_json_keys_exact(json_t *o, const char *const *keys)
{
	void *it = json_object_iter(o);
	size_t n = 0;

	for (; keys[n] != NULL; n++, it = json_object_iter_next(o, it))
		if (it == NULL ||
		    strcmp(json_object_iter_key(it), keys[n]) != 0)
			return 0;
	return it == NULL;
}

/* x's values: [{"unit": "23rd Foot"}, {"stand": 2}, ...]. */
static json_t *
args_json(const struct event *x)
{
	json_t *a = json_array();
	int k;

	for (k = 0; a != NULL && k < x->nargs; k++) {
		const char *v = events_arg(x, k);
		json_t *o;

		if (!events_type_signed(x->types[k]))
			continue;   /* its wording is not signed, nor archived */
		o = json_object();
		if (o == NULL || json_array_append_new(a, o) != 0) {
			json_decref(a);
			return NULL;
		}
		json_object_set_new(o, events_type_name(x->types[k]),
		    events_type_number(x->types[k]) ?
		    json_integer(strtol(v, NULL, 10)) : json_string(v));
	}
	return a;
}

json_t *
ledger_events_to_json(const struct events *ev, const int *steps, int step,
    int typed)
{
	json_t *a = json_array();
	int i;

	for (i = 0; a != NULL && i < ev->n; i++) {
		const struct event *x = &ev->v[i];
		json_t *o;

		if (steps[i] != step)
			continue;
		if ((o = json_object()) == NULL || json_array_append_new(a, o) != 0) {
			json_decref(a);
			return NULL;
		}
		json_object_set_new(o, "kind", json_string(events_kind_name(x->kind)));
		json_object_set_new(o, "side", json_integer(x->side));
		json_object_set_new(o, "unit", json_integer(x->unit));
		json_object_set_new(o, "target", json_integer(x->target));
		json_object_set_new(o, "value", json_integer(x->value));
		json_object_set_new(o, "sides", json_integer(x->sides));
		if (typed) {
			json_object_set_new(o, "msg", json_string(x->msg));
			json_object_set_new(o, "args", args_json(x));
		} else {
			json_object_set_new(o, "text", json_string(x->text));
		}
	}
	return a;
}

/* The values of an archived event into buf (NUL after each) and their
 * letters into types: -1 unless arr is an array of one-key objects, each
 * a known kind of value with a string, or a whole number for a number's
 * kind. */
static int
args_of(json_t *arr, char *types, char *buf, size_t size, size_t *len)
{
	size_t i, k = 0;

	if (!json_is_array(arr) || json_array_size(arr) > EVENT_ARGS_MAX)
		return -1;
	for (i = 0; i < json_array_size(arr); i++) {
		json_t *o = json_array_get(arr, i), *v;
		void *it = json_object_iter(o);
		char piece[EVENT_TEXT_MAX], t;
		size_t n;

		if (!json_is_object(o) || json_object_size(o) != 1 || it == NULL)
			return -1;
		t = events_type_parse(json_object_iter_key(it));
		v = json_object_iter_value(it);
		if (t == 0 || !events_type_signed(t))
			return -1;
		if (events_type_number(t)) {
			if (!json_is_integer(v) || json_integer_value(v) <
			    -2147483647 || json_integer_value(v) > 2147483647)
				return -1;
			snprintf(piece, sizeof(piece), "%lld",
			    (long long)json_integer_value(v));
		} else {
			if (!json_is_string(v) ||
			    strlen(json_string_value(v)) >= sizeof(piece))
				return -1;
			snprintf(piece, sizeof(piece), "%s", json_string_value(v));
		}
		n = strlen(piece) + 1;
		if (k + n > size)
			return -1;
		memcpy(buf + k, piece, n);
		k += n;
		types[i] = t;
	}
	types[i] = '\0';
	*len = k;
	return 0;
}

int
ledger_events_from_json(json_t *arr, int typed, struct events *ev)
{
	size_t i;

	if (!json_is_array(arr))
		return -1;
	for (i = 0; i < json_array_size(arr); i++) {
		json_t *o = json_array_get(arr, i), *v;
		const char *kind = json_string_value(json_object_get(o, "kind"));
		const char *text = json_string_value(json_object_get(o, "text"));
		const char *msg = json_string_value(json_object_get(o, "msg"));
		int k = kind != NULL ? events_kind_parse(kind) : -1, nums[5];
		char types[EVENT_ARGS_MAX + 1], buf[EVENT_TEXT_MAX];
		size_t q, len = 0;

		if (k < 0 || !ledger_json_keys_exact(o, typed ? keys_typed :
		    keys_text) || (typed ? msg == NULL || msg[0] == '\0' || args_of(json_object_get(o,
		    "args"), types, buf, sizeof(buf), &len) != 0 : text == NULL))
			return -1;
		/* Every number a whole one in int's range: no value may read
		 * the same as another once cut down. */
		for (q = 0; q < sizeof(numbers) / sizeof(numbers[0]); q++) {
			v = json_object_get(o, numbers[q]);
			if (!json_is_integer(v) || json_integer_value(v) < -2147483647 ||
			    json_integer_value(v) > 2147483647)
				return -1;
			nums[q] = (int)json_integer_value(v);
		}
		events_add(ev, (enum event_kind)k, nums[0], nums[1], nums[2],
		    nums[3], "%s", typed ? "" : text);
		if (ev->overflow)
			return -1;
		ev->v[ev->n - 1].sides = nums[4];
		if (typed && events_set_message(ev, msg, types, buf, len) != 0)
			return -1;
	}
	return 0;
}

/* Do x and y have the same signed values (their wording left out)? */
static int
values_same(const struct event *x, const struct event *y)
{
	int i = 0, j = 0;

	for (;;) {
		while (i < x->nargs && !events_type_signed(x->types[i]))
			i++;
		while (j < y->nargs && !events_type_signed(y->types[j]))
			j++;
		if (i == x->nargs || j == y->nargs)
			return i == x->nargs && j == y->nargs;
		if (x->types[i] != y->types[j] ||
		    strcmp(events_arg(x, i), events_arg(y, j)) != 0)
			return 0;
		i++;
		j++;
	}
}

int
ledger_events_same(const struct events *a, const struct events *b, int *at)
{
	int i;

	for (i = 0; i < a->n && i < b->n; i++) {
		const struct event *x = &a->v[i], *y = &b->v[i];

		if (x->kind != y->kind || x->side != y->side || x->unit != y->unit ||
		    x->target != y->target || x->value != y->value ||
		    x->sides != y->sides || (x->msg[0] != '\0' && y->msg[0] !=
		    '\0' && (strcmp(x->msg, y->msg) != 0 || !values_same(x, y))) ||
		    (x->text[0] != '\0' && y->text[0] != '\0' &&
		    strcmp(x->text, y->text) != 0)) {
			*at = i;
			return 0;
		}
	}
	*at = i;
	return a->n == b->n;
}
