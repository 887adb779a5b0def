/*
 * test_config.c - despatch.conf: every key read, comments after values,
 * and every mistake named with its line and what would be right.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"

static char path[256];

static void
write_conf(const char *text)
{
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/despatch-conf-%d.conf", (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
the_example_of_the_issue_reads_whole(void **state)
{
	struct config c;
	struct err e;

	(void)state;
	write_conf("database = /var/lib/despatch/despatch.db\n"
	    "from = despatch <umpire@club.example>       # our From\n"
	    "[imap]\n"
	    "url = imaps://mail.club.example/INBOX        # folder in the path\n"
	    "user = umpire\n"
	    "password-file = /etc/despatch/imap.pass\n"
	    "processed = Processed\nquarantine = Quarantine\n"
	    "idle = yes\npoll = 30s\n"
	    "ca-file = /etc/ssl/certs/club-ca.pem\n"
	    "; another comment\n"
	    "[maildir]\npath = /var/mail/umpire/Maildir\n"
	    "[smtp]\nurl = smtps://mail.club.example\nuser = umpire\n"
	    "password-file = /etc/despatch/smtp.pass\n");
	if (config_load(path, &c, &e) != 0)
		fail_msg("%s", e.msg);
	assert_string_equal(c.database, "/var/lib/despatch/despatch.db");
	assert_string_equal(c.from, "despatch <umpire@club.example>");
	assert_string_equal(c.imap.url, "imaps://mail.club.example/INBOX");
	assert_string_equal(c.imap.password_file, "/etc/despatch/imap.pass");
	assert_int_equal(c.idle, 1);
	assert_int_equal(c.poll_ms, 30000);
	assert_true(c.maildir.set);
	assert_string_equal(c.smtp.url, "smtps://mail.club.example");
	unlink(path);
}

static void
poll_takes_milliseconds_to_hours(void **state)
{
	static const struct { const char *v; int ms; } ok[] = {
		{ "250ms", 250 }, { "30s", 30000 }, { "45", 45000 },
		{ "2m", 120000 }, { "1h", 3600000 }, { "10ms", 10 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct config c;
		struct err e;
		char text[128];

		snprintf(text, sizeof(text), "[imap]\nurl = imap://x/INBOX\n"
		    "poll = %s\n", ok[i].v);
		write_conf(text);
		err_clear(&e);
		if (config_load(path, &c, &e) != 0)
			fail_msg("poll = %s: %s", ok[i].v, e.msg);
		assert_int_equal(c.poll_ms, ok[i].ms);
	}
	unlink(path);
}

static void
mistakes_name_their_line(void **state)
{
	static const struct { const char *text, *says; } bad[] = {
		{ "database = x.db\nfrum = a@b.example\n", ":2: unknown key \"frum\"" },
		{ "[imap]\nurl = http://x\n", ":2: url must start imap://" },
		{ "[smtp]\nurl = smtps://x\npassword = hunter2\n",
		  ":3: a password never goes in this file" },
		{ "[imap]\nurl = imap://x/INBOX\npoll = soon\n", ":3: poll takes a time" },
		{ "[imap]\nurl = imap://x/INBOX\npoll = 5ms\n", ":3: poll takes a time" },
		{ "[imap]\nurl = imap://x/INBOX\npoll = 2d\n", ":3: poll takes a time" },
		{ "[imap]\nurl = imap://x/INBOX\nidle = maybe\n", ":3: idle takes yes or no" },
		{ "from = umpire at club\n", ":1: from must be an address" },
		{ "[pop3]\nurl = x\n", ":2: there is no section [pop3]" },
		{ "database = x\nthis is not a line\n", ":2: not a 'key = value' line" },
		{ "[imap]\nuser = u\n", "[imap] needs a url" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct config c;
		struct err e;

		write_conf(bad[i].text);
		err_clear(&e);
		if (config_load(path, &c, &e) == 0 ||
		    strstr(e.msg, bad[i].says) == NULL)
			fail_msg("case %zu: got \"%s\", wanted \"%s\"", i, e.msg,
			    bad[i].says);
	}
	unlink(path);
}

static void
a_password_file_readable_by_others_is_refused(void **state)
{
	char secret[64];
	struct err e;

	(void)state;
	write_conf("hunter2\n");
	chmod(path, 0644);
	assert_int_equal(config_read_secret(path, secret, sizeof(secret), &e), -1);
	assert_non_null(strstr(e.msg, "chmod 600"));
	/* Its group may read it only the Debian way: root owns it and the
	 * group is the one despatchd runs in (ours); any other owner or
	 * group is "others" too. */
	chmod(path, 0640);
	if (getuid() == 0) {
		assert_int_equal(chown(path, 0, getegid()), 0);
		assert_int_equal(config_read_secret(path, secret, sizeof(secret),
		    &e), 0);
		assert_int_equal(chown(path, 0, 65534), 0);
		assert_int_equal(config_read_secret(path, secret, sizeof(secret),
		    &e), -1);
		assert_int_equal(chown(path, 65534, getegid()), 0);
		assert_int_equal(config_read_secret(path, secret, sizeof(secret),
		    &e), -1);
		chmod(path, 0660);
		assert_int_equal(chown(path, 0, getegid()), 0);
		assert_int_equal(config_read_secret(path, secret, sizeof(secret),
		    &e), -1);
		assert_int_equal(chown(path, 0, 0), 0);
	} else {
		/* Not root: the file is ours, so its group must not read. */
		assert_int_equal(config_read_secret(path, secret, sizeof(secret),
		    &e), -1);
	}
	chmod(path, 0604);
	assert_int_equal(config_read_secret(path, secret, sizeof(secret), &e), -1);
	chmod(path, 0600);
	assert_int_equal(config_read_secret(path, secret, sizeof(secret), &e), 0);
	assert_string_equal(secret, "hunter2");
	unlink(path);
}

