#!/usr/bin/env python3
# html_screens.py - the report mail's HTML part in headless Chromium: no
# sideways scrolling at 360px, every cid: image a MIME part, and
# screenshots at 360 and 1000px, light and dark, in the build dir to look
# at.  Skipped (exit 77, tests/need.sh's convention; exit 1 under CI=true,
# .ci/run installing chromium chromium-driver python3-selenium) when
# those are missing.
#   html_screens.py DESPATCH OUTDIR
import email, os, re, shutil, subprocess, sys, tempfile

def skip(why):
    if os.environ.get("CI") == "true":
        print("failed: skipped under CI=true: %s (.ci/run installs chromium "
              "chromium-driver python3-selenium)" % why)
        sys.exit(1)
    print("skipped: " + why)
    sys.exit(77)

despatch, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
driver = shutil.which("chromedriver")
if not chromium or not driver:
    skip("chromium or chromedriver is not installed (Debian packages chromium chromium-driver)")
try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError:
    # Debian's python3-selenium is for Debian's python3, which may not be
    # the python3 found first on PATH.
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    skip("selenium is not installed (Debian package python3-selenium)")

os.makedirs(out, exist_ok=True)
tmp = tempfile.mkdtemp()
subprocess.run([despatch, "demo"], cwd=tmp, check=True,
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
maildir = os.path.join(tmp, "demo-out", "mail")
reports = sorted(f for f in os.listdir(maildir) if "-report-" in f)
assert reports, "the demo wrote no report mail"
fail = 0
pages = []
for name in (reports[0], reports[-1]):
    m = email.message_from_binary_file(open(os.path.join(maildir, name), "rb"))
    html, parts = None, {}
    for p in m.walk():
        if p.get_content_type() == "text/html":
            html = p.get_payload(decode=True).decode("utf-8")
        if p.get("Content-ID"):
            parts[p.get("Content-ID").strip().strip("<>")] = p.get_payload(decode=True)
    assert html is not None, name + ": no text/html part"
    for cid in set(re.findall(r'src="cid:([^"]+)"', html)):
        if cid not in parts:
            print("FAIL %s: cid:%s is not a MIME part's Content-ID" % (name, cid))
            fail = 1
            continue
        f = re.sub(r"[^A-Za-z0-9.-]", "_", cid) + ".png"
        open(os.path.join(out, f), "wb").write(parts[cid])
        html = html.replace("cid:" + cid, f)
    page = os.path.join(out, name[:-4] + ".html")
    open(page, "w").write(html)
    pages.append(page)

o = webdriver.ChromeOptions()
for a in ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"):
    o.add_argument(a)
o.binary_location = chromium
d = webdriver.Chrome(service=Service(driver), options=o)
try:
    for page in pages:
        base = os.path.basename(page)[:-5]
        for width, mobile in ((360, True), (1000, False)):
            for scheme in ("light", "dark"):
                d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": 800, "deviceScaleFactor": 1,
                    "mobile": mobile})
                d.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                    "features": [{"name": "prefers-color-scheme", "value": scheme}]})
                d.get("file://" + page)
                sw = d.execute_script("return document.documentElement.scrollWidth")
                iw = d.execute_script("return window.innerWidth")
                if sw > iw:
                    print("FAIL %s at %dpx: scrollWidth %d > innerWidth %d" % (base, width, sw, iw))
                    fail = 1
                h = d.execute_script("return document.documentElement.scrollHeight")
                d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": min(h, 6000), "deviceScaleFactor": 1,
                    "mobile": mobile})
                d.save_screenshot(os.path.join(out, "%s-%d-%s.png" % (base, width, scheme)))
finally:
    d.quit()
    shutil.rmtree(tmp, ignore_errors=True)
print("screenshots in " + out)
sys.exit(fail)
