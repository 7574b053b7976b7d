"""The peer a user would otherwise reach for: the M/M/c-with-overheads workload of
bench/peer/mmc.json written with SimPy. Each job arrives (Poisson), waits for one of c GPUs,
pulls its container image (a fixed time, no cache), then computes (exponential); its queue
wait is submission to the start of compute, or to the horizon for a job that has not started
computing by then (its wait so far), as in the calculator. Prints one JSON line:
replications, jobs simulated, mean queue wait (minutes) with its standard error, and the
wall time of the simulation loop (the interpreter's start and imports left out).

Usage: python mmc_overheads.py SCENARIO.json [--first R] [--count N]
  (replications R to R + N - 1 of the scenario's; by default all of them)
"""

import argparse
import json
import math
import random
import sys
import time

import simpy


def replication(seed, c, per_day, mean_hours, pull_s, horizon_s):
    rng = random.Random(seed)
    env = simpy.Environment()
    gpus = simpy.Resource(env, capacity=c)
    waits = []
    not_started = {}  # job number -> submission time, until its compute starts
    jobs = 0

    def job(number):
        submitted = env.now
        not_started[number] = submitted
        with gpus.request() as slot:
            yield slot
            yield env.timeout(pull_s)
            del not_started[number]
            waits.append(env.now - submitted)
            yield env.timeout(rng.expovariate(1.0 / (mean_hours * 3600.0)))

    def arrivals():
        nonlocal jobs
        while True:
            yield env.timeout(rng.expovariate(per_day / 86400.0))
            if env.now >= horizon_s:
                return
            jobs += 1
            env.process(job(jobs))

    env.process(arrivals())
    env.run(until=horizon_s)
    # Still queued or pulling at the horizon: the wait so far.
    waits.extend(horizon_s - submitted for submitted in not_started.values())
    return sum(waits) / len(waits), jobs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int)
    args = parser.parse_args()
    spec = json.load(open(args.scenario))
    params = spec["peer"]
    total = params["replications"]
    reps = total - args.first if args.count is None else args.count
    if args.first < 0 or reps < 2 or args.first + reps > total:
        sys.exit(f"need at least 2 of the scenario's {total} replications: "
                 f"--first {args.first} --count {reps} is out of range")
    start = time.perf_counter()
    means, jobs = [], 0
    for r in range(args.first, args.first + reps):
        mean, n = replication(
            1000 + r,
            params["gpus"],
            params["jobs_per_day"],
            params["mean_hours"],
            params["pull_s"],
            params["horizon_days"] * 86400.0,
        )
        means.append(mean / 60.0)
        jobs += n
    wall = time.perf_counter() - start
    m = sum(means) / reps
    sd = math.sqrt(sum((x - m) ** 2 for x in means) / (reps - 1))
    print(json.dumps({
        "replications": reps,
        "jobs": jobs,
        "queue_wait_mean_min": m,
        "standard_error_min": sd / math.sqrt(reps),
        "wall_s": wall,
        "simpy": simpy.__version__,
    }))


if __name__ == "__main__":
    main()
