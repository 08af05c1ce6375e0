#!/usr/bin/env python3
"""Checks that the checked-in generated files are what their generators make from the op facts
(sdk/opdefs/opdefs_2_7.json and sdk/opdefs/opdefs_post_2_7.json): each generator writes into
SCRATCH_DIR and the result is compared byte for byte with the file in the repository.
Exit status 1 names every file that is out of date (regenerate it with the command printed).
  python3 tools/check_generated_files.py SCRATCH_DIR"""
import filecmp, os, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
scratch = sys.argv[1]
os.makedirs(scratch, exist_ok=True)
facts = 'sdk/opdefs/opdefs_2_7.json'
later = 'sdk/opdefs/opdefs_post_2_7.json'
checks = [  # (generator, its inputs, checked-in output)
    ('tools/gen_op_catalog.py', [facts, later], 'sdk/opdefs/op_catalog_data.inc'),
    ('tools/gen_htp_support.py', [facts], 'backends/htp_sim/htp_support_data.inc'),
    ('tools/gen_python_opdefs.py', [facts], 'python/qnn/opdefs.json'),
]
stale = 0
for gen, inputs, checked_in in checks:
    fresh = os.path.join(scratch, os.path.basename(checked_in))
    subprocess.run([sys.executable, os.path.join(root, gen)] + [os.path.join(root, i) for i in inputs] + [fresh],
                   check=True, cwd=root, stdout=subprocess.DEVNULL)
    if filecmp.cmp(fresh, os.path.join(root, checked_in), shallow=False):
        print('current:', checked_in)
    else:
        stale += 1
        print('OUT OF DATE: %s (regenerate: python3 %s %s %s)' % (checked_in, gen, ' '.join(inputs), checked_in))
sys.exit(1 if stale else 0)