/* Durations in 64 bits: an hour count that would wrap a 32-bit long
 * times 3600000 is refused, not read as a small number. */
static void
durations_are_checked_before_they_wrap(void **state)
{
	static const struct { const char *v; int ms; } ok[] = {
		{ "250ms", 250 }, { "30s", 30000 }, { "30", 30000 }, { "2m", 120000 },
		{ "24h", 86400000 }, { "10ms", 10 },
	};
	static const char *const bad[] = {
		"25h", "1194h", "1193047h", "4294967296ms", "9ms", "-1s", " 5s", "5x",
		"", "s", "1441m",
	};
	size_t i;
	int ms;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		ms = -1;
		assert_int_equal(config_duration_ms(ok[i].v, &ms), 0);
		assert_int_equal(ms, ok[i].ms);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (config_duration_ms(bad[i], &ms) == 0)
			fail_msg("\"%s\" was taken as %d ms", bad[i], ms);
}

/* The configuration reader's fuzz corpus (tests/fuzz/corpus/config):
 * valid-* read, bad-* refused naming the file and its line. */
static void
config_corpus_reads_or_names_the_line(void **state)
{
	const char *dir = DESPATCH_SOURCE_DIR "/tests/fuzz/corpus/config";
	DIR *d = opendir(dir);
	struct dirent *de;
	int good = 0, badn = 0;

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		struct config c;
		struct err e;
		char path[1024];
		int rc;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		err_clear(&e);
		rc = config_load(path, &c, &e);
		if (strncmp(de->d_name, "valid-", 6) == 0) {
			if (rc != 0)
				fail_msg("%s: %s", de->d_name, e.msg);
			good++;
		} else {
			char want[1100];

			if (rc == 0)
				fail_msg("%s was read", de->d_name);
			snprintf(want, sizeof(want), "%s:", path);
			if (strncmp(e.msg, want, strlen(want)) != 0)
				fail_msg("%s: the message names no line: %s", de->d_name,
				    e.msg);
			badn++;
		}
	}
	closedir(d);
	assert_true(good >= 2 && badn >= 4);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_example_of_the_issue_reads_whole),
		cmocka_unit_test(poll_takes_milliseconds_to_hours),
		cmocka_unit_test(mistakes_name_their_line),
		cmocka_unit_test(a_password_file_readable_by_others_is_refused),
		cmocka_unit_test(config_corpus_reads_or_names_the_line),
		cmocka_unit_test(durations_are_checked_before_they_wrap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
