#!/usr/bin/env python3
"""fake_smtp.py - an SMTP server on 127.0.0.1 that answers by recipient,
for tests of how despatch takes each kind of answer without a real MTA.

    fake_smtp.py PORTFILE LOG [SECONDS]

Binds a free port on 127.0.0.1, writes it to PORTFILE, and serves until
SECONDS (default 60) have passed.  RCPT TO a local part starting with
"grey" gets 451 (greylisted: try later), "gone" gets 550 (no such user),
anyone else 250; a mail accepted is logged to LOG as "accepted RCPT".
No TLS, no AUTH: despatch tries STARTTLS only where it is offered.
"""
import socket
import sys
import threading
import time


def serve(conn, log):
    f = conn.makefile("rwb", buffering=0)

    def say(line):
        f.write((line + "\r\n").encode())

    say("220 fake.example.test ESMTP")
    rcpt = []
    while True:
        raw = f.readline()
        if not raw:
            break
        line = raw.decode("latin-1").rstrip("\r\n")
        verb = line[:4].upper()
        if verb in ("EHLO", "HELO"):
            say("250-fake.example.test")
            say("250 SIZE 10000000")
        elif verb == "MAIL":
            rcpt = []
            say("250 2.1.0 ok")
        elif verb == "RCPT":
            addr = line.split(":", 1)[1].strip().strip("<>").lower()
            if addr.startswith("grey"):
                say("451 4.7.1 greylisted, try again later")
            elif addr.startswith("gone"):
                say("550 5.1.1 no such user here")
            else:
                rcpt.append(addr)
                say("250 2.1.5 ok")
        elif verb == "DATA":
            if not rcpt:
                say("554 5.5.1 no valid recipients")
                continue
            say("354 go ahead")
            while True:
                d = f.readline()
                if not d or d in (b".\r\n", b".\n"):
                    break
            with open(log, "a") as out:
                for r in rcpt:
                    out.write("accepted %s\n" % r)
            say("250 2.0.0 queued")
        elif verb == "RSET":
            rcpt = []
            say("250 ok")
        elif verb == "NOOP":
            say("250 ok")
        elif verb == "QUIT":
            say("221 bye")
            break
        else:
            say("502 5.5.2 not here")
    conn.close()


def main():
    portfile, log = sys.argv[1], sys.argv[2]
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 60.0
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(8)
    s.settimeout(0.5)
    with open(portfile + ".tmp", "w") as p:
        p.write("%d\n" % s.getsockname()[1])
    import os
    os.rename(portfile + ".tmp", portfile)
    end = time.time() + seconds
    while time.time() < end:
        try:
            conn, _ = s.accept()
        except socket.timeout:
            continue
        threading.Thread(target=serve, args=(conn, log), daemon=True).start()
    s.close()


if __name__ == "__main__":
    main()
