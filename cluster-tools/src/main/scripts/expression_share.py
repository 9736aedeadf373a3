#!/usr/bin/env python3
"""The share of the nodes' CPU samples spent evaluating expressions, from the recordings that
`ooo bench tpch --profile DIR` has each node write (<node data dir>/profiles/tpch-<query>.jfr).

Each sample counts where its innermost frame of the engine is: in a vector kernel (core.vector's
comparisons, arithmetic, logic, IN and LIKE) or in the row-at-a-time interpreter (BoxedExpr,
core.sql.expr), or elsewhere. Prints one JSON object: the shares over all queries, the kernels
that took most, and each query's share. Needs the JDK's `jfr` on the PATH.

    expression_share.py /tmp/c4/nodes/n*/profiles/tpch-q*.jfr
"""
import collections
import json
import re
import subprocess
import sys

KERNELS = tuple("org.oooengine.core.vector." + c for c in
                ("Arithmetic", "Comparisons", "Logic", "Membership", "Constant", "ColumnRef", "VectorExpr"))
INTERPRETER = ("org.oooengine.core.vector.BoxedExpr", "org.oooengine.core.sql.expr.")
FRAME = re.compile(r"^\s+([\w.$<>]+)\(", re.M)


def samples(recording):
    text = subprocess.run(["jfr", "print", "--events", "jdk.ExecutionSample", "--stack-depth", "64", recording],
                          check=True, capture_output=True, text=True).stdout
    for event in text.split("jdk.ExecutionSample")[1:]:
        frames = FRAME.findall(event)
        engine = [f for f in frames if f.startswith("org.oooengine.")]
        if frames:
            yield engine[0] if engine else frames[0]


def main(recordings):
    if not recordings or any(r in ("-h", "--help") for r in recordings):
        print(__doc__.strip(), file=sys.stderr)
        return 2 if not recordings else 0
    total = kernel = interpreted = 0
    methods = collections.Counter()
    by_query = collections.defaultdict(lambda: [0, 0])
    for recording in recordings:
        query = re.sub(r"^.*-(q\w+)\.jfr$", r"\1", recording)
        for top in samples(recording):
            total += 1
            by_query[query][1] += 1
            if top.startswith(KERNELS) or top.startswith(INTERPRETER):
                methods[top] += 1
                by_query[query][0] += 1
                if top.startswith(KERNELS):
                    kernel += 1
                else:
                    interpreted += 1
    if total == 0:
        print("no CPU samples in " + " ".join(recordings), file=sys.stderr)
        return 1
    share = lambda n, of: round(100.0 * n / of, 1)
    print(json.dumps({
        "samples": total,
        "kernels_pct": share(kernel, total),
        "interpreter_pct": share(interpreted, total),
        "top": {m: share(n, total) for m, n in methods.most_common(8)},
        "by_query_pct": {q: share(a, b) for q, (a, b) in sorted(by_query.items())},
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
