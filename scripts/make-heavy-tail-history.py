#!/usr/bin/env python3
"""Writes tests/data/history-heavy-tail.csv: 30 days of 1-GPU jobs shaped like a real
cluster's (median minutes, mean hours, 6 % running for days, in expectation), seeded, so the file is the
same on every run. The test that reads it computes its expectations from the file itself."""
import math
import random
import sys

rng = random.Random(20261202)
start = 1_740_960_000  # 2025-03-03 00:00:00 UTC, a Monday
horizon = 30 * 86_400
rows = []
t = 0.0
while True:
    t += rng.expovariate(70 / 86_400)  # 70 jobs a day
    if t >= horizon:
        break
    u = rng.random()
    if u < 0.80:
        seconds = rng.lognormvariate(math.log(8 * 60), 1.0)  # median 8 minutes
    elif u < 0.94:
        seconds = rng.lognormvariate(math.log(1.5 * 3600), 0.8)  # median 1.5 hours
    else:
        seconds = rng.uniform(1, 6) * 86_400  # 1 to 6 days
    rows.append((start + int(t), max(1, round(seconds))))
out = sys.argv[1] if len(sys.argv) > 1 else "tests/data/history-heavy-tail.csv"
with open(out, "w") as f:
    f.write("submit_time,duration_s,gpus,outcome\n")
    for submit, seconds in rows:
        f.write(f"{submit},{seconds},1,completed\n")
