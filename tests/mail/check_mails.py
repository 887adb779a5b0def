#!/usr/bin/env python3
"""check_mails.py - reads every mail despatch wrote with Python's own email
package, as a second reader beside libetpan, and checks what a mail
program needs of it.

    check_mails.py DIR [--want-html N]

For each DIR/*.eml:
  - it parses without defects (email.policy.default registers each thing
    it had to guess at or repair);
  - every line ends in CRLF and none is longer than 998 octets;
  - it has a text/plain body that decodes as UTF-8;
  - an HTML part, if any, refers by cid: only to parts that are in the
    same multipart/related, and every image there is a PNG or SVG that
    starts as one should;
  - a JSON attachment parses as JSON.
With --want-html N, at least N mails must have an HTML part with an
inline image.  Prints one line a failure and exits 1 if there was any.
"""
import email
import email.policy
import json
import os
import re
import sys


def fail(msgs, name, what):
    msgs.append("%s: %s" % (name, what))


def check(path, msgs):
    name = os.path.basename(path)
    raw = open(path, "rb").read()
    for i, line in enumerate(raw.split(b"\r\n")[:-1]):
        if b"\n" in line or b"\r" in line:
            fail(msgs, name, "line %d has a bare CR or LF" % (i + 1))
            break
        if len(line) > 998:
            fail(msgs, name, "line %d is %d octets long" % (i + 1, len(line)))
            break
    if not raw.endswith(b"\r\n"):
        fail(msgs, name, "does not end in CRLF")
    m = email.message_from_bytes(raw, policy=email.policy.default)
    for part in m.walk():
        for d in part.defects:
            fail(msgs, name, "defect in %s: %s" % (part.get_content_type(),
                                                  type(d).__name__))
    text = m.get_body(("plain",))
    if text is None:
        fail(msgs, name, "no text/plain body")
        return 0
    try:
        body = text.get_content()
    except Exception as e:  # noqa: BLE001 - any failure is the finding
        fail(msgs, name, "the text does not decode: %s" % e)
        return 0
    if not body.strip():
        fail(msgs, name, "the text is empty")
    inline = 0
    for part in m.walk():
        if part.get_content_type() != "multipart/related":
            continue
        ids = {}
        for sub in part.iter_parts():
            cid = sub.get("Content-ID")
            if cid:
                ids[cid.strip().strip("<>")] = sub
        html = next((s for s in part.iter_parts()
                     if s.get_content_type() == "text/html"), None)
        if html is None:
            fail(msgs, name, "multipart/related without its HTML")
            continue
        refs = re.findall(r'src="cid:([^"]+)"', html.get_content())
        if not refs:
            fail(msgs, name, "the HTML shows none of its images")
        for ref in refs:
            sub = ids.get(ref)
            if sub is None:
                fail(msgs, name, "the HTML refers to cid:%s, which is not "
                     "there" % ref)
                continue
            data = sub.get_payload(decode=True)
            if sub.get_content_type() == "image/png" and \
                    not data.startswith(b"\x89PNG\r\n\x1a\n"):
                fail(msgs, name, "cid:%s is not a PNG" % ref)
            inline += 1
    for part in m.iter_attachments():
        data = part.get_payload(decode=True)
        ctype = part.get_content_type()
        if ctype == "application/json":
            try:
                json.loads(data.decode("utf-8"))
            except ValueError as e:
                fail(msgs, name, "the JSON attachment does not parse: %s" % e)
        elif ctype == "image/svg+xml" and b"<svg" not in data[:400]:
            fail(msgs, name, "the SVG attachment is not SVG")
        elif ctype == "image/png" and \
                not data.startswith(b"\x89PNG\r\n\x1a\n"):
            fail(msgs, name, "the PNG attachment is not a PNG")
        if not part.get_filename():
            fail(msgs, name, "an attachment (%s) without a file name" % ctype)
    return 1 if inline else 0


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: check_mails.py DIR [--want-html N]")
    want = 0
    if len(sys.argv) == 4 and sys.argv[2] == "--want-html":
        want = int(sys.argv[3])
    msgs = []
    files = sorted(f for f in os.listdir(sys.argv[1]) if f.endswith(".eml"))
    if not files:
        msgs.append("no mails in %s" % sys.argv[1])
    html = 0
    for f in files:
        html += check(os.path.join(sys.argv[1], f), msgs)
    if html < want:
        msgs.append("%d mails show a map in their HTML; wanted %d or more"
                    % (html, want))
    for line in msgs:
        print("FAIL:", line)
    print("%d mails read, %d with an inline map, %d problems"
          % (len(files), html, len(msgs)))
    sys.exit(1 if msgs else 0)


if __name__ == "__main__":
    main()
