#!/usr/bin/env python3
"""check-timeline.py FILE...: enforce the invariants of the timeline formats
jitsym writes, and print one summary line per file.

Firefox Profiler processed profile (version 70): the version numbers; every
table's columns as long as its length; string, function, frame, stack,
resource, lib, source and category indexes in range; a subcategory within
its category's list; stacks in topological order (prefixOffset 0 for a
root, else 1..index: a parent before its children); each thread's sample
times in order; a "grey" category (the profiler's default); markers whose
payload types have a schema, phases 0-3, intervals that end after they
start.

speedscope file format: the schema URL; sampled profiles whose samples and
weights have the same length, whose frame indexes are in range, and whose
endValue - startValue is the sum of the weights.

With --samples first, each file's samples follow its summary, thread by
thread: the time (ms), the stack root first (functions joined by ';') and
the weight of each sample, then the markers: time, name, payload.

Exit 0 when every file holds; 1 with a line per broken invariant otherwise.
A .gz file is read gunzipped. Standard library only.
"""
import gzip
import json
import sys

errors = []


def fail(path, msg):
    errors.append(f"{path}: {msg}")


def columns(path, where, table, names):
    n = table.get("length")
    if not isinstance(n, int) or n < 0:
        fail(path, f"{where}: no length")
        return 0
    for name in names:
        col = table.get(name)
        if col is None and name in ("weight",):
            continue
        if not isinstance(col, list) or len(col) != n:
            fail(path, f"{where}.{name}: {len(col) if isinstance(col, list) else col!r} values, length {n}")
    return n


def in_range(path, where, values, limit, allow=()):
    for i, v in enumerate(values):
        if v in allow:
            continue
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < limit:
            fail(path, f"{where}[{i}] = {v!r}, not in [0, {limit})")
            return


def check_firefox(path, p):
    meta = p["meta"]
    if meta.get("preprocessedProfileVersion") != 70 or meta.get("version") != 36:
        fail(path, f"versions {meta.get('version')}/{meta.get('preprocessedProfileVersion')}, not 36/70")
    cats = meta.get("categories", [])
    if not any(c.get("color") == "grey" for c in cats):
        fail(path, "no grey (default) category")
    for c in cats:
        if not c.get("subcategories"):
            fail(path, f"category {c.get('name')!r} without subcategories")
    sh = p["shared"]
    strings = sh["stringArray"]
    ns = len(strings)
    for i, x in enumerate(strings):
        if not isinstance(x, str):
            fail(path, f"stringArray[{i}] = {x!r}, not a string")
            break
    nfunc = columns(path, "funcTable", sh["funcTable"],
                    ["name", "isJS", "relevantForJS", "resource", "source", "lineNumber",
                     "columnNumber", "originalLocation"])
    nframe = columns(path, "frameTable", sh["frameTable"],
                     ["address", "lib", "inlineDepth", "category", "subcategory", "func",
                      "nativeSymbol", "innerWindowID", "line", "column", "originalLocation"])
    nstack = columns(path, "stackTable", sh["stackTable"], ["frame", "prefixOffset"])
    nres = columns(path, "resourceTable", sh["resourceTable"], ["name", "host", "type"])
    nsrc = columns(path, "sources", sh["sources"],
                   ["id", "filename", "startLine", "startColumn", "sourceMapURL", "content"])
    columns(path, "nativeSymbols", sh["nativeSymbols"], ["libIndex", "address", "name", "functionSize"])
    columns(path, "sourceLocationTable", sh["sourceLocationTable"], ["source", "line", "column"])
    ft, fr, st = sh["funcTable"], sh["frameTable"], sh["stackTable"]
    in_range(path, "funcTable.name", ft["name"], ns)
    in_range(path, "funcTable.resource", ft["resource"], nres, allow=(-1,))
    in_range(path, "funcTable.source", ft["source"], nsrc, allow=(None,))
    in_range(path, "frameTable.func", fr["func"], nfunc)
    in_range(path, "frameTable.lib", fr["lib"], len(p["libs"]), allow=(-1,))
    in_range(path, "frameTable.category", fr["category"], len(cats))
    for i, (c, s) in enumerate(zip(fr["category"], fr["subcategory"])):
        if isinstance(c, int) and 0 <= c < len(cats) and not (
                isinstance(s, int) and 0 <= s < len(cats[c]["subcategories"])):
            fail(path, f"frameTable.subcategory[{i}] = {s!r}, category {c} has "
                       f"{len(cats[c]['subcategories'])}")
            break
    in_range(path, "stackTable.frame", st["frame"], nframe)
    for i, off in enumerate(st["prefixOffset"]):
        if not isinstance(off, int) or not 0 <= off <= i:
            fail(path, f"stackTable.prefixOffset[{i}] = {off!r}: a parent after its child")
            break
    in_range(path, "resourceTable.name", sh["resourceTable"]["name"], ns)
    in_range(path, "sources.filename", sh["sources"]["filename"], ns)
    samples = markers = 0
    for t in p["threads"]:
        where = f"thread {t.get('pid')}/{t.get('tid')}"
        for k in ("name", "isMainThread", "processType", "pid", "tid", "samples", "markers",
                  "registerTime", "pausedRanges"):
            if k not in t:
                fail(path, f"{where}: no {k}")
        s = t["samples"]
        n = columns(path, where + ".samples", s, ["stack", "time", "weight"])
        in_range(path, where + ".samples.stack", s["stack"], nstack, allow=(None,))
        if any(b < a for a, b in zip(s["time"], s["time"][1:])):
            fail(path, f"{where}: sample times out of order")
        if s["weightType"] not in ("samples", "tracing-ms", "bytes"):
            fail(path, f"{where}: weightType {s['weightType']!r}")
        m = t["markers"]
        n_m = columns(path, where + ".markers", m, ["data", "name", "startTime", "endTime", "phase", "category"])
        in_range(path, where + ".markers.name", m["name"], ns)
        in_range(path, where + ".markers.category", m["category"], len(cats))
        in_range(path, where + ".markers.phase", m["phase"], 4)
        schemas = {sc.get("name") for sc in meta.get("markerSchema", [])}
        for i, d in enumerate(m["data"]):
            if d is not None and d.get("type") not in schemas:
                fail(path, f"{where}.markers.data[{i}]: type {d.get('type')!r} has no schema")
                break
        for i, (ph, a, b) in enumerate(zip(m["phase"], m["startTime"], m["endTime"])):
            if ph == 1 and (a is None or b is None or b < a):
                fail(path, f"{where}.markers[{i}]: an interval from {a!r} to {b!r}")
                break
        markers += n_m
        samples += n
    return (f"firefox: {len(p['threads'])} threads, {samples} samples, {nstack} stacks, "
            f"{nframe} frames, {nfunc} functions, {nres} resources, {len(p['libs'])} libs, "
            f"{len(cats)} categories, {markers} markers")


