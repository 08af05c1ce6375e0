"""qnn-profile-viewer --html in a real headless browser (Debian chromium): the page loads with no console
error, its script runs (it marks <body data-ready="1">), the op table lists the profiled graph's ops, and
clicking a column header sorts the rows (a copy of the page with a script that clicks "avg (us)" twice and
records the order). Exit 77 (skip) without chromium.
usage: test_html_report.py BUILD_DIR FIXTURE_DIR"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

build, fixtures = sys.argv[1], sys.argv[2]
browser = shutil.which("chromium") or shutil.which("chromium-browser")
if not browser:
    print("SKIP: chromium is not installed")
    sys.exit(77)
work = tempfile.mkdtemp(prefix="qnn_html_")
page = os.path.join(work, "report.html")
p = subprocess.run([os.path.join(build, "bin", "qnn-profile-viewer"), "--input_log",
                    os.path.join(fixtures, "profile_detailed.log"), "--html", page], capture_output=True, text=True)
if p.returncode != 0:
    sys.exit(f"FAIL: qnn-profile-viewer --html: {p.stderr}")


def dump(path):
    r = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
                        "--user-data-dir=" + os.path.join(work, "profile"), "--dump-dom", "file://" + path],
                       capture_output=True, text=True, timeout=120)
    errors = [ln for ln in r.stderr.splitlines() if "CONSOLE" in ln or "Uncaught" in ln]
    if r.returncode != 0 or errors:
        sys.exit(f"FAIL: chromium on {path}: exit {r.returncode}, console: {errors}")
    return r.stdout


dom = dump(page)
if 'data-ready="1"' not in dom:
    sys.exit("FAIL: the page's script did not run")
rows = re.findall(r'<td class="l" data-v="([^"]*)">', dom)
nodes = rows[0::3]  # node, op type, bar cell per row
if sorted(nodes) != ["add0", "conv0", "relu0"]:
    sys.exit(f"FAIL: op table rows {rows}")

# Sorting: click "avg (us)" (ascending, then descending) and record the node order after each click.
html = open(page).read()
probe = """<script>
var heads=document.querySelectorAll('#ops th');var col=-1;
for(var i=0;i<heads.length;i++)if(heads[i].textContent.indexOf('avg (us)')===0)col=i;
function order(){return Array.prototype.map.call(document.querySelectorAll('#ops tbody tr'),
  function(r){return r.cells[1].textContent;}).join(',');}
heads[col].click();document.body.setAttribute('data-asc',order());
heads[col].click();document.body.setAttribute('data-desc',order());
</script></body>"""
probe_page = os.path.join(work, "probe.html")
open(probe_page, "w").write(html.replace("</body>", probe))
dom = dump(probe_page)
asc = re.search(r'data-asc="([^"]*)"', dom)
desc = re.search(r'data-desc="([^"]*)"', dom)
# fixture averages: relu0 20 us, add0 30 us, conv0 60 us
if not asc or asc.group(1) != "relu0,add0,conv0" or not desc or desc.group(1) != "conv0,add0,relu0":
    sys.exit(f"FAIL: sorting by avg: {asc and asc.group(1)} / {desc and desc.group(1)}")
print("PASS: the HTML report loads in chromium without console errors, lists the ops and sorts them")
