#!/usr/bin/env python3
"""manifest.py CORPUS — write CORPUS/manifest.tsv: one row per program.

Columns: source, package, version, object (path relative to CORPUS),
program, section, sha256 (of the object file). A header row comes first.

Programs are read with llvm-readelf (JSON output): every FUNC symbol
defined in an executable (SHF_EXECINSTR) section other than .text, which
is how libbpf tells entry programs from sub-programs. An object with no
program gets one row with program and section "-" so every object is
listed. Package and version come from each source's .provenance.tsv
(written by the source's recipe script)."""
import hashlib
import json
import os
import subprocess
import sys

SHF_EXECINSTR = 4
SOURCES = ["xdp-tools", "libbpf-tools", "pcp", "selftests", "kernel-tree", "own"]


def readelf(paths):
    out = subprocess.run(["llvm-readelf", "--elf-output-style=JSON", "-S", "-s"] + paths,
                         check=True, capture_output=True, text=True).stdout
    res = {}
    for entry in json.loads(out):
        for path, d in entry.items():
            res[path] = d
    return res


def programs(d):
    secs = {}
    for s in d.get("Sections", []):
        s = s["Section"]
        if s["Flags"]["RawFlags"] & SHF_EXECINSTR and s["Name"]["Value"] != ".text" and s["Size"] > 0:
            secs[s["Index"]] = s["Name"]["Value"]
    progs = []
    for sym in d.get("Symbols", []):
        sym = sym["Symbol"]
        if sym["Type"]["Value"] != "Function":
            continue
        idx = sym["Section"].get("RawValue")
        if isinstance(idx, int) and idx in secs:
            progs.append((idx, sym["Value"], sym["Name"]["Value"], secs[idx]))
    progs.sort()
    return [(name, sec) for _, _, name, sec in progs]


def main():
    corpus = sys.argv[1]
    rows = []
    for src in SOURCES:
        prov_path = os.path.join(corpus, src, ".provenance.tsv")
        if not os.path.exists(prov_path):
            continue
        prov = {}
        with open(prov_path) as f:
            for line in f:
                obj, pkg, ver, _origin = line.rstrip("\n").split("\t")
                prov[obj] = (pkg, ver)
        objs = sorted(prov)
        paths = [os.path.join(corpus, src, o) for o in objs]
        info = {}
        for i in range(0, len(paths), 200):
            info.update(readelf(paths[i:i + 200]))
        for o, p in zip(objs, paths):
            with open(p, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
            pkg, ver = prov[o]
            progs = programs(info[p]) or [("-", "-")]
            for name, sec in progs:
                rows.append((src, pkg, ver, f"{src}/{o}", name, sec, digest))
    tmp = os.path.join(corpus, "manifest.tsv.tmp")
    with open(tmp, "w") as f:
        f.write("source\tpackage\tversion\tobject\tprogram\tsection\tsha256\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    os.replace(tmp, os.path.join(corpus, "manifest.tsv"))


if __name__ == "__main__":
    main()