def check_speedscope(path, p):
    if p.get("$schema") != "https://www.speedscope.app/file-format-schema.json":
        fail(path, "not speedscope's schema")
    frames = p["shared"]["frames"]
    for i, f in enumerate(frames):
        if not isinstance(f.get("name"), str):
            fail(path, f"frame {i} without a name")
    samples = 0
    for prof in p["profiles"]:
        where = f"profile {prof.get('name')!r}"
        if prof.get("type") != "sampled":
            fail(path, f"{where}: type {prof.get('type')!r}")
            continue
        if len(prof["samples"]) != len(prof["weights"]):
            fail(path, f"{where}: {len(prof['samples'])} samples, {len(prof['weights'])} weights")
        for st in prof["samples"]:
            in_range(path, where + ".samples", st, len(frames))
        if prof["endValue"] - prof["startValue"] != sum(prof["weights"]):
            fail(path, f"{where}: endValue - startValue is not the weights' sum")
        samples += len(prof["samples"])
    if not 0 <= p.get("activeProfileIndex", 0) < max(len(p["profiles"]), 1):
        fail(path, "activeProfileIndex out of range")
    return f"speedscope: {len(p['profiles'])} profiles, {samples} samples, {len(frames)} frames"


def dump_firefox(p):
    sh = p["shared"]
    strings, st, fr, fn = sh["stringArray"], sh["stackTable"], sh["frameTable"], sh["funcTable"]

    def stack(i):
        names = []
        while i is not None:
            names.append(strings[fn["name"][fr["func"][st["frame"][i]]]])
            off = st["prefixOffset"][i]
            i = i - off if off else None
        return ";".join(reversed(names))

    for t in p["threads"]:
        s = t["samples"]
        print(f"  thread {t['name']} {t['pid']}/{t['tid']}")
        for k in range(s["length"]):
            w = s["weight"][k] if s["weight"] is not None else 1
            print(f"    {s['time'][k]} {stack(s['stack'][k]) if s['stack'][k] is not None else '-'} {w}")
        m = t["markers"]
        for k in range(m["length"]):
            print(f"    marker {m['startTime'][k]} {strings[m['name'][k]]} {json.dumps(m['data'][k], sort_keys=True)}")


def dump_speedscope(p):
    frames = p["shared"]["frames"]
    for prof in p["profiles"]:
        print(f"  profile {prof['name']} ({prof['unit']})")
        for st, w in zip(prof["samples"], prof["weights"]):
            print(f"    {';'.join(frames[i]['name'] for i in st) or '-'} {w}")


def main():
    args = sys.argv[1:]
    samples = bool(args) and args[0] == "--samples"
    if samples:
        args = args[1:]
    for path in args:
        opener = gzip.open if path.endswith(".gz") else open
        try:
            with opener(path, "rt", encoding="utf-8") as f:
                p = json.load(f)
        except (OSError, ValueError) as e:
            fail(path, f"not JSON: {e}")
            continue
        try:
            speedscope = "$schema" in p
            summary = check_speedscope(path, p) if speedscope else check_firefox(path, p)
            print(summary)
            if samples:
                (dump_speedscope if speedscope else dump_firefox)(p)
        except (KeyError, TypeError, IndexError) as e:
            fail(path, f"missing or mistyped: {e!r}")
            continue
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
